/**
 * What the shopper is told about a code typed into the cart's coupon field (the spec's coupon
 * messages), and how a code is read. Today's coupons are promotions with a code (migration 0780,
 * decision 033): the engine decides whether one applies, and `code-messages.ts` says why not in
 * these words.
 */
import { type Currency, formatMoney } from "../../lib/money.ts";

export const COUPON_MESSAGES = {
  missing: "Please enter a coupon code.",
  notFound: "This coupon code is not valid.",
  expired: "This coupon has expired.",
  minimumNotMet: (minCents: number, currency: Currency) =>
    `This coupon needs a subtotal of at least ${formatMoney(minCents, currency)}.`,
  usedUp: "This coupon has reached its usage limit.",
  applied: (code: string) => `Coupon ${code} applied.`,
  removed: "Coupon removed.",
} as const;

/** A code as the admin may make it: 3–32 letters, digits, hyphens or underscores, upper-case. */
export const COUPON_CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,31}$/;

/** Codes are case-insensitive: trimmed and upper-cased before any lookup. */
export function normalizeCouponCode(input: string): string {
  return input.trim().toUpperCase();
}
