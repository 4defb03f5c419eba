import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createTestGateway,
  mintTestToken,
  type TestOutcome,
} from "../../app/adapters/payments/test-gateway.server.ts";
import { createDatabase } from "../../app/db/database.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { promotionUses } from "../../app/domain/promotions/promotion-redemptions.server.ts";
import type { PromotionAction, PromotionCondition } from "../../app/lib/promotions/engine.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { SPEC_SHOP } from "../helpers/spec-pricing.ts";

/**
 * Promotions through the shop's own paths (decision 033): the cart prices them, Place Order
 * charges what the shopper reviewed and takes their uses in its transaction, a failed payment gives
 * them back, and a promotion used up or ended since the review stops the order with a new total.
 */
const STAMP = "2026-11-01T00:00:00.000Z";
const SECRET = "promotions-secret-0123456789abcdef";
const SHIPPING = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  phone: "+1 555 0100",
  address: "1 Analytical Way",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
  country: "US",
};

describe.each(ENGINES)("promotions at checkout, on %s", (engine) => {
  let t: TestDatabase;
  const gateway = () => createTestGateway({ processingDelayMs: 0, secret: SECRET, db: t.db });
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await t?.destroy();
  });
  beforeEach(async () => {
    await t.db.updateTable("promotions").set({ active: 0 }).execute();
  });

  async function insertPromotion(
    action: PromotionAction,
    extra: {
      conditions?: PromotionCondition[];
      perCustomerLimit?: number;
      usageLimit?: number;
      endsAt?: string;
      name?: string;
    } = {},
  ) {
    const row = await t.db
      .insertInto("promotions")
      .values({
        name: extra.name ?? "Buy 2, get 1 free",
        action: JSON.stringify(action),
        conditions: JSON.stringify(extra.conditions ?? []),
        perCustomerLimit: extra.perCustomerLimit ?? null,
        usageLimit: extra.usageLimit ?? null,
        endsAt: extra.endsAt ?? null,
        createdAt: STAMP,
        updatedAt: STAMP,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }
  const buy2get1 = (productIds: number[]): PromotionAction => ({
    type: "buy-x-get-y",
    buy: { target: { productIds }, quantity: 2 },
    get: { target: { productIds }, quantity: 1 },
    basisPoints: 10_000,
    maxTimes: null,
  });
  async function cartOf(items: { productId: number; quantity: number }[]) {
    const cartId = randomUUID();
    for (const item of items) await addToCart(t.db, { cartId, ...item });
    return cartId;
  }
  /**
   * Place Order for the cart as `email`, with a card the gateway answers `outcome` for; the total
   * expected is the one the cart shows that shopper now, unless the test reviewed another.
   */
  async function place(
    cartId: string,
    {
      email = SHIPPING.email,
      outcome = "approve",
      expectedTotalCents,
      now,
    }: { email?: string; outcome?: TestOutcome; expectedTotalCents?: number; now?: Date } = {},
  ) {
    const cart = await getCart(t.db, cartId, SPEC_SHOP, { email });
    const result = await placeOrder(t.db, gateway(), {
      cartId,
      idempotencyKey: randomUUID(),
      shipping: { ...SHIPPING, email },
      method: "standard",
      shop: SPEC_SHOP,
      payment: { token: mintTestToken(outcome, { secret: SECRET }), brand: "Visa", last4: "4242" },
      expectedTotalCents: expectedTotalCents ?? cart.totals.totalCents,
      ...(now ? { now } : {}),
    });
    return { cart, result };
  }
  /** a promotion's uses (its redemptions, as the admin reads them) */
  const uses = async (id: number) => (await promotionUses(t.db, [id])).get(id);
  /** what the promotion's own row counts (a use limit's guard) and when it was last written */
  const rowOf = (id: number) =>
    t.db
      .selectFrom("promotions")
      .select(["usedCount", "updatedAt"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();

  it("prices an automatic buy 2 get 1 in the cart and charges exactly that at Place Order", async () => {
    const dear = await insertProduct(t.db, { priceCents: 3_000, stock: 10 });
    const cheap = await insertProduct(t.db, { priceCents: 1_000, stock: 10 });
    const other = await insertProduct(t.db, { priceCents: 500, stock: 10 });
    const promotion = await insertPromotion(buy2get1([dear, cheap]));
    const cartId = await cartOf([
      { productId: dear, quantity: 2 },
      { productId: cheap, quantity: 1 },
      { productId: other, quantity: 1 },
    ]);
    const cart = await getCart(t.db, cartId, SPEC_SHOP);
    // the cheapest of the three units in the promotion is free; the other product is not in it
    expect(cart.totals.discountCents).toBe(1_000);
    expect(cart.promotions).toEqual([{ name: "Buy 2, get 1 free", kind: "product", amountCents: 1_000 }]);
    // subtotal $75.00 (free shipping from $50), tax 7 % of $65.00
    expect(cart.totals).toMatchObject({
      subtotalCents: 7_500,
      shippingCents: 0,
      taxCents: 455,
      totalCents: 6_955,
    });

    const { result } = await place(cartId);
    if (!result.ok) throw new Error(`not placed: ${result.error.code}`);
    const order = await t.db
      .selectFrom("orders")
      .select(["id", "discountCents", "totalCents", "status"])
      .where("number", "=", result.value.order.number)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ discountCents: 1_000, totalCents: 6_955, status: "paid" });
    const lines = await t.db
      .selectFrom("orderItems")
      .select(["productId", "discountCents"])
      .where("orderId", "=", order.id)
      .orderBy("productId")
      .execute();
    expect(lines).toEqual([
      { productId: dear, discountCents: 0 },
      { productId: cheap, discountCents: 1_000 },
      { productId: other, discountCents: 0 },
    ]);
    const redemptions = await t.db
      .selectFrom("promotionRedemptions")
      .select(["promotionId", "customerKey", "amountCents"])
      .where("orderId", "=", order.id)
      .execute();
    expect(redemptions).toEqual([
      { promotionId: promotion, customerKey: "email:ada@example.com", amountCents: 1_000 },
    ]);
    // what the gateway took is what the books say
    const payment = await t.db
      .selectFrom("testGatewayPayments")
      .select("amountCents")
      .where(
        "idempotencyKey",
        "=",
        (
          await t.db
            .selectFrom("orders")
            .select("idempotencyKey")
            .where("id", "=", order.id)
            .executeTakeFirstOrThrow()
        ).idempotencyKey,
      )
      .executeTakeFirstOrThrow();
    expect(payment.amountCents).toBe(6_955);
  });

  it("gives a use back when the payment is declined", async () => {
    const promotion = await insertPromotion({ type: "order-fixed", cents: 500 }, { name: "$5 off" });
    const product = await insertProduct(t.db, { priceCents: 2_000, stock: 10 });
    const { result } = await place(await cartOf([{ productId: product, quantity: 1 }]), {
      email: "decline@example.com",
      outcome: "card_declined",
    });
    expect(result.ok).toBe(false);
    // the order was reserved with the promotion, then failed: its use is back
    const failed = await t.db
      .selectFrom("orders")
      .select(["status", "discountCents"])
      .where("email", "=", "decline@example.com")
      .executeTakeFirstOrThrow();
    expect(failed).toEqual({ status: "payment_failed", discountCents: 500 });
    expect(await uses(promotion)).toBe(0);
    expect(await rowOf(promotion)).toEqual({ usedCount: 0, updatedAt: STAMP });
    expect(
      await t.db
        .selectFrom("promotionRedemptions")
        .select("id")
        .where("promotionId", "=", promotion)
        .execute(),
    ).toEqual([]);
  });

  it("places concurrent orders with a promotion without a limit: one use each, its row never written", async () => {
    const promotion = await insertPromotion({ type: "order-fixed", cents: 300 }, { name: "$3 off" });
    const product = await insertProduct(t.db, { priceCents: 2_000, stock: 20 });
    const buyers = Array.from({ length: 6 }, (_, i) => `many-${engine}-${i}@example.com`);
    const carts = await Promise.all(buyers.map(() => cartOf([{ productId: product, quantity: 1 }])));
    const results = await Promise.all(carts.map((cartId, i) => place(cartId, { email: buyers[i] })));
    expect(results.map(({ cart, result }) => [cart.totals.discountCents, result.ok])).toEqual(
      buyers.map(() => [300, true]),
    );
    expect(await uses(promotion)).toBe(6);
    expect(await rowOf(promotion)).toEqual({ usedCount: 0, updatedAt: STAMP });
  });

  it("takes one use of each promotion an order applied, with a limit and without, and gives both back", async () => {
    const product = await insertProduct(t.db, { priceCents: 2_000, stock: 20 });
    const free = await insertPromotion({ type: "order-fixed", cents: 300 }, { name: "$3 off" });
    const limited = await insertPromotion(
      { type: "items-percent", target: { productIds: [product] }, basisPoints: 1_000, apply: "all" },
      { name: "10% off, ten orders", usageLimit: 10 },
    );
    const { cart, result } = await place(await cartOf([{ productId: product, quantity: 2 }]));
    expect([cart.totals.discountCents, result.ok]).toEqual([700, true]);
    expect([await uses(free), await uses(limited)]).toEqual([1, 1]);
    // the order's webhook events (decision 039), written with it: created, then paid
    const orderId = result.ok ? result.value.order.id : 0;
    const events = await t.db
      .selectFrom("webhookEvents")
      .select(["type", "data"])
      .where("subjectId", "=", orderId)
      .orderBy("id")
      .execute();
    expect(events.map((e) => [e.type, JSON.parse(e.data).status, JSON.parse(e.data).total.amount])).toEqual([
      ["order.created", "pending_payment", cart.totals.totalCents],
      ["order.paid", "paid", cart.totals.totalCents],
    ]);
    expect([(await rowOf(free)).usedCount, (await rowOf(limited)).usedCount]).toEqual([0, 1]);
    // declined: neither use is kept
    const declined = await place(await cartOf([{ productId: product, quantity: 2 }]), {
      outcome: "card_declined",
    });
    expect(declined.result.ok).toBe(false);
    expect([await uses(free), await uses(limited), (await rowOf(limited)).usedCount]).toEqual([1, 1, 1]);
  });

  it("stops concurrent orders at a promotion's use limit, and a failed payment gives its use back", async () => {
    const promotion = await insertPromotion(
      { type: "order-fixed", cents: 300 },
      { name: "First two", usageLimit: 2 },
    );
    const product = await insertProduct(t.db, { priceCents: 2_000, stock: 20 });
    const buyers = Array.from({ length: 5 }, (_, i) => `limit-${engine}-${i}@example.com`);
    const carts = await Promise.all(buyers.map(() => cartOf([{ productId: product, quantity: 1 }])));
    // every cart was reviewed with the discount; two orders get it, the others are asked to review
    const results = await Promise.all(carts.map((cartId, i) => place(cartId, { email: buyers[i] })));
    expect(results.every(({ cart }) => cart.totals.discountCents === 300)).toBe(true);
    const codes = results.map(({ result }) => (result.ok ? "placed" : result.error.code)).sort();
    expect(codes).toEqual(["placed", "placed", "price-changed", "price-changed", "price-changed"]);
    expect([(await rowOf(promotion)).usedCount, await uses(promotion)]).toEqual([2, 2]);
    // used up: the next cart has no discount
    const next = await cartOf([{ productId: product, quantity: 1 }]);
    expect((await getCart(t.db, next, SPEC_SHOP)).totals.discountCents).toBe(0);
    // a limited promotion's use, given back by a declined payment, is counted back on its row too
    const other = await insertPromotion(
      { type: "order-fixed", cents: 400 },
      { name: "One only", usageLimit: 1 },
    );
    const declined = await place(await cartOf([{ productId: product, quantity: 1 }]), {
      email: `declined-${engine}@example.com`,
      outcome: "card_declined",
    });
    expect(declined.cart.totals.discountCents).toBe(400);
    expect(declined.result.ok).toBe(false);
    expect([(await rowOf(other)).usedCount, await uses(other)]).toEqual([0, 0]);
    const again = await place(await cartOf([{ productId: product, quantity: 1 }]), {
      email: `again-${engine}@example.com`,
    });
    expect([again.cart.totals.discountCents, again.result.ok]).toEqual([400, true]);
    expect([(await rowOf(other)).usedCount, await uses(other)]).toEqual([1, 1]);
  });

  it("stops an order whose promotion this customer has used since, with the new total to review", async () => {
    const promotion = await insertPromotion(
      { type: "order-fixed", cents: 500 },
      { name: "$5 off your first", perCustomerLimit: 1 },
    );
    const product = await insertProduct(t.db, { priceCents: 2_000, stock: 10 });
    const first = await place(await cartOf([{ productId: product, quantity: 1 }]), {
      email: "grace@example.com",
    });
    expect(first.result.ok).toBe(true);
    expect(first.cart.totals.discountCents).toBe(500);
    // a second cart, priced before the shopper said who they are (the cart page), shows the discount…
    const cartId = await cartOf([{ productId: product, quantity: 1 }]);
    const anonymous = await getCart(t.db, cartId, SPEC_SHOP);
    expect(anonymous.totals.discountCents).toBe(500);
    // …and Place Order, knowing the e-mail, refuses that total
    const { result: second } = await place(cartId, {
      email: "GRACE@example.com",
      expectedTotalCents: anonymous.totals.totalCents,
    });
    expect(second.ok ? "placed" : second.error.code).toBe("price-changed");
    expect(await uses(promotion)).toBe(1);
  });

  it("never applies a promotion that ended between the review and Place Order", async () => {
    const endsAt = new Date(Date.now() + 60_000).toISOString();
    await insertPromotion({ type: "order-fixed", cents: 500 }, { name: "Flash sale", endsAt });
    const product = await insertProduct(t.db, { priceCents: 2_000, stock: 10 });
    const cartId = await cartOf([{ productId: product, quantity: 1 }]);
    const reviewed = await getCart(t.db, cartId, SPEC_SHOP);
    expect(reviewed.totals.discountCents).toBe(500);
    const { result } = await place(cartId, {
      expectedTotalCents: reviewed.totals.totalCents,
      now: new Date(Date.parse(endsAt) + 1),
    });
    expect(result.ok ? "placed" : result.error.code).toBe("price-changed");
  });
  it("prices a promotion changed by another process at the next cart read; an order's use changes nothing kept", async () => {
    // a second process: its own connections, its own kept promotions
    const other = createDatabase(t.url, { poolSize: 2 });
    try {
      const product = await insertProduct(t.db, { priceCents: 2_000, stock: 10 });
      const cartId = await cartOf([{ productId: product, quantity: 1 }]);
      const revision = async () =>
        (await t.db.selectFrom("promotionRevision").select("revision").executeTakeFirstOrThrow()).revision;
      const before = await revision();
      const promotion = await insertPromotion({ type: "order-fixed", cents: 500 }, { name: "Five off" });
      expect(await revision()).toBeGreaterThan(before);
      expect((await getCart(other, cartId, SPEC_SHOP)).totals.discountCents).toBe(500);
      // changed by this process (any column of its terms): the other's next read prices the change
      await t.db
        .updateTable("promotions")
        .set({ action: JSON.stringify({ type: "order-fixed", cents: 700 }) })
        .where("id", "=", promotion)
        .execute();
      expect((await getCart(other, cartId, SPEC_SHOP)).totals.discountCents).toBe(700);
      // an order's use moves no revision (nothing kept is read again)…
      const atUse = await revision();
      const { result } = await place(cartId);
      expect(result.ok).toBe(true);
      expect(await uses(promotion)).toBe(1);
      expect((await rowOf(promotion)).usedCount).toBe(0);
      expect(await revision()).toBe(atUse);
      // …but a limit reached is read live: a use limit of 1, now used (the database counts the uses
      // there are when a limit is set), stops it everywhere
      await t.db.updateTable("promotions").set({ usageLimit: 1 }).where("id", "=", promotion).execute();
      const next = await cartOf([{ productId: product, quantity: 1 }]);
      expect((await getCart(other, next, SPEC_SHOP)).totals.discountCents).toBe(0);
      // ended by the other process, deleted: gone from this one's next read
      await other.updateTable("promotions").set({ usageLimit: null }).where("id", "=", promotion).execute();
      expect((await getCart(t.db, next, SPEC_SHOP)).totals.discountCents).toBe(700);
      await other
        .updateTable("promotions")
        .set({ endsAt: new Date(Date.now() - 1_000).toISOString() })
        .where("id", "=", promotion)
        .execute();
      expect((await getCart(t.db, next, SPEC_SHOP)).totals.discountCents).toBe(0);
    } finally {
      await other.destroy();
    }
  });

  it("stops pricing a kept promotion the moment its window closes, with nothing changed in between", async () => {
    const endsAt = new Date(Date.now() + 60_000).toISOString();
    await insertPromotion({ type: "order-fixed", cents: 500 }, { name: "Until the minute", endsAt });
    const product = await insertProduct(t.db, { priceCents: 2_000, stock: 10 });
    const cartId = await cartOf([{ productId: product, quantity: 1 }]);
    expect((await getCart(t.db, cartId, SPEC_SHOP)).totals.discountCents).toBe(500);
    const after = new Date(Date.parse(endsAt) + 1);
    expect((await getCart(t.db, cartId, SPEC_SHOP, {}, after)).totals.discountCents).toBe(0);
  });
});
