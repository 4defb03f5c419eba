/**
 * The admin coupon form (create and edit). Pure: the server is the authority; uniqueness of the
 * code (a database question) is checked by `createCoupon`. Amounts are typed in dollars and kept
 * in cents; a percentage is a whole number. The expiry is typed as the last day the code works
 * (UTC) and stored as the instant it stops working, the next day's midnight — as the cart's rules
 * read `expiresAt` ("valid up to, not including").
 */
export const COUPON_FORM_MESSAGES = {
  invalid: "Please correct the highlighted fields.",
  codeRequired: "Enter a code.",
  codeFormat: "Use 3 to 32 letters, digits, hyphens or underscores, starting with a letter or digit.",
  codeTaken: "A coupon with this code already exists.",
  kind: "Choose percentage or fixed amount.",
  percent: "Enter a whole percentage from 1 to 100.",
  fixed: "Enter an amount greater than 0, in steps of 0.01 (at most $100,000).",
  minSubtotal: "Enter an amount of 0 or more, in steps of 0.01 (at most $100,000).",
  usageLimit: "Enter a whole number of 1 or more, or leave it empty for no limit.",
  usageBelowUsed: (used: number) => `This coupon has been used ${used} times; the limit cannot be lower.`,
  expiry: "Enter a valid date, or leave it empty for no expiry.",
  created: (code: string) => `Coupon ${code} created`,
  updated: (code: string) => `Coupon ${code} updated`,
  disabled: (code: string) => `Coupon ${code} disabled`,
  enabled: (code: string) => `Coupon ${code} enabled`,
  notFound: "This coupon no longer exists.",
  badRequest: "Unknown action.",
  disableUnconfirmed: "The coupon was not disabled: confirm with “Yes, disable coupon” to disable it.",
} as const;

/** The confirm step's question before a coupon is disabled (list and edit page). */
export const disableQuestion = (code: string) =>
  `Disable coupon ${code}? Carts that carry it lose the discount and checkout refuses it until it is enabled again.`;

export const COUPON_KINDS = ["percent", "fixed"] as const;
export type CouponKind = (typeof COUPON_KINDS)[number];
export const COUPON_KIND_LABELS: Record<CouponKind, string> = {
  percent: "Percentage",
  fixed: "Fixed amount",
};

export const COUPON_CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,31}$/;
export type CouponField = "code" | "kind" | "value" | "minSubtotal" | "usageLimit" | "validThrough";

/** What the form shows (strings as typed). */
export interface CouponFormValues {
  code: string;
  kind: string;
  value: string;
  minSubtotal: string;
  usageLimit: string;
  validThrough: string;
}

export interface CouponInput {
  code: string;
  kind: CouponKind;
  /** percent: 1..100; fixed: cents */
  amount: number;
  minSubtotalCents: number;
  expiresAt: string | null;
  usageLimit: number | null;
}

export const EMPTY_COUPON_FORM: CouponFormValues = {
  code: "",
  kind: "percent",
  value: "",
  minSubtotal: "0.00",
  usageLimit: "",
  validThrough: "",
};

/** What a refused form shows again: the fields as typed, trimmed (from the submission's payload). */
export function readCouponFormValues(form: Record<string, unknown>): CouponFormValues {
  const text = (name: string, max: number) => {
    const value = form[name];
    return typeof value === "string" ? value.trim().slice(0, max) : "";
  };
  return {
    code: text("code", 100),
    kind: text("kind", 20),
    value: text("value", 20),
    minSubtotal: text("minSubtotal", 20),
    usageLimit: text("usageLimit", 20),
    validThrough: text("validThrough", 20),
  };
}

/** "2027-06-30" (a real calendar day) → "2027-07-01T00:00:00.000Z"; anything else → null. */
export function expiryFromLastDay(day: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const start = Date.parse(`${day}T00:00:00.000Z`);
  if (Number.isNaN(start) || new Date(start).toISOString().slice(0, 10) !== day) return null;
  const year = Number(day.slice(0, 4));
  if (year < 2000 || year > 9998) return null;
  return new Date(start + 86_400_000).toISOString();
}

/** The stored instant the coupon stops working → the last day it works, for the date field. */
export function lastDayOfExpiry(expiresAt: string | null): string {
  if (!expiresAt) return "";
  const end = Date.parse(expiresAt);
  return Number.isNaN(end) ? "" : new Date(end - 1).toISOString().slice(0, 10);
}

/** The form's values for a stored coupon (amounts back in dollars). */
export function couponFormValues(coupon: {
  code: string;
  kind: CouponKind;
  amount: number;
  minSubtotalCents: number;
  usageLimit: number | null;
  expiresAt: string | null;
}): CouponFormValues {
  return {
    code: coupon.code,
    kind: coupon.kind,
    value: coupon.kind === "percent" ? String(coupon.amount) : (coupon.amount / 100).toFixed(2),
    minSubtotal: (coupon.minSubtotalCents / 100).toFixed(2),
    usageLimit: coupon.usageLimit === null ? "" : String(coupon.usageLimit),
    validThrough: lastDayOfExpiry(coupon.expiresAt),
  };
}

export type CouponState = "active" | "disabled" | "expired" | "used-up";
export const COUPON_STATE_LABELS: Record<CouponState, string> = {
  active: "Active",
  disabled: "Disabled",
  expired: "Expired",
  "used-up": "Used up",
};

/** What a shopper would meet at the cart today: disabled first, then expired, then used up. */
export function couponState(
  coupon: { active: boolean; expiresAt: string | null; usageLimit: number | null; usedCount: number },
  now: Date,
): CouponState {
  if (!coupon.active) return "disabled";
  if (coupon.expiresAt !== null && Date.parse(coupon.expiresAt) <= now.getTime()) return "expired";
  if (coupon.usageLimit !== null && coupon.usedCount >= coupon.usageLimit) return "used-up";
  return "active";
}
