import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailer } from "../../app/adapters/mail/mailer.server.ts";
import type { PaymentGateway } from "../../app/adapters/payments/payment-gateway.ts";
import { createTestGateway } from "../../app/adapters/payments/test-gateway.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { advanceOrder } from "../../app/domain/orders/order-admin.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { type RefundRequest, refundOrder } from "../../app/domain/payments/refunds.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { SPEC_SHOP, specTotals } from "../helpers/spec-pricing.ts";

const SECRET = "order-refunds-test-secret-0123456789abcd";
const ACTOR = { id: "admin-refunds", email: "admin@example.com", role: "owner" as const };
const SHOP = { shopName: "Cartwheel", publicUrl: "http://shop.test" };
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

describe.each(ENGINES)("refunds on %s", (engine) => {
  let t: TestDatabase;
  let gateway: PaymentGateway;
  let mailDir: string;
  const mail = () => createMailer(`file:${mailDir}`, { from: "shop@example.com" });
  const services = () => ({ db: t.db, gateway, mail: mail(), shop: SHOP });

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    gateway = createTestGateway({ processingDelayMs: 0, secret: SECRET, db: t.db });
    mailDir = join(t.dir, "mail");
  });
  afterAll(async () => {
    await t?.destroy();
  });

  /** A paid order of 2 × A ($30) and 1 × B ($15): subtotal $75, free shipping, 7 % tax. */
  async function paidOrder() {
    const a = await insertProduct(t.db, { stock: 10, priceCents: 3_000, name: "Lamp" });
    const b = await insertProduct(t.db, { stock: 10, priceCents: 1_500, name: "Mug" });
    const cartId = newCartId();
    await addToCart(t.db, { cartId, productId: a, quantity: 2 });
    await addToCart(t.db, { cartId, productId: b, quantity: 1 });
    const cart = await getCart(t.db, cartId, SPEC_SHOP);
    const card = await gateway.tokenize({
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2031,
      cvv: "123",
      name: "Ada",
    });
    if (!card.ok) throw new Error("tokenize failed");
    const placed = await placeOrder(t.db, gateway, {
      cartId,
      idempotencyKey: randomUUID(),
      shipping: SHIPPING,
      method: "standard",
      shop: SPEC_SHOP,
      payment: { token: card.token, brand: card.brand, last4: card.last4 },
      expectedTotalCents: specTotals(cart.totals.subtotalCents).totalCents,
    });
    if (!placed.ok) throw new Error(`order not placed: ${placed.error.code}`);
    const items = await t.db
      .selectFrom("orderItems")
      .select(["id", "productId"])
      .where("orderId", "=", placed.value.order.id)
      .execute();
    const itemOf = (productId: number) => items.find((i) => i.productId === productId)!.id;
    return {
      number: placed.value.order.number,
      total: placed.value.order.totalCents,
      a,
      b,
      itemA: itemOf(a),
      itemB: itemOf(b),
    };
  }

  const request = (number: string, overrides: Partial<RefundRequest> = {}): RefundRequest => ({
    number,
    key: randomUUID(),
    lines: [],
    amountCents: null,
    restock: false,
    reason: "",
    actor: ACTOR,
    ...overrides,
  });
  const orderRow = (number: string) =>
    t.db
      .selectFrom("orders")
      .innerJoin("testGatewayPayments", "testGatewayPayments.authorizationId", "orders.paymentReference")
      .select([
        "orders.status",
        "orders.refundedCents",
        "orders.totalCents",
        "testGatewayPayments.refundedCents as ledger",
      ])
      .where("orders.number", "=", number)
      .executeTakeFirstOrThrow();
  const stockOf = async (productId: number) =>
    (
      await t.db
        .selectFrom("productVariants")
        .select("stock")
        .where("productId", "=", productId)
        .executeTakeFirstOrThrow()
    ).stock;

  it("refunds a line's share of what was paid, restocks it, e-mails the customer and audits it; then the rest", async () => {
    const order = await paidOrder();
    expect(order.total).toBe(8_025); // 7 500 + 7 % tax, free shipping
    const first = await refundOrder(
      services(),
      request(order.number, {
        lines: [{ itemId: order.itemA, quantity: 1 }],
        restock: true,
        reason: "Arrived broken",
      }),
    );
    // one lamp is $30 of $75 of goods, of $80.25 paid for them: $32.10
    expect(first).toEqual({
      ok: true,
      value: { amountCents: 3_210, currency: "USD", status: "partially_refunded", replayed: false },
    });
    expect(await orderRow(order.number)).toEqual({
      status: "partially_refunded",
      refundedCents: 3_210,
      totalCents: 8_025,
      ledger: 3_210,
    });
    expect(await stockOf(order.a)).toBe(9);
    expect(await stockOf(order.b)).toBe(9);
    const sent = (await readOutbox(mailDir)).filter((m) => m.subject.includes(order.number));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      to: SHIPPING.email,
      subject: `Cartwheel: $32.10 refunded for order ${order.number}`,
    });
    expect(sent[0]!.text).toContain("Reason: Arrived broken");
    const audit = await t.db
      .selectFrom("auditLog")
      .select(["action", "summary"])
      .where("entityId", "=", order.number)
      .execute();
    expect(audit).toEqual([
      {
        action: "order.refund",
        summary: `Order ${order.number}: $32.10 refunded (stock restored) — Arrived broken`,
      },
    ]);

    // the same line cannot give more units than are left of it
    expect(
      await refundOrder(services(), request(order.number, { lines: [{ itemId: order.itemA, quantity: 2 }] })),
    ).toEqual({
      ok: false,
      error: { code: "line-too-much", name: "Lamp" },
    });
    // more than is left is refused, without a refund at the gateway
    expect(await refundOrder(services(), request(order.number, { amountCents: 4_816 }))).toEqual({
      ok: false,
      error: { code: "too-much", leftCents: 4_815, currency: "USD" },
    });
    const rest = await refundOrder(services(), request(order.number, { amountCents: 4_815 }));
    expect(rest).toMatchObject({ ok: true, value: { amountCents: 4_815, status: "refunded" } });
    expect(await orderRow(order.number)).toEqual({
      status: "refunded",
      refundedCents: 8_025,
      totalCents: 8_025,
      ledger: 8_025,
    });
    // no restock asked: the rest stays sold
    expect(await stockOf(order.a)).toBe(9);
    expect(await refundOrder(services(), request(order.number, { amountCents: 1 }))).toEqual({
      ok: false,
      error: { code: "not-refundable", status: "refunded" },
    });
  });

  it("refunds once for the same form submitted twice, at once", async () => {
    const order = await paidOrder();
    const twice = request(order.number, { amountCents: 1_000 });
    const results = await Promise.all([refundOrder(services(), twice), refundOrder(services(), twice)]);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(await orderRow(order.number)).toMatchObject({ refundedCents: 1_000, ledger: 1_000 });
    expect(
      await t.db
        .selectFrom("orderRefunds")
        .select("amountCents")
        .where("idempotencyKey", "=", twice.key)
        .execute(),
    ).toHaveLength(1);
  });

  it("never refunds more than was paid when refunds race", async () => {
    const order = await paidOrder();
    const share = Math.floor(order.total * 0.4);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => refundOrder(services(), request(order.number, { amountCents: share }))),
    );
    const refunded = results.filter((r) => r.ok).length;
    expect(refunded).toBe(2);
    expect(await orderRow(order.number)).toMatchObject({
      refundedCents: 2 * share,
      ledger: 2 * share,
      status: "partially_refunded",
    });
  });

  it("refuses an order whose payment was never taken, and a cancelled one", async () => {
    const order = await paidOrder();
    expect(
      await advanceOrder(
        { db: t.db, gateway, mail: mail(), shop: { shopName: "Cartwheel", publicUrl: "http://shop.test" } },
        { number: order.number, to: "cancelled", actor: ACTOR, confirmed: true },
      ),
    ).toMatchObject({ ok: true });
    expect(await orderRow(order.number)).toMatchObject({
      status: "cancelled",
      refundedCents: order.total,
      ledger: order.total,
    });
    expect(await refundOrder(services(), request(order.number, { amountCents: 100 }))).toEqual({
      ok: false,
      error: { code: "not-refundable", status: "cancelled" },
    });
    expect(await refundOrder(services(), request("CW-NOSUCHORDR", { amountCents: 100 }))).toEqual({
      ok: false,
      error: { code: "not-found" },
    });
  });
});
