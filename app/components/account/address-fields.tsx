import {
  COUNTRIES,
  DEFAULT_COUNTRY,
  SHIPPING_LABELS,
  SHIPPING_MAX_LENGTH,
  type ShippingField,
} from "../../domain/checkout/shipping-form.ts";
import { FormField } from "../checkout/form-field.tsx";

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
 * (which adds the e-mail after the names, and sets the phone beside it).
 */
export function AddressFields({
  idPrefix,
  values,
  fieldErrors,
  withEmail = false,
}: {
  /** ids are `${idPrefix}-${field}` */
  idPrefix: string;
  values: Partial<Record<ShippingField, string>>;
  fieldErrors: Partial<Record<string, string>>;
  withEmail?: boolean;
}) {
  const field = (name: Exclude<ShippingField, "country">, className = "") => (
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
      {...INPUT_PROPS[name]}
    />
  );
  const countryId = `${idPrefix}-country`;
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      {field("firstName")}
      {field("lastName")}
      {withEmail && field("email")}
      {field("phone", withEmail ? "" : "sm:col-span-2")}
      {field("address", "sm:col-span-2")}
      {field("city")}
      {field("state")}
      {field("zipCode")}
      <FormField id={countryId} label={SHIPPING_LABELS.country} error={fieldErrors.country} required>
        <select
          id={countryId}
          name="country"
          required
          autoComplete="country"
          defaultValue={values.country || DEFAULT_COUNTRY}
          aria-invalid={fieldErrors.country ? true : undefined}
          aria-describedby={fieldErrors.country ? `${countryId}-error` : undefined}
          className="mt-1 block w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-gray-900"
        >
          {COUNTRIES.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </select>
      </FormField>
    </div>
  );
}
