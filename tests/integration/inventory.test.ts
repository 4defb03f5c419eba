import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { setProductsStock } from "../../app/domain/catalog/admin/product-delete.server.ts";
import { adjustStock } from "../../app/domain/catalog/admin/product-write.server.ts";
import { checkStockLedger, stockHistory } from "../../app/domain/inventory/stock-ledger.server.ts";
import { advanceOrder } from "../../app/domain/orders/order-admin.server.ts";
import { transitionOrder } from "../../app/domain/orders/orders.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { refundOrder } from "../../app/domain/payments/refunds.server.ts";
import { moveReturn, requestReturn } from "../../app/domain/returns/returns.server.ts";
import * as stockPage from "../../app/routes/admin.products.$id_.stock.tsx";
import { ENGINES } from "../db-utils.ts";
import { cookieHeader } from "../helpers/account-fixtures.ts";
import { defaultVariantOf, insertProduct } from "../helpers/catalog.ts";
import { callRoute } from "../helpers/route-harness.ts";
import { SPEC_SHOP, specTotals } from "../helpers/spec-pricing.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * The inventory area (decision 026): every movement of one variant's stock — orders, payments that
 * fail, cancellations, refunds with restock, returns received, staff's counts — at once, on both
 * engines: the level is always the ledger's sum, never below 0, and nothing deadlocks.
 */
const OWNER = { id: "owner-stock", email: "owner@stock.example", role: "owner" as const };
const SHIPPING = {
  firstName: "Stock",
  lastName: "Taker",
  email: "stock@example.com",
  phone: "+1 555 0100",
  address: "1 Ledger Row",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
  country: "US",
};

