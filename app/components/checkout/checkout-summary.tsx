import type { Totals } from "../../lib/markets.ts";
import { type OrderLine, OrderLines, OrderTotals } from "../order/order-lines.tsx";
import { type CheckoutGiftCards, GiftCardTotals } from "./gift-cards-panel.tsx";

/** Items and totals beside every step; `discountLabel` names the coupon. */
export function CheckoutSummary({
  lines,
  totals,
  discountLabel,
  heading = "Order Summary",
  giftCards,
}: {
  lines: OrderLine[];
  totals: Totals;
  discountLabel: string | null;
  heading?: string;
  /** what the gift cards applied at the payment step pay */
  giftCards?: CheckoutGiftCards;
}) {
  return (
    <section
      aria-labelledby="checkout-summary-heading"
      className="rounded-xl border border-gray-200 bg-gray-50 p-6"
    >
      <h2 id="checkout-summary-heading" className="text-lg font-bold">
        {heading}
      </h2>
      <OrderLines lines={lines} layout="summary" className="mt-4" />
      <OrderTotals totals={totals} discountLabel={discountLabel} />
      {giftCards && <GiftCardTotals giftCards={giftCards} />}
    </section>
  );
}
