import { data, Link } from "react-router";
import { PrintButton } from "../components/admin/print-button.tsx";
import { InvoiceSheet } from "../components/invoice/invoice-sheet.tsx";
import { servicesFrom } from "../context.ts";
import { getDocumentForGuest, guestDocumentSchema } from "../domain/invoices/documents.server.ts";
import { TRACK_MESSAGES, TRACK_RATE_LIMIT } from "../domain/orders/track-order.ts";
import { parseForm } from "../http/form.server.ts";
import { hitRateLimit } from "../infra/rate-limit.server.ts";
import { requestInfoContext } from "../lib/request-context.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/orders.documents";

/**
 * /orders/documents: a guest's invoice or credit note (decision 031). The tracking page's result
 * posts the order's number and e-mail address again with the document's number — the same proof
 * as the tracking, under the same rate limit — and gets the printable document; a pair that does
 * not match, or a document of another order, gets 404. Opened directly, it points to the tracking.
 */
export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return [
    ...seoMeta({
      title: "Invoice",
      description: "An invoice or credit note of your order.",
      path: "/orders/documents",
      origin,
      shopName: contact.name,
    }),
    { name: "robots", content: "noindex" },
  ];
};

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseForm(request, guestDocumentSchema);
  if (submission.status !== "success") return data({ status: "not-found" as const }, { status: 404 });
  const { db } = servicesFrom(context);
  const { clientIp } = context.get(requestInfoContext);
  // the tracking's own budget: a document is one more lookup by number and e-mail
  const limited = await hitRateLimit(db, `track:${clientIp}`, TRACK_RATE_LIMIT);
  if (!limited.allowed) {
    const message = TRACK_MESSAGES.tooMany(Math.ceil(limited.retryAfterSeconds / 60));
    return data(
      { status: "limited" as const, message },
      { status: 429, headers: { "Retry-After": String(limited.retryAfterSeconds) } },
    );
  }
  const { orderNumber, email, document } = submission.value;
  const issued = await getDocumentForGuest(db, { orderNumber, email, documentNumber: document });
  if (!issued) return data({ status: "not-found" as const }, { status: 404 });
  return { status: "found" as const, issued };
}

export default function GuestDocument({ actionData }: Route.ComponentProps) {
  if (actionData?.status === "found") {
    return (
      <div className="mx-auto max-w-4xl px-4 py-8 print:max-w-none print:p-0">
        <div className="mb-6 flex flex-wrap items-center justify-between gap-3 print:hidden">
          <Link to="/orders/track" className="font-semibold text-brand-700 hover:underline">
            ← Back to order tracking
          </Link>
          <PrintButton />
        </div>
        <InvoiceSheet issued={actionData.issued} />
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 md:py-12">
      <h1 className="text-3xl font-bold">Invoice</h1>
      <p className="mt-4" role={actionData ? "alert" : undefined}>
        {actionData?.status === "limited"
          ? actionData.message
          : actionData
            ? "We couldn't find that document for this order number and e-mail address."
            : "Look up your order with its number and e-mail address to open its invoice."}
      </p>
      <p className="mt-4">
        <Link to="/orders/track" className="font-semibold text-brand-700 hover:underline">
          Track your order
        </Link>
      </p>
    </div>
  );
}