describe.each(ENGINES)("the inventory on %s", (engine) => {
  let shop: TestShop;

  beforeAll(async () => {
    shop = await createTestShop(engine);
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  const services = () => ({
    db: shop.db,
    gateway: shop.services.gateway,
    mail: shop.services.mail,
    shop: { shopName: "Cartwheel", publicUrl: TEST_ORIGIN },
  });

  async function buy(productIds: number[], quantity: number, key = randomUUID()) {
    const cartId = newCartId();
    for (const productId of productIds) await addToCart(shop.db, { cartId, productId, quantity });
    const cart = await getCart(shop.db, cartId, SPEC_SHOP);
    const card = await shop.services.gateway.tokenize({
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2031,
      cvv: "123",
      name: "Stock",
    });
    if (!card.ok) throw new Error("tokenize failed");
    return placeOrder(shop.db, shop.services.gateway, {
      cartId,
      idempotencyKey: key,
      shipping: SHIPPING,
      method: "standard",
      shop: SPEC_SHOP,
      payment: { token: card.token, brand: card.brand, last4: card.last4 },
      expectedTotalCents: specTotals(cart.totals.subtotalCents).totalCents,
    });
  }

  const levelOf = async (variantId: number) =>
    (
      await shop.db
        .selectFrom("productVariants")
        .select("stock")
        .where("id", "=", variantId)
        .executeTakeFirstOrThrow()
    ).stock;
  const ledgerOf = async (variantId: number) =>
    Number(
      (
        await shop.db
          .selectFrom("stockMovements")
          .select((eb) => eb.fn.sum<number>("delta").as("total"))
          .where("variantId", "=", variantId)
          .executeTakeFirstOrThrow()
      ).total,
    );

  it("orders, cancellations, refunds with restock, returns and staff counts at once: level = ledger, never below 0", {
    timeout: 60_000,
  }, async () => {
    const a = await insertProduct(shop.db, { stock: 40, priceCents: 2_000, name: "Busy Lamp" });
    const b = await insertProduct(shop.db, { stock: 40, priceCents: 1_500, name: "Busy Mug" });
    const [va, vb] = [await defaultVariantOf(shop.db, a), await defaultVariantOf(shop.db, b)];
    // orders to cancel, refund and return while new orders come in
    const placed = [];
    for (let i = 0; i < 9; i++) {
      const result = await buy([a, b], 2);
      if (!result.ok) throw new Error(result.error.code);
      placed.push(result.value.order);
    }
    const delivered = placed.slice(6);
    const returns: string[] = [];
    for (const order of delivered) {
      await transitionOrder(shop.db, { orderId: order.id, to: "shipped", actor: "test" });
      await transitionOrder(shop.db, { orderId: order.id, to: "delivered", actor: "test" });
      const items = await shop.db
        .selectFrom("orderItems")
        .select("id")
        .where("orderId", "=", order.id)
        .execute();
      const asked = await requestReturn(shop.db, shop.services.mail, services().shop, {
        orderNumber: order.number,
        lines: items.map((item) => ({ itemId: item.id, quantity: 1 })),
        reason: "Changed my mind",
      });
      if (!asked.ok) throw new Error(asked.error.code);
      await moveReturn(shop.db, services(), { number: asked.value.number, to: "approved", actor: OWNER });
      returns.push(asked.value.number);
    }
    const lineOf = async (orderId: number, productId: number) =>
      (
        await shop.db
          .selectFrom("orderItems")
          .select("id")
          .where("orderId", "=", orderId)
          .where("productId", "=", productId)
          .executeTakeFirstOrThrow()
      ).id;

    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 24; i++) work.push(buy(i % 2 ? [a, b] : [b, a], 1 + (i % 3)));
    for (const order of placed.slice(0, 3)) {
      work.push(
        advanceOrder(services(), { number: order.number, to: "cancelled", actor: OWNER, confirmed: true }),
      );
    }
    for (const order of placed.slice(3, 6)) {
      work.push(
        refundOrder(services(), {
          number: order.number,
          key: randomUUID(),
          lines: [
            { itemId: await lineOf(order.id, a), quantity: 1 },
            { itemId: await lineOf(order.id, b), quantity: 2 },
          ],
          amountCents: null,
          restock: true,
          reason: "",
          actor: OWNER,
        }),
      );
    }
    for (const number of returns)
      work.push(moveReturn(shop.db, services(), { number, to: "received", actor: OWNER }));
    work.push(adjustStock(shop.db, { id: a, delta: 5, actor: OWNER }));
    work.push(adjustStock(shop.db, { id: b, delta: -3, actor: OWNER }));
    work.push(setProductsStock(shop.db, { ids: [b, a], stock: 35, actor: OWNER }));
    const settled = await Promise.allSettled(work);
    // no deadlock, no error: every operation answered
    expect(settled.filter((r) => r.status === "rejected")).toEqual([]);

    for (const variantId of [va, vb]) {
      const level = await levelOf(variantId);
      expect(level).toBeGreaterThanOrEqual(0);
      expect(level).toBe(await ledgerOf(variantId));
    }
    expect(await checkStockLedger(shop.db)).toMatchObject({ variants: [], products: [] });
    const reasons = await shop.db
      .selectFrom("stockMovements")
      .select("reason")
      .distinct()
      .where("variantId", "in", [va, vb])
      .execute();
    expect(reasons.map((r) => r.reason).sort()).toEqual(
      [
        "admin_adjust",
        "bulk_set",
        "cancellation",
        "opening_balance",
        "refund_restock",
        "return_received",
        "sale",
      ].sort(),
    );
  });

  it("a failed payment gives its units back, and each movement names its order or staff member", async () => {
    const p = await insertProduct(shop.db, { stock: 5, priceCents: 1_000, name: "Declined Thing" });
    const variantId = await defaultVariantOf(shop.db, p);
    const cartId = newCartId();
    await addToCart(shop.db, { cartId, productId: p, quantity: 2 });
    const cart = await getCart(shop.db, cartId, SPEC_SHOP);
    const { mintTestToken } = await import("../../app/adapters/payments/test-gateway.server.ts");
    const declined = await placeOrder(shop.db, shop.services.gateway, {
      cartId,
      idempotencyKey: randomUUID(),
      shipping: SHIPPING,
      method: "standard",
      shop: SPEC_SHOP,
      payment: { token: mintTestToken("card_declined"), brand: "Visa", last4: "0002" },
      expectedTotalCents: specTotals(cart.totals.subtotalCents).totalCents,
    });
    expect(declined).toMatchObject({ ok: false, error: { code: "payment-declined" } });
    expect(await levelOf(variantId)).toBe(5);
    await adjustStock(shop.db, { id: p, delta: 4, actor: OWNER });
    const history = await stockHistory(shop.db, variantId);
    expect(history.level).toBe(9);
    expect(history.entries.map((e) => [e.reason, e.delta, e.level])).toEqual([
      ["admin_adjust", 4, 9],
      ["payment_failed", 2, 5],
      ["sale", -2, 3],
      ["opening_balance", 5, 5],
    ]);
    const order = await shop.db
      .selectFrom("orders")
      .select("number")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(history.entries[1]!.orderNumber).toBe(order.number);
    expect(history.entries[2]!.orderNumber).toBe(order.number);
    // a page at a time: the older half starts at the level the newer half left
    const older = await stockHistory(shop.db, variantId, { before: history.entries[1]!.id, limit: 1 });
    expect(older.entries.map((e) => [e.reason, e.level])).toEqual([["sale", 3]]);
    expect(older.hasMore).toBe(true);
  });

  it("the admin shows a variant's stock history to staff with the products permission", async () => {
    const p = await insertProduct(shop.db, { stock: 7, priceCents: 1_000, name: "History Thing" });
    await adjustStock(shop.db, { id: p, delta: -2, actor: OWNER });
    const { auth } = shop.services;
    await createOrUpdateUser(
      { auth, db: shop.db },
      { email: "clerk@stock.example", password: "correct horse", role: "staff" },
    );
    const { headers } = await auth.api.signInEmail({
      body: { email: "clerk@stock.example", password: "correct horse" },
      returnHeaders: true,
    });
    const page = await callRoute(stockPage, "loader", `${TEST_ORIGIN}/admin/products/${p}/stock`, {
      cookie: cookieHeader(headers),
      params: { id: String(p) },
      context: shop.context(),
    });
    expect(page.status).toBe(200);
    const data = page.data as unknown as {
      level: number;
      entries: { reason: string; delta: number; level: number }[];
    };
    expect(data.level).toBe(5);
    expect(data.entries.map((e) => [e.reason, e.delta, e.level])).toEqual([
      ["admin_adjust", -2, 5],
      ["opening_balance", 7, 7],
    ]);
    const missing = await callRoute(stockPage, "loader", `${TEST_ORIGIN}/admin/products/999999/stock`, {
      cookie: cookieHeader(headers),
      params: { id: "999999" },
      context: shop.context(),
    });
    expect(missing.thrown).toBe(404);
  });
});
