import { describe, expect, it } from "vitest";
import { specTotals } from "../../../tests/helpers/spec-pricing.ts";
import {
  COUPON_MESSAGES,
  type CouponTerms,
  couponDiscountCents,
  evaluateCoupon,
  normalizeCouponCode,
} from "./coupon-rules.ts";

const now = new Date("2026-11-22T12:00:00Z");
const coupon = (overrides: Partial<CouponTerms> = {}): CouponTerms => ({
  code: "WELCOME10",
  kind: "percent",
  amount: 10,
  minSubtotalCents: 0,
  expiresAt: null,
  usageLimit: null,
  usedCount: 0,
  active: 1,
  ...overrides,
});

describe("couponDiscountCents", () => {
  it.each([
    ["10% of $100.00", { kind: "percent", amount: 10 }, 10_000, 1_000],
    ["10% of $0.05 rounds half up", { kind: "percent", amount: 10 }, 5, 1],
    ["10% of $0.04 rounds down", { kind: "percent", amount: 10 }, 4, 0],
    ["15% of $33.33", { kind: "percent", amount: 15 }, 3_333, 500],
    ["100% of $12.34", { kind: "percent", amount: 100 }, 1_234, 1_234],
    ["$5 off $20", { kind: "fixed", amount: 500 }, 2_000, 500],
    ["$5 off $3 is capped at $3", { kind: "fixed", amount: 500 }, 300, 300],
    ["anything off $0", { kind: "fixed", amount: 500 }, 0, 0],
  ] as const)("%s", (_name, terms, subtotal, expected) => {
    expect(couponDiscountCents(terms, subtotal)).toBe(expected);
  });
});

describe("evaluateCoupon", () => {
  it.each([
    ["unknown code", null, 5_000, COUPON_MESSAGES.notFound],
    ["disabled coupon", coupon({ active: 0 }), 5_000, COUPON_MESSAGES.notFound],
    ["expired a second ago", coupon({ expiresAt: "2026-11-22T11:59:59Z" }), 5_000, COUPON_MESSAGES.expired],
    ["expires exactly now", coupon({ expiresAt: "2026-11-22T12:00:00Z" }), 5_000, COUPON_MESSAGES.expired],
    ["used up", coupon({ usageLimit: 3, usedCount: 3 }), 5_000, COUPON_MESSAGES.usedUp],
    [
      "minimum not met",
      coupon({ minSubtotalCents: 5_000 }),
      4_999,
      COUPON_MESSAGES.minimumNotMet(5_000, "USD"),
    ],
  ])("%s is refused with its message", (_name, terms, subtotal, message) => {
    const result = evaluateCoupon(terms, subtotal, { now, currency: "USD" });
    expect(result).toMatchObject({ ok: false, error: { message } });
  });

  it("says the minimum in the shop's currency", () => {
    expect(COUPON_MESSAGES.minimumNotMet(2_500, "USD")).toBe(
      "This coupon needs a subtotal of at least $25.00.",
    );
    expect(COUPON_MESSAGES.minimumNotMet(123_450, "EUR")).toBe(
      "This coupon needs a subtotal of at least 1.234,50\u00a0€.",
    );
    expect(
      evaluateCoupon(coupon({ code: "FIVE", kind: "fixed", amount: 500 }), 1_000, { now, currency: "GBP" }),
    ).toMatchObject({
      value: { label: "FIVE (£5.00 off)" },
    });
  });

  it.each([
    ["no limits", coupon(), 5_000, 500],
    ["expires tomorrow", coupon({ expiresAt: "2026-11-23T12:00:00Z" }), 5_000, 500],
    ["one use left", coupon({ usageLimit: 3, usedCount: 2 }), 5_000, 500],
    ["minimum exactly met", coupon({ minSubtotalCents: 5_000 }), 5_000, 500],
    ["fixed amount", coupon({ kind: "fixed", amount: 1_500 }), 5_000, 1_500],
  ])("%s applies", (_name, terms, subtotal, discount) => {
    expect(evaluateCoupon(terms, subtotal, { now, currency: "USD" })).toMatchObject({
      ok: true,
      value: { discountCents: discount },
    });
  });

  it("labels the discount", () => {
    expect(evaluateCoupon(coupon(), 1_000, { now, currency: "USD" })).toMatchObject({
      value: { label: "WELCOME10 (10% off)" },
    });
    expect(
      evaluateCoupon(coupon({ code: "FIVE", kind: "fixed", amount: 500 }), 1_000, { now, currency: "USD" }),
    ).toMatchObject({
      value: { label: "FIVE ($5.00 off)" },
    });
  });
});

describe("discount and totals together", () => {
  it("applies before tax, keeps free shipping on the pre-discount subtotal, never goes below 0", () => {
    const subtotal = 6_000;
    const discount = couponDiscountCents({ kind: "percent", amount: 20 }, subtotal);
    expect(specTotals(subtotal, { discountCents: discount })).toEqual({
      subtotalCents: 6_000,
      discountCents: 1_200,
      shippingCents: 0,
      taxCents: 336,
      totalCents: 5_136,
    });
    const all = couponDiscountCents({ kind: "fixed", amount: 99_999 }, 1_000);
    expect(specTotals(1_000, { discountCents: all, method: "express" }).totalCents).toBe(999);
  });
});

describe("normalizeCouponCode", () => {
  it("is case-insensitive and trims", () => {
    expect(normalizeCouponCode("  welcome10 ")).toBe("WELCOME10");
  });
});
