import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailer } from "../../app/adapters/mail/mailer.server.ts";
import type { PaymentGateway } from "../../app/adapters/payments/payment-gateway.ts";
import { createTestGateway } from "../../app/adapters/payments/test-gateway.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { transitionOrder } from "../../app/domain/orders/orders.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { canMoveReturn, RETURN_STATUSES, type ReturnStatus } from "../../app/domain/returns/return-status.ts";
import { moveReturn, requestReturn, returnableOrder } from "../../app/domain/returns/returns.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { SPEC_SHOP, specTotals } from "../helpers/spec-pricing.ts";

const SECRET = "returns-test-secret-0123456789abcdefgh";
const ACTOR = { id: "admin-returns", email: "admin@example.com", role: "admin" as const };
const DAY = 24 * 60 * 60_000;

describe("the return's transition table", () => {
  const allowed: [ReturnStatus, ReturnStatus][] = [
    ["requested", "approved"],
    ["requested", "rejected"],
    ["approved", "received"],
    ["received", "refunded"],
  ];
  it.each(RETURN_STATUSES.flatMap((from) => RETURN_STATUSES.map((to) => [from, to] as const)))(
    "%s → %s",
    (from, to) => {
      expect(canMoveReturn(from, to)).toBe(allowed.some(([a, b]) => a === from && b === to));
    },
  );
});

