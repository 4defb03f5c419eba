import { data, Link } from "react-router";
import { PrintButton } from "../components/admin/print-button.tsx";
import { InvoiceSheet } from "../components/invoice/invoice-sheet.tsx";
import { servicesFrom } from "../context.ts";
import { getDocumentForCustomer } from "../domain/invoices/documents.server.ts";
import { requireUser } from "../http/session.server.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/account_.invoices.$document";

/**
 * /account/invoices/INV-… or CN-…: a printable invoice or credit note of one of the signed-in
 * customer's orders (decision 031), linked from the order's page; 404 for anyone else's.
 */
export const meta: Route.MetaFunction = ({ matches, params }) => {
  const { origin, contact } = rootMetaData(matches);
  return [
    ...seoMeta({
      title: params.document.startsWith("CN-")
        ? `Credit note ${params.document}`
        : `Invoice ${params.document}`,
      description: "An invoice or credit note of one of your orders.",
      path: `/account/invoices/${params.document}`,
      origin,
      shopName: contact.name,
    }),
    { name: "robots", content: "noindex" },
  ];
};

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const issued = await getDocumentForCustomer(servicesFrom(context).db, user.id, params.document);
  if (!issued) throw data(null, { status: 404 });
  return { issued };
}

export default function AccountInvoice({ loaderData }: Route.ComponentProps) {
  const { issued } = loaderData;
  const orderNumber = issued.document.order.number;
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 print:max-w-none print:p-0">
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to={`/account/orders/${orderNumber}`} className="font-semibold text-brand-700 hover:underline">
          ← Back to order {orderNumber}
        </Link>
        <PrintButton />
      </div>
      <InvoiceSheet issued={issued} />
    </div>
  );
}
