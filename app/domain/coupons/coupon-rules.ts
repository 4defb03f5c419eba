/** Coupon rules (pure): whether a coupon applies to a subtotal, and how much it takes off. */
import { type Currency, formatMoney } from "../../lib/money.ts";
import { fail, ok, type Result } from "../../lib/result.ts";

export interface CouponTerms {
  code: string;
  kind: "percent" | "fixed";
  /** percent: 1..100; fixed: cents */
  amount: number;
  minSubtotalCents: number;
  /** ISO timestamp; the coupon is valid up to (not including) this instant */
  expiresAt: string | null;
  usageLimit: number | null;
  usedCount: number;
  active: 0 | 1;
}

export type CouponRejection = "not-found" | "expired" | "minimum-not-met" | "used-up";

/** A coupon that applies (its code, what it takes off, how the cart names it), or why it does not. */
export type CouponEvaluation = Result<
  { code: string; discountCents: number; label: string },
  { code: CouponRejection; message: string }
>;

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

/** Codes are case-insensitive: trimmed and upper-cased before any lookup. */
export function normalizeCouponCode(input: string): string {
  return input.trim().toUpperCase();
}

/** Discount in cents for a subtotal: percent rounded half up, fixed capped at the subtotal. */
export function couponDiscountCents(
  coupon: Pick<CouponTerms, "kind" | "amount">,
  subtotalCents: number,
): number {
  const raw =
    coupon.kind === "percent"
      ? Math.round((subtotalCents * Math.min(100, Math.max(0, coupon.amount))) / 100)
      : coupon.amount;
  return Math.min(Math.max(0, raw), Math.max(0, subtotalCents));
}

export function couponLabel(
  coupon: Pick<CouponTerms, "code" | "kind" | "amount">,
  currency: Currency,
): string {
  return coupon.kind === "percent"
    ? `${coupon.code} (${coupon.amount}% off)`
    : `${coupon.code} (${formatMoney(coupon.amount, currency)} off)`;
}

/**
 * Whether `coupon` (null when no such code exists) applies to `subtotalCents` at `now`; amounts
 * in messages are written in `currency`. A disabled coupon answers like an unknown one.
 */
export function evaluateCoupon(
  coupon: CouponTerms | null,
  subtotalCents: number,
  { now, currency }: { now: Date; currency: Currency },
): CouponEvaluation {
  if (coupon?.active !== 1) {
    return fail({ code: "not-found", message: COUPON_MESSAGES.notFound });
  }
  if (coupon.expiresAt !== null && Date.parse(coupon.expiresAt) <= now.getTime()) {
    return fail({ code: "expired", message: COUPON_MESSAGES.expired });
  }
  if (coupon.usageLimit !== null && coupon.usedCount >= coupon.usageLimit) {
    return fail({ code: "used-up", message: COUPON_MESSAGES.usedUp });
  }
  if (subtotalCents < coupon.minSubtotalCents) {
    return fail({
      code: "minimum-not-met",
      message: COUPON_MESSAGES.minimumNotMet(coupon.minSubtotalCents, currency),
    });
  }
  return ok({
    code: coupon.code,
    discountCents: couponDiscountCents(coupon, subtotalCents),
    label: couponLabel(coupon, currency),
  });
}
