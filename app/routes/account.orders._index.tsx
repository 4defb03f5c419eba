import { data, Link } from "react-router";
import { OrderDate } from "../components/account/order-details.tsx";
import { TableScroll } from "../components/table-scroll.tsx";
import { servicesFrom } from "../context.ts";
import { listOrdersPage } from "../domain/accounts/account-orders.server.ts";
import { ORDER_STATUS_LABELS } from "../domain/orders/order-status.ts";
import { requireUser } from "../http/session.server.ts";
import { currencyOf, formatMoney } from "../lib/money.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/account.orders._index";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return [
    ...seoMeta({
      title: "Orders",
      description: "Your order history.",
      path: "/account/orders",
      origin,
      shopName: contact.name,
    }),
    { name: "robots", content: "noindex" },
  ];
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const raw = new URL(request.url).searchParams.get("page") ?? "1";
  if (!/^\d{1,5}$/.test(raw) || Number(raw) < 1) throw data(null, { status: 404 });
  const result = await listOrdersPage(servicesFrom(context).db, user.id, Number(raw));
  if (result.page > 1 && result.orders.length === 0) throw data(null, { status: 404 });
  return result;
}

export default function AccountOrders({ loaderData }: Route.ComponentProps) {
  const { orders, page, hasMore } = loaderData;
  return (
    <section aria-labelledby="orders-heading" className="rounded-xl border border-gray-200 p-6">
      <h2 id="orders-heading" className="text-xl font-bold">
        Orders
      </h2>
      {orders.length === 0 ? (
        <p className="mt-3 text-gray-700">
          You haven&apos;t placed any orders yet.{" "}
          <Link to="/products" className="font-semibold text-brand-700 hover:underline">
            Start shopping
          </Link>
        </p>
      ) : (
        <TableScroll label="Your orders" className="mt-4">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-gray-300">
              <tr>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Order
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Date
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Status
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-semibold">
                  Items
                </th>
                <th scope="col" className="py-2 text-right font-semibold">
                  Total
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-200">
              {orders.map((order) => (
                <tr key={order.number}>
                  <th scope="row" className="py-2 pr-4 font-semibold">
                    <Link to={`/account/orders/${order.number}`} className="text-brand-700 hover:underline">
                      {order.number}
                    </Link>
                  </th>
                  <td className="py-2 pr-4">
                    <OrderDate iso={order.createdAt} />
                  </td>
                  <td className="py-2 pr-4">{ORDER_STATUS_LABELS[order.status]}</td>
                  <td className="py-2 pr-4 text-right">{order.itemCount}</td>
                  <td className="py-2 text-right">
                    {formatMoney(order.totalCents, currencyOf(order.currency))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {(page > 1 || hasMore) && (
        <nav aria-label="Order pages" className="mt-4 flex justify-between text-sm font-semibold">
          {page > 1 ? (
            <Link
              to={page === 2 ? "/account/orders" : `/account/orders?page=${page - 1}`}
              className="text-brand-700 hover:underline"
            >
              ← Newer orders
            </Link>
          ) : (
            <span />
          )}
          {hasMore && (
            <Link to={`/account/orders?page=${page + 1}`} className="text-brand-700 hover:underline">
              Older orders →
            </Link>
          )}
        </nav>
      )}
    </section>
  );
}
