import { z } from "zod";
import {
  type CardExpiry,
  digitsOnly,
  isExpired,
  luhnValid,
  MAX_CARD_DIGITS,
  MAX_CARD_NAME_LENGTH,
  MIN_CARD_DIGITS,
  PAYMENT_REQUIRED_MESSAGES,
  type PaymentDetails,
  type PaymentField,
  parseExpiry,
} from "../../lib/payment-card.ts";

const validCardNumber = (raw: string) => {
  const digits = digitsOnly(raw);
  return (
    /^[\d\s-]+$/.test(raw) &&
    digits.length >= MIN_CARD_DIGITS &&
    digits.length <= MAX_CARD_DIGITS &&
    luhnValid(digits)
  );
};

/** A required field: trimmed, and empty (or absent) gets its field's own message. */
const required = (field: PaymentField) =>
  z.string({ error: PAYMENT_REQUIRED_MESSAGES[field] }).trim().min(1, PAYMENT_REQUIRED_MESSAGES[field]);

/**
 * The payment step's four fields (the server checks them whatever the browser did): a Luhn-valid
 * number of 12–16 digits (spaces and dashes allowed), the name, an expiry not in the past at
 * `now()` — read when a form is checked, so the schema is built once — (MM/YY or MMYY) and a 3 or
 * 4 digit code. The card number and code are never echoed back.
 */
export function paymentFields(now: () => Date = () => new Date()) {
  return {
    cardNumber: required("cardNumber")
      .refine((raw) => raw === "" || validCardNumber(raw), "Enter a valid card number.")
      .transform(digitsOnly),
    cardName: required("cardName").max(
      MAX_CARD_NAME_LENGTH,
      `The name on the card can be at most ${MAX_CARD_NAME_LENGTH} characters.`,
    ),
    expiryDate: required("expiryDate").transform((text, ctx) => {
      const expiry = parseExpiry(text);
      if (!expiry)
        ctx.issues.push({ code: "custom", message: "Enter the expiry date as MM/YY.", input: text });
      else if (isExpired(expiry, now()))
        ctx.issues.push({ code: "custom", message: "The card has expired.", input: text });
      return expiry ?? { month: 0, year: 0 };
    }),
    cvv: required("cvv").regex(/^\d{3,4}$/, "Enter the 3 or 4 digit security code."),
  };
}

/** The four fields as one card. */
export function paymentDetails(fields: {
  cardNumber: string;
  cardName: string;
  expiryDate: CardExpiry;
  cvv: string;
}): PaymentDetails {
  const { cardNumber, cardName, expiryDate, cvv } = fields;
  return { cardNumber, cardName, expMonth: expiryDate.month, expYear: expiryDate.year, cvv };
}

/** The payment form on its own (the checkout's action schema has it as its `payment` intent). */
export const paymentSchema = (now: Date) => z.object(paymentFields(() => now)).transform(paymentDetails);
