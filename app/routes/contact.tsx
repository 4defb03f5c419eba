import { type SubmissionResult, useForm } from "@conform-to/react";
import { Clock, Mail, MapPin, Phone } from "lucide-react";
import { useEffect, useRef } from "react";
import { data, Form, Link, useLocation, useNavigation, useSearchParams } from "react-router";
import { useShopSettings } from "../components/shop-settings.ts";
import { Breadcrumbs } from "../content/help/help-layout.tsx";
import { servicesFrom } from "../context.ts";
import {
  CONTACT_FIELDS,
  CONTACT_LIMITS,
  CONTACT_MESSAGES,
  CONTACT_RATE_LIMIT,
  type ContactField,
  type ContactValues,
  contactTooManyMessage,
} from "../domain/contact/contact-form.ts";
import {
  boundContactValues,
  contactMessageSchema,
  saveContactMessage,
} from "../domain/contact/contact-message.server.ts";
import { parseForm } from "../http/form.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { formatCount } from "../infra/format.ts";
import { hitRateLimit } from "../infra/rate-limit.server.ts";
import { requestInfoContext } from "../lib/request-context.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import { telHref } from "../lib/shop-settings.ts";
import type { Route } from "./+types/contact";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return seoMeta({
    title: "Contact Us",
    description:
      "Questions about an order, a product or a return? Send us a message and we'll reply within one business day.",
    path: "/contact",
    origin,
    shopName: contact.name,
  });
};

export function headers() {
  return { "Cache-Control": "private, max-age=0, must-revalidate" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseForm(request, contactMessageSchema);
  if (submission.status !== "success")
    return data({ result: echoBounded(submission.reply()) }, { status: 400 });
  const { db } = servicesFrom(context);
  // only messages that would be stored count: a visitor correcting the form is never limited
  const { clientIp } = context.get(requestInfoContext);
  const limited = await hitRateLimit(db, `contact:${clientIp}`, CONTACT_RATE_LIMIT);
  if (!limited.allowed) {
    const minutes = Math.ceil(limited.retryAfterSeconds / 60);
    return data(
      { result: echoBounded(submission.reply({ formErrors: [contactTooManyMessage(minutes)] })) },
      { status: 429, headers: { "Retry-After": String(limited.retryAfterSeconds) } },
    );
  }
  await saveContactMessage(db, submission.value);
  return redirectWithToast("/contact", { type: "success", message: CONTACT_MESSAGES.sent });
}

/** The refused form's values come back cut short (an enormous value is never echoed in full). */
function echoBounded(result: SubmissionResult): SubmissionResult {
  return { ...result, initialValue: boundContactValues(result.initialValue ?? undefined) };
}

export default function Contact({ actionData }: Route.ComponentProps) {
  const shop = useShopSettings();
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 md:py-12">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Contact Us" }]} />
      <div className="mt-6 max-w-2xl">
        <h1 className="text-3xl font-extrabold tracking-tight text-gray-900 md:text-4xl">Contact Us</h1>
        <p className="mt-3 text-lg text-gray-600">
          Questions about an order, a product or a return? Send us a message and we'll reply within one
          business day.
        </p>
      </div>

      <div className="mt-8 grid gap-8 lg:grid-cols-3">
        <section aria-labelledby="contact-form-heading" className="lg:col-span-2">
          <div className="rounded-2xl border border-gray-200 p-6 shadow-sm md:p-8">
            <h2 id="contact-form-heading" className="text-xl font-bold text-gray-900">
              Send us a message
            </h2>
            <p className="mt-1 text-sm text-gray-600">All fields are required.</p>
            <ContactForm lastResult={actionData?.result} />
          </div>
        </section>

        <aside aria-label="Other ways to reach us" className="space-y-6">
          <section aria-labelledby="contact-details-heading" className="rounded-2xl bg-brand-50 p-6">
            <h2 id="contact-details-heading" className="text-lg font-bold text-gray-900">
              Get in touch
            </h2>
            <address className="mt-4 space-y-4 text-sm not-italic">
              <ContactDetail icon={Mail} label="E-mail">
                <a
                  href={`mailto:${shop.contactEmail}`}
                  className="text-brand-800 underline underline-offset-2"
                >
                  {shop.contactEmail}
                </a>
              </ContactDetail>
              <ContactDetail icon={Phone} label="Phone">
                <a href={telHref(shop.contactPhone)} className="text-brand-800 underline underline-offset-2">
                  {shop.contactPhone}
                </a>
              </ContactDetail>
              <ContactDetail icon={MapPin} label="Address">
                {shop.contactAddress}
              </ContactDetail>
              <ContactDetail icon={Clock} label="Response time">
                Within one business day
              </ContactDetail>
            </address>
          </section>

          <nav aria-labelledby="contact-quick-heading" className="rounded-2xl border border-gray-200 p-6">
            <h2 id="contact-quick-heading" className="text-lg font-bold text-gray-900">
              Quick answers
            </h2>
            <ul className="mt-3 space-y-2 text-sm">
              {[
                { to: "/help/faq", label: "Frequently asked questions" },
                { to: "/help/shipping", label: "Shipping information" },
                { to: "/help/returns", label: "Returns & exchanges" },
                { to: "/orders/track", label: "Track your order" },
              ].map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="font-medium text-brand-700 hover:underline">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </aside>
      </div>
    </div>
  );
}

