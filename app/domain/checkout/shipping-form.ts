/** The shipping step's and the address book's fields, labels and limits (pure: the pages show them too; the rules are address-schema.server.ts). */

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

/** An address's fields: the shipping fields without the e-mail (the account's address book). */
export const ADDRESS_FIELDS = [
  "firstName",
  "lastName",
  "phone",
  "address",
  "city",
  "state",
  "zipCode",
  "country",
] as const satisfies readonly ShippingField[];
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export type AddressDetails = Record<AddressField, string>;
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

export const REQUIRED_FIELDS_MESSAGE = "Please fill in all required fields: ";
export const INVALID_FIELDS_MESSAGE = "Please correct the highlighted fields.";

/** The longest text each field takes (the inputs' maxLength too). */
export const SHIPPING_MAX_LENGTH: Record<ShippingField, number> = {
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

/** "Please fill in all required fields: firstName, email" — the spec's words and its field names. */
export function requiredFieldsMessage(missing: readonly string[]): string {
  return REQUIRED_FIELDS_MESSAGE + missing.join(", ");
}

/** A shipping method's code as a form posts it ("standard", "express", …): null for anything else. */
export function parseShippingMethod(value: unknown): string | null {
  return typeof value === "string" && /^[a-z0-9][a-z0-9-]{0,39}$/.test(value.trim()) ? value.trim() : null;
}
