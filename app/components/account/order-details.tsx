import { Link } from "react-router";
import { countryName } from "../../domain/checkout/shipping-form.ts";
import { ORDER_STATUS_LABELS } from "../../domain/orders/order-status.ts";
import type { OrderDetails as StoredOrder } from "../../domain/orders/orders.server.ts";
import { formatShortDate } from "../../infra/format.ts";
import { formatDeliveryDate } from "../../lib/delivery.ts";
import { formatCents } from "../../lib/money.ts";
import { SHIPPING_METHODS, TAX_LABEL } from "../../lib/pricing.ts";
import { TableScroll } from "../table-scroll.tsx";

/** An order as the account pages show it: the order's details without its id, e-mail and images. */
export type AccountOrder = Omit<StoredOrder, "id" | "email" | "items"> & {
  items: Omit<StoredOrder["items"][number], "imageKey">[];
};

/** "2026-11-20T15:30:00.000Z" → a <time> reading "Nov 20, 2026" (UTC, so server and browser agree). */
export function OrderDate({ iso }: { iso: string }) {
  return <time dateTime={iso}>{formatShortDate(iso)}</time>;
}

/** One of the user's orders: items, where it goes, how it was paid, what it cost. */
export function OrderDetails({ order }: { order: AccountOrder }) {
  return (
    <div className="space-y-6">
      <p>
        <Link to="/account/orders" className="font-semibold text-brand-700 hover:underline">
          ← Back to orders
        </Link>
      </p>
      <section aria-labelledby="order-heading" className="rounded-xl border border-gray-200 p-6">
        <h2 id="order-heading" className="text-xl font-bold">
          Order {order.number}
        </h2>
        <dl className="mt-4 grid grid-cols-1 gap-4 text-sm break-words sm:grid-cols-2">
          <div>
            <dt className="font-semibold">Placed on</dt>
            <dd>
              <OrderDate iso={order.createdAt} />
            </dd>
          </div>
          <div>
            <dt className="font-semibold">Status</dt>
            <dd>{ORDER_STATUS_LABELS[order.status]}</dd>
          </div>
          <div>
            <dt className="font-semibold">Shipping method</dt>
            <dd>
              {SHIPPING_METHODS[order.shippingMethod].label}
              {order.status !== "cancelled" && (
                <> — estimated delivery {formatDeliveryDate(order.estimatedDelivery)}</>
              )}
            </dd>
          </div>
          <div>
            <dt className="font-semibold">Payment</dt>
            <dd>
              {order.payment.brand} ending in {order.payment.last4}
            </dd>
          </div>
          <div className="sm:col-span-2">
            <dt className="font-semibold">Shipping address</dt>
            <dd>
              <address className="not-italic">
                {order.shipTo.name}
                <br />
                {order.shipTo.address}
                <br />
                {order.shipTo.city}, {order.shipTo.state} {order.shipTo.zipCode}
                <br />
                {countryName(order.shipTo.country)}
                <br />
                {order.shipTo.phone}
              </address>
            </dd>
          </div>
        </dl>
      </section>

      <section aria-labelledby="order-items-heading" className="rounded-xl border border-gray-200 p-6">
        <h2 id="order-items-heading" className="text-xl font-bold">
          Items
        </h2>
        <TableScroll label="Items of this order" className="mt-4">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-gray-300">
              <tr>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Product
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-semibold">
                  Quantity
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-semibold">
                  Unit price
                </th>
                <th scope="col" className="py-2 text-right font-semibold">
                  Line total
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-200">
              {order.items.map((item, index) => (
                <tr key={`${item.productSlug}-${index}`}>
                  <td className="py-2 pr-4">
                    {item.productId !== null ? (
                      <Link
                        to={`/products/${item.productSlug}`}
                        className="font-medium text-brand-700 hover:underline"
                      >
                        {item.name}
                      </Link>
                    ) : (
                      <span className="font-medium">{item.name}</span>
                    )}
                    <span className="block text-gray-600">{item.brand}</span>
                  </td>
                  <td className="py-2 pr-4 text-right">{item.quantity}</td>
                  <td className="py-2 pr-4 text-right">{formatCents(item.unitPriceCents)}</td>
                  <td className="py-2 text-right">{formatCents(item.lineTotalCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
        <dl className="mt-4 ml-auto max-w-xs space-y-1 border-t border-gray-200 pt-3 text-sm">
          <div className="flex justify-between">
            <dt>Subtotal</dt>
            <dd>{formatCents(order.totals.subtotalCents)}</dd>
          </div>
          {order.totals.discountCents > 0 && (
            <div className="flex justify-between">
              <dt>Discount{order.couponCode ? ` (${order.couponCode})` : ""}</dt>
              <dd>−{formatCents(order.totals.discountCents)}</dd>
            </div>
          )}
          <div className="flex justify-between">
            <dt>Shipping</dt>
            <dd>{order.totals.shippingCents === 0 ? "Free" : formatCents(order.totals.shippingCents)}</dd>
          </div>
          <div className="flex justify-between">
            <dt>Tax ({TAX_LABEL})</dt>
            <dd>{formatCents(order.totals.taxCents)}</dd>
          </div>
          <div className="flex justify-between font-bold">
            <dt>Total</dt>
            <dd>{formatCents(order.totals.totalCents)}</dd>
          </div>
        </dl>
      </section>
    </div>
  );
}
