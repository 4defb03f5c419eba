import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewProduct } from "../../app/db/schema.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { removeCodeFromCart } from "../../app/domain/cart/cart-code.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { COUPON_MESSAGES } from "../../app/domain/coupons/coupon-rules.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { applyCoupon, type CouponTerms, insertCoupon as insertCouponPromotion } from "../helpers/coupons.ts";
import { SPEC_SHOP, specTotals } from "../helpers/spec-pricing.ts";

/**
 * Coupons at the cart (the spec's coupon field): since migration 0780 a coupon is a promotion with a
 * code, decided by the promotion engine — applied in any case and spacing, named and taken off as a
 * coupon was, refused in the spec's words (unknown, expired, used up, minimum, disabled), re-checked
 * whenever the cart is priced. Uses at Place Order: promotions.test.ts, orders.test.ts.
 */
type CouponRow = Omit<CouponTerms, "code"> & { code?: string };

describe.each(ENGINES)("coupons on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  let sequence = 0;

  /** A coupon (a promotion with its code); answers the code. */
  async function insertCoupon(overrides: Partial<CouponRow> = {}): Promise<string> {
    const code = overrides.code ?? `TEST${++sequence}${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
    await insertCouponPromotion(t.db, { ...overrides, code });
    return code;
  }

  const product = (overrides: Partial<NewProduct> = {}) => insertProduct(t.db, overrides);
  async function cartWorth(priceCents: number, quantity = 1): Promise<string> {
    const productId = await product({ priceCents, stock: 50 });
    const cartId = newCartId();
    expect(await addToCart(t.db, { cartId, productId, quantity })).toMatchObject({
      ok: true,
      value: { outcome: "added" },
    });
    return cartId;
  }
  const cartCoupon = async (cartId: string) =>
    (await t.db.selectFrom("carts").select("couponCode").where("id", "=", cartId).executeTakeFirstOrThrow())
      .couponCode;
  const apply = (cartId: string, code: string) => applyCoupon(t.db, { cartId, code });

  describe("a code typed", () => {
    it("finds a code whatever its case and surrounding spaces", async () => {
      const code = await insertCoupon({
        code: "SPRING15",
        kind: "fixed",
        amount: 1_500,
        minSubtotalCents: 5_000,
        expiresAt: "2099-01-01T00:00:00.000Z",
        usageLimit: 40,
        usedCount: 3,
      });
      for (const input of [code, "spring15", "Spring15", "  sPrInG15\t"]) {
        const cartId = await cartWorth(6_000);
        expect(await apply(cartId, input)).toEqual({ ok: true, value: { code: "SPRING15" } });
        expect((await getCart(t.db, cartId, SPEC_SHOP)).coupon).toEqual({
          code: "SPRING15",
          label: "SPRING15 ($15.00 off)",
          discountCents: 1_500,
        });
      }
    });

    it("answers unknown, empty and overlong codes as not valid", async () => {
      await insertCoupon({ code: "REAL10" });
      for (const input of ["REAL1", "REAL100", "X".repeat(65), "REAL10'--"]) {
        const cartId = await cartWorth(3_000);
        expect(await apply(cartId, input)).toEqual({
          ok: false,
          error: { code: "refused", message: COUPON_MESSAGES.notFound },
        });
        expect(await cartCoupon(cartId)).toBeNull();
      }
      const long = await insertCoupon({ code: "L".repeat(64) });
      expect(await apply(await cartWorth(3_000), long.toLowerCase())).toEqual({
        ok: true,
        value: { code: long },
      });
    });

    it("is checked against the subtotal and the moment the cart is priced", async () => {
      const code = await insertCoupon({
        kind: "percent",
        amount: 25,
        minSubtotalCents: 2_000,
        expiresAt: "2099-06-01T00:00:00.000Z",
      });
      const before = new Date("2099-05-31T23:59:59.999Z");
      const cartId = await cartWorth(4_002);
      expect(await apply(cartId, code.toLowerCase())).toMatchObject({ ok: true });
      expect((await getCart(t.db, cartId, SPEC_SHOP, {}, before)).coupon).toEqual({
        code,
        label: `${code} (25% off)`,
        discountCents: 1_001,
      });
      // valid up to, not including, its expiry
      expect(
        (await getCart(t.db, cartId, SPEC_SHOP, {}, new Date("2099-06-01T00:00:00.000Z"))).couponProblem,
      ).toEqual({ code, message: COUPON_MESSAGES.expired });
      const small = await cartWorth(1_999);
      expect(await apply(small, code)).toEqual({
        ok: false,
        error: { code: "refused", message: "This coupon needs a subtotal of at least $20.00." },
      });
      const off = await insertCoupon({ active: 0 });
      expect(await apply(await cartWorth(4_000), off)).toMatchObject({
        ok: false,
        error: { message: COUPON_MESSAGES.notFound },
      });
    });
  });

  describe("applying and removing", () => {
    it("puts the normalized code on the cart when it applies", async () => {
      const code = await insertCoupon({ kind: "fixed", amount: 500 });
      const cartId = await cartWorth(3_000);
      expect(await apply(cartId, `  ${code.toLowerCase()} `)).toEqual({ ok: true, value: { code } });
      expect(await cartCoupon(cartId)).toBe(code);
      expect((await getCart(t.db, cartId, SPEC_SHOP)).coupon).toEqual({
        code,
        discountCents: 500,
        label: `${code} ($5.00 off)`,
      });
    });

    it.each([
      ["an unknown code", {}, "NOPE-NOT-A-CODE", COUPON_MESSAGES.notFound],
      ["an expired code", { expiresAt: "2020-01-01T00:00:00.000Z" }, null, COUPON_MESSAGES.expired],
      ["a used-up code", { usageLimit: 3, usedCount: 3 }, null, COUPON_MESSAGES.usedUp],
      [
        "a code above the subtotal's minimum",
        { minSubtotalCents: 10_000 },
        null,
        "This coupon needs a subtotal of at least $100.00.",
      ],
      ["a disabled code", { active: 0 as const }, null, COUPON_MESSAGES.notFound],
    ])("keeps no code for %s", async (_label, overrides, typed, message) => {
      const code = typed ?? (await insertCoupon(overrides));
      const cartId = await cartWorth(3_000);
      expect(await apply(cartId, code)).toMatchObject({ ok: false, error: { message } });
      expect(await cartCoupon(cartId)).toBeNull();

      // a cart that already has a working code does not take the refused one in its place
      const good = await insertCoupon();
      expect(await apply(cartId, good)).toMatchObject({ ok: true });
      expect(await apply(cartId, code)).toMatchObject({ ok: false });
      expect(await cartCoupon(cartId)).toBe(good);
    });

    it("replaces one working code with another, and removes it", async () => {
      const first = await insertCoupon({ kind: "percent", amount: 10 });
      const second = await insertCoupon({ kind: "fixed", amount: 700 });
      const cartId = await cartWorth(4_000);
      await apply(cartId, first);
      expect(await cartCoupon(cartId)).toBe(first);
      await apply(cartId, second);
      expect(await cartCoupon(cartId)).toBe(second);
      expect((await getCart(t.db, cartId, SPEC_SHOP)).coupon).toEqual({
        code: second,
        label: `${second} ($7.00 off)`,
        discountCents: 700,
      });

      await removeCodeFromCart(t.db, cartId);
      expect(await cartCoupon(cartId)).toBeNull();
      const cart = await getCart(t.db, cartId, SPEC_SHOP);
      expect(cart.coupon).toBeNull();
      expect(cart.couponProblem).toBeNull();
      expect(cart.totals).toMatchObject(specTotals(4_000));
      // removing twice, or from a cart with none, is harmless
      await removeCodeFromCart(t.db, cartId);
      await removeCodeFromCart(t.db, newCartId());
      expect(await cartCoupon(cartId)).toBeNull();
    });
  });

  describe("getCart's coupon", () => {
    it("shows the discount of a working coupon in the totals", async () => {
      const code = await insertCoupon({ kind: "percent", amount: 15 });
      const cartId = await cartWorth(1_999, 2);
      await apply(cartId, code);
      const cart = await getCart(t.db, cartId, SPEC_SHOP);
      expect(cart.coupon).toEqual({ code, label: `${code} (15% off)`, discountCents: 600 });
      expect(cart.couponProblem).toBeNull();
      expect(cart.totals).toMatchObject(specTotals(3_998, { discountCents: 600 }));
      expect(cart.totals).toMatchObject({
        subtotalCents: 3_998,
        discountCents: 600,
        shippingCents: 499,
        taxCents: 238,
        totalCents: 3_398 + 499 + 238,
      });
    });

    it("reports a coupon that expired after it was applied, and drops its discount", async () => {
      const code = await insertCoupon({
        kind: "fixed",
        amount: 1_000,
        expiresAt: "2099-01-01T00:00:00.000Z",
      });
      const cartId = await cartWorth(6_000);
      expect(await apply(cartId, code)).toMatchObject({ ok: true });
      expect((await getCart(t.db, cartId, SPEC_SHOP)).totals.discountCents).toBe(1_000);

      await t.db
        .updateTable("promotions")
        .set({ endsAt: new Date(Date.now() - 1_000).toISOString() })
        .where("code", "=", code)
        .execute();
      const cart = await getCart(t.db, cartId, SPEC_SHOP);
      expect(cart.coupon).toBeNull();
      expect(cart.couponProblem).toEqual({ code, message: COUPON_MESSAGES.expired });
      expect(cart.totals).toMatchObject(specTotals(6_000));
      expect(cart.totals).toMatchObject({
        subtotalCents: 6_000,
        discountCents: 0,
        shippingCents: 0,
        taxCents: 420,
        totalCents: 6_420,
      });
      // the code stays on the cart so the shopper can be told about it
      expect(await cartCoupon(cartId)).toBe(code);
    });

    it("reports a coupon used up or no longer met by the subtotal", async () => {
      const limited = await insertCoupon({ usageLimit: 1, usedCount: 0 });
      const cartId = await cartWorth(2_500);
      await apply(cartId, limited);
      await t.db.updateTable("promotions").set({ usedCount: 1 }).where("code", "=", limited).execute();
      expect(await getCart(t.db, cartId, SPEC_SHOP)).toMatchObject({
        coupon: null,
        couponProblem: { code: limited, message: COUPON_MESSAGES.usedUp },
        totals: specTotals(2_500),
      });

      const minimum = await insertCoupon({ minSubtotalCents: 2_000 });
      const other = newCartId();
      const productId = await product({ priceCents: 1_200, stock: 5 });
      await addToCart(t.db, { cartId: other, productId, quantity: 2 });
      await apply(other, minimum);
      expect((await getCart(t.db, other, SPEC_SHOP)).coupon?.discountCents).toBe(240);
      await t.db.updateTable("cartItems").set({ quantity: 1 }).where("cartId", "=", other).execute();
      expect(await getCart(t.db, other, SPEC_SHOP)).toMatchObject({
        coupon: null,
        couponProblem: { code: minimum, message: "This coupon needs a subtotal of at least $20.00." },
        totals: specTotals(1_200),
      });
    });

    it("has neither field for a cart without a code", async () => {
      const cartId = await cartWorth(1_000);
      const cart = await getCart(t.db, cartId, SPEC_SHOP);
      expect(cart.coupon).toBeNull();
      expect(cart.couponProblem).toBeNull();
      expect(cart.totals).toMatchObject(specTotals(1_000));
    });
  });
});
