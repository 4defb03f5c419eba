/** The shipping step's fields and rules (pure: the browser and the server run the same checks). */
import type { ShippingMethod } from "../../lib/pricing.ts";

export const SHIPPING_FIELDS = [
  "firstName",
  "lastName",
  "email",
  "phone",
  "address",
  "city",
  "state",
  "zipCode",
  "country",
] as const;
export type ShippingField = (typeof SHIPPING_FIELDS)[number];
export type ShippingDetails = Record<ShippingField, string>;

export const SHIPPING_LABELS: Record<ShippingField, string> = {
  firstName: "First Name",
  lastName: "Last Name",
  email: "Email",
  phone: "Phone",
  address: "Address",
  city: "City",
  state: "State / Province",
  zipCode: "ZIP / Postal Code",
  country: "Country",
};

export const COUNTRIES = [
  { code: "US", name: "United States" },
  { code: "CA", name: "Canada" },
  { code: "UK", name: "United Kingdom" },
  { code: "AU", name: "Australia" },
  { code: "DE", name: "Germany" },
  { code: "FR", name: "France" },
] as const;
export type CountryCode = (typeof COUNTRIES)[number]["code"];
export const DEFAULT_COUNTRY: CountryCode = "US";

export const REQUIRED_FIELDS_MESSAGE = "Please fill in all required fields: ";
export const INVALID_FIELDS_MESSAGE = "Please correct the highlighted fields.";

const MAX_LENGTH: Record<ShippingField, number> = {
  firstName: 100,
  lastName: 100,
  email: 254,
  phone: 32,
  address: 200,
  city: 100,
  state: 100,
  zipCode: 16,
  country: 2,
};

export type FormCheck<T, F extends string> =
  | { ok: true; value: T }
  | { ok: false; missing: F[]; fieldErrors: Partial<Record<F, string>> };

/** "Please fill in all required fields: firstName, email" — the spec's words and its field names. */
export function requiredFieldsMessage(missing: readonly string[]): string {
  return REQUIRED_FIELDS_MESSAGE + missing.join(", ");
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ().-]{6,32}$/;
const ZIP = /^[A-Za-z0-9][A-Za-z0-9 -]{1,14}$/;

/** All nine fields are required; e-mail, phone, postcode and country must also look right. */
export function validateShipping(
  input: Partial<Record<string, unknown>>,
): FormCheck<ShippingDetails, ShippingField> {
  const value = {} as ShippingDetails;
  const missing: ShippingField[] = [];
  const fieldErrors: Partial<Record<ShippingField, string>> = {};
  for (const field of SHIPPING_FIELDS) {
    const raw = input[field];
    const text = typeof raw === "string" ? raw.trim().replace(/\s+/g, " ") : "";
    value[field] = text;
    if (text === "") {
      missing.push(field);
      fieldErrors[field] = `${SHIPPING_LABELS[field]} is required.`;
    } else if (text.length > MAX_LENGTH[field]) {
      fieldErrors[field] = `${SHIPPING_LABELS[field]} is too long (at most ${MAX_LENGTH[field]} characters).`;
    }
  }
  if (value.email && !fieldErrors.email && !EMAIL.test(value.email)) {
    fieldErrors.email = "Enter a valid e-mail address, like name@example.com.";
  }
  if (value.phone && !fieldErrors.phone && !PHONE.test(value.phone)) {
    fieldErrors.phone = "Enter a valid phone number (digits, spaces, + ( ) - only).";
  }
  if (value.zipCode && !fieldErrors.zipCode && !ZIP.test(value.zipCode)) {
    fieldErrors.zipCode = "Enter a valid ZIP or postal code.";
  }
  if (value.country && !COUNTRIES.some((c) => c.code === value.country)) {
    fieldErrors.country = "Choose a country from the list.";
  }
  if (missing.length > 0 || Object.keys(fieldErrors).length > 0) return { ok: false, missing, fieldErrors };
  return { ok: true, value };
}

export function parseShippingMethod(value: unknown): ShippingMethod {
  return value === "express" ? "express" : "standard";
}

export function countryName(code: string): string {
  return COUNTRIES.find((c) => c.code === code)?.name ?? code;
}
