import {
  SHIPPING_LABELS,
  SHIPPING_MAX_LENGTH,
  type ShippingField,
} from "../../domain/checkout/shipping-form.ts";
import { countryName } from "../../lib/countries.ts";
import { FormField } from "../checkout/form-field.tsx";
import { useShopSettings } from "../shop-settings.ts";

const INPUT_PROPS: Record<Exclude<ShippingField, "country">, { type: string; autoComplete: string }> = {
  firstName: { type: "text", autoComplete: "given-name" },
  lastName: { type: "text", autoComplete: "family-name" },
  email: { type: "email", autoComplete: "email" },
  phone: { type: "tel", autoComplete: "tel" },
  address: { type: "text", autoComplete: "street-address" },
  city: { type: "text", autoComplete: "address-level2" },
  state: { type: "text", autoComplete: "address-level1" },
  zipCode: { type: "text", autoComplete: "postal-code" },
};

/**
 * The address's fields (app/domain/checkout/shipping-form.ts's one address schema), labelled and
 * with each message beside its field: the account's address book and checkout's shipping step
 * (which adds the e-mail after the names, and sets the phone beside it). The countries are those
 * the shop's zones ship to (and an address's own, should the shop have stopped shipping there).
 */
export function AddressFields({
  idPrefix,
  values,
  fieldErrors,
  withEmail = false,
  onCountryChange,
  onStateChange,
}: {
  /** ids are `${idPrefix}-${field}` */
  idPrefix: string;
  values: Partial<Record<ShippingField, string>>;
  fieldErrors: Partial<Record<string, string>>;
  withEmail?: boolean;
  /** the country and state as the shopper picks them (checkout's summary and methods follow) */
  onCountryChange?: (value: string) => void;
  onStateChange?: (value: string) => void;
}) {
  const field = (
    name: Exclude<ShippingField, "country">,
    className = "",
    onChange?: (value: string) => void,
  ) => (
    <FormField
      key={name}
      id={`${idPrefix}-${name}`}
      name={name}
      label={SHIPPING_LABELS[name]}
      required
      defaultValue={values[name] ?? ""}
      error={fieldErrors[name]}
      className={className}
      maxLength={SHIPPING_MAX_LENGTH[name]}
      onChange={onChange && ((event) => onChange(event.currentTarget.value))}
      {...INPUT_PROPS[name]}
    />
  );
  const countryId = `${idPrefix}-country`;
  const { countries, defaultCountry } = useShopSettings();
  const chosen = values.country || defaultCountry;
  const options = countries.some((c) => c.value === chosen)
    ? countries
    : [...countries, { value: chosen, name: countryName(chosen) }];
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      {field("firstName")}
      {field("lastName")}
      {withEmail && field("email")}
      {field("phone", withEmail ? "" : "sm:col-span-2")}
      {field("address", "sm:col-span-2")}
      {field("city")}
      {field("state", "", onStateChange)}
      {field("zipCode")}
      <FormField id={countryId} label={SHIPPING_LABELS.country} error={fieldErrors.country} required>
        <select
          id={countryId}
          name="country"
          required
          autoComplete="country"
          defaultValue={chosen}
          onChange={(event) => onCountryChange?.(event.currentTarget.value)}
          aria-invalid={fieldErrors.country ? true : undefined}
          aria-describedby={fieldErrors.country ? `${countryId}-error` : undefined}
          className="mt-1 block w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-gray-900"
        >
          {options.map((country) => (
            <option key={country.value} value={country.value}>
              {country.name}
            </option>
          ))}
        </select>
      </FormField>
    </div>
  );
}
