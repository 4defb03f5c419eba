import { describe, expect, it } from "vitest";
import { specTotals } from "../../../tests/helpers/spec-pricing.ts";
import type { Currency } from "../../lib/money.ts";
import { applyPromotions, type Promotion } from "../../lib/promotions/engine.ts";
import { codeLabel, codeRefusalMessage } from "../promotions/code-messages.ts";
import { COUPON_MESSAGES, normalizeCouponCode } from "./coupon-rules.ts";

/**
 * A coupon's rules, now that a coupon is a promotion with its code (migration 0780): the coupon's
 * terms made into the promotion the migration makes, priced by the engine and said by the cart's
 * code messages — the same amounts, labels and refusals the coupon rules gave.
 */
interface CouponTerms {
  code: string;
  kind: "percent" | "fixed";
  amount: number;
  minSubtotalCents: number;
  expiresAt: string | null;
  usageLimit: number | null;
  usedCount: number;
  active: 0 | 1;
}

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

/** The promotion migration 0780 makes of a coupon. */
const promotionOf = (
  terms: Pick<CouponTerms, "code" | "kind" | "amount"> & Partial<CouponTerms>,
): Promotion => ({
  id: 1,
  name: `Coupon ${terms.code}`,
  code: terms.code,
  conditions: terms.minSubtotalCents ? [{ type: "min-subtotal", cents: terms.minSubtotalCents }] : [],
  action:
    terms.kind === "percent"
      ? { type: "order-percent", basisPoints: terms.amount * 100 }
      : { type: "order-fixed", cents: terms.amount },
  startsAt: null,
  endsAt: terms.expiresAt ?? null,
  priority: 1_000,
  combines: true,
  campaignId: null,
});

/** What the cart says of `terms` (null: no such code, or disabled) on a cart of `subtotal`. */
function evaluateCoupon(
  terms: CouponTerms | null,
  subtotal: number,
  { now, currency }: { now: Date; currency: Currency },
) {
  if (terms?.active !== 1) return { ok: false as const, error: { message: COUPON_MESSAGES.notFound } };
  const promotion = promotionOf(terms);
  const usedUp = terms.usageLimit !== null && terms.usedCount >= terms.usageLimit;
  const result = applyPromotions(
    [promotion],
    subtotal > 0
      ? [
          {
            key: "1",
            productId: 1,
            variantId: 1,
            category: "c",
            brand: "b",
            unitPriceCents: subtotal,
            quantity: 1,
          },
        ]
      : [],
    {
      now,
      signedIn: false,
      groupIds: [],
      firstOrder: false,
      zoneId: "1",
      shipping: null,
      codes: [terms.code],
      exhausted: new Map(usedUp ? [[1, "uses" as const]] : []),
    },
  );
  const applied = result.applied[0];
  if (applied) {
    return {
      ok: true as const,
      value: { discountCents: applied.amountCents, label: codeLabel(applied.promotion, currency) },
    };
  }
  const refused = result.refused[0]!;
  return { ok: false as const, error: { message: codeRefusalMessage(refused.refusal, currency, () => "") } };
}

const couponDiscountCents = (terms: Pick<CouponTerms, "kind" | "amount">, subtotal: number) => {
  const result = evaluateCoupon(coupon(terms), subtotal, { now, currency: "USD" });
  return result.ok ? result.value.discountCents : 0;
};

describe("a coupon's discount (the engine's order action)", () => {
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

describe("a coupon's code at the cart", () => {
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
