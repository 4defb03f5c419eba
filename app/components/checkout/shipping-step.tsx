import { Form, Link } from "react-router";
import type { ShippingField } from "../../domain/checkout/shipping-form.ts";
import {
  SHIPPING_METHOD_IDS,
  type ShippingMethod,
  shippingCents,
  shippingMethod,
} from "../../lib/pricing.ts";
import { AddressFields } from "../account/address-fields.tsx";
import { useMoney, useShopSettings } from "../shop-settings.ts";

/** Step 1. `noValidate`: the server's check (and its toast with the missing fields) always answers. */
export function ShippingStep({
  values,
  fieldErrors,
  method,
  subtotalCents,
  onMethodChange,
}: {
  values: Partial<Record<ShippingField, string>>;
  fieldErrors: Partial<Record<string, string>>;
  method: ShippingMethod;
  subtotalCents: number;
  /** the method as the shopper picks it, before the step is sent (the summary follows it) */
  onMethodChange?: (method: ShippingMethod) => void;
}) {
  const money = useMoney();
  const shop = useShopSettings();
  return (
    <section aria-labelledby="shipping-heading" className="rounded-xl border border-gray-200 p-6">
      <h2 id="shipping-heading" className="text-xl font-bold">
        Shipping Information
      </h2>
      <Form method="post" action="/checkout" noValidate className="mt-4 space-y-5">
        <AddressFields idPrefix="shipping" values={values} fieldErrors={fieldErrors} withEmail />

        <fieldset>
          <legend className="text-sm font-semibold text-gray-900">Shipping Method</legend>
          <div className="mt-2 space-y-2">
            {SHIPPING_METHOD_IDS.map((id) => {
              const cost = shippingCents(shop, subtotalCents, id);
              const { label, days } = shippingMethod(shop, id);
              return (
                <label
                  key={id}
                  className="flex cursor-pointer items-center gap-3 rounded-lg border border-gray-300 p-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
                >
                  <input
                    type="radio"
                    name="shippingMethod"
                    value={id}
                    defaultChecked={method === id}
                    onChange={(event) => {
                      if (event.currentTarget.checked) onMethodChange?.(id);
                    }}
                  />
                  <span className="flex-1">
                    <span className="block font-semibold">{label}</span>
                    <span className="block text-sm text-gray-700">{days}</span>
                  </span>
                  <span className="font-semibold">{cost === 0 ? "Free" : money(cost)}</span>
                </label>
              );
            })}
          </div>
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
