import type { Transaction } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB, NewProduct } from "../../app/db/schema.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { COUPON_MESSAGES, type CouponTerms } from "../../app/domain/coupons/coupon-rules.ts";
import {
  applyCouponToCart,
  checkCoupon,
  findCoupon,
  redeemCoupon,
  releaseCoupon,
  removeCouponFromCart,
} from "../../app/domain/coupons/coupons.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { SPEC_SHOP, specTotals } from "../helpers/spec-pricing.ts";

type CouponRow = Omit<CouponTerms, "code"> & { code?: string };

describe.each(ENGINES)("coupons on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const DEFAULTS: Omit<CouponRow, "code"> = {
    kind: "percent",
    amount: 10,
    minSubtotalCents: 0,
    expiresAt: null,
    usageLimit: null,
    usedCount: 0,
    active: 1,
  };
  let sequence = 0;

  /** Inserts a coupon with every column given (multi-row inserts on SQLite fill no defaults). */
  async function insertCoupon(overrides: Partial<CouponRow> = {}): Promise<string> {
    const code = overrides.code ?? `TEST${++sequence}${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
    await t.db
      .insertInto("coupons")
      .values({
        ...DEFAULTS,
        ...overrides,
        code,
        createdAt: "2026-01-01T00:00:00.000Z",
        updatedAt: "2026-01-01T00:00:00.000Z",
      })
      .execute();
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
  const usedCount = async (code: string) =>
    (await t.db.selectFrom("coupons").select("usedCount").where("code", "=", code).executeTakeFirstOrThrow())
      .usedCount;
  const inTransaction = <T>(work: (trx: Transaction<DB>) => Promise<T>) => t.db.transaction().execute(work);

  describe("findCoupon", () => {
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
      const expected: CouponTerms = {
        code: "SPRING15",
        kind: "fixed",
        amount: 1_500,
        minSubtotalCents: 5_000,
        expiresAt: "2099-01-01T00:00:00.000Z",
        usageLimit: 40,
        usedCount: 3,
        active: 1,
      };
      for (const input of [code, "spring15", "Spring15", "  sPrInG15\t"]) {
        expect(await findCoupon(t.db, input)).toEqual(expected);
      }
    });

    it("answers null for unknown, empty and overlong codes", async () => {
      await insertCoupon({ code: "REAL10" });
      for (const input of ["REAL1", "REAL100", "", "   ", "X".repeat(65), "REAL10'--"]) {
        expect(await findCoupon(t.db, input)).toBeNull();
      }
      const long = await insertCoupon({ code: "L".repeat(64) });
      expect((await findCoupon(t.db, long.toLowerCase()))?.code).toBe(long);
    });

    it("checkCoupon evaluates against the subtotal and the given time", async () => {
      const code = await insertCoupon({
        kind: "percent",
        amount: 25,
        minSubtotalCents: 2_000,
        expiresAt: "2027-06-01T00:00:00.000Z",
      });
      const before = new Date("2027-05-31T23:59:59.999Z");
      expect(await checkCoupon(t.db, code.toLowerCase(), 4_002, { now: before, currency: "USD" })).toEqual({
        ok: true,
        value: { code, discountCents: 1_001, label: `${code} (25% off)` },
      });
      expect(await checkCoupon(t.db, code, 1_999, { now: before, currency: "USD" })).toEqual({
        ok: false,
        error: { code: "minimum-not-met", message: "This coupon needs a subtotal of at least $20.00." },
      });
      expect(
        await checkCoupon(t.db, code, 4_000, { now: new Date("2027-06-01T00:00:00.000Z"), currency: "USD" }),
      ).toEqual({
        ok: false,
        error: { code: "expired", message: COUPON_MESSAGES.expired },
      });
      const off = await insertCoupon({ active: 0 });
      expect(await checkCoupon(t.db, off, 4_000, { now: before, currency: "USD" })).toMatchObject({
        ok: false,
        error: { code: "not-found" },
      });
    });
  });

  describe("applyCouponToCart / removeCouponFromCart", () => {
    it("puts the normalized code on the cart when it applies", async () => {
      const code = await insertCoupon({ kind: "fixed", amount: 500 });
      const cartId = await cartWorth(3_000);
      const result = await applyCouponToCart(t.db, {
        cartId,
        code: `  ${code.toLowerCase()} `,
        currency: "USD",
        subtotalCents: 3_000,
      });
      expect(result).toEqual({ ok: true, value: { code, discountCents: 500, label: `${code} ($5.00 off)` } });
      expect(await cartCoupon(cartId)).toBe(code);
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
      const result = await applyCouponToCart(t.db, { cartId, code, subtotalCents: 3_000, currency: "USD" });
      expect(result).toMatchObject({ ok: false, error: { message } });
      expect(await cartCoupon(cartId)).toBeNull();

      // a cart that already has a working code does not take the refused one in its place
      const good = await insertCoupon();
      expect(
        await applyCouponToCart(t.db, { cartId, code: good, subtotalCents: 3_000, currency: "USD" }),
      ).toMatchObject({
        ok: true,
      });
      expect(
        await applyCouponToCart(t.db, { cartId, code, subtotalCents: 3_000, currency: "USD" }),
      ).toMatchObject({
        ok: false,
      });
      expect(await cartCoupon(cartId)).toBe(good);
    });

    it("replaces one working code with another, and removes it", async () => {
      const first = await insertCoupon({ kind: "percent", amount: 10 });
      const second = await insertCoupon({ kind: "fixed", amount: 700 });
      const cartId = await cartWorth(4_000);
      await applyCouponToCart(t.db, { cartId, code: first, subtotalCents: 4_000, currency: "USD" });
      expect(await cartCoupon(cartId)).toBe(first);
      await applyCouponToCart(t.db, { cartId, code: second, subtotalCents: 4_000, currency: "USD" });
      expect(await cartCoupon(cartId)).toBe(second);
      expect((await getCart(t.db, cartId, SPEC_SHOP)).coupon).toEqual({
        code: second,
        label: `${second} ($7.00 off)`,
        discountCents: 700,
        source: "coupon",
      });

      await removeCouponFromCart(t.db, cartId);
      expect(await cartCoupon(cartId)).toBeNull();
      const cart = await getCart(t.db, cartId, SPEC_SHOP);
      expect(cart.coupon).toBeNull();
      expect(cart.couponProblem).toBeNull();
      expect(cart.totals).toMatchObject(specTotals(4_000));
      // removing twice, or from a cart with none, is harmless
      await removeCouponFromCart(t.db, cartId);
      await removeCouponFromCart(t.db, newCartId());
      expect(await cartCoupon(cartId)).toBeNull();
    });
  });

  describe("redeemCoupon / releaseCoupon", () => {
    it("counts uses up to the limit and no further", async () => {
      const code = await insertCoupon({ usageLimit: 2, usedCount: 0 });
      expect(await inTransaction<boolean>((trx) => redeemCoupon(trx, code))).toBe(true);
      expect(await inTransaction<boolean>((trx) => redeemCoupon(trx, code))).toBe(true);
      expect(await usedCount(code)).toBe(2);
      expect(await inTransaction<boolean>((trx) => redeemCoupon(trx, code))).toBe(false);
      expect(await usedCount(code)).toBe(2);
    });

    it("counts without a limit, refuses a disabled or unknown code", async () => {
      const unlimited = await insertCoupon({ usageLimit: null, usedCount: 41 });
      expect(await inTransaction<boolean>((trx) => redeemCoupon(trx, unlimited))).toBe(true);
      expect(await usedCount(unlimited)).toBe(42);
      const disabled = await insertCoupon({ active: 0 });
      expect(await inTransaction<boolean>((trx) => redeemCoupon(trx, disabled))).toBe(false);
      expect(await usedCount(disabled)).toBe(0);
      expect(await inTransaction<boolean>((trx) => redeemCoupon(trx, "NO-SUCH-CODE"))).toBe(false);
    });

    it("never passes the limit when 12 redemptions race for 5 uses", async () => {
      const code = await insertCoupon({ usageLimit: 5, usedCount: 0 });
      const results = await Promise.all(
        Array.from({ length: 12 }, () => inTransaction<boolean>((trx) => redeemCoupon(trx, code))),
      );
      expect(results.filter(Boolean)).toHaveLength(5);
      expect(await usedCount(code)).toBe(5);
    });

    it("gives a use back, never below 0", async () => {
      const code = await insertCoupon({ usageLimit: 1, usedCount: 1 });
      await inTransaction<void>((trx) => releaseCoupon(trx, code));
      expect(await usedCount(code)).toBe(0);
      await inTransaction<void>((trx) => releaseCoupon(trx, code));
      await inTransaction<void>((trx) => releaseCoupon(trx, code));
      expect(await usedCount(code)).toBe(0);
      // the use given back can be taken again
      expect(await inTransaction<boolean>((trx) => redeemCoupon(trx, code))).toBe(true);
      expect(await usedCount(code)).toBe(1);
    });
  });

  describe("getCart's coupon", () => {
    it("shows the discount of a working coupon in the totals", async () => {
      const code = await insertCoupon({ kind: "percent", amount: 15 });
      const cartId = await cartWorth(1_999, 2);
      await applyCouponToCart(t.db, { cartId, code, subtotalCents: 3_998, currency: "USD" });
      const cart = await getCart(t.db, cartId, SPEC_SHOP);
      expect(cart.coupon).toEqual({ code, label: `${code} (15% off)`, discountCents: 600, source: "coupon" });
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
      expect(
        await applyCouponToCart(t.db, { cartId, code, subtotalCents: 6_000, currency: "USD" }),
      ).toMatchObject({
        ok: true,
      });
      expect((await getCart(t.db, cartId, SPEC_SHOP)).totals.discountCents).toBe(1_000);

      await t.db
        .updateTable("coupons")
        .set({ expiresAt: new Date(Date.now() - 1_000).toISOString() })
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
      await applyCouponToCart(t.db, { cartId, code: limited, subtotalCents: 2_500, currency: "USD" });
      await t.db.updateTable("coupons").set({ usedCount: 1 }).where("code", "=", limited).execute();
      expect(await getCart(t.db, cartId, SPEC_SHOP)).toMatchObject({
        coupon: null,
        couponProblem: { code: limited, message: COUPON_MESSAGES.usedUp },
        totals: specTotals(2_500),
      });

      const minimum = await insertCoupon({ minSubtotalCents: 2_000 });
      const other = newCartId();
      const productId = await product({ priceCents: 1_200, stock: 5 });
      await addToCart(t.db, { cartId: other, productId, quantity: 2 });
      await applyCouponToCart(t.db, { cartId: other, code: minimum, subtotalCents: 2_400, currency: "USD" });
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