describe.each(ENGINES)("returns on %s", (engine) => {
  let t: TestDatabase;
  let gateway: PaymentGateway;
  let mailDir: string;
  const shop = { shopName: "Cartwheel", taxLabel: "Including VAT", publicUrl: "http://shop.example" };
  const services = () => ({
    gateway,
    mail: createMailer(`file:${mailDir}`, { from: "shop@example.com" }),
    shop,
  });

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    gateway = createTestGateway({ processingDelayMs: 0, secret: SECRET, db: t.db });
    mailDir = join(t.dir, "mail");
  });
  afterAll(async () => {
    await t?.destroy();
  });

  /** A paid order of 2 × a $30 lamp, shipped and delivered `deliveredDaysAgo` days ago. */
  async function deliveredOrder(deliveredDaysAgo = 3, quantity = 2) {
    const lamp = await insertProduct(t.db, { stock: 10, priceCents: 3_000, name: "Return Lamp" });
    const cartId = newCartId();
    await addToCart(t.db, { cartId, productId: lamp, quantity });
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
      shipping: {
        firstName: "Ada",
        lastName: "Lovelace",
        email: `ada-${randomUUID().slice(0, 8)}@example.com`,
        phone: "+1 555 0100",
        address: "1 Analytical Way",
        city: "Springfield",
        state: "IL",
        zipCode: "62701",
        country: "US",
      },
      method: "standard",
      shop: SPEC_SHOP,
      payment: { token: card.token, brand: card.brand, last4: card.last4 },
      expectedTotalCents: specTotals(cart.totals.subtotalCents).totalCents,
    });
    if (!placed.ok) throw new Error(placed.error.code);
    const { id, number, email } = placed.value.order;
    const deliveredAt = new Date(Date.now() - deliveredDaysAgo * DAY);
    await transitionOrder(t.db, {
      orderId: id,
      to: "shipped",
      actor: "admin",
      now: new Date(deliveredAt.getTime() - DAY),
    });
    await transitionOrder(t.db, { orderId: id, to: "delivered", actor: "admin", now: deliveredAt });
    const item = await t.db
      .selectFrom("orderItems")
      .select("id")
      .where("orderId", "=", id)
      .executeTakeFirstOrThrow();
    return { number, email, lamp, itemId: item.id, total: placed.value.order.totalCents };
  }
  const stockOf = async (productId: number) =>
    (
      await t.db
        .selectFrom("productVariants")
        .select("stock")
        .where("productId", "=", productId)
        .executeTakeFirstOrThrow()
    ).stock;
  const statusOf = async (number: string) =>
    (await t.db.selectFrom("returns").select("status").where("number", "=", number).executeTakeFirstOrThrow())
      .status;

  it("goes requested → approved → received (restocked) → refunded, e-mailing each step", async () => {
    const order = await deliveredOrder();
    const requested = await requestReturn(t.db, services().mail, shop, {
      orderNumber: order.number,
      lines: [{ itemId: order.itemId, quantity: 1 }],
      reason: "It doesn't fit",
    });
    expect(requested).toMatchObject({ ok: true });
    const number = requested.ok ? requested.value.number : "";
    expect(number).toMatch(/^RT-[0-9A-Z]{10}$/);
    // what is asked for is no longer returnable
    const left = await returnableOrder(t.db, order.number);
    expect(left.ok && left.value.lines[0]!.returnable).toBe(1);

    expect(await moveReturn(t.db, services(), { number, to: "received", actor: ACTOR })).toEqual({
      ok: false,
      error: { code: "not-allowed", from: "requested" },
    });
    expect(await moveReturn(t.db, services(), { number, to: "approved", actor: ACTOR })).toMatchObject({
      ok: true,
    });
    expect(await stockOf(order.lamp)).toBe(8);
    expect(await moveReturn(t.db, services(), { number, to: "received", actor: ACTOR })).toMatchObject({
      ok: true,
    });
    expect(await stockOf(order.lamp)).toBe(9);
    expect(await moveReturn(t.db, services(), { number, to: "refunded", actor: ACTOR })).toMatchObject({
      ok: true,
    });
    expect(await statusOf(number)).toBe("refunded");
    const refunded = await t.db
      .selectFrom("returns")
      .innerJoin("orders", "orders.id", "returns.orderId")
      .select(["returns.refundCents", "orders.refundedCents", "orders.status"])
      .where("returns.number", "=", number)
      .executeTakeFirstOrThrow();
    // one $30 lamp of $60 of goods, of $64.20 paid for them (free shipping)
    expect(refunded).toEqual({ refundCents: 3_210, refundedCents: 3_210, status: "partially_refunded" });
    expect(await stockOf(order.lamp)).toBe(9); // restocked once, at receipt
    const mails = (await readOutbox(mailDir)).filter((m) => m.to === order.email).map((m) => m.subject);
    expect(mails).toEqual([
      `Cartwheel: return ${number} for order ${order.number}`,
      `Cartwheel: return ${number} approved`,
      `Cartwheel: return ${number} received`,
      `Cartwheel: $32.10 refunded for order ${order.number}`,
      `Cartwheel: return ${number} refunded`,
    ]);
    // the other lamp can still be returned; a second refund of this return is refused
    expect(await moveReturn(t.db, services(), { number, to: "refunded", actor: ACTOR })).toMatchObject({
      ok: false,
    });
  });

  it("refuses more than was delivered, nothing at all, an order not delivered, and after 30 days", async () => {
    const order = await deliveredOrder();
    const ask = (orderNumber: string, quantity: number) =>
      requestReturn(t.db, services().mail, shop, {
        orderNumber,
        lines: [{ itemId: order.itemId, quantity }],
        reason: "Changed my mind",
      });
    expect(await ask(order.number, 3)).toEqual({
      ok: false,
      error: { code: "too-many", name: "Return Lamp" },
    });
    expect(await ask(order.number, 0)).toEqual({ ok: false, error: { code: "nothing-chosen" } });
    const late = await deliveredOrder(31);
    expect(
      await requestReturn(t.db, services().mail, shop, {
        orderNumber: late.number,
        lines: [{ itemId: late.itemId, quantity: 1 }],
        reason: "x",
      }),
    ).toEqual({ ok: false, error: { code: "window-closed" } });
    expect(await ask("CW-NOSUCHORDER", 1)).toEqual({ ok: false, error: { code: "not-found" } });
  });

  it("gives the shipping back for a damaged item, as the returns page promises", async () => {
    const order = await deliveredOrder(3, 1); // $30 + $4.99 shipping + 7 % tax on the goods = $37.09
    expect(order.total).toBe(3_709);
    const asked = await requestReturn(t.db, services().mail, shop, {
      orderNumber: order.number,
      lines: [{ itemId: order.itemId, quantity: 1 }],
      reason: "Arrived damaged or faulty",
    });
    const number = asked.ok ? asked.value.number : "";
    for (const to of ["approved", "received", "refunded"] as const) {
      expect(await moveReturn(t.db, services(), { number, to, actor: ACTOR })).toMatchObject({ ok: true });
    }
    const row = await t.db
      .selectFrom("orders")
      .select(["refundedCents", "status"])
      .where("number", "=", order.number)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ refundedCents: 3_709, status: "refunded" });
  });

  it("a rejected return frees its items for another request", async () => {
    const order = await deliveredOrder();
    const first = await requestReturn(t.db, services().mail, shop, {
      orderNumber: order.number,
      lines: [{ itemId: order.itemId, quantity: 2 }],
      reason: "Not as described",
    });
    const number = first.ok ? first.value.number : "";
    const none = await returnableOrder(t.db, order.number);
    expect(none.ok && none.value.lines[0]!.returnable).toBe(0);
    expect(
      await moveReturn(t.db, services(), { number, to: "rejected", actor: ACTOR, rejectionReason: "Worn" }),
    ).toMatchObject({ ok: true });
    const again = await returnableOrder(t.db, order.number);
    expect(again.ok && again.value.lines[0]!.returnable).toBe(2);
    const mails = (await readOutbox(mailDir)).filter(
      (m) => m.subject === `Cartwheel: return ${number} not accepted`,
    );
    expect(mails[0]?.text).toContain("Why: Worn");
  });
});