function ContactDetail({
  icon: Icon,
  label,
  children,
}: {
  icon: typeof Mail;
  label: string;
  children: React.ReactNode;
}) {
  return (
    <div className="flex gap-3">
      <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-700" />
      <div>
        <p className="font-semibold text-gray-900">{label}</p>
        <p className="text-gray-700">{children}</p>
      </div>
    </div>
  );
}

const LABELS: Record<ContactField, string> = {
  name: "Name",
  email: "Email",
  subject: "Subject",
  message: "Message",
};

/**
 * Posts to this route's action. Without JavaScript the server answers the page again (400, errors
 * beside the fields, values kept) or redirects here with a toast; with JavaScript the same happens
 * without a full reload. The form is re-mounted on every navigation (keyed by location), so it is
 * empty after a successful send and shows the submitted values after a failed one.
 */
function ContactForm({ lastResult }: { lastResult?: SubmissionResult }) {
  const location = useLocation();
  // a new page (after sending) starts the form afresh
  return <ContactFormBody key={location.key} lastResult={lastResult} />;
}

function ContactFormBody({ lastResult }: { lastResult?: SubmissionResult }) {
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const formRef = useRef<HTMLFormElement>(null);
  const busy = navigation.state === "submitting" && navigation.formAction === "/contact";
  // Conform reads the action's SubmissionResult (no validation in the browser: the server answers)
  const [form, fields] = useForm<ContactValues>({
    id: "contact-form",
    lastResult,
    defaultValue: { subject: (searchParams.get("subject") ?? "").slice(0, CONTACT_LIMITS.subject.max) },
  });
  const errors: Partial<Record<ContactField, string>> = {};
  const initial = {} as ContactValues;
  for (const name of CONTACT_FIELDS) {
    const error = fields[name].errors?.[0];
    if (error) errors[name] = error;
    const value = fields[name].initialValue;
    initial[name] = typeof value === "string" ? value : "";
  }
  const formError = form.errors?.[0];
  const firstInvalid = CONTACT_FIELDS.find((field) => errors[field]);

  // After each failed submission (a new result), take the keyboard to the first field that needs attention.
  useEffect(() => {
    if (lastResult && firstInvalid)
      formRef.current?.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
  }, [lastResult, firstInvalid]);

  const field = (name: ContactField) => {
    const id = `contact-${name}`;
    const error = errors[name];
    return {
      input: {
        id,
        name,
        required: true,
        defaultValue: initial[name],
        maxLength: CONTACT_LIMITS[name].max,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": error ? `${id}-error` : name === "message" ? `${id}-hint` : undefined,
        className: `mt-1 block w-full scroll-mt-40 rounded-lg border px-3 py-2 text-gray-900 ${
          error ? "border-red-700 bg-red-50" : "border-gray-400"
        }`,
      },
      label: (
        <label htmlFor={id} className="block text-sm font-semibold text-gray-900">
          {LABELS[name]}
        </label>
      ),
      error: error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null,
    };
  };

  const name = field("name");
  const email = field("email");
  const subject = field("subject");
  const message = field("message");

  return (
    <Form
      ref={formRef}
      method="post"
      action="/contact"
      noValidate
      preventScrollReset
      className="mt-6 space-y-5"
    >
      {formError && (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          {formError}
        </p>
      )}
      {firstInvalid && (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          Please correct the highlighted {Object.keys(errors).length === 1 ? "field" : "fields"} and send
          again.
        </p>
      )}
      <div className="grid gap-5 sm:grid-cols-2">
        <div>
          {name.label}
          <input type="text" autoComplete="name" {...name.input} />
          {name.error}
        </div>
        <div>
          {email.label}
          <input type="email" autoComplete="email" {...email.input} />
          {email.error}
        </div>
      </div>
      <div>
        {subject.label}
        <input type="text" {...subject.input} />
        {subject.error}
      </div>
      <div>
        {message.label}
        <textarea rows={7} {...message.input} />
        {message.error ?? (
          <p id="contact-message-hint" className="mt-1 text-sm text-gray-600">
            Please include your order number if your message is about an order. {CONTACT_LIMITS.message.min}–
            {formatCount(CONTACT_LIMITS.message.max)} characters.
          </p>
        )}
      </div>
      <button
        type="submit"
        disabled={busy}
        className="rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-70"
      >
        {busy ? "Sending…" : "Send Message"}
      </button>
    </Form>
  );
}
