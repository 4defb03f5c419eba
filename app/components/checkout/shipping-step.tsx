import { Form, Link } from "react-router";
import type { ShippingField } from "../../domain/checkout/shipping-form.ts";
import {
  type Destination,
  deliveryDays,
  destinationProblem,
  type Markets,
  type PricedOrder,
} from "../../lib/markets.ts";
import { AddressFields } from "../account/address-fields.tsx";
import { useMoney } from "../shop-settings.ts";

/**
 * Step 1. `noValidate`: the server's check (and its toast with the missing fields) always answers.
 * The methods are those of the destination's zone that can carry the cart, with their prices —
 * priced as the shopper types the address (with JavaScript), or for the address the page was
 * rendered with (without: the server checks the method against the address sent).
 */
export function ShippingStep({
  values,
  fieldErrors,
  markets,
  destination,
  priced,
  onCountryChange,
  onStateChange,
  onMethodChange,
}: {
  values: Partial<Record<ShippingField, string>>;
  fieldErrors: Partial<Record<string, string>>;
  markets: Markets;
  destination: Destination;
  /** the cart priced for `destination` and the method chosen */
  priced: PricedOrder;
  onCountryChange?: (country: string) => void;
  onStateChange?: (state: string) => void;
  /** the method as the shopper picks it, before the step is sent (the summary follows it) */
  onMethodChange?: (method: string) => void;
}) {
  const money = useMoney();
  const quotes = priced.ok ? priced.quotes : [];
  const chosen = priced.ok ? priced.shipping?.method.code : undefined;
  // what the browser can tell before the step is sent (the server says it beside the field)
  const problem = destinationProblem(markets, destination);
  const methodError = fieldErrors.shippingMethod;
  return (
    <section aria-labelledby="shipping-heading" className="rounded-xl border border-gray-200 p-6">
      <h2 id="shipping-heading" className="text-xl font-bold">
        Shipping Information
      </h2>
      <Form method="post" action="/checkout" noValidate className="mt-4 space-y-5">
        <AddressFields
          idPrefix="shipping"
          values={values}
          fieldErrors={fieldErrors}
          withEmail
          onCountryChange={onCountryChange}
          onStateChange={onStateChange}
        />

        <fieldset aria-describedby={methodError ? "shipping-method-error" : undefined}>
          <legend className="text-sm font-semibold text-gray-900">Shipping Method</legend>
          <div className="mt-2 space-y-2">
            {quotes.map(({ method, priceCents }) => (
              <label
                key={`${method.id}-${method.code}`}
                className="flex cursor-pointer items-center gap-3 rounded-lg border border-gray-300 p-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
              >
                <input
                  type="radio"
                  name="shippingMethod"
                  value={method.code}
                  checked={chosen === method.code}
                  onChange={(event) => {
                    if (event.currentTarget.checked) onMethodChange?.(method.code);
                  }}
                />
                <span className="flex-1">
                  <span className="block font-semibold">{method.name}</span>
                  <span className="block text-sm text-gray-700">{deliveryDays(method)}</span>
                </span>
                <span className="font-semibold">{priceCents === 0 ? "Free" : money(priceCents)}</span>
              </label>
            ))}
          </div>
          <div aria-live="polite">
            {!methodError && problem && (
              <p className="mt-2 text-sm font-medium text-red-700">{problem.message}</p>
            )}
            {!methodError && !problem && quotes.length === 0 && (
              <p className="mt-2 text-sm font-medium text-red-700">
                No shipping method can carry this order there.
              </p>
            )}
          </div>
          {methodError && (
            <p id="shipping-method-error" className="mt-2 text-sm font-medium text-red-700">
              {methodError}
            </p>
          )}
        </fieldset>

        <div className="flex flex-row-reverse flex-wrap items-center justify-between gap-4">
          <button
            type="submit"
            name="intent"
            value="shipping"
            className="rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800"
          >
            Continue to Payment
          </button>
          <Link to="/cart" className="font-semibold text-brand-700 hover:underline">
            Back to Cart
          </Link>
        </div>
      </Form>
    </section>
  );
}
