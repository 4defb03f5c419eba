import { data, Link } from "react-router";
import { formMessage, NewsletterForm } from "../components/newsletter-form.tsx";
import { servicesFrom } from "../context.ts";
import {
  NEWSLETTER_MESSAGES,
  NEWSLETTER_RATE_LIMIT,
  newsletterSchema,
  subscribeToNewsletter,
} from "../domain/newsletter/subscribe.server.ts";
import { parseForm } from "../http/form.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { hitRateLimit } from "../infra/rate-limit.server.ts";
import { requestInfoContext } from "../lib/request-context.ts";
import { safeRedirectPath } from "../lib/safe-redirect.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/newsletter";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return seoMeta({
    title: "Newsletter",
    description: "Subscribe to our newsletter for new arrivals and exclusive deals.",
    path: "/newsletter",
    origin,
    shopName: contact.name,
  });
};

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseForm(request, newsletterSchema);
  const redirectTo = safeRedirectPath(String(submission.payload.redirectTo ?? "/"));
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { db } = servicesFrom(context);
  const { clientIp } = context.get(requestInfoContext);
  const limited = await hitRateLimit(db, `newsletter:${clientIp}`, NEWSLETTER_RATE_LIMIT);
  if (!limited.allowed) {
    const minutes = Math.ceil(limited.retryAfterSeconds / 60);
    return data(
      { result: submission.reply({ formErrors: [NEWSLETTER_MESSAGES.tooMany(minutes)] }) },
      { status: 429, headers: { "Retry-After": String(limited.retryAfterSeconds) } },
    );
  }
  const subscribed = await subscribeToNewsletter(db, submission.value.email);
  return subscribed === "subscribed"
    ? redirectWithToast(redirectTo, { type: "success", message: NEWSLETTER_MESSAGES.subscribed })
    : redirectWithToast(redirectTo, { type: "info", message: NEWSLETTER_MESSAGES.alreadySubscribed });
}

/** Shown when the form was posted without JavaScript and needs correcting. */
export default function Newsletter({ actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <h1 className="text-3xl font-bold">Newsletter</h1>
      <p className="mt-2 text-gray-700">Be the first to hear about new arrivals and exclusive deals.</p>
      {actionData && (
        <p role="alert" className="mt-6 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          {formMessage(actionData.result)}
        </p>
      )}
      <div className="mt-6">
        <NewsletterForm id="newsletter-page-email" />
      </div>
      <Link to="/" className="mt-8 inline-block text-brand-700 hover:underline">
        Back to the shop
      </Link>
    </div>
  );
}
