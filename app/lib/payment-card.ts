/**
 * Card input rules shared by the payment form (browser) and the checkout action (server).
 * Pure: no node imports. The server is the authority; the browser uses the same functions to
 * format what the shopper types.
 */

export type CardBrand = "Visa" | "MasterCard" | "American Express" | "Discover" | "Card";

export interface CardExpiry {
  /** 1–12 */
  month: number;
  /** four digits, e.g. 2028 */
  year: number;
}

export const MAX_CARD_DIGITS = 16;
export const MIN_CARD_DIGITS = 12;
export const MAX_CARD_NAME_LENGTH = 100;

/** Every non-digit removed. */
export function digitsOnly(s: string): string {
  return s.replace(/\D/g, "");
}

/** '4242424242424242' → '4242 4242 4242 4242'; non-digits dropped, at most 16 digits kept. */
export function formatCardNumber(digits: string): string {
  const kept = digitsOnly(digits).slice(0, MAX_CARD_DIGITS);
  return kept.replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** Display of the expiry while typing: '1' → '1', '12' → '12', '123' → '12/3', '1228' → '12/28'. */
export function formatExpiry(digits: string): string {
  const kept = digitsOnly(digits).slice(0, 4);
  return kept.length <= 2 ? kept : `${kept.slice(0, 2)}/${kept.slice(2)}`;
}

/** The Luhn (mod 10) check; false for an empty string or anything that is not only digits. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** The card network by its issuer identification number (the leading digits). */
export function cardBrand(digits: string): CardBrand {
  const d = digitsOnly(digits);
  if (d.startsWith("4")) return "Visa";
  const two = Number(d.slice(0, 2));
  const four = Number(d.slice(0, 4));
  if (d.length >= 2 && (two === 34 || two === 37)) return "American Express";
  if (d.length >= 2 && two >= 51 && two <= 55) return "MasterCard";
  if (d.length >= 4 && four >= 2221 && four <= 2720) return "MasterCard";
  if (d.length >= 4 && four === 6011) return "Discover";
  if (d.length >= 2 && two === 65) return "Discover";
  const three = Number(d.slice(0, 3));
  if (d.length >= 3 && three >= 644 && three <= 649) return "Discover";
  const six = Number(d.slice(0, 6));
  if (d.length >= 6 && six >= 622126 && six <= 622925) return "Discover";
  return "Card";
}

/**
 * 'MMYY' (as the form's digits-only field sends it), 'MM/YY' or 'M/YY' → { month, year: 20YY };
 * null for anything else or a month outside 1–12.
 */
export function parseExpiry(digits: string): CardExpiry | null {
  const text = digits.trim();
  const match = /^(\d{2})(\d{2})$/.exec(text) ?? /^(\d{1,2})\s*\/\s*(\d{2})$/.exec(text);
  if (!match) return null;
  const month = Number(match[1]);
  if (month < 1 || month > 12) return null;
  return { month, year: 2000 + Number(match[2]) };
}

/**
 * A card is valid through the last day of its expiry month. Months are compared in UTC so the
 * browser and the server agree.
 */
export function isExpired(expiry: CardExpiry, now: Date): boolean {
  const currentYear = now.getUTCFullYear();
  const currentMonth = now.getUTCMonth() + 1;
  return expiry.year < currentYear || (expiry.year === currentYear && expiry.month < currentMonth);
}

export const PAYMENT_FIELDS = ["cardNumber", "cardName", "expiryDate", "cvv"] as const;
export type PaymentField = (typeof PAYMENT_FIELDS)[number];

/** The names shown in 'Please fill in all required fields: …', by field key. */
export const PAYMENT_FIELD_LABELS: Record<PaymentField, string> = {
  cardNumber: "Card Number",
  cardName: "Cardholder Name",
  expiryDate: "Expiry Date",
  cvv: "CVV",
};

export const PAYMENT_REQUIRED_MESSAGES: Record<PaymentField, string> = {
  cardNumber: "Enter the card number.",
  cardName: "Enter the name on the card.",
  expiryDate: "Enter the expiry date as MM/YY.",
  cvv: "Enter the 3 or 4 digit security code.",
};

export interface PaymentDetails {
  /** 12–16 digits, Luhn-valid, spaces and dashes stripped */
  cardNumber: string;
  /** trimmed, at most 100 characters */
  cardName: string;
  expMonth: number;
  expYear: number;
  /** 3 or 4 digits */
  cvv: string;
}
