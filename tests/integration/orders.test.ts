import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAYMENT_MESSAGES, type PaymentGateway } from "../../app/adapters/payments/payment-gateway.ts";
import { createTestGateway, mintTestToken } from "../../app/adapters/payments/test-gateway.server.ts";
import type { NewProduct } from "../../app/db/schema.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import type { ShippingDetails } from "../../app/domain/checkout/shipping-form.ts";
import { COUPON_MESSAGES } from "../../app/domain/coupons/coupon-rules.ts";
import {
  findOrderForTracking,
  getOrderByNumber,
  transitionOrder,
} from "../../app/domain/orders/orders.server.ts";
import { type PlaceOrderInput, placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import {
  insertImage,
  insertProduct,
  insertProductWithVariants,
  setVariantFields,
} from "../helpers/catalog.ts";
import {
  applyCoupon as applyCouponAtCart,
  couponUses,
  insertCoupon as insertCouponPromotion,
} from "../helpers/coupons.ts";
import { SPEC_SHOP, type SpecMethod, type SpecTotals, specTotals } from "../helpers/spec-pricing.ts";

const SECRET = "orders-integration-test-secret-0123456789";
const CARD = "4242424242424242";
const NOW = new Date("2026-11-20T15:30:00.000Z");

const SHIPPING: ShippingDetails = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "Ada.Lovelace@Example.com",
  phone: "+1 555 010 0199",
  address: "12 Analytical Way",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
  country: "US",
};

let keySequence = 0;
const newKey = () => `idem-${Date.now()}-${++keySequence}-${Math.random().toString(36).slice(2)}`;

/** The test gateway with every authorize / capture / void recorded, and an optional hook in authorize. */
function recordingGateway(base: PaymentGateway, beforeAnswer?: () => Promise<void>) {
  const authorized: string[] = [];
  const captured: string[] = [];
  const voided: string[] = [];
  const gateway: PaymentGateway = {
    name: "recording",
    browser: null,
    tokenize: (card) => base.tokenize(card),
    describeToken: (token) => base.describeToken(token),
    async authorize(input) {
      const result = await base.authorize(input);
      if (result.ok) authorized.push(result.authorizationId);
      if (beforeAnswer) await beforeAnswer();
      return result;
    },
    async capture(id) {
      captured.push(id);
      await base.capture(id);
    },
    async void(id) {
      voided.push(id);
      await base.void(id);
    },
    outcome: (key) => base.outcome(key),
    refund: (refund) => base.refund(refund),
    refundOutcome: (refund) => base.refundOutcome(refund),
  };
  return { gateway, authorized, captured, voided };
}

