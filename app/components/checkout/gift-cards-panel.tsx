import { Gift } from "lucide-react";
import { Form } from "react-router";
import { useMoney } from "../shop-settings.ts";
import { FormField } from "./form-field.tsx";

/** The gift cards and store credit applied at the payment step, and what they pay (the loader's plan). */
export interface CheckoutGiftCards {
  applied: { id: number; name: string; balanceCents: number; amountCents: number }[];
  giftCardCents: number;
  /** what is left to pay by card */
  restCents: number;
  /** the account's store credit not applied yet, when it has some */
  storeCreditCents: number | null;
}

/**
 * The payment step's gift card part: a code to apply (checked on the server, rate-limited), the
 * store credit of a signed-in shopper, the cards applied with what each pays and a Remove button —
 * and, when they pay the whole order, the way on to the review without a card. Plain forms: it
 * works without JavaScript.
 */
export function GiftCardsPanel({
  giftCards,
  value,
  error,
}: {
  giftCards: CheckoutGiftCards;
  value: string | undefined;
  error: string | undefined;
}) {
  const money = useMoney();
  const covered = giftCards.applied.length > 0 && giftCards.restCents === 0;
  return (
    <section aria-labelledby="gift-cards-heading" className="rounded-xl border border-gray-200 p-6">
      <h2 id="gift-cards-heading" className="flex items-center gap-2 text-xl font-bold">
        <Gift aria-hidden="true" className="size-5" /> Gift card or store credit
      </h2>
      {giftCards.applied.length > 0 && (
        <ul className="mt-4 space-y-2" aria-label="Applied gift cards">
          {giftCards.applied.map((card) => (
            <li
              key={card.id}
              className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-gray-50 p-3 text-sm"
            >
              <span>
                <strong>{card.name}</strong> pays {money(card.amountCents)} (balance{" "}
                {money(card.balanceCents)})
              </span>
              <Form method="post" action="/checkout">
                <input type="hidden" name="giftCardId" value={card.id} />
                <button
                  type="submit"
                  name="intent"
                  value="remove-gift-card"
                  aria-label={`Remove ${card.name}`}
                  className="font-semibold text-brand-700 hover:underline"
                >
                  Remove
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <Form method="post" action="/checkout" noValidate className="mt-4 flex flex-wrap items-end gap-3">
        <FormField
          id="checkout-giftCardCode"
          name="giftCardCode"
          label="Gift card code"
          type="text"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={30}
          placeholder="XXXX-XXXX-XXXX-XXXX"
          defaultValue={value ?? ""}
          error={error}
          className="min-w-0 flex-1 basis-56"
        />
        <button
          type="submit"
          name="intent"
          value="apply-gift-card"
          className="rounded-lg border border-brand-700 px-5 py-2 font-semibold text-brand-700 hover:bg-brand-50"
        >
          Apply
        </button>
      </Form>
      {giftCards.storeCreditCents !== null && (
        <Form method="post" action="/checkout" className="mt-3">
          <button
            type="submit"
            name="intent"
            value="use-store-credit"
            className="font-semibold text-brand-700 hover:underline"
          >
            Use my store credit ({money(giftCards.storeCreditCents)})
          </button>
        </Form>
      )}
      {covered && (
        <Form
          method="post"
          action="/checkout"
          className="mt-4 rounded-lg border border-brand-700 bg-brand-50 p-4"
        >
          <p className="text-sm text-gray-900">Your gift cards pay the whole order: no card is needed.</p>
          <button
            type="submit"
            name="intent"
            value="pay-with-gift-cards"
            className="mt-2 rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800"
          >
            Review Order
          </button>
        </Form>
      )}
      {giftCards.applied.length > 0 && !covered && (
        <p className="mt-4 text-sm text-gray-800">
          Left to pay by card: <strong>{money(giftCards.restCents)}</strong>
        </p>
      )}
    </section>
  );
}

/** Under an order's totals: what each card pays and what is left for the card. */
export function GiftCardTotals({
  giftCards,
}: {
  giftCards: Pick<CheckoutGiftCards, "applied" | "restCents">;
}) {
  const money = useMoney();
  const paying = giftCards.applied.filter((card) => card.amountCents > 0);
  if (paying.length === 0) return null;
  return (
    <dl className="mt-2 space-y-2 text-sm" data-testid="gift-card-totals">
      {paying.map((card) => (
        <div key={card.id} className="flex justify-between gap-4 text-green-800">
          <dt>{card.name}</dt>
          <dd>−{money(card.amountCents)}</dd>
        </div>
      ))}
      <div className="flex justify-between gap-4 font-bold">
        <dt>To pay by card</dt>
        <dd data-testid="checkout-card-part">{money(giftCards.restCents)}</dd>
      </div>
    </dl>
  );
}
