import { formatCents } from "../../lib/money.ts";
import { TAX_LABEL, type Totals } from "../../lib/pricing.ts";

export interface SummaryLine {
  productId: number | null;
  name: string;
  quantity: number;
  lineTotalCents: number;
}

/** Items and totals beside every step; `discountLabel` names the coupon. */
export function CheckoutSummary({
  lines,
  totals,
  discountLabel,
  heading = "Order Summary",
}: {
  lines: SummaryLine[];
  totals: Totals;
  discountLabel: string | null;
  heading?: string;
}) {
  return (
    <section
      aria-labelledby="checkout-summary-heading"
      className="rounded-xl border border-gray-200 bg-gray-50 p-6"
    >
      <h2 id="checkout-summary-heading" className="text-lg font-bold">
        {heading}
      </h2>
      <ul className="mt-4 space-y-2 text-sm">
        {lines.map((line) => (
          <li key={`${line.productId}-${line.name}`} className="flex justify-between gap-4">
            <span>
              {line.quantity} x {line.name}
            </span>
            <span className="shrink-0">{formatCents(line.lineTotalCents)}</span>
          </li>
        ))}
      </ul>
      <TotalsList totals={totals} discountLabel={discountLabel} />
    </section>
  );
}

export function TotalsList({ totals, discountLabel }: { totals: Totals; discountLabel: string | null }) {
  return (
    <dl className="mt-4 space-y-2 border-t border-gray-300 pt-4 text-sm" data-testid="checkout-totals">
      <div className="flex justify-between gap-4">
        <dt>Subtotal</dt>
        <dd data-testid="checkout-subtotal">{formatCents(totals.subtotalCents)}</dd>
      </div>
      {totals.discountCents > 0 && (
        <div className="flex justify-between gap-4 text-green-800">
          <dt>Discount{discountLabel ? ` (${discountLabel})` : ""}</dt>
          <dd data-testid="checkout-discount">−{formatCents(totals.discountCents)}</dd>
        </div>
      )}
      <div className="flex justify-between gap-4">
        <dt>Shipping</dt>
        <dd data-testid="checkout-shipping">
          {totals.shippingCents === 0 ? "Free" : formatCents(totals.shippingCents)}
        </dd>
      </div>
      <div className="flex justify-between gap-4">
        <dt>
          Tax <span className="text-gray-700">({TAX_LABEL})</span>
        </dt>
        <dd data-testid="checkout-tax">{formatCents(totals.taxCents)}</dd>
      </div>
      <div className="flex justify-between gap-4 border-t border-gray-300 pt-2 text-base font-bold">
        <dt>Total</dt>
        <dd data-testid="checkout-total">{formatCents(totals.totalCents)}</dd>
      </div>
    </dl>
  );
}
