import { CircleCheck } from "lucide-react";
import { Link } from "react-router";
import { formatDeliveryDate } from "../../lib/delivery.ts";
import type { Totals } from "../../lib/markets.ts";
import type { OrderLine } from "../order/order-lines.tsx";
import { CheckoutSummary } from "./checkout-summary.tsx";

/** Step 4: the real order number, the e-mail the confirmation went to, the delivery estimate. */
export function ConfirmationStep({
  order,
}: {
  order: {
    number: string;
    email: string;
    estimatedDelivery: string;
    shippingMethodName: string;
    lines: OrderLine[];
    totals: Totals;
    couponCode: string | null;
  };
}) {
  return (
    <div className="grid grid-cols-1 items-start gap-8 lg:grid-cols-3">
      <section
        aria-labelledby="confirmation-heading"
        className="rounded-xl border border-green-700 bg-green-50 p-6 text-center break-words lg:col-span-2"
      >
        <CircleCheck aria-hidden="true" className="mx-auto size-14 text-green-700" />
        <h2 id="confirmation-heading" className="mt-3 text-2xl font-bold">
          Thank you for your order!
        </h2>
        <p className="mt-3 text-lg">
          Order number: <strong data-testid="order-number">{order.number}</strong>
        </p>
        <p className="mt-3 text-gray-800">
          We&apos;ve sent a confirmation email to{" "}
          <strong data-testid="order-email" className="wrap-anywhere">
            {order.email}
          </strong>
          .
        </p>
        <p className="mt-3 text-gray-800">
          Estimated delivery:{" "}
          <strong data-testid="estimated-delivery">{formatDeliveryDate(order.estimatedDelivery)}</strong> (
          {order.shippingMethodName})
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-4">
          <Link
            to="/products"
            className="rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800"
          >
            Continue Shopping
          </Link>
          <Link
            to="/orders/track"
            className="rounded-lg border border-brand-700 px-6 py-3 font-semibold text-brand-700 hover:bg-brand-50"
          >
            Track your order
          </Link>
        </div>
      </section>
      <CheckoutSummary
        heading="Your Order"
        lines={order.lines}
        totals={order.totals}
        discountLabel={order.couponCode}
      />
    </div>
  );
}
