import { data, Link } from "react-router";
import { NewsletterForm } from "../components/newsletter-form.tsx";
import { getDb } from "../db/client.server.ts";
import {
  NEWSLETTER_MESSAGES,
  NEWSLETTER_RATE_LIMIT,
  newsletterSchema,
  subscribeToNewsletter,
} from "../domain/newsletter/subscribe.server.ts";
import { requestInfoContext } from "../lib/request-context.ts";
import { safeRedirectPath } from "../lib/safe-redirect.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import { hitRateLimit } from "../services/rate-limit.server.ts";
import { redirectWithToast } from "../services/toast.server.ts";
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
  const form = await request.formData();
  const redirectTo = safeRedirectPath(form.get("redirectTo"));
  const parsed = newsletterSchema.safeParse({ email: form.get("email") ?? "" });
  if (!parsed.success) {
    const email = String(form.get("email") ?? "").slice(0, 254);
    return data({ error: NEWSLETTER_MESSAGES.invalidEmail, email }, { status: 400 });
  }
  const db = await getDb();
  const { clientIp } = context.get(requestInfoContext);
  const limited = await hitRateLimit(db, `newsletter:${clientIp}`, NEWSLETTER_RATE_LIMIT);
  if (!limited.allowed) {
    return data(
      {
        error: NEWSLETTER_MESSAGES.tooMany(Math.ceil(limited.retryAfterSeconds / 60)),
        email: parsed.data.email,
      },
      { status: 429, headers: { "Retry-After": String(limited.retryAfterSeconds) } },
    );
  }
  const result = await subscribeToNewsletter(db, parsed.data.email);
  return result.status === "subscribed"
    ? redirectWithToast(redirectTo, { type: "success", message: NEWSLETTER_MESSAGES.subscribed })
    : redirectWithToast(redirectTo, { type: "info", message: NEWSLETTER_MESSAGES.alreadySubscribed });
}

/** Shown when the form was posted without JavaScript and needs correcting. */
export default function Newsletter({ actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <h1 className="text-3xl font-bold">Newsletter</h1>
      <p className="mt-2 text-gray-700">Be the first to hear about new arrivals and exclusive deals.</p>
      {actionData?.error && (
        <p role="alert" className="mt-6 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          {actionData.error}
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
