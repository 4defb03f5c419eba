import { Form } from "react-router";
import { CURRENCY_FORMATS, type Currency } from "../../lib/money.ts";
import { useMoney } from "../shop-settings.ts";

const INPUT = "mt-1 block w-full rounded-lg border border-gray-400 px-3 py-2";

/**
 * The admin's refund form (order-refund.server.ts): a quantity per line, or an amount, whether the
 * refunded units go back into stock, and a reason. A plain form post that works without
 * JavaScript; `refundKey` is new on every page load, so submitting the same form twice refunds once.
 */
export function RefundForm({
  refundKey,
  refund,
  currency,
}: {
  refundKey: string;
  /** the order's currency: the refund is in it */
  currency: Currency;
  refund: {
    refundedCents: number;
    leftCents: number;
    lines: { itemId: number; name: string; variantTitle: string; quantity: number; refundable: number }[];
    storeCredit: boolean;
  };
}) {
  const money = useMoney(currency);
  return (
    <section aria-labelledby="order-refund-heading" className="rounded-lg border border-gray-300 p-4">
      <h2 id="order-refund-heading" className="text-xl font-bold">
        Refund
      </h2>
      <p className="mt-1 text-sm">
        {money(refund.leftCents)} can still be refunded
        {refund.refundedCents > 0 ? ` (${money(refund.refundedCents)} refunded so far)` : ""}. Choose lines
        and quantities — each line's share of what was paid for the goods is refunded — or an amount.
      </p>
      <Form method="post" className="mt-3 space-y-3">
        <input type="hidden" name="intent" value="refund" />
        <input type="hidden" name="key" value={refundKey} />
        <fieldset>
          <legend className="font-semibold">Lines</legend>
          <div className="mt-2 grid gap-3 sm:grid-cols-2">
            {refund.lines.map((line) => (
              <label key={line.itemId} className="block text-sm">
                {line.name}
                {line.variantTitle ? ` (${line.variantTitle})` : ""} — quantity to refund (of{" "}
                {line.refundable})
                <input
                  type="number"
                  name={`qty.${line.itemId}`}
                  min={0}
                  max={line.refundable}
                  defaultValue={0}
                  inputMode="numeric"
                  disabled={line.refundable === 0}
                  className={INPUT}
                />
              </label>
            ))}
          </div>
        </fieldset>
        <label className="block text-sm">
          Or an amount to refund ({CURRENCY_FORMATS[currency].symbol})
          <input type="text" name="amount" inputMode="decimal" autoComplete="off" className={INPUT} />
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="restock" className="h-4 w-4" />
          Put the refunded units back in stock
        </label>
        {refund.storeCredit && (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="storeCredit" className="h-4 w-4" />
            Refund as store credit on the customer's account (nothing goes back to the card)
          </label>
        )}
        <label className="block text-sm">
          Reason (shown to the customer)
          <input type="text" name="reason" maxLength={200} className={INPUT} />
        </label>
        <button
          type="submit"
          className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
        >
          Refund
        </button>
      </Form>
    </section>
  );
}
