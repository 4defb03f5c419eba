import { Form, Link, useNavigation } from "react-router";
import type { ShippingDetails } from "../../domain/checkout/shipping-form.ts";
import { countryName } from "../../lib/countries.ts";
import type { Totals } from "../../lib/markets.ts";
import { type OrderLine, OrderLines, OrderTotals } from "../order/order-lines.tsx";
import { type CheckoutGiftCards, GiftCardTotals } from "./gift-cards-panel.tsx";
import type { SavedCard } from "./payment-step.tsx";

/**
 * Step 3: everything that will be ordered, with Edit links. Place Order carries the checkout's
 * idempotency key and the total shown, so a double submit makes one order and a price change
 * in between is noticed. While the order is placed the button says so.
 */
export function ReviewStep({
  lines,
  totals,
  discountLabel,
  shipping,
  method,
  card,
  idempotencyKey,
  giftCards,
}: {
  lines: OrderLine[];
  totals: Totals;
  discountLabel: string | null;
  shipping: ShippingDetails;
  /** the method's name and delivery days ("Standard Shipping", "4-6 business days") */
  method: { name: string; days: string };
  card: SavedCard;
  idempotencyKey: string;
  giftCards: CheckoutGiftCards;
}) {
  const navigation = useNavigation();
  const placing = navigation.state !== "idle" && navigation.formData?.get("intent") === "place-order";
  return (
    <section aria-labelledby="review-heading" className="rounded-xl border border-gray-200 p-6">
      <h2 id="review-heading" className="text-xl font-bold">
        Review Your Order
      </h2>

      <div className="mt-4 grid grid-cols-1 gap-6 sm:grid-cols-2">
        <ReviewBlock title="Shipping Address" editTo="/checkout" editLabel="Edit shipping address">
          <address className="not-italic">
            {shipping.firstName} {shipping.lastName}
            <br />
            {shipping.address}
            <br />
            {shipping.city}, {shipping.state} {shipping.zipCode}
            <br />
            {countryName(shipping.country)}
            <br />
            {shipping.email}
            <br />
            {shipping.phone}
          </address>
        </ReviewBlock>
        <ReviewBlock title="Shipping Method" editTo="/checkout" editLabel="Edit shipping method">
          <p>
            {method.name} ({method.days})
          </p>
        </ReviewBlock>
        <ReviewBlock title="Payment Method" editTo="/checkout?step=payment" editLabel="Edit payment method">
          {giftCards.applied
            .filter((applied) => applied.amountCents > 0)
            .map((applied) => (
              <p key={applied.id}>{applied.name}</p>
            ))}
          {card.giftCards ? null : card.hosted ? (
            <p>Card, entered on Stripe's secure payment page when you place the order</p>
          ) : (
            <p>
              {card.brand} ending in {card.last4}
              <br />
              Expires {card.expiry}
              {card.cardName && (
                <>
                  <br />
                  {card.cardName}
                </>
              )}
            </p>
          )}
        </ReviewBlock>
      </div>

      <h3 className="mt-6 font-bold">Items</h3>
      <OrderLines lines={lines} layout="review" className="mt-2" />
      <OrderTotals totals={totals} discountLabel={discountLabel} />
      <GiftCardTotals giftCards={giftCards} />

      <div className="mt-6 flex flex-row-reverse flex-wrap items-center justify-between gap-4">
        <Form method="post" action="/checkout">
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          <input type="hidden" name="expectedTotalCents" value={totals.totalCents} />
          <input type="hidden" name="expectedGiftCardCents" value={giftCards.giftCardCents} />
          <button
            type="submit"
            name="intent"
            value="place-order"
            disabled={placing}
            aria-busy={placing || undefined}
            className="rounded-lg bg-brand-700 px-8 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-wait disabled:opacity-80"
          >
            {placing ? "Placing Order..." : "Place Order"}
          </button>
        </Form>
        <Form method="get" action="/checkout">
          <input type="hidden" name="step" value="payment" />
          <button
            type="submit"
            className="rounded-lg border border-gray-400 px-6 py-3 font-semibold text-gray-900 hover:bg-gray-100"
          >
            Back
          </button>
        </Form>
      </div>
      {placing && (
        <p role="status" className="mt-3 text-sm text-gray-700">
          Placing your order — please wait…
        </p>
      )}
    </section>
  );
}

function ReviewBlock({
  title,
  editTo,
  editLabel,
  children,
}: {
  title: string;
  editTo: string;
  editLabel: string;
  children: React.ReactNode;
}) {
  return (
    <div className="rounded-lg bg-gray-50 p-4 text-sm">
      <div className="flex items-center justify-between gap-2">
        <h3 className="font-bold">{title}</h3>
        <Link to={editTo} className="font-semibold text-brand-700 hover:underline" aria-label={editLabel}>
          Edit
        </Link>
      </div>
      {/* an e-mail address breaks anywhere: at 320 px a long one is wider than this box */}
      <div className="mt-2 text-gray-800 wrap-anywhere">{children}</div>
    </div>
  );
}
