import { Form } from "react-router";
import { formatDeliveryDate } from "../../lib/delivery.ts";
import { RETURN_REASONS } from "../../lib/return-reasons.ts";

const INPUT = "mt-1 block w-full rounded-lg border border-gray-400 px-3 py-2";

/**
 * "Request a return" for a delivered order (domain/returns): a quantity per line still returnable
 * and a reason, posted to /orders/return — a plain form, so it works without JavaScript. A guest
 * (from /orders/track) carries the order's e-mail address, which the server checks again.
 */
export function ReturnRequestForm({
  orderNumber,
  email,
  back,
  closesOn,
  lines,
}: {
  orderNumber: string;
  email?: string;
  back: "account" | "track";
  closesOn: string;
  lines: { itemId: number; name: string; variantTitle: string; returnable: number }[];
}) {
  return (
    <section aria-labelledby="return-request-heading" className="mt-8 rounded-lg border border-gray-300 p-4">
      <h2 id="return-request-heading" className="text-xl font-bold">
        Request a return
      </h2>
      <p className="mt-1 text-sm">
        You can return delivered items for a full refund until {formatDeliveryDate(closesOn)}. Choose what you
        are sending back; we e-mail you the return number and what to do next.
      </p>
      <Form method="post" action="/orders/return" className="mt-3 space-y-3">
        <input type="hidden" name="number" value={orderNumber} />
        {email ? <input type="hidden" name="email" value={email} /> : null}
        <input type="hidden" name="back" value={back} />
        <div className="grid gap-3 sm:grid-cols-2">
          {lines.map((line) => (
            <label key={line.itemId} className="block text-sm">
              {line.name}
              {line.variantTitle ? ` (${line.variantTitle})` : ""} — quantity to return (of {line.returnable})
              <input
                type="number"
                name={`qty.${line.itemId}`}
                min={0}
                max={line.returnable}
                defaultValue={0}
                inputMode="numeric"
                className={INPUT}
              />
            </label>
          ))}
        </div>
        <label className="block text-sm">
          Reason for the return
          <select name="reason" required defaultValue="" className={INPUT}>
            <option value="" disabled>
              Choose a reason
            </option>
            {RETURN_REASONS.map((reason) => (
              <option key={reason} value={reason}>
                {reason}
              </option>
            ))}
          </select>
        </label>
        <button
          type="submit"
          className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
        >
          Request return
        </button>
      </Form>
    </section>
  );
}
