import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentGateway } from "../../app/adapters/payments/payment-gateway.ts";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { advanceOrder } from "../../app/domain/orders/order-admin.server.ts";
import { transitionOrder } from "../../app/domain/orders/orders.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import {
  REFUND_SETTLE_GRACE_MS,
  refundOrder,
  settlePendingRefunds,
} from "../../app/domain/payments/refunds.server.ts";
import * as adminOrder from "../../app/routes/admin.orders.$number.tsx";
import * as orderReturn from "../../app/routes/orders.return.tsx";
import { ENGINES } from "../db-utils.ts";
import { cookieHeader } from "../helpers/account-fixtures.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { moneyBookDifferences } from "../helpers/money-books.ts";
import { callRoute } from "../helpers/route-harness.ts";
import { SPEC_SHOP, specTotals } from "../helpers/spec-pricing.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * Issue 28: what the gateway paid back equals what the shop's books say, for every order, and never
 * passes what was paid — with a line named twice, with refunds and cancellations racing, with a
 * gateway that cannot be reached or that paid back and then lost its answer (the crash test is
 * refund-crash.test.ts). Books: orders.refunded_cents and the refunds that succeeded; the gateway:
 * the test gateway's ledger.
 */
const OWNER = { id: "owner-money", email: "owner@money.example", role: "owner" as const };
const SHOP = { shopName: "Cartwheel", publicUrl: TEST_ORIGIN };
const SHIPPING = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@money.example",
  phone: "+1 555 0100",
  address: "1 Analytical Way",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
  country: "US",
};

