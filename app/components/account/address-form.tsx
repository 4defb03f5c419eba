import { Form, Link, useLocation, useNavigation } from "react-router";
import { COUNTRIES, DEFAULT_COUNTRY, SHIPPING_LABELS } from "../../domain/checkout/shipping-form.ts";
import { FormField } from "../checkout/form-field.tsx";
import { FormAlert, SECONDARY_BUTTON, SUBMIT_BUTTON } from "./form-alert.tsx";

export type AddressFormField =
  | "firstName"
  | "lastName"
  | "phone"
  | "address"
  | "city"
  | "state"
  | "zipCode"
  | "country";

const INPUT_PROPS: Record<
  Exclude<AddressFormField, "country">,
  { type: string; autoComplete: string; maxLength: number }
> = {
  firstName: { type: "text", autoComplete: "given-name", maxLength: 100 },
  lastName: { type: "text", autoComplete: "family-name", maxLength: 100 },
  phone: { type: "tel", autoComplete: "tel", maxLength: 32 },
  address: { type: "text", autoComplete: "street-address", maxLength: 200 },
  city: { type: "text", autoComplete: "address-level2", maxLength: 100 },
  state: { type: "text", autoComplete: "address-level1", maxLength: 100 },
  zipCode: { type: "text", autoComplete: "postal-code", maxLength: 16 },
};

/**
 * Add or edit an address (checkout's shipping fields without the e-mail). `noValidate`: the
 * server checks and answers with messages beside the fields and the entered values kept.
 */
export function AddressForm({
  idPrefix,
  action,
  intent,
  addressId,
  values,
  fieldErrors,
  message,
  submitLabel,
  cancelTo,
}: {
  idPrefix: string;
  action: string;
  intent: "create" | "update";
  addressId?: number;
  values: Partial<Record<AddressFormField, string>>;
  fieldErrors: Partial<Record<string, string>>;
  message?: string | null;
  submitLabel: string;
  cancelTo?: string;
}) {
  const location = useLocation();
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" &&
    navigation.formAction === action &&
    navigation.formData?.get("intent") === intent;
  const field = (name: Exclude<AddressFormField, "country">, className = "") => (
    <FormField
      key={name}
      id={`${idPrefix}-${name}`}
      name={name}
      label={SHIPPING_LABELS[name]}
      required
      defaultValue={values[name] ?? ""}
      error={fieldErrors[name]}
      className={className}
      {...INPUT_PROPS[name]}
    />
  );
  const countryId = `${idPrefix}-country`;
  return (
    <Form key={location.key} method="post" action={action} noValidate className="mt-4 space-y-5">
      <input type="hidden" name="intent" value={intent} />
      {addressId !== undefined && <input type="hidden" name="addressId" value={addressId} />}
      <FormAlert message={message} />
      <div className="grid gap-5 sm:grid-cols-2">
        {field("firstName")}
        {field("lastName")}
        {field("phone", "sm:col-span-2")}
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
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={busy} className={SUBMIT_BUTTON}>
          {busy ? "Saving…" : submitLabel}
        </button>
        {cancelTo && (
          <Link to={cancelTo} className={SECONDARY_BUTTON}>
            Cancel
          </Link>
        )}
      </div>
    </Form>
  );
}
