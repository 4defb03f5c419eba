import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createTestGateway,
  mintTestToken,
  type TestOutcome,
} from "../../app/adapters/payments/test-gateway.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { applyCodeToCart } from "../../app/domain/cart/cart-code.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { COUPON_MESSAGES } from "../../app/domain/coupons/coupon-rules.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { CODE_MESSAGES } from "../../app/domain/promotions/code-messages.ts";
import {
  codeCounts,
  exportCodesCsv,
  generateCodes,
} from "../../app/domain/promotions/promotion-codes.server.ts";
import { promotionUses } from "../../app/domain/promotions/promotion-redemptions.server.ts";
import type { PromotionAction, PromotionCondition } from "../../app/lib/promotions/engine.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { SPEC_SHOP } from "../helpers/spec-pricing.ts";

/**
 * Promotion codes at the cart and at Place Order (issue 31): a shared code and single-use codes
 * typed into the coupon field, named and refused in the coupons' words; a single-use code taken by
 * the order that uses it — once, however many checkouts race for it — and given back when its
 * payment fails; 100 000 codes made at once, unique, exported as CSV.
 */
const STAMP = "2026-11-01T00:00:00.000Z";
const SECRET = "promotion-codes-secret-0123456789";
const ACTOR = { id: "owner", email: "owner@example.com", role: "owner" as const };
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