describe.each(ENGINES)("orders on %s", (engine) => {
  let t: TestDatabase;
  let base: PaymentGateway;

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    base = createTestGateway({ processingDelayMs: 0, secret: SECRET, db: t.db });
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const product = (overrides: Partial<NewProduct> = {}) => insertProduct(t.db, overrides);

  async function cardPayment(number = CARD) {
    const result = await base.tokenize({
      number,
      expMonth: 12,
      expYear: 2031,
      cvv: "123",
      name: "Ada Lovelace",
    });
    if (!result.ok) throw new Error(`tokenize failed: ${result.code}`);
    return { token: result.token, brand: result.brand, last4: result.last4 };
  }

  async function cartWith(lines: { productId: number; quantity: number }[]): Promise<string> {
    const cartId = newCartId();
    for (const line of lines) {
      const added = await addToCart(t.db, { cartId, ...line });
      expect(added).toMatchObject({ ok: true, value: { outcome: "added" } });
    }
    return cartId;
  }

  /** What the review step shows for the cart today. */
  async function reviewTotal(cartId: string, method: SpecMethod = "standard"): Promise<number> {
    const cart = await getCart(t.db, cartId, SPEC_SHOP);
    return specTotals(cart.totals.subtotalCents, {
      method,
      discountCents: cart.coupon?.discountCents ?? 0,
    }).totalCents;
  }

  async function input(cartId: string, overrides: Partial<PlaceOrderInput> = {}): Promise<PlaceOrderInput> {
    const method = (overrides.method ?? "standard") as SpecMethod;
    return {
      cartId,
      idempotencyKey: newKey(),
      shipping: SHIPPING,
      method,
      shop: SPEC_SHOP,
      payment: overrides.payment ?? (await cardPayment()),
      expectedTotalCents: await reviewTotal(cartId, method),
      now: NOW,
      ...overrides,
    };
  }

  async function insertCoupon(
    overrides: Partial<{
      code: string;
      kind: "percent" | "fixed";
      amount: number;
      minSubtotalCents: number;
      expiresAt: string | null;
      usageLimit: number | null;
      usedCount: number;
      active: 0 | 1;
    }> = {},
  ): Promise<string> {
    const code = overrides.code ?? `C${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
    // a coupon is a promotion with its code (migration 0780)
    await insertCouponPromotion(t.db, { ...overrides, code });
    return code;
  }

  async function applyCoupon(cartId: string, code: string) {
    const result = await applyCouponAtCart(t.db, { cartId, code });
    expect(result.ok).toBe(true);
  }

  const stockOf = async (id: number) =>
    (await t.db.selectFrom("products").select("stock").where("id", "=", id).executeTakeFirstOrThrow()).stock;
  const usedCount = (code: string) => couponUses(t.db, code);
  const cartLines = (cartId: string) =>
    t.db
      .selectFrom("cartItems")
      .select(["productId", "quantity"])
      .where("cartId", "=", cartId)
      .orderBy("productId")
      .execute();
  const cartCoupon = async (cartId: string) =>
    (await t.db.selectFrom("carts").select("couponCode").where("id", "=", cartId).executeTakeFirstOrThrow())
      .couponCode;
  async function rowCounts() {
    const count = async (table: "orders" | "orderItems" | "orderEvents") =>
      Number(
        (
          await t.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      orders: await count("orders"),
      items: await count("orderItems"),
      events: await count("orderEvents"),
    };
  }
  const ordersWithKey = (key: string) =>
    t.db
      .selectFrom("orders")
      .select(["id", "number", "status", "paymentError", "reservedUntil"])
      .where("idempotencyKey", "=", key)
      .execute();
  const eventsOf = async (orderId: number) =>
    (
      await t.db
        .selectFrom("orderEvents")
        .select(["fromStatus", "toStatus"])
        .where("orderId", "=", orderId)
        .orderBy("id")
        .execute()
    ).map((e) => [e.fromStatus, e.toStatus]);

  describe("placeOrder", () => {
    it("places a paid order: totals, item snapshots, stock, cart, event, card brand and last 4", async () => {
      const a = await product({ name: "Aurora Lamp", brand: "Lumen", priceCents: 1_250, stock: 10 });
      const b = await product({ name: "Bolt Speaker", brand: "Sonic", priceCents: 899, stock: 4 });
      const imageKey = await insertImage(t.db, a, 0);
      const cartId = await cartWith([
        { productId: a, quantity: 2 },
        { productId: b, quantity: 1 },
      ]);
      const request = await input(cartId);
      const expected = specTotals(2 * 1_250 + 899, { method: "standard" });
      expect(expected).toEqual({
        subtotalCents: 3_399,
        discountCents: 0,
        shippingCents: 499,
        taxCents: 238,
        totalCents: 4_136,
      });
      expect(request.expectedTotalCents).toBe(4_136);

      const result = await placeOrder(t.db, base, request);
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.value.replayed).toBe(false);
      expect(result.value.order.number).toMatch(/^CW-[0-9A-Z]{10}$/);
      expect(result.value.order).toMatchObject({
        email: SHIPPING.email,
        totalCents: 4_136,
        estimatedDelivery: "2026-11-25",
      });

      const row = await t.db
        .selectFrom("orders")
        .selectAll()
        .where("id", "=", result.value.order.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        number: result.value.order.number,
        idempotencyKey: request.idempotencyKey,
        userId: null,
        email: SHIPPING.email,
        firstName: "Ada",
        lastName: "Lovelace",
        phone: SHIPPING.phone,
        address: SHIPPING.address,
        city: "Springfield",
        state: "IL",
        zipCode: "62701",
        country: "US",
        shippingMethod: "standard",
        status: "paid",
        couponCode: null,
        paymentBrand: "Visa",
        paymentLast4: "4242",
        estimatedDelivery: "2026-11-25",
        createdAt: NOW.toISOString(),
        updatedAt: NOW.toISOString(),
        ...expected,
      });
      expect(row.paymentReference).toMatch(/^auth_test_/);

      const details = await getOrderByNumber(t.db, result.value.order.number);
      expect(details?.items).toEqual([
        {
          productId: a,
          productSlug: expect.stringMatching(/^test-product-/),
          name: "Aurora Lamp",
          variantTitle: "",
          sku: `CW-${a}`,
          brand: "Lumen",
          imageKey,
          unitPriceCents: 1_250,
          quantity: 2,
          lineTotalCents: 2_500,
        },
        {
          productId: b,
          productSlug: expect.stringMatching(/^test-product-/),
          name: "Bolt Speaker",
          variantTitle: "",
          sku: `CW-${b}`,
          brand: "Sonic",
          imageKey: null,
          unitPriceCents: 899,
          quantity: 1,
          lineTotalCents: 899,
        },
      ]);
      expect(details?.totals).toMatchObject(expected);
      expect(details?.payment).toEqual({ brand: "Visa", last4: "4242" });

      expect(await stockOf(a)).toBe(8);
      expect(await stockOf(b)).toBe(3);
      expect(await cartLines(cartId)).toEqual([]);
      expect(await cartCoupon(cartId)).toBeNull();
      expect(
        await t.db
          .selectFrom("orderEvents")
          .select(["fromStatus", "toStatus", "actor", "createdAt"])
          .where("orderId", "=", result.value.order.id)
          .execute(),
      ).toEqual([
        { fromStatus: null, toStatus: "pending_payment", actor: "checkout", createdAt: NOW.toISOString() },
        { fromStatus: "pending_payment", toStatus: "paid", actor: "checkout", createdAt: NOW.toISOString() },
      ]);
    });

    it("charges free standard shipping from $50, $9.99 express, and dates delivery from `now`", async () => {
      const p = await product({ priceCents: 2_500, stock: 20 });
      const cases: [SpecMethod, number, Partial<SpecTotals>, string][] = [
        [
          "standard",
          2,
          { subtotalCents: 5_000, shippingCents: 0, taxCents: 350, totalCents: 5_350 },
          "2026-11-25",
        ],
        [
          "express",
          2,
          { subtotalCents: 5_000, shippingCents: 999, taxCents: 350, totalCents: 6_349 },
          "2026-11-22",
        ],
        [
          "express",
          1,
          { subtotalCents: 2_500, shippingCents: 999, taxCents: 175, totalCents: 3_674 },
          "2026-11-22",
        ],
      ];
      for (const [method, quantity, totals, delivery] of cases) {
        const cartId = await cartWith([{ productId: p, quantity }]);
        const result = await placeOrder(t.db, base, await input(cartId, { method }));
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        expect(result.value.order.estimatedDelivery).toBe(delivery);
        const details = await getOrderByNumber(t.db, result.value.order.number);
        expect(details?.shippingMethod).toBe(method);
        expect(details?.estimatedDelivery).toBe(delivery);
        expect(details?.totals).toMatchObject({ discountCents: 0, ...totals });
      }
      // a `now` late in the UTC day still counts whole days from that date
      const late = await cartWith([{ productId: p, quantity: 1 }]);
      const result = await placeOrder(
        t.db,
        base,
        await input(late, { method: "express", now: new Date("2026-12-31T23:59:59.000Z") }),
      );
      expect(result).toMatchObject({ ok: true, value: { order: { estimatedDelivery: "2027-01-02" } } });
      expect(await stockOf(p)).toBe(20 - 2 - 2 - 1 - 1);
    });

    it.each([
      ["card_declined", PAYMENT_MESSAGES.card_declined],
      ["insufficient_funds", PAYMENT_MESSAGES.insufficient_funds],
    ] as const)(
      "answers a charge-time %s with its message, failing the reserved order and giving its stock back",
      async (outcome, message) => {
        const p = await product({ stock: 3 });
        const cartId = await cartWith([{ productId: p, quantity: 2 }]);
        const token = mintTestToken(outcome, { secret: SECRET });
        const request = await input(cartId, { payment: { token, brand: "Visa", last4: "4242" } });
        const recorder = recordingGateway(base);
        expect(await placeOrder(t.db, recorder.gateway, request)).toEqual({
          ok: false,
          error: { code: "payment-declined", message },
        });
        expect(message).toMatch(/Please use a different card\.$/);
        expect(recorder.authorized).toEqual([]);
        expect(recorder.captured).toEqual([]);
        const [failed] = await ordersWithKey(request.idempotencyKey);
        expect(failed).toMatchObject({
          status: "payment_failed",
          paymentError: message,
          reservedUntil: null,
        });
        expect(await eventsOf(failed!.id)).toEqual([
          [null, "pending_payment"],
          ["pending_payment", "payment_failed"],
        ]);
        expect(await stockOf(p)).toBe(3);
        expect(await cartLines(cartId)).toEqual([{ productId: p, quantity: 2 }]);
        // the same submission again gets the same answer, and charges nothing
        expect(await placeOrder(t.db, recorder.gateway, request)).toEqual({
          ok: false,
          error: { code: "payment-declined", message },
        });
        expect(await stockOf(p)).toBe(3);
      },
    );

    it("refuses a token that is not the gateway's", async () => {
      const p = await product({ stock: 3 });
      const cartId = await cartWith([{ productId: p, quantity: 1 }]);
      const foreign = mintTestToken("approve", { secret: "some-other-secret-entirely-0123456789" });
      const result = await placeOrder(
        t.db,
        base,
        await input(cartId, { payment: { token: foreign, brand: "Visa", last4: "4242" } }),
      );
      expect(result).toEqual({
        ok: false,
        error: { code: "payment-declined", message: PAYMENT_MESSAGES.invalid_token },
      });
      expect(await stockOf(p)).toBe(3);
      expect(await cartLines(cartId)).toEqual([{ productId: p, quantity: 1 }]);
    });

    it("refuses an empty cart", async () => {
      const before = await rowCounts();
      const result = await placeOrder(t.db, base, {
        cartId: newCartId(),
        idempotencyKey: newKey(),
        shipping: SHIPPING,
        method: "standard",
        shop: SPEC_SHOP,
        payment: await cardPayment(),
        expectedTotalCents: 0,
        now: NOW,
      });
      expect(result).toEqual({ ok: false, error: { code: "empty-cart" } });
      expect(await rowCounts()).toEqual(before);
    });

    it("names the product when its stock fell below the cart's quantity, and writes nothing", async () => {
      const keep = await product({ name: "Kept Item", stock: 9 });
      const short = await product({ name: "Scarce Item", stock: 5 });
      const cartId = await cartWith([
        { productId: keep, quantity: 1 },
        { productId: short, quantity: 3 },
      ]);
      const request = await input(cartId);
      await setVariantFields(t.db, short, { stock: 2 });
      const before = await rowCounts();
      const recorder = recordingGateway(base);
      expect(await placeOrder(t.db, recorder.gateway, request)).toEqual({
        ok: false,
        error: { code: "out-of-stock", productName: "Scarce Item" },
      });
      expect(recorder.authorized).toEqual([]);
      expect(await rowCounts()).toEqual(before);
      expect(await stockOf(keep)).toBe(9);
      expect(await stockOf(short)).toBe(2);
      expect(await cartLines(cartId)).toHaveLength(2);
    });

    it("names an archived product as out of stock, and writes nothing", async () => {
      const gone = await product({ name: "Retired Item", stock: 5 });
      const cartId = await cartWith([{ productId: gone, quantity: 1 }]);
      const request = await input(cartId);
      await t.db
        .updateTable("products")
        .set({ archivedAt: "2026-11-01T00:00:00.000Z" })
        .where("id", "=", gone)
        .execute();
      const before = await rowCounts();
      expect(await placeOrder(t.db, base, request)).toEqual({
        ok: false,
        error: { code: "out-of-stock", productName: "Retired Item" },
      });
      expect(await rowCounts()).toEqual(before);
      expect(await stockOf(gone)).toBe(5);
      expect(await cartLines(cartId)).toEqual([{ productId: gone, quantity: 1 }]);
    });

    it("answers price-changed with the new total when the price moved since the review", async () => {
      const p = await product({ priceCents: 2_000, stock: 5 });
      const cartId = await cartWith([{ productId: p, quantity: 2 }]);
      const request = await input(cartId);
      expect(request.expectedTotalCents).toBe(4_000 + 499 + 280);
      await setVariantFields(t.db, p, { priceCents: 2_600 });
      const before = await rowCounts();
      const recorder = recordingGateway(base);
      const result = await placeOrder(t.db, recorder.gateway, request);
      expect(result).toEqual({
        ok: false,
        error: { code: "price-changed", totalCents: specTotals(5_200).totalCents },
      });
      expect(result).toEqual({ ok: false, error: { code: "price-changed", totalCents: 5_200 + 0 + 364 } });
      expect(recorder.authorized).toEqual([]);
      expect(await rowCounts()).toEqual(before);
      expect(await stockOf(p)).toBe(5);
      expect(await cartLines(cartId)).toEqual([{ productId: p, quantity: 2 }]);

      // with the new total the same cart goes through
      const retry = await placeOrder(t.db, base, { ...request, expectedTotalCents: 5_564 });
      expect(retry).toMatchObject({ ok: true, value: { order: { totalCents: 5_564 } } });
    });

    it("charges the reserved order's total when the price changes while the card is charged", async () => {
      const p = await product({ priceCents: 1_500, stock: 6 });
      const cartId = await cartWith([{ productId: p, quantity: 2 }]);
      const request = await input(cartId);
      const recorder = recordingGateway(base, async () => {
        await setVariantFields(t.db, p, { priceCents: 1_600 });
      });
      const result = await placeOrder(t.db, recorder.gateway, request);
      // the price was read when the stock was reserved: the order and the charge agree
      expect(result).toMatchObject({
        ok: true,
        value: { order: { totalCents: request.expectedTotalCents } },
      });
      // one call authorized and captured it
      expect(recorder.authorized).toHaveLength(1);
      expect(recorder.captured).toEqual([]);
      const outcome = await base.outcome(request.idempotencyKey);
      expect(outcome).toMatchObject({ status: "captured", amountCents: request.expectedTotalCents });
      expect(await stockOf(p)).toBe(4);
    });

    it("holds the reserved stock while the card is charged: a buyer meanwhile finds it gone", async () => {
      const p = await product({ name: "Last One", stock: 1 });
      const cartId = await cartWith([{ productId: p, quantity: 1 }]);
      const rival = await cartWith([{ productId: p, quantity: 1 }]);
      const request = await input(cartId);
      const rivalRequest = await input(rival);
      let rivalResult: Awaited<ReturnType<typeof placeOrder>> | null = null;
      const recorder = recordingGateway(base, async () => {
        rivalResult = await placeOrder(t.db, base, rivalRequest);
      });
      expect(await placeOrder(t.db, recorder.gateway, request)).toMatchObject({ ok: true });
      expect(rivalResult).toEqual({ ok: false, error: { code: "out-of-stock", productName: "Last One" } });
      expect(await ordersWithKey(rivalRequest.idempotencyKey)).toEqual([]);
      expect(await stockOf(p)).toBe(0);
    });

    it("replays a repeated submission (same idempotency key) as the same order", async () => {
      const p = await product({ stock: 10 });
      const cartId = await cartWith([{ productId: p, quantity: 2 }]);
      const request = await input(cartId);
      const first = await placeOrder(t.db, base, request);
      expect(first).toMatchObject({ ok: true, value: { replayed: false } });
      const recorder = recordingGateway(base);
      const second = await placeOrder(t.db, recorder.gateway, request);
      expect(second).toEqual({
        ok: true,
        value: { replayed: true, order: first.ok ? first.value.order : null, redirectUrl: null },
      });
      expect(recorder.authorized).toEqual([]);
      expect(await ordersWithKey(request.idempotencyKey)).toHaveLength(1);
      expect(await stockOf(p)).toBe(8);
    });

    it("makes one order of two concurrent submissions of the same cart (a double click)", async () => {
      // Repeated: the second submission may reach any point of the first one's work (before its
      // transaction, during it, or after it emptied the cart); every timing must replay the order.
      const p = await product({ stock: 40 });
      for (let round = 0; round < 8; round++) {
        const cartId = await cartWith([{ productId: p, quantity: 3 }]);
        const request = await input(cartId);
        const before = await rowCounts();
        const results = await Promise.all([placeOrder(t.db, base, request), placeOrder(t.db, base, request)]);
        expect(results.map((r) => r.ok)).toEqual([true, true]);
        const placed = results.flatMap((r) => (r.ok ? [r.value] : []));
        expect(placed.map((r) => r.replayed).sort()).toEqual([false, true]);
        expect(new Set(placed.map((r) => r.order.number)).size).toBe(1);
        const orders = await ordersWithKey(request.idempotencyKey);
        expect(orders).toHaveLength(1);
        expect(orders[0]!.number).toBe(placed[0]!.order.number);
        expect(await rowCounts()).toEqual({
          orders: before.orders + 1,
          items: before.items + 1,
          events: before.events + 2,
        });
        expect(await stockOf(p)).toBe(40 - 3 * (round + 1));
        expect(await cartLines(cartId)).toEqual([]);
      }
    });

    it("replays the order when the twin completes between this submission's key lookup and its cart read", async () => {
      const p = await product({ stock: 10 });
      const code = await insertCoupon({ kind: "fixed", amount: 100 });
      const cartId = await cartWith([{ productId: p, quantity: 2 }]);
      await applyCoupon(cartId, code);
      const request = await input(cartId);
      // this submission's first answer from the database (the idempotency lookup: none yet) is
      // held back until the twin has placed the order and emptied the cart
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let held = false;
      const slowDb = t.db.withPlugin({
        transformQuery: (args) => args.node,
        async transformResult(args) {
          if (!held) {
            held = true;
            await gate;
          }
          return args.result;
        },
      });
      const late = placeOrder(slowDb, base, request);
      const first = await placeOrder(t.db, base, request);
      expect(first).toMatchObject({ ok: true, value: { replayed: false } });
      expect(await cartLines(cartId)).toEqual([]);
      release();
      const second = await late;
      expect(held).toBe(true);
      expect(second).toEqual({
        ok: true,
        value: { replayed: true, order: first.ok ? first.value.order : null, redirectUrl: null },
      });
      expect(await ordersWithKey(request.idempotencyKey)).toHaveLength(1);
      expect(await stockOf(p)).toBe(8);
      expect(await usedCount(code)).toBe(1);
    });

    it("makes one order of two concurrent submissions with one key from two identical carts", async () => {
      const p = await product({ stock: 10 });
      const first = await cartWith([{ productId: p, quantity: 2 }]);
      const second = await cartWith([{ productId: p, quantity: 2 }]);
      const request = await input(first);
      const before = await rowCounts();
      const results = await Promise.all([
        placeOrder(t.db, base, request),
        placeOrder(t.db, base, { ...request, cartId: second }),
      ]);
      const placed = results.flatMap((r) => (r.ok ? [r.value] : []));
      expect(placed).toHaveLength(2);
      expect(placed.map((r) => r.replayed).sort()).toEqual([false, true]);
      expect(placed[0]!.order.number).toBe(placed[1]!.order.number);
      expect(await ordersWithKey(request.idempotencyKey)).toHaveLength(1);
      expect(await rowCounts()).toEqual({
        orders: before.orders + 1,
        items: before.items + 1,
        // placed as pending_payment, then paid
        events: before.events + 2,
      });
      expect(await stockOf(p)).toBe(8);
      const emptied = [await cartLines(first), await cartLines(second)].filter((lines) => lines.length === 0);
      expect(emptied).toHaveLength(1);
    });

    it("takes a percent coupon off before tax and counts its use", async () => {
      const code = await insertCoupon({ kind: "percent", amount: 10, usageLimit: 100, usedCount: 4 });
      const p = await product({ priceCents: 3_000, stock: 5 });
      const cartId = await cartWith([{ productId: p, quantity: 2 }]);
      await applyCoupon(cartId, code.toLowerCase());
      expect(await cartCoupon(cartId)).toBe(code);
      const request = await input(cartId);
      const expected = specTotals(6_000, { discountCents: 600 });
      expect(expected).toEqual({
        subtotalCents: 6_000,
        discountCents: 600,
        shippingCents: 0,
        taxCents: 378,
        totalCents: 5_778,
      });
      expect(request.expectedTotalCents).toBe(5_778);
      const result = await placeOrder(t.db, base, request);
      expect(result).toMatchObject({ ok: true, value: { order: { totalCents: 5_778 } } });
      if (!result.ok) return;
      const details = await getOrderByNumber(t.db, result.value.order.number);
      expect(details?.totals).toMatchObject(expected);
      expect(details?.couponCode).toBe(code);
      expect(await usedCount(code)).toBe(5);
      expect(await cartCoupon(cartId)).toBeNull();
    });

    it("takes a fixed coupon off before tax; standard shipping still looks at the undiscounted subtotal", async () => {
      const code = await insertCoupon({ kind: "fixed", amount: 1_000, usageLimit: null });
      const p = await product({ priceCents: 5_500, stock: 5 });
      const cartId = await cartWith([{ productId: p, quantity: 1 }]);
      await applyCoupon(cartId, code);
      const result = await placeOrder(t.db, base, await input(cartId));
      // 5,500 − 1,000 = 4,500 taxable; 7 % = 315; shipping free (5,500 ≥ 5,000)
      expect(result).toMatchObject({ ok: true, value: { order: { totalCents: 4_815 } } });
      if (!result.ok) return;
      expect((await getOrderByNumber(t.db, result.value.order.number))?.totals).toMatchObject({
        subtotalCents: 5_500,
        discountCents: 1_000,
        shippingCents: 0,
        taxCents: 315,
        totalCents: 4_815,
      });
      expect(await usedCount(code)).toBe(1);
    });

    it("gives a single-use coupon to one of two concurrent orders and refuses the other cleanly", async () => {
      const code = await insertCoupon({ kind: "fixed", amount: 500, usageLimit: 1 });
      const p = await product({ priceCents: 2_000, stock: 10 });
      const q = await product({ priceCents: 2_000, stock: 10 });
      const carts = [
        await cartWith([{ productId: p, quantity: 1 }]),
        await cartWith([{ productId: q, quantity: 1 }]),
      ];
      for (const cartId of carts) await applyCoupon(cartId, code);
      const requests = await Promise.all(carts.map((cartId) => input(cartId)));
      expect(requests.map((r) => r.expectedTotalCents)).toEqual([1_500 + 499 + 105, 1_500 + 499 + 105]);
      const before = await rowCounts();
      const recorders = [recordingGateway(base), recordingGateway(base)];
      const results = await Promise.all(requests.map((r, i) => placeOrder(t.db, recorders[i]!.gateway, r)));

      expect(results.filter((r) => r.ok)).toHaveLength(1);
      const refused = results.findIndex((r) => !r.ok);
      expect(results[refused]).toEqual({
        ok: false,
        error: { code: "coupon-invalid", message: COUPON_MESSAGES.usedUp },
      });
      const winner = 1 - refused;
      expect(await usedCount(code)).toBe(1);
      expect(await rowCounts()).toEqual({
        orders: before.orders + 1,
        items: before.items + 1,
        // placed as pending_payment, then paid
        events: before.events + 2,
      });
      expect(await ordersWithKey(requests[refused]!.idempotencyKey)).toEqual([]);
      const products = [p, q];
      expect(await stockOf(products[winner]!)).toBe(9);
      expect(await stockOf(products[refused]!)).toBe(10);
      expect(await cartLines(carts[winner]!)).toEqual([]);
      expect(await cartLines(carts[refused]!)).toEqual([{ productId: products[refused]!, quantity: 1 }]);
      expect(await cartCoupon(carts[refused]!)).toBe(code);
      // the loser was refused at the reservation: its card was never charged
      expect(recorders[refused]!.authorized).toEqual([]);
      expect(recorders[refused]!.captured).toEqual([]);
      expect(recorders[winner]!.authorized).toHaveLength(1);
      expect(await base.outcome(requests[winner]!.idempotencyKey)).toMatchObject({ status: "captured" });
      expect(recorders[winner]!.voided).toEqual([]);
    });

    it("refuses an order whose cart coupon has expired, writing nothing", async () => {
      const code = await insertCoupon({ kind: "percent", amount: 20 });
      const p = await product({ priceCents: 1_000, stock: 5 });
      const cartId = await cartWith([{ productId: p, quantity: 1 }]);
      await applyCoupon(cartId, code);
      const request = await input(cartId);
      await t.db
        .updateTable("promotions")
        .set({ endsAt: new Date(Math.min(Date.now(), NOW.getTime()) - 60_000).toISOString() })
        .where("code", "=", code)
        .execute();
      const before = await rowCounts();
      expect(await placeOrder(t.db, base, request)).toEqual({
        ok: false,
        error: { code: "coupon-invalid", message: COUPON_MESSAGES.expired },
      });
      expect(await rowCounts()).toEqual(before);
      expect(await usedCount(code)).toBe(0);
      expect(await stockOf(p)).toBe(5);
      expect(await cartLines(cartId)).toEqual([{ productId: p, quantity: 1 }]);
    });

    it("sells exactly the stock when 50 carts race for 5 units", async () => {
      const p = await product({ name: "Hot Item", priceCents: 1_000, stock: 5 });
      const carts = await Promise.all(
        Array.from({ length: 50 }, () => cartWith([{ productId: p, quantity: 1 }])),
      );
      const payment = await cardPayment();
      const requests = await Promise.all(carts.map((cartId) => input(cartId, { payment })));
      expect(new Set(requests.map((r) => r.expectedTotalCents))).toEqual(new Set([1_000 + 499 + 70]));
      const before = await rowCounts();

      const results = await Promise.all(requests.map((r) => placeOrder(t.db, base, r)));

      const placed = results.flatMap((r) => (r.ok ? [r.value] : []));
      expect(placed).toHaveLength(5);
      expect(placed.every((r) => !r.replayed)).toBe(true);
      expect(new Set(placed.map((r) => r.order.number)).size).toBe(5);
      expect(results.filter((r) => !r.ok && r.error.code === "out-of-stock")).toEqual(
        Array.from({ length: 45 }, () => ({
          ok: false,
          error: { code: "out-of-stock", productName: "Hot Item" },
        })),
      );
      expect(await stockOf(p)).toBe(0);
      const negative = await t.db.selectFrom("products").select("id").where("stock", "<", 0).execute();
      expect(negative).toEqual([]);
      expect(await rowCounts()).toEqual({
        orders: before.orders + 5,
        items: before.items + 5,
        events: before.events + 10,
      });
      const items = await t.db
        .selectFrom("orderItems")
        .select((eb) => [eb.fn.countAll().as("rows"), eb.fn.sum<number | string>("quantity").as("units")])
        .where("productId", "=", p)
        .executeTakeFirstOrThrow();
      expect({ rows: Number(items.rows), units: Number(items.units) }).toEqual({ rows: 5, units: 5 });
      const emptied = (await Promise.all(carts.map(cartLines))).filter((lines) => lines.length === 0);
      expect(emptied).toHaveLength(5);
    });
    it("sells exactly one variant's stock when 50 carts race for its 5 units, leaving the others", async () => {
      const sku = `RACE-${Date.now().toString(36)}`;
      const { productId, variantIds } = await insertProductWithVariants(t.db, {
        name: "Race Tee",
        options: [{ name: "Size", values: ["S", "M"] }],
        variants: [
          { values: ["S"], sku: `${sku}-S`, priceCents: 1_000, stock: 10 },
          { values: ["M"], sku: `${sku}-M`, priceCents: 1_000, stock: 5 },
        ],
      });
      const [small, medium] = variantIds as [number, number];
      const carts = await Promise.all(
        Array.from({ length: 50 }, async () => {
          const cartId = newCartId();
          const added = await addToCart(t.db, { cartId, productId, variantId: medium, quantity: 1 });
          expect(added).toMatchObject({ ok: true, value: { outcome: "added" } });
          return cartId;
        }),
      );
      const payment = await cardPayment();
      const requests = await Promise.all(carts.map((cartId) => input(cartId, { payment })));

      const results = await Promise.all(requests.map((r) => placeOrder(t.db, base, r)));

      expect(results.filter((r) => r.ok)).toHaveLength(5);
      expect(results.filter((r) => !r.ok && r.error.code === "out-of-stock")).toHaveLength(45);
      const stocks = await t.db
        .selectFrom("productVariants")
        .select(["id", "stock"])
        .where("productId", "=", productId)
        .orderBy("id")
        .execute();
      expect(stocks).toEqual([
        { id: small, stock: 10 },
        { id: medium, stock: 0 },
      ]);
      // the product's summed stock follows its variants, and its option facets: M sold out
      expect(await stockOf(productId)).toBe(10);
      const facetsOf = async () =>
        (
          await t.db
            .selectFrom("products")
            .select("variantFacets")
            .where("id", "=", productId)
            .executeTakeFirstOrThrow()
        ).variantFacets;
      expect(await facetsOf()).toBe("1000\tSize\u001fS\n!1000\tSize\u001fM");
      const items = await t.db
        .selectFrom("orderItems")
        .select(["variantId", "variantTitle", "sku", "quantity"])
        .where("productId", "=", productId)
        .execute();
      expect(items).toHaveLength(5);
      for (const item of items) {
        expect(item).toEqual({ variantId: medium, variantTitle: "Size: M", sku: `${sku}-M`, quantity: 1 });
      }

      // a cancellation gives the units back to that variant, and the product's stock follows
      const order = results.find((r) => r.ok);
      if (!order?.ok) throw new Error("no order placed");
      const cancelled = await transitionOrder(t.db, {
        orderId: order.value.order.id,
        to: "cancelled",
        actor: "system",
      });
      expect(cancelled.ok).toBe(true);
      expect(
        (
          await t.db
            .selectFrom("productVariants")
            .select("stock")
            .where("id", "=", medium)
            .executeTakeFirstOrThrow()
        ).stock,
      ).toBe(1);
      expect(await stockOf(productId)).toBe(11);
      expect(await facetsOf()).toBe("1000\tSize\u001fS\n1000\tSize\u001fM");
    });
  });

  describe("transitionOrder", () => {
    async function placedOrder(lines: { productId: number; quantity: number }[], coupon?: string) {
      const cartId = await cartWith(lines);
      if (coupon) await applyCoupon(cartId, coupon);
      const result = await placeOrder(t.db, base, await input(cartId));
      if (!result.ok) throw new Error(`not placed: ${result.error.code}`);
      return result.value.order;
    }
    const events = (orderId: number) =>
      t.db
        .selectFrom("orderEvents")
        .select(["fromStatus", "toStatus", "actor", "createdAt"])
        .where("orderId", "=", orderId)
        .orderBy("id")
        .execute();
    const statusOf = async (orderId: number) =>
      (await t.db.selectFrom("orders").select("status").where("id", "=", orderId).executeTakeFirstOrThrow())
        .status;

    it("moves paid → shipped → delivered, logging each step, and refuses to cancel a delivered order", async () => {
      const p = await product({ stock: 5 });
      const order = await placedOrder([{ productId: p, quantity: 2 }]);
      const shippedAt = new Date("2026-11-21T09:00:00.000Z");
      const deliveredAt = new Date("2026-11-24T17:00:00.000Z");
      expect(
        await transitionOrder(t.db, { orderId: order.id, to: "shipped", actor: "admin-1", now: shippedAt }),
      ).toEqual({ ok: true, value: { from: "paid", to: "shipped" } });
      expect(
        await transitionOrder(t.db, {
          orderId: order.id,
          to: "delivered",
          actor: "admin-2",
          now: deliveredAt,
        }),
      ).toEqual({ ok: true, value: { from: "shipped", to: "delivered" } });
      expect(await transitionOrder(t.db, { orderId: order.id, to: "cancelled", actor: "admin-1" })).toEqual({
        ok: false,
        error: { code: "not-allowed", from: "delivered" },
      });
      expect(await statusOf(order.id)).toBe("delivered");
      expect(await stockOf(p)).toBe(3);
      expect(await events(order.id)).toEqual([
        { fromStatus: null, toStatus: "pending_payment", actor: "checkout", createdAt: NOW.toISOString() },
        { fromStatus: "pending_payment", toStatus: "paid", actor: "checkout", createdAt: NOW.toISOString() },
        { fromStatus: "paid", toStatus: "shipped", actor: "admin-1", createdAt: shippedAt.toISOString() },
        {
          fromStatus: "shipped",
          toStatus: "delivered",
          actor: "admin-2",
          createdAt: deliveredAt.toISOString(),
        },
      ]);
      const row = await t.db
        .selectFrom("orders")
        .select("updatedAt")
        .where("id", "=", order.id)
        .executeTakeFirstOrThrow();
      expect(row.updatedAt).toBe(deliveredAt.toISOString());
    });

    it("rolls the whole cancellation back (status, stock, event) when a write in the same transaction fails", async () => {
      const p = await product({ stock: 5 });
      const order = await placedOrder([{ productId: p, quantity: 2 }]);
      const seen: Array<{ from: string; to: string }> = [];
      await expect(
        transitionOrder(t.db, {
          orderId: order.id,
          to: "cancelled",
          actor: "admin",
          inSameTransaction: async (_trx, change) => {
            seen.push(change);
            throw new Error("audit store unavailable");
          },
        }),
      ).rejects.toThrow("audit store unavailable");
      expect(seen).toEqual([{ from: "paid", to: "cancelled" }]);
      expect(await statusOf(order.id)).toBe("paid");
      expect(await stockOf(p)).toBe(3);
      expect((await events(order.id)).map((e) => e.toStatus)).toEqual(["pending_payment", "paid"]);
    });

    it("refuses shipped → cancelled and paid → delivered without a trace", async () => {
      const p = await product({ stock: 5 });
      const shipped = await placedOrder([{ productId: p, quantity: 1 }]);
      expect(
        await transitionOrder(t.db, { orderId: shipped.id, to: "shipped", actor: "admin" }),
      ).toMatchObject({
        ok: true,
      });
      expect(await transitionOrder(t.db, { orderId: shipped.id, to: "cancelled", actor: "admin" })).toEqual({
        ok: false,
        error: { code: "not-allowed", from: "shipped" },
      });
      expect(await statusOf(shipped.id)).toBe("shipped");
      expect(await stockOf(p)).toBe(4);
      expect((await events(shipped.id)).map((e) => e.toStatus)).toEqual([
        "pending_payment",
        "paid",
        "shipped",
      ]);

      const paid = await placedOrder([{ productId: p, quantity: 1 }]);
      expect(await transitionOrder(t.db, { orderId: paid.id, to: "delivered", actor: "admin" })).toEqual({
        ok: false,
        error: { code: "not-allowed", from: "paid" },
      });
      expect(await transitionOrder(t.db, { orderId: paid.id, to: "paid", actor: "admin" })).toEqual({
        ok: false,
        error: { code: "not-allowed", from: "paid" },
      });
      expect(await statusOf(paid.id)).toBe("paid");
      expect((await events(paid.id)).map((e) => e.toStatus)).toEqual(["pending_payment", "paid"]);
      expect(await transitionOrder(t.db, { orderId: 987_654_321, to: "shipped", actor: "admin" })).toEqual({
        ok: false,
        error: { code: "not-found" },
      });
    });

    it("cancelling a paid order puts the stock back and gives the coupon use back, once", async () => {
      const code = await insertCoupon({ kind: "percent", amount: 15, usageLimit: 5, usedCount: 2 });
      const a = await product({ stock: 6 });
      const b = await product({ stock: 3 });
      const order = await placedOrder(
        [
          { productId: a, quantity: 4 },
          { productId: b, quantity: 3 },
        ],
        code,
      );
      expect(await stockOf(a)).toBe(2);
      expect(await stockOf(b)).toBe(0);
      expect(await usedCount(code)).toBe(3);

      const at = new Date("2026-11-21T10:00:00.000Z");
      expect(
        await transitionOrder(t.db, { orderId: order.id, to: "cancelled", actor: "admin-9", now: at }),
      ).toEqual({
        ok: true,
        value: { from: "paid", to: "cancelled" },
      });
      expect(await statusOf(order.id)).toBe("cancelled");
      expect(await stockOf(a)).toBe(6);
      expect(await stockOf(b)).toBe(3);
      expect(await usedCount(code)).toBe(2);
      expect(await events(order.id)).toEqual([
        { fromStatus: null, toStatus: "pending_payment", actor: "checkout", createdAt: NOW.toISOString() },
        { fromStatus: "pending_payment", toStatus: "paid", actor: "checkout", createdAt: NOW.toISOString() },
        { fromStatus: "paid", toStatus: "cancelled", actor: "admin-9", createdAt: at.toISOString() },
      ]);

      // cancelling again (or shipping a cancelled order) changes nothing
      expect(await transitionOrder(t.db, { orderId: order.id, to: "cancelled", actor: "admin-9" })).toEqual({
        ok: false,
        error: { code: "not-allowed", from: "cancelled" },
      });
      expect(
        await transitionOrder(t.db, { orderId: order.id, to: "shipped", actor: "admin-9" }),
      ).toMatchObject({
        ok: false,
      });
      expect(await stockOf(a)).toBe(6);
      expect(await usedCount(code)).toBe(2);
      expect(await events(order.id)).toHaveLength(3);
    });

    it("lets only one of two concurrent cancellations restore the stock", async () => {
      const p = await product({ stock: 4 });
      const order = await placedOrder([{ productId: p, quantity: 3 }]);
      expect(await stockOf(p)).toBe(1);
      const results = await Promise.all([
        transitionOrder(t.db, { orderId: order.id, to: "cancelled", actor: "a" }),
        transitionOrder(t.db, { orderId: order.id, to: "cancelled", actor: "b" }),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(await stockOf(p)).toBe(4);
      expect((await events(order.id)).map((e) => e.toStatus)).toEqual([
        "pending_payment",
        "paid",
        "cancelled",
      ]);
    });
  });

  describe("findOrderForTracking", () => {
    it("finds the order by number and e-mail in any case with surrounding spaces, else null", async () => {
      const p = await product({ stock: 5 });
      const cartId = await cartWith([{ productId: p, quantity: 1 }]);
      const result = await placeOrder(t.db, base, await input(cartId));
      if (!result.ok) throw new Error(result.error.code);
      const { number } = result.value.order;

      for (const [n, email] of [
        [number, SHIPPING.email],
        [number.toLowerCase(), "ada.lovelace@example.com"],
        [`  ${number.toLowerCase()}  `, "  ADA.LOVELACE@EXAMPLE.COM\t"],
      ] as const) {
        const found = await findOrderForTracking(t.db, { number: n, email });
        expect(found?.number).toBe(number);
        expect(found?.id).toBe(result.value.order.id);
        expect(found?.items).toHaveLength(1);
      }

      const other = number.endsWith("0") ? `${number.slice(0, -1)}1` : `${number.slice(0, -1)}0`;
      for (const query of [
        { number, email: "someone.else@example.com" },
        { number, email: "" },
        { number, email: "ada.lovelace@example.co" },
        { number: other, email: SHIPPING.email },
        { number: "CW-0000000000", email: SHIPPING.email },
        { number: number.slice(3), email: SHIPPING.email },
        { number: `${number}X`, email: SHIPPING.email },
        { number: number.replace("CW-", "CW"), email: SHIPPING.email },
        { number: "' or 1=1 --", email: SHIPPING.email },
        { number: "", email: SHIPPING.email },
      ]) {
        expect(await findOrderForTracking(t.db, query)).toBeNull();
      }
    });
  });

  describe("card data", () => {
    it("keeps the card number out of every table (and, on SQLite, out of the database files)", async () => {
      // one more placement with the number typed with spaces, so both spellings went through checkout
      const p = await product({ stock: 5 });
      const cartId = await cartWith([{ productId: p, quantity: 1 }]);
      const spaced = await cardPayment("4242 4242 4242 4242");
      expect(spaced).toMatchObject({ brand: "Visa", last4: "4242" });
      expect(await placeOrder(t.db, base, await input(cartId, { payment: spaced }))).toMatchObject({
        ok: true,
      });
      const orders = await t.db.selectFrom("orders").select(["paymentBrand", "paymentLast4"]).execute();
      expect(orders.length).toBeGreaterThan(20);
      expect(orders.every((o) => o.paymentBrand === "Visa" && o.paymentLast4 === "4242")).toBe(true);

      const tables =
        engine === "postgres"
          ? (
              await sql<{ name: string }>`select table_name as name from information_schema.tables
                where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(t.db)
            ).rows.map((r) => r.name)
          : (
              await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(t.db)
            ).rows.map((r) => r.name);
      expect(tables).toEqual(
        expect.arrayContaining(["orders", "order_items", "order_events", "carts", "promotions"]),
      );
      let dumped = 0;
      for (const table of tables) {
        const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(t.db);
        const json = JSON.stringify(rows);
        dumped += rows.length;
        expect(json, table).not.toContain("4242424242424242");
        expect(json, table).not.toContain("4242 4242 4242 4242");
        expect(json, table).not.toContain("4242-4242-4242-4242");
      }
      expect(dumped).toBeGreaterThan(100);

      if (engine === "sqlite") {
        const path = join(t.dir, "test.db");
        const files = [path, `${path}-wal`, `${path}-journal`].filter((file) => existsSync(file));
        expect(files).toContain(path);
        let bytes = 0;
        for (const file of files) {
          const content = readFileSync(file);
          bytes += content.length;
          expect(content.includes("4242424242424242"), file).toBe(false);
          expect(content.includes("4242 4242 4242 4242"), file).toBe(false);
          expect(content.includes(Buffer.from("4242424242424242", "utf16le")), file).toBe(false);
        }
        // the files do hold the orders (the search looked at real data)
        const all = Buffer.concat(files.map((file) => readFileSync(file)));
        expect(all.includes("Lovelace")).toBe(true);
        expect(bytes).toBeGreaterThan(0);
      }
    });
  });
});
