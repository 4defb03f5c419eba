import { Lock } from "lucide-react";
import { useState } from "react";
import { Form } from "react-router";
import { digitsOnly, formatCardNumber, formatExpiry, PAYMENT_FIELD_LABELS } from "../../lib/payment-card.ts";
import { FormField } from "./form-field.tsx";

export interface SavedCard {
  brand: string;
  last4: string;
  expiry: string;
  cardName: string;
  /** the card is entered on the payment provider's own page after the review */
  hosted?: boolean;
  /** no card: the gift cards applied pay the whole order */
  giftCards?: boolean;
}

/**
 * Step 2. With JavaScript the card number shows in groups of four and the expiry as MM/YY while
 * typing; without it the server accepts both shapes. The card number and CVV are never sent back
 * to the page: after a refusal they are typed again.
 */
export function PaymentStep({
  values,
  fieldErrors,
  savedCard,
}: {
  values: Partial<Record<string, string>>;
  fieldErrors: Partial<Record<string, string>>;
  savedCard: SavedCard | null;
}) {
  const [cardNumber, setCardNumber] = useState("");
  const [expiry, setExpiry] = useState(values.expiryDate ?? savedCard?.expiry ?? "");
  const [cvv, setCvv] = useState("");
  return (
    <section aria-labelledby="payment-heading" className="rounded-xl border border-gray-200 p-6">
      <h2 id="payment-heading" className="text-xl font-bold">
        Payment Information
      </h2>
      <p className="mt-1 flex items-center gap-2 text-sm text-gray-700">
        <Lock aria-hidden="true" className="size-4" /> Your card details go to our payment provider; we keep
        only the card type and last four digits.
      </p>

      {savedCard && (
        <Form
          method="post"
          action="/checkout"
          className="mt-4 rounded-lg border border-brand-700 bg-brand-50 p-4"
        >
          <input type="hidden" name="intent" value="keep-payment" />
          <p className="text-sm text-gray-900">
            Card entered: <strong>{savedCard.brand}</strong> ending in <strong>{savedCard.last4}</strong>{" "}
            (expires {savedCard.expiry}).
          </p>
          <button
            type="submit"
            className="mt-2 rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
          >
            Continue with this card
          </button>
          <p className="mt-2 text-sm text-gray-700">Or enter another card below.</p>
        </Form>
      )}

      <Form method="post" action="/checkout" noValidate autoComplete="on" className="mt-4 space-y-5">
        <FormField
          id="payment-cardNumber"
          name="cardNumber"
          label={PAYMENT_FIELD_LABELS.cardNumber}
          required
          type="text"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 5678 9012 3456"
          maxLength={19}
          value={cardNumber}
          onChange={(event) => setCardNumber(formatCardNumber(digitsOnly(event.target.value).slice(0, 16)))}
          error={fieldErrors.cardNumber}
        />
        <FormField
          id="payment-cardName"
          name="cardName"
          label={PAYMENT_FIELD_LABELS.cardName}
          required
          type="text"
          autoComplete="cc-name"
          maxLength={100}
          defaultValue={values.cardName ?? savedCard?.cardName ?? ""}
          error={fieldErrors.cardName}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField
            id="payment-expiryDate"
            name="expiryDate"
            label={PAYMENT_FIELD_LABELS.expiryDate}
            required
            type="text"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            maxLength={5}
            value={expiry}
            onChange={(event) => setExpiry(formatExpiry(digitsOnly(event.target.value).slice(0, 4)))}
            error={fieldErrors.expiryDate}
            hint="MM/YY"
          />
          <FormField
            id="payment-cvv"
            name="cvv"
            label={PAYMENT_FIELD_LABELS.cvv}
            required
            type="password"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            maxLength={4}
            value={cvv}
            onChange={(event) => setCvv(digitsOnly(event.target.value).slice(0, 4))}
            error={fieldErrors.cvv}
          />
        </div>
        <label className="flex items-center gap-2 text-sm text-gray-900">
          <input type="checkbox" name="saveInfo" className="size-4" />
          Save this card for future purchases
        </label>
        {/* The primary button comes first: Enter in a field submits it, not Back. */}
        <div className="flex flex-row-reverse flex-wrap items-center justify-between gap-4">
          <button
            type="submit"
            name="intent"
            value="payment"
            className="rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800"
          >
            Review Order
          </button>
          <button
            type="submit"
            name="intent"
            value="back-to-shipping"
            className="rounded-lg border border-gray-400 px-6 py-3 font-semibold text-gray-900 hover:bg-gray-100"
          >
            Back
          </button>
        </div>
      </Form>
    </section>
  );
}
