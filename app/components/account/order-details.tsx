import { Link } from "react-router";
import { ORDER_STATUS_LABELS } from "../../domain/orders/order-status.ts";
import type { OrderDetails as StoredOrder } from "../../domain/orders/orders.server.ts";
import { formatShortDate } from "../../infra/format.ts";
import { countryName } from "../../lib/countries.ts";
import { formatDeliveryDate } from "../../lib/delivery.ts";
import { OrderLines, OrderTotals, orderItemLines } from "../order/order-lines.tsx";
import { TrackingDetails } from "../order/tracking-details.tsx";

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
              {order.shippingMethodName}
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
          <TrackingDetails tracking={order.tracking} />
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
        <OrderLines
          currency={order.currency}
          layout="table"
          label="Items of this order"
          className="mt-4"
          lines={orderItemLines(order.items, (item) =>
            item.productId !== null ? `/products/${item.productSlug}` : null,
          )}
        />
        <OrderTotals
          currency={order.currency}
          totals={order.totals}
          discountLabel={order.couponCode}
          className="mt-4 ml-auto max-w-xs"
        />
      </section>
    </div>
  );
}