describe.each(ENGINES)("money integrity on %s", (engine) => {
  let shop: TestShop;
  let ownerCookie = "";

  beforeAll(async () => {
    shop = await createTestShop(engine);
    const { auth } = shop.services;
    await createOrUpdateUser(
      { auth, db: shop.db },
      { email: OWNER.email, password: "correct horse", role: "owner" },
    );
    const { headers } = await auth.api.signInEmail({
      body: { email: OWNER.email, password: "correct horse" },
      returnHeaders: true,
    });
    ownerCookie = cookieHeader(headers);
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  const services = (gateway: PaymentGateway = shop.services.gateway) => ({
    db: shop.db,
    gateway,
    mail: shop.services.mail,
    shop: SHOP,
  });

  /** A paid order of one $40 lamp and `mugs` $10 mugs (free shipping over $50, 7 % tax). */
  async function paidOrder(mugs = 2) {
    const lamp = await insertProduct(shop.db, { stock: 50, priceCents: 4_000, name: "Money Lamp" });
    const mug = await insertProduct(shop.db, { stock: 50, priceCents: 1_000, name: "Money Mug" });
    const cartId = newCartId();
    await addToCart(shop.db, { cartId, productId: lamp, quantity: 1 });
    await addToCart(shop.db, { cartId, productId: mug, quantity: mugs });
    const cart = await getCart(shop.db, cartId, SPEC_SHOP);
    const card = await shop.services.gateway.tokenize({
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2031,
      cvv: "123",
      name: "Ada",
    });
    if (!card.ok) throw new Error("tokenize failed");
    const placed = await placeOrder(shop.db, shop.services.gateway, {
      cartId,
      idempotencyKey: randomUUID(),
      shipping: SHIPPING,
      method: "standard",
      shop: SPEC_SHOP,
      payment: { token: card.token, brand: card.brand, last4: card.last4 },
      expectedTotalCents: specTotals(cart.totals.subtotalCents).totalCents,
    });
    if (!placed.ok) throw new Error(`order not placed: ${placed.error.code}`);
    const items = await shop.db
      .selectFrom("orderItems")
      .select(["id", "productId"])
      .where("orderId", "=", placed.value.order.id)
      .execute();
    return {
      ...placed.value.order,
      lampLine: items.find((i) => i.productId === lamp)!.id,
      mugLine: items.find((i) => i.productId === mug)!.id,
    };
  }

  const refunded = async (number: string) =>
    shop.db
      .selectFrom("orders")
      .innerJoin("testGatewayPayments", "testGatewayPayments.authorizationId", "orders.paymentReference")
      .select(["orders.refundedCents as books", "testGatewayPayments.refundedCents as gateway"])
      .where("orders.number", "=", number)
      .executeTakeFirstOrThrow();

  const refundForm = (number: string, fields: Record<string, string>) =>
    callRoute(adminOrder, "action", `${TEST_ORIGIN}/admin/orders/${number}`, {
      cookie: ownerCookie,
      fields: { intent: "refund", key: randomUUID(), ...fields },
      params: { number },
      context: shop.context(),
    });

  it("a line named twice in one refund form (qty.2 and qty.02) is one line: its units summed, refunded once", async () => {
    const order = await paidOrder(1);
    // one lamp bought: the form names it as qty.<id> and qty.0<id> — two units of a one-unit line
    const twice = await refundForm(order.number, {
      [`qty.${order.lampLine}`]: "1",
      [`qty.0${order.lampLine}`]: "1",
    });
    expect(twice.status).toBe(400);
    expect(await refunded(order.number)).toEqual({ books: 0, gateway: 0 });
    // named twice, one unit each, of a line that has two: two units, refunded once
    const mugs = await paidOrder(2);
    const once = await refundForm(mugs.number, {
      [`qty.${mugs.mugLine}`]: "1",
      [`qty.00${mugs.mugLine}`]: "1",
    });
    expect(once.response?.status).toBe(302);
    // two mugs, $20 of $60 goods, of $64.20 paid for them: $21.40
    expect(await refunded(mugs.number)).toEqual({ books: 2_140, gateway: 2_140 });
    const line = await shop.db
      .selectFrom("orderItems")
      .select(["refundedQuantity"])
      .where("id", "=", mugs.mugLine)
      .executeTakeFirstOrThrow();
    expect(line.refundedQuantity).toBe(2);
    expect((await moneyBookDifferences(shop.db)).differences).toEqual([]);
  });

  it("a guest's return of one line under three spellings is one line, and no more units than were bought", async () => {
    const order = await paidOrder(1);
    await transitionOrder(shop.db, { orderId: order.id, to: "shipped", actor: "test" });
    await transitionOrder(shop.db, { orderId: order.id, to: "delivered", actor: "test" });
    const answer = await callRoute(orderReturn, "action", `${TEST_ORIGIN}/orders/return`, {
      fields: {
        number: order.number,
        email: order.email,
        back: "track",
        reason: "Changed my mind",
        [`qty.${order.lampLine}`]: "1",
        [`qty.0${order.lampLine}`]: "1",
        [`qty.00${order.lampLine}`]: "1",
      },
      context: shop.context("198.51.100.28"),
    });
    expect(answer.response?.status).toBe(302);
    const returns = await shop.db
      .selectFrom("returns")
      .select("id")
      .where("orderId", "=", order.id)
      .execute();
    expect(returns).toEqual([]);
  });

  it("refunds and cancellations racing on the same orders pay back exactly what the books say", async () => {
    const orders = await Promise.all(Array.from({ length: 8 }, () => paidOrder(3)));
    const attempts = orders.flatMap((order) => [
      refundOrder(services(), {
        number: order.number,
        key: randomUUID(),
        lines: [{ itemId: order.mugLine, quantity: 2 }],
        amountCents: null,
        restock: true,
        reason: "race",
        actor: OWNER,
      }),
      refundOrder(services(), {
        number: order.number,
        key: randomUUID(),
        lines: [{ itemId: order.mugLine, quantity: 2 }],
        amountCents: null,
        restock: false,
        reason: "race",
        actor: OWNER,
      }),
      refundOrder(services(), {
        number: order.number,
        key: randomUUID(),
        lines: [],
        amountCents: Math.floor(order.totalCents * 0.6),
        restock: false,
        reason: "race",
        actor: OWNER,
      }),
      advanceOrder(services(), { number: order.number, to: "cancelled", actor: OWNER, confirmed: true }),
    ]);
    const results = await Promise.all(attempts);
    expect(results.filter((r) => r.ok).length).toBeGreaterThan(0);
    const books = await moneyBookDifferences(shop.db);
    expect(books.differences).toEqual([]);
    for (const order of orders) {
      const money = await refunded(order.number);
      expect(money.books).toBe(money.gateway);
      expect(money.books).toBeLessThanOrEqual(order.totalCents);
      // the mug line: never more units refunded than bought (three)
      const line = await shop.db
        .selectFrom("orderItems")
        .select(["refundedQuantity", "restockedQuantity"])
        .where("id", "=", order.mugLine)
        .executeTakeFirstOrThrow();
      expect(line.refundedQuantity).toBeLessThanOrEqual(3);
      expect(line.restockedQuantity).toBeLessThanOrEqual(3);
    }
  });

  it("a gateway that cannot be reached leaves the refund pending, promised, and the job settles it", async () => {
    const order = await paidOrder(2);
    const down: PaymentGateway = {
      ...shop.services.gateway,
      refund: async () => {
        throw new Error("connect ECONNREFUSED");
      },
    };
    const key = randomUUID();
    const first = await refundOrder(services(down), {
      number: order.number,
      key,
      lines: [],
      amountCents: 1_000,
      restock: false,
      reason: "outage",
      actor: OWNER,
    });
    expect(first).toEqual({ ok: false, error: { code: "pending" } });
    // recorded and promised: what is left to refund is less by it, the books not yet
    const row = await shop.db
      .selectFrom("orders")
      .select(["refundedCents", "refundPendingCents"])
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ refundedCents: 0, refundPendingCents: 1_000 });
    const tooMuch = await refundOrder(services(), {
      number: order.number,
      key: randomUUID(),
      lines: [],
      amountCents: order.totalCents - 999,
      restock: false,
      reason: "",
      actor: OWNER,
    });
    expect(tooMuch).toMatchObject({
      ok: false,
      error: { code: "too-much", leftCents: order.totalCents - 1_000 },
    });
    // within its grace period the job leaves it to the request
    expect(await settlePendingRefunds(services(), { now: new Date() })).toMatchObject({ succeeded: 0 });
    const later = new Date(Date.now() + REFUND_SETTLE_GRACE_MS + 1_000);
    expect(await settlePendingRefunds(services(), { now: later })).toMatchObject({
      succeeded: 1,
      waiting: 0,
    });
    expect(await refunded(order.number)).toEqual({ books: 1_000, gateway: 1_000 });
    // the same form again: the refund it made, once
    const again = await refundOrder(services(), {
      number: order.number,
      key,
      lines: [],
      amountCents: 1_000,
      restock: false,
      reason: "outage",
      actor: OWNER,
    });
    expect(again).toMatchObject({ ok: true, value: { amountCents: 1_000, replayed: true } });
    expect(await refunded(order.number)).toEqual({ books: 1_000, gateway: 1_000 });
  });

  it("a gateway that paid back and lost its answer is not asked twice: the job finds the refund by its key", async () => {
    const order = await paidOrder(2);
    let asked = 0;
    const lost: PaymentGateway = {
      ...shop.services.gateway,
      refund: async (input) => {
        asked++;
        await shop.services.gateway.refund(input);
        throw new Error("socket hang up");
      },
    };
    const first = await refundOrder(services(lost), {
      number: order.number,
      key: randomUUID(),
      lines: [{ itemId: order.lampLine, quantity: 1 }],
      amountCents: null,
      restock: true,
      reason: "lost answer",
      actor: OWNER,
    });
    expect(first).toEqual({ ok: false, error: { code: "pending" } });
    // the money went back, the books wait for the job
    expect(await refunded(order.number)).toEqual({ books: 0, gateway: 4_280 });
    const settled = await settlePendingRefunds(services(lost), {
      now: new Date(Date.now() + REFUND_SETTLE_GRACE_MS + 1_000),
    });
    expect(settled).toMatchObject({ succeeded: 1 });
    expect(asked).toBe(1);
    expect(await refunded(order.number)).toEqual({ books: 4_280, gateway: 4_280 });
    const status = await shop.db
      .selectFrom("orders")
      .select("status")
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(status.status).toBe("partially_refunded");
    expect((await moneyBookDifferences(shop.db)).differences).toEqual([]);
  });

  it("a refund the gateway refuses gives back what it promised: the units and the amount", async () => {
    const order = await paidOrder(2);
    const refusing: PaymentGateway = {
      ...shop.services.gateway,
      refund: async () => ({
        ok: false,
        code: "not_captured",
        message: "Only a captured payment can be refunded.",
      }),
    };
    const result = await refundOrder(services(refusing), {
      number: order.number,
      key: randomUUID(),
      lines: [{ itemId: order.mugLine, quantity: 2 }],
      amountCents: null,
      restock: true,
      reason: "",
      actor: OWNER,
    });
    expect(result).toEqual({
      ok: false,
      error: { code: "gateway", message: "Only a captured payment can be refunded." },
    });
    const after = await shop.db
      .selectFrom("orders")
      .select(["refundedCents", "refundPendingCents", "status"])
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ refundedCents: 0, refundPendingCents: 0, status: "paid" });
    const line = await shop.db
      .selectFrom("orderItems")
      .select(["refundedQuantity", "restockedQuantity"])
      .where("id", "=", order.mugLine)
      .executeTakeFirstOrThrow();
    expect(line).toEqual({ refundedQuantity: 0, restockedQuantity: 0 });
  });
});
