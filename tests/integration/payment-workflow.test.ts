import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAYMENT_MESSAGES, type PaymentGateway } from "../../app/adapters/payments/payment-gateway.ts";
import { createTestGateway, mintTestToken } from "../../app/adapters/payments/test-gateway.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { type PlaceOrderInput, placeOrder } from "../../app/domain/orders/place-order.server.ts";
import {
  EXPIRED_MESSAGE,
  reconcilePayments,
  SETTLE_GRACE_MS,
} from "../../app/domain/payments/charges.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { applyCoupon, couponUses, insertCoupon } from "../helpers/coupons.ts";
import { SPEC_SHOP, specTotals } from "../helpers/spec-pricing.ts";

/**
 * Place Order as a workflow (decision 020): what is left when the process stops between its
 * steps, and how the reconciliation job settles it from the gateway's ledger.
 */
const SECRET = "payment-workflow-test-secret-0123456789";
const NOW = new Date("2026-11-20T15:30:00.000Z");
const LATER = new Date(NOW.getTime() + SETTLE_GRACE_MS + 1_000);
const AFTER_RESERVATION = new Date(NOW.getTime() + 16 * 60_000);
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

type Step = "authorize" | "capture";

/**
 * The test gateway, failing as a dead process or a lost connection would at one step. With
 * `authorizeOnly`, authorize never captures (a provider that only reserves the money).
 */
function failingAt(
  base: PaymentGateway,
  step: Step,
  { after = false, authorizeOnly = false } = {},
): PaymentGateway {
  const lost = () => {
    throw new Error("connection lost");
  };
  return {
    ...base,
    name: base.name,
    tokenize: (card) => base.tokenize(card),
    outcome: (key) => base.outcome(key),
    refund: (input) => base.refund(input),
    void: (id) => base.void(id),
    async authorize(input) {
      if (step === "authorize" && !after) lost();
      const result = await base.authorize(authorizeOnly ? { ...input, capture: false } : input);
      if (step === "authorize") lost();
      return result;
    },
    async capture(id) {
      if (step === "capture" && !after) lost();
      await base.capture(id);
      if (step === "capture") lost();
    },
  };
}

