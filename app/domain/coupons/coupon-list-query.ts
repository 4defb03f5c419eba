import type { CouponState } from "./coupon-form.ts";

/** The admin's coupon list: its state filter and sort orders (shared by the server and the page). */
export const COUPON_STATES = [
  "active",
  "disabled",
  "expired",
  "used-up",
] as const satisfies readonly CouponState[];

/**
 * Code A–Z (the default) or Z–A; value: percentages first, then fixed amounts, each by amount
 * (a percentage and an amount in cents have no common scale); uses; expiry (no expiry last).
 */
export const COUPON_SORTS = [
  "code",
  "code-desc",
  "value-asc",
  "value-desc",
  "uses-desc",
  "uses-asc",
  "expiry-asc",
  "expiry-desc",
] as const;
export type CouponSort = (typeof COUPON_SORTS)[number];
