import { data, Link } from "react-router";
import { OrderDate } from "../components/account/order-details.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { PrintButton } from "../components/admin/print-button.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import { getPackingSlips, PACKING_SLIPS_MAX } from "../domain/orders/order-admin.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { countryName } from "../lib/countries.ts";
import type { Route } from "./+types/admin.orders.packing-slips";

export const meta: Route.MetaFunction = ({ matches }) =>
  adminMeta(matches, "Packing slips", "/admin/orders/packing-slips");

const NUMBER = /^CW-[0-9A-Z]{1,20}$/;

/**
 * Printable packing slips (issue 20, fulfilment): `?number=CW-…` once per order (the order page's
 * link, or the orders list's selection), one slip per page when printed — what is in the parcel and
 * where it goes, no prices. The admin's frame is not printed.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "orders");
  const numbers = [...new Set(new URL(request.url).searchParams.getAll("number"))];
  if (numbers.length === 0 || numbers.length > PACKING_SLIPS_MAX || !numbers.every((n) => NUMBER.test(n))) {
    throw data(`Choose 1 to ${PACKING_SLIPS_MAX} orders.`, { status: 400 });
  }
  const slips = await getPackingSlips(servicesFrom(context).db, numbers);
  if (slips.length === 0) throw data(null, { status: 404 });
  return { slips, shopName: (await shopSettingsFrom(context)).shopName };
}

export default function PackingSlips({ loaderData }: Route.ComponentProps) {
  const { slips, shopName } = loaderData;
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <h1 className="text-3xl font-bold">Packing slips</h1>
        <div className="flex flex-wrap gap-3">
          <Link to="/admin/orders" className="px-1 py-2 font-semibold text-brand-700 hover:underline">
            ← Back to orders
          </Link>
          <PrintButton />
        </div>
      </div>
      {slips.map((slip) => (
        <article
          key={slip.number}
          aria-labelledby={`slip-${slip.number}`}
          className="mt-8 break-after-page rounded-xl border border-gray-300 p-6 print:mt-0 print:border-0 print:p-0"
        >
          <p className="text-sm text-gray-700">{shopName}</p>
          <h2 id={`slip-${slip.number}`} className="text-2xl font-bold">
            Packing slip — order {slip.number}
          </h2>
          <dl className="mt-4 grid grid-cols-1 gap-4 text-sm sm:grid-cols-3">
            <div>
              <dt className="font-semibold">Ordered</dt>
              <dd>
                <OrderDate iso={slip.createdAt} />
              </dd>
            </div>
            <div>
              <dt className="font-semibold">Shipping</dt>
              <dd>{slip.shippingMethodName}</dd>
            </div>
            <div>
              <dt className="font-semibold">Ship to</dt>
              <dd>
                <address className="not-italic">
                  {slip.shipTo.name}
                  <br />
                  {slip.shipTo.address}
                  <br />
                  {slip.shipTo.city}, {slip.shipTo.state} {slip.shipTo.zipCode}
                  <br />
                  {countryName(slip.shipTo.country)}
                </address>
              </dd>
            </div>
          </dl>
          <table className="mt-6 w-full text-left text-sm">
            <caption className="sr-only">Items in order {slip.number}</caption>
            <thead>
              <tr className="border-b border-gray-400">
                <th scope="col" className="py-2 pr-3">
                  Item
                </th>
                <th scope="col" className="py-2 pr-3">
                  SKU
                </th>
                <th scope="col" className="py-2 text-right">
                  Quantity
                </th>
              </tr>
            </thead>
            <tbody>
              {slip.items.map((item, index) => (
                <tr key={index} className="border-b border-gray-200 align-top">
                  <td className="py-2 pr-3">
                    {item.name}
                    {item.variantTitle && <span className="block text-gray-700">{item.variantTitle}</span>}
                  </td>
                  <td className="py-2 pr-3 break-all">{item.sku ?? "—"}</td>
                  <td className="py-2 text-right">{item.quantity}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </article>
      ))}
    </div>
  );
}