describe.each(ENGINES)("the payment workflow on %s", (engine) => {
  let t: TestDatabase;
  let gateway: PaymentGateway;
  let keys = 0;

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    gateway = createTestGateway({ processingDelayMs: 0, secret: SECRET, db: t.db });
  });
  afterAll(async () => {
    await t?.destroy();
  });

  async function checkout(stock = 5, quantity = 2, coupon: string | null = null) {
    const productId = await insertProduct(t.db, { stock, priceCents: 2_000 });
    const cartId = newCartId();
    await addToCart(t.db, { cartId, productId, quantity });
    if (coupon) {
      const applied = await applyCoupon(t.db, { cartId, code: coupon });
      expect(applied.ok).toBe(true);
    }
    const cart = await getCart(t.db, cartId, SPEC_SHOP);
    const card = await gateway.tokenize({
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2031,
      cvv: "123",
      name: "Ada Lovelace",
    });
    if (!card.ok) throw new Error("tokenize failed");
    const input: PlaceOrderInput = {
      cartId,
      idempotencyKey: `workflow-${engine}-${++keys}`,
      shipping: SHIPPING,
      method: "standard",
      shop: SPEC_SHOP,
      payment: { token: card.token, brand: card.brand, last4: card.last4 },
      expectedTotalCents: specTotals(cart.totals.subtotalCents, {
        method: "standard",
        discountCents: cart.coupon?.discountCents ?? 0,
      }).totalCents,
      now: NOW,
    };
    return { productId, cartId, input };
  }

  const orderOf = (key: string) =>
    t.db
      .selectFrom("orders")
      .select([
        "id",
        "status",
        "paymentReference",
        "paymentError",
        "reservedUntil",
        "paidAt",
        "paymentGateway",
      ])
      .where("idempotencyKey", "=", key)
      .executeTakeFirstOrThrow();
  const stockOf = async (id: number) =>
    (
      await t.db
        .selectFrom("productVariants")
        .select("stock")
        .where("productId", "=", id)
        .executeTakeFirstOrThrow()
    ).stock;
  const productStockOf = async (id: number) =>
    (await t.db.selectFrom("products").select("stock").where("id", "=", id).executeTakeFirstOrThrow()).stock;
  const ledgerOf = (key: string) =>
    t.db.selectFrom("testGatewayPayments").selectAll().where("idempotencyKey", "=", key).execute();

  it("places a paid order through the steps: reserved, charged once, paid", async () => {
    const { productId, cartId, input } = await checkout();
    const result = await placeOrder(t.db, gateway, input);
    expect(result).toMatchObject({ ok: true, value: { replayed: false } });
    const order = await orderOf(input.idempotencyKey);
    expect(order).toMatchObject({
      status: "paid",
      reservedUntil: null,
      paidAt: NOW.toISOString(),
      paymentGateway: "test",
    });
    const ledger = await ledgerOf(input.idempotencyKey);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ status: "captured", amountCents: input.expectedTotalCents });
    expect(order.paymentReference).toBe(ledger[0]!.authorizationId);
    expect(await stockOf(productId)).toBe(3);
    expect((await getCart(t.db, cartId, SPEC_SHOP)).lines).toEqual([]);
  });

  it("leaves the order pending and its stock held when the gateway cannot be reached, and fails it once the reservation lapses", async () => {
    // a coupon with a use limit (a promotion with its code, migration 0780)
    await insertCoupon(t.db, { code: `HOLD${engine.toUpperCase()}`, usageLimit: 5 }, NOW.toISOString());
    const { productId, cartId, input } = await checkout(5, 2, `HOLD${engine.toUpperCase()}`);
    const result = await placeOrder(t.db, failingAt(gateway, "authorize"), input);
    expect(result).toEqual({
      ok: false,
      error: { code: "payment-declined", message: PAYMENT_MESSAGES.processing_error },
    });
    expect(await orderOf(input.idempotencyKey)).toMatchObject({ status: "pending_payment" });
    expect(await stockOf(productId)).toBe(3);
    const uses = async () => ({ usedCount: await couponUses(t.db, `HOLD${engine.toUpperCase()}`) });
    expect(await uses()).toEqual({ usedCount: 1 });
    // inside its grace time nobody touches it; after it, the gateway never saw it: it waits for its reservation
    expect(await reconcilePayments(t.db, gateway, { now: NOW })).toMatchObject({ paid: 0, failed: 0 });
    expect(await reconcilePayments(t.db, gateway, { now: LATER })).toMatchObject({ paid: 0, failed: 0 });
    expect(await orderOf(input.idempotencyKey)).toMatchObject({ status: "pending_payment" });
    expect(await reconcilePayments(t.db, gateway, { now: AFTER_RESERVATION })).toMatchObject({ failed: 1 });
    expect(await orderOf(input.idempotencyKey)).toMatchObject({
      status: "payment_failed",
      paymentError: EXPIRED_MESSAGE,
    });
    expect(await stockOf(productId)).toBe(5);
    expect(await productStockOf(productId)).toBe(5);
    expect(await uses()).toEqual({ usedCount: 0 });
    expect((await getCart(t.db, cartId, SPEC_SHOP)).lines).toHaveLength(1);
    expect(await ledgerOf(input.idempotencyKey)).toEqual([]);
  });

  it.each([
    ["authorized, not captured (a provider that only reserved it)", true],
    ["captured, not recorded (the process died after the payment)", false],
  ])("settles a payment %s as paid, capturing it once", async (_, authorizeOnly) => {
    const { productId, input } = await checkout();
    const result = await placeOrder(
      t.db,
      failingAt(gateway, "authorize", { after: true, authorizeOnly }),
      input,
    );
    expect(result).toMatchObject({ ok: false });
    expect(await orderOf(input.idempotencyKey)).toMatchObject({ status: "pending_payment" });
    expect(await reconcilePayments(t.db, gateway, { now: LATER })).toMatchObject({ paid: 1 });
    const order = await orderOf(input.idempotencyKey);
    const ledger = await ledgerOf(input.idempotencyKey);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ status: "captured", refundedCents: 0 });
    expect(order).toMatchObject({
      status: "paid",
      paymentReference: ledger[0]!.authorizationId,
      reservedUntil: null,
    });
    expect(await stockOf(productId)).toBe(3);
    // settled: a second run finds nothing to do
    expect(await reconcilePayments(t.db, gateway, { now: AFTER_RESERVATION })).toEqual({
      paid: 0,
      failed: 0,
      waiting: 0,
    });
  });

  it("settles a pending order when the shopper submits again with the same key", async () => {
    const { input } = await checkout();
    expect(await placeOrder(t.db, failingAt(gateway, "authorize", { after: true }), input)).toMatchObject({
      ok: false,
    });
    const again = await placeOrder(t.db, gateway, input);
    expect(again).toMatchObject({ ok: true, value: { replayed: true } });
    expect(await orderOf(input.idempotencyKey)).toMatchObject({ status: "paid" });
    expect(await ledgerOf(input.idempotencyKey)).toHaveLength(1);
  });

  it("fails a declined payment found by the job, giving the stock back", async () => {
    const { productId, input } = await checkout();
    const declined = {
      ...input,
      payment: { ...input.payment, token: mintTestToken("insufficient_funds", { secret: SECRET }) },
    };
    // the decline reached the ledger, the answer never reached the shop
    expect(await placeOrder(t.db, failingAt(gateway, "authorize", { after: true }), declined)).toMatchObject({
      ok: false,
    });
    expect(await orderOf(input.idempotencyKey)).toMatchObject({ status: "pending_payment" });
    expect(await stockOf(productId)).toBe(3);
    expect(await reconcilePayments(t.db, gateway, { now: LATER })).toMatchObject({ failed: 1 });
    expect(await orderOf(input.idempotencyKey)).toMatchObject({
      status: "payment_failed",
      paymentError: PAYMENT_MESSAGES.insufficient_funds,
    });
    expect(await stockOf(productId)).toBe(5);
  });

  it("refunds a payment that went through after the job gave its order up", async () => {
    const { productId, input } = await checkout();
    let released = false;
    const slow: PaymentGateway = {
      ...gateway,
      async authorize(request) {
        // the request hangs past its reservation; the job meanwhile finds no payment and fails the order
        await reconcilePayments(t.db, gateway, { now: AFTER_RESERVATION });
        released = true;
        return gateway.authorize(request);
      },
    };
    const result = await placeOrder(t.db, slow, input);
    expect(released).toBe(true);
    expect(result).toEqual({ ok: false, error: { code: "payment-declined", message: EXPIRED_MESSAGE } });
    expect(await orderOf(input.idempotencyKey)).toMatchObject({ status: "payment_failed" });
    const [ledger] = await ledgerOf(input.idempotencyKey);
    expect(ledger).toMatchObject({ status: "captured", refundedCents: ledger!.amountCents });
    expect(await stockOf(productId)).toBe(5);
  });

  it("leaves an order pending when the gateway cannot answer the job either", async () => {
    const { input } = await checkout();
    expect(await placeOrder(t.db, failingAt(gateway, "authorize"), input)).toMatchObject({ ok: false });
    const down: PaymentGateway = {
      ...gateway,
      outcome: async () => {
        throw new Error("provider down");
      },
    };
    expect(await reconcilePayments(t.db, down, { now: AFTER_RESERVATION })).toMatchObject({
      paid: 0,
      failed: 0,
    });
    expect(await orderOf(input.idempotencyKey)).toMatchObject({ status: "pending_payment" });
    await reconcilePayments(t.db, gateway, { now: AFTER_RESERVATION });
    expect(await orderOf(input.idempotencyKey)).toMatchObject({ status: "payment_failed" });
  });
});
