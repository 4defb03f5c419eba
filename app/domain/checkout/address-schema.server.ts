import { z } from "zod";
import { countryCode as isoCountryCode } from "../../lib/countries.ts";
import {
  parseShippingMethod,
  SHIPPING_LABELS,
  SHIPPING_MAX_LENGTH,
  type ShippingField,
} from "./shipping-form.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ().-]{6,32}$/;
const ZIP = /^[A-Za-z0-9][A-Za-z0-9 -]{1,14}$/;

/** A required text field: spaces trimmed and runs of them made one, then at most `max` long. */
function text(field: ShippingField) {
  const required = `${SHIPPING_LABELS[field]} is required.`;
  const max = SHIPPING_MAX_LENGTH[field];
  return z
    .string({ error: required })
    .transform((value) => value.trim().replace(/\s+/g, " "))
    .pipe(
      // (Conform reads a value emptied by the trim as absent: the same message)
      z
        .string({ error: required })
        .min(1, required)
        .max(max, `${SHIPPING_LABELS[field]} is too long (at most ${max} characters).`),
    );
}

/** `text`, and when it is there and not too long, it must also match `pattern`. */
function formatted(field: ShippingField, pattern: RegExp, message: string) {
  return text(field).refine(
    (value) => value === "" || value.length > SHIPPING_MAX_LENGTH[field] || pattern.test(value),
    message,
  );
}

const countryCode = z
  .string({ error: `${SHIPPING_LABELS.country} is required.` })
  .transform((value) => value.trim().replace(/\s+/g, " "))
  .pipe(
    z
      .string({ error: `${SHIPPING_LABELS.country} is required.` })
      .min(1, `${SHIPPING_LABELS.country} is required.`)
      .refine(
        // any country (as its code, or the spec's "UK"); whether the shop ships there is the zones'
        (value) => value === "" || isoCountryCode(value) !== null,
        "Choose a country from the list.",
      ),
  );

/**
 * The one address: every field required, phone, postcode and country must also look right. The
 * account's address book saves it; checkout's shipping step adds the e-mail.
 */
export const addressSchema = z.object({
  firstName: text("firstName"),
  lastName: text("lastName"),
  phone: formatted("phone", PHONE, "Enter a valid phone number (digits, spaces, + ( ) - only)."),
  address: text("address"),
  city: text("city"),
  state: text("state"),
  zipCode: formatted("zipCode", ZIP, "Enter a valid ZIP or postal code."),
  country: countryCode,
});

/**
 * Checkout's shipping step: the address with the e-mail, and the method's code (null: none or not
 * a code — the step then takes the zone's first; whether the zone offers it is the step's check).
 */
export const shippingSchema = addressSchema.extend({
  email: formatted("email", EMAIL, "Enter a valid e-mail address, like name@example.com."),
  shippingMethod: z.string().optional().transform(parseShippingMethod),
});