describe.each(ENGINES)("promotion codes, on %s", (engine) => {
  let t: TestDatabase;
  let product = 0;
  const gateway = () => createTestGateway({ processingDelayMs: 0, secret: SECRET, db: t.db });
  beforeAll(async () => {
    t = await createTestDatabase(engine);
    product = await insertProduct(t.db, { priceCents: 4_000, stock: 1_000 });
  });
  afterAll(async () => {
    await t?.destroy();
  });
  beforeEach(async () => {
    await t.db.updateTable("promotions").set({ active: 0 }).execute();
  });

  async function insertPromotion(
    action: PromotionAction,
    { code = null, conditions = [] }: { code?: string | null; conditions?: PromotionCondition[] } = {},
  ) {
    const row = await t.db
      .insertInto("promotions")
      .values({
        name: `Promotion ${code ?? "with codes"}`,
        code,
        action: JSON.stringify(action),
        conditions: JSON.stringify(conditions),
        createdAt: STAMP,
        updatedAt: STAMP,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }
  async function cartOf(quantity = 1) {
    const cartId = randomUUID();
    await addToCart(t.db, { cartId, productId: product, quantity });
    return cartId;
  }
  const apply = (cartId: string, code: string, email = SHIPPING.email) =>
    applyCodeToCart(t.db, { cartId, code, shop: SPEC_SHOP, shopper: { email } });
  async function place(cartId: string, { email = SHIPPING.email, outcome = "approve" as TestOutcome } = {}) {
    const cart = await getCart(t.db, cartId, SPEC_SHOP, { email });
    return placeOrder(t.db, gateway(), {
      cartId,
      idempotencyKey: randomUUID(),
      shipping: { ...SHIPPING, email },
      method: "standard",
      shop: SPEC_SHOP,
      payment: { token: mintTestToken(outcome, { secret: SECRET }), brand: "Visa", last4: "4242" },
      expectedTotalCents: cart.totals.totalCents,
    });
  }

  it("a shared code applies in the cart as a coupon does, and Place Order charges and counts it", async () => {
    const id = await insertPromotion({ type: "order-percent", basisPoints: 2_000 }, { code: "SPRING20" });
    const cartId = await cartOf(2);
    expect(await apply(cartId, "SPRING20")).toEqual({ ok: true, value: { code: "SPRING20" } });
    const cart = await getCart(t.db, cartId, SPEC_SHOP, { email: SHIPPING.email });
    expect(cart.coupon).toEqual({
      code: "SPRING20",
      label: "SPRING20 (20% off)",
      discountCents: 1_600,
    });
    expect(cart.couponProblem).toBeNull();
    // the code's promotion is the coupon row, not a second one
    expect(cart.promotions).toEqual([]);
    // $80.00 − $16.00, free shipping from $50, tax 7 % of $64.00
    expect(cart.totals).toMatchObject({ discountCents: 1_600, totalCents: 6_848 });
    const placed = await place(cartId);
    if (!placed.ok) throw new Error(placed.error.code);
    const order = await t.db
      .selectFrom("orders")
      .select(["id", "couponCode", "discountCents", "totalCents"])
      .where("number", "=", placed.value.order.number)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ couponCode: "SPRING20", discountCents: 1_600, totalCents: 6_848 });
    // counted as its redemptions (a promotion without a limit has nothing counted on its row)
    expect((await promotionUses(t.db, [id])).get(id)).toBe(1);
  });

  it("refuses a code in the coupons' words, and the cart keeps no code", async () => {
    await insertPromotion(
      { type: "order-fixed", cents: 1_000 },
      {
        code: "BIG10",
        conditions: [{ type: "min-subtotal", cents: 10_000 }],
      },
    );
    await insertPromotion(
      { type: "order-fixed", cents: 500 },
      { code: "WELCOMEBACK", conditions: [{ type: "first-order" }] },
    );
    const cartId = await cartOf(1);
    expect(await apply(cartId, "BIG10")).toEqual({
      ok: false,
      error: { code: "refused", message: COUPON_MESSAGES.minimumNotMet(10_000, "USD") },
    });
    expect(await apply(cartId, "NOSUCHCODE")).toEqual({
      ok: false,
      error: { code: "refused", message: COUPON_MESSAGES.notFound },
    });
    // Ada has ordered before (the test above)
    expect(await apply(cartId, "WELCOMEBACK")).toEqual({
      ok: false,
      error: { code: "refused", message: CODE_MESSAGES.firstOrder },
    });
    const cart = await getCart(t.db, cartId, SPEC_SHOP);
    expect([cart.coupon, cart.couponProblem]).toEqual([null, null]);
    expect(await apply(cartId, "WELCOMEBACK", "newcomer@example.com")).toMatchObject({ ok: true });
  });

  it("makes 100 000 single-use codes at once: unique, not sequential, exported as CSV", async () => {
    const id = await insertPromotion({ type: "order-fixed", cents: 500 });
    const made = await generateCodes(t.db, { promotionId: id, count: 100_000, prefix: "BULK", actor: ACTOR });
    expect(made).toEqual({ ok: true, value: { made: 100_000, name: "Promotion with codes" } });
    expect(await codeCounts(t.db, id)).toEqual({ total: 100_000, used: 0 });
    let csv = "";
    for await (const chunk of exportCodesCsv(t.db, id)) csv += chunk;
    const lines = csv.trim().split("\n");
    expect(lines[0]).toBe("code,used_at,order_number");
    const codes = lines.slice(1).map((line) => line.split(",")[0]!);
    expect(codes).toHaveLength(100_000);
    expect(new Set(codes).size).toBe(100_000);
    for (const code of codes.slice(0, 1000)) expect(code).toMatch(/^BULK-[A-HJ-NP-Z2-9]{10}$/);
    const audit = await t.db
      .selectFrom("auditLog")
      .select("summary")
      .where("action", "=", "promotion.codes")
      .executeTakeFirstOrThrow();
    expect(audit.summary).toBe("Made 100000 single-use codes for promotion Promotion with codes");
  });

  it("a single-use code works for one order: then refused, given back when the payment fails", async () => {
    const id = await insertPromotion({ type: "order-fixed", cents: 500 });
    await generateCodes(t.db, { promotionId: id, count: 3, prefix: "", actor: ACTOR });
    const [first, second] = (
      await t.db
        .selectFrom("promotionCodes")
        .select("code")
        .where("promotionId", "=", id)
        .orderBy("id")
        .execute()
    ).map((row) => row.code);
    // the promotion is not automatic: a cart without its code does not get it
    expect((await getCart(t.db, await cartOf(1), SPEC_SHOP)).totals.discountCents).toBe(0);

    const declined = await cartOf(1);
    expect(await apply(declined, first!, "decline@example.com")).toMatchObject({ ok: true });
    expect((await place(declined, { email: "decline@example.com", outcome: "card_declined" })).ok).toBe(
      false,
    );
    expect(await codeCounts(t.db, id)).toEqual({ total: 3, used: 0 });

    const cartId = await cartOf(1);
    expect(await apply(cartId, first!)).toMatchObject({ ok: true });
    const placed = await place(cartId);
    if (!placed.ok) throw new Error(placed.error.code);
    const taken = await t.db
      .selectFrom("promotionCodes")
      .innerJoin("orders", "orders.id", "promotionCodes.orderId")
      .select(["orders.number", "orders.discountCents"])
      .where("promotionCodes.code", "=", first!)
      .executeTakeFirstOrThrow();
    expect(taken).toEqual({ number: placed.value.order.number, discountCents: 500 });
    expect(await apply(await cartOf(1), first!)).toEqual({
      ok: false,
      error: { code: "refused", message: COUPON_MESSAGES.usedUp },
    });
    expect(await apply(await cartOf(1), second!)).toMatchObject({ ok: true });
  });

  it("one single-use code, eight checkouts at once: exactly one order gets it", async () => {
    const id = await insertPromotion({ type: "order-fixed", cents: 700 });
    await generateCodes(t.db, { promotionId: id, count: 1, prefix: "RACE", actor: ACTOR });
    const { code } = await t.db
      .selectFrom("promotionCodes")
      .select("code")
      .where("promotionId", "=", id)
      .executeTakeFirstOrThrow();
    const carts: { cartId: string; email: string }[] = [];
    for (let n = 0; n < 8; n++) {
      const cartId = await cartOf(1);
      const email = `racer-${n}@example.com`;
      expect(await apply(cartId, code, email)).toMatchObject({ ok: true });
      carts.push({ cartId, email });
    }
    const results = await Promise.all(carts.map(({ cartId, email }) => place(cartId, { email })));
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    const discounted = await t.db
      .selectFrom("orders")
      .select("discountCents")
      .where("email", "like", "racer-%")
      .where("status", "=", "paid")
      .execute();
    expect(discounted).toEqual([{ discountCents: 700 }]);
    expect(await codeCounts(t.db, id)).toEqual({ total: 1, used: 1 });
    const redemptions = await t.db
      .selectFrom("promotionRedemptions")
      .select("id")
      .where("promotionId", "=", id)
      .execute();
    expect(redemptions).toHaveLength(1);
  });
});
