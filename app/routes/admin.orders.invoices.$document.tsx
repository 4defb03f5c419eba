import { data, Link } from "react-router";
import { adminHeaders, adminMeta } from "../components/admin/admin-meta.ts";
import { PrintButton } from "../components/admin/print-button.tsx";
import { InvoiceSheet } from "../components/invoice/invoice-sheet.tsx";
import { servicesFrom } from "../context.ts";
import { getDocumentForStaff } from "../domain/invoices/documents.server.ts";
import { requirePermission } from "../http/session.server.ts";
import type { Route } from "./+types/admin.orders.invoices.$document";

export const meta: Route.MetaFunction = ({ matches, params }) =>
  adminMeta(
    matches,
    params.document.startsWith("CN-") ? `Credit note ${params.document}` : `Invoice ${params.document}`,
    `/admin/orders/invoices/${params.document}`,
  );

export const headers = adminHeaders;

/**
 * /admin/orders/invoices/INV-… or CN-…: an issued invoice or credit note as printed (decision 031), for
 * staff who may see orders; linked from the order's page. The admin's frame is not printed.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "orders");
  const issued = await getDocumentForStaff(servicesFrom(context).db, params.document);
  if (!issued) throw data(null, { status: 404 });
  return { issued };
}

export default function AdminInvoice({ loaderData }: Route.ComponentProps) {
  const { issued } = loaderData;
  const orderNumber = issued.document.order.number;
  return (
    <div className="max-w-4xl">
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to={`/admin/orders/${orderNumber}`} className="font-semibold text-brand-700 hover:underline">
          ← Back to order {orderNumber}
        </Link>
        <PrintButton />
      </div>
      <InvoiceSheet issued={issued} />
    </div>
  );
}
