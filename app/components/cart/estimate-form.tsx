import { Form } from "react-router";
import type { CartEstimate } from "../../domain/cart/cart-types.ts";
import { COUNTRY_OPTION_VALUES, countryName, REGIONS, regionName } from "../../lib/countries.ts";
import { useShopSettings } from "../shop-settings.ts";

/**
 * Where the cart's shipping and tax are estimated for, and a form to change it (a disclosure that
 * opens without JavaScript; the choice is kept with the cart for the visit).
 */
export function EstimateForm({ estimate }: { estimate: CartEstimate }) {
  const { countries } = useShopSettings();
  const place = estimate.region
    ? `${regionName(estimate.country, estimate.region)}, ${countryName(estimate.country)}`
    : countryName(estimate.country);
  const chosen = COUNTRY_OPTION_VALUES[estimate.country] ?? estimate.country;
  return (
    <div className="mt-4 text-sm text-gray-700" data-testid="cart-estimate">
      <p>
        {estimate.methodName === null
          ? `No shipping method can carry this cart to ${place}.`
          : `Shipping and tax estimated for ${place} (${estimate.methodName}).`}
      </p>
      <details className="mt-2">
        <summary className="cursor-pointer font-semibold text-brand-700 hover:underline">
          Change destination
        </summary>
        <Form method="post" action="/cart" preventScrollReset className="mt-3 space-y-3">
          <input type="hidden" name="intent" value="estimate" />
          <div>
            <label htmlFor="estimate-country" className="block font-medium text-gray-800">
              Country
            </label>
            <select
              id="estimate-country"
              name="country"
              defaultValue={chosen}
              autoComplete="country"
              className="mt-1 block w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-gray-900"
            >
              {countries.map((country) => (
                <option key={country.value} value={country.value}>
                  {country.name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="estimate-region" className="block font-medium text-gray-800">
              State / Province (optional)
            </label>
            <input
              id="estimate-region"
              name="region"
              type="text"
              maxLength={100}
              autoComplete="address-level1"
              defaultValue={estimate.region && REGIONS[estimate.country] ? estimate.region : ""}
              className="mt-1 block w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-gray-900"
            />
          </div>
          <button
            type="submit"
            className="rounded-lg border border-brand-700 bg-white px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50"
          >
            Update estimate
          </button>
        </Form>
      </details>
    </div>
  );
}
