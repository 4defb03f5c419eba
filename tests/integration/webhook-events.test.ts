import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { authSessionFromHeaders } from "../../app/adapters/auth/auth-session.ts";
import type { Database } from "../../app/db/database.server.ts";
import { engineOf } from "../../app/db/database.server.ts";
import { register } from "../../app/domain/accounts/authentication.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { deleteProduct, setProductsArchived } from "../../app/domain/catalog/admin/product-delete.server.ts";
import {
  adjustStock,
  createProduct,
  updateProduct,
} from "../../app/domain/catalog/admin/product-write.server.ts";
import { removeVariant } from "../../app/domain/catalog/admin/variant-write.server.ts";
import { takeGiftCard } from "../../app/domain/gift-cards/gift-card-spending.server.ts";
import { issueGiftCard } from "../../app/domain/gift-cards/gift-cards.server.ts";
import { adjustStockLevel, setStockLevels } from "../../app/domain/inventory/inventory.server.ts";
import { transitionOrder } from "../../app/domain/orders/orders.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { moveReturn, requestReturn } from "../../app/domain/returns/returns.server.ts";
import type { ProductInput } from "../../app/lib/product-input.ts";
import { LOW_STOCK_THRESHOLD } from "../../app/lib/stock.ts";
import { ENGINES } from "../db-utils.ts";
import { insertOrder } from "../helpers/account-fixtures.ts";
import {
  defaultVariantOf,
  ensureCategory,
  insertProduct,
  insertProductWithVariants,
} from "../helpers/catalog.ts";
import { png } from "../helpers/images.ts";
import { SPEC_SHOP, specTotals } from "../helpers/spec-pricing.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * The webhook events beyond the order's (issue 32, decision 039), on both engines: each written to
 * the outbox by the domain command that makes its change, in the change's transaction — there when
 * the change committed, absent when it rolled back, and (an outbox that refuses the row) no change
 * committed without its event.
 */
const OWNER = { id: "owner-events", email: "owner@events.example", role: "owner" as const };
const SHIPPING = {
  firstName: "Ada",
  lastName: "Lovelace",
  phone: "+1 555 0100",
  address: "1 Analytical Way",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
  country: "US",
};
const DAY = 24 * 60 * 60_000;

type Event = { type: string; subjectId: number; data: Record<string, unknown> };

describe.each(ENGINES)("webhook events on %s", (engine) => {
  let shop: TestShop;
  let db: Database;

  beforeAll(async () => {
    shop = await createTestShop(engine);
    db = shop.db;
    await ensureCategory(db, "electronics");
  });
  afterAll(async () => {
    await shop?.destroy();
  });
  afterEach(async () => {
    await poison(false);
  });

  /** The events written since `after` (an event id), oldest first. */
  async function eventsAfter(after: number): Promise<Event[]> {
    const rows = await db
      .selectFrom("webhookEvents")
      .select(["type", "subjectId", "data"])
      .where("id", ">", after)
      .orderBy("id")
      .execute();
    return rows.map((row) => ({
      type: row.type,
      subjectId: Number(row.subjectId),
      data: JSON.parse(row.data),
    }));
  }
  const lastEventId = async () =>
    Number(
      (await db.selectFrom("webhookEvents").select("id").orderBy("id", "desc").limit(1).executeTakeFirst())
        ?.id ?? 0,
    );

  /** An outbox that refuses every row (a trigger): whatever writes an event fails with it. */
  async function poison(on: boolean) {
    const postgres = engineOf(db) === "postgres";
    if (!on) {
      await sql`drop trigger if exists outbox_refuses${postgres ? sql` on webhook_events` : sql``}`.execute(
        db,
      );
      return;
    }
    if (postgres) {
      await sql
        .raw(`create or replace function outbox_refuses() returns trigger language plpgsql as $$
          begin raise exception 'outbox refused'; end $$`)
        .execute(db);
      await sql
        .raw(`create trigger outbox_refuses before insert on webhook_events
          for each row execute function outbox_refuses()`)
        .execute(db);
    } else {
      await sql
        .raw(`create trigger outbox_refuses before insert on webhook_events
          begin select raise(abort, 'outbox refused'); end`)
        .execute(db);
    }
  }

  const input = (name: string, stock = 12): ProductInput => ({
    name,
    description: "A lamp for the events test.",
    brand: "Lumen",
    categoryId: "electronics",
    subcategoryId: null,
    taxClass: "standard",
    priceCents: 3_000,
    originalPriceCents: null,
    stock,
    weightGrams: 500,
    specifications: {},
    featured: false,
    newArrival: false,
    bestSeller: false,
  });
  const deps = () => ({ db, files: shop.services.files, log: () => {} });

  async function order(productId: number, quantity: number, placeOn: Database = db) {
    const cartId = newCartId();
    await addToCart(db, { cartId, productId, quantity });
    const cart = await getCart(db, cartId, SPEC_SHOP);
    const card = await shop.services.gateway.tokenize({
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2031,
      cvv: "123",
      name: "Ada",
    });
    if (!card.ok) throw new Error("tokenize failed");
    const placed = await placeOrder(placeOn, shop.services.gateway, {
      cartId,
      idempotencyKey: randomUUID(),
      shipping: { ...SHIPPING, email: `ada-${randomUUID().slice(0, 8)}@example.com` },
      method: "standard",
      shop: SPEC_SHOP,
      payment: { token: card.token, brand: card.brand, last4: card.last4 },
      expectedTotalCents: specTotals(cart.totals.subtotalCents).totalCents,
    });
    if (!placed.ok) throw new Error(placed.error.code);
    return placed.value.order;
  }

  it("product.created, product.updated and product.deleted (archived, deleted) with their change", async () => {
    const from = await lastEventId();
    const created = await createProduct(deps(), {
      input: input("Events Lamp"),
      uploads: [{ filename: "lamp.png", bytes: await png() }],
      actor: OWNER,
    });
    if (!created.ok) throw new Error(created.error.code);
    const { id, slug } = created.value;
    expect(await updateProduct(db, { id, input: input("Events Lamp II"), actor: OWNER })).toEqual({
      ok: true,
      value: undefined,
    });
    expect(await setProductsArchived(db, { ids: [id], archived: true, actor: OWNER })).toBe(1);
    expect(await setProductsArchived(db, { ids: [id], archived: false, actor: OWNER })).toBe(1);
    expect(await deleteProduct(deps(), { id, actor: OWNER })).toEqual({ ok: true, value: "deleted" });
    expect(await eventsAfter(from)).toEqual([
      { type: "product.created", subjectId: id, data: { id, slug, name: "Events Lamp", status: "active" } },
      {
        type: "product.updated",
        subjectId: id,
        data: { id, slug, name: "Events Lamp II", status: "active" },
      },
      {
        type: "product.deleted",
        subjectId: id,
        data: { id, slug, name: "Events Lamp II", status: "archived" },
      },
      {
        type: "product.updated",
        subjectId: id,
        data: { id, slug, name: "Events Lamp II", status: "active" },
      },
      // its stock left the books with it: no stock.out for a product deleted
      {
        type: "product.deleted",
        subjectId: id,
        data: { id, slug, name: "Events Lamp II", status: "deleted" },
      },
    ]);
    // an outbox that refuses the event: the product is not added either
    await poison(true);
    await expect(
      createProduct(deps(), { input: input("Never Lamp"), uploads: [], actor: OWNER }),
    ).resolves.toMatchObject({ ok: false });
    await poison(false);
    expect(await db.selectFrom("products").select("id").where("name", "=", "Never Lamp").execute()).toEqual(
      [],
    );
  });

  it("product.updated when a variant is removed (the variant editor's commands touch the product)", async () => {
    const { productId, variantIds } = await insertProductWithVariants(db, {
      options: [{ name: "Size", values: ["S", "M"] }],
      variants: [
        { values: ["S"], sku: `EV-S-${randomUUID().slice(0, 6)}`, priceCents: 1_000, stock: 3 },
        { values: ["M"], sku: `EV-M-${randomUUID().slice(0, 6)}`, priceCents: 1_000, stock: 3 },
      ],
    });
    const from = await lastEventId();
    expect(await removeVariant(db, { productId, variantId: variantIds[1]! }, OWNER)).toMatchObject({
      ok: true,
    });
    // its stock left with it: no stock.out for a variant removed
    expect((await eventsAfter(from)).map((e) => [e.type, e.subjectId, e.data.status])).toEqual([
      ["product.updated", productId, "active"],
    ]);
  });

  it("stock.low when a level crosses the low-stock line, stock.out at 0, nothing in between", async () => {
    const product = await insertProduct(db, { stock: LOW_STOCK_THRESHOLD + 2 });
    const variantId = await defaultVariantOf(db, product);
    const from = await lastEventId();
    // by staff: 12 → 11 (none), → 10 (low), → 9 (none)
    for (const delta of [-1, -1, -1]) {
      expect(await adjustStock(db, { id: product, delta, actor: OWNER })).toMatchObject({ ok: true });
    }
    // a sale (Place Order's take): 9 → 0 (out)
    await order(product, 9);
    // back up by a count (no event), then a sale across the line: 20 → 5 (low)
    await db
      .transaction()
      .execute((trx) =>
        setStockLevels(trx, [{ variantId, level: 20 }], { reason: "admin_set", actor: OWNER.id }),
      );
    const sold = await order(product, 15);
    const data = (stock: number) => ({
      variantId,
      productId: product,
      stock,
      threshold: LOW_STOCK_THRESHOLD,
    });
    const stockEvents = (await eventsAfter(from)).filter((e) => e.type.startsWith("stock."));
    expect(stockEvents).toEqual([
      { type: "stock.low", subjectId: variantId, data: data(LOW_STOCK_THRESHOLD) },
      { type: "stock.out", subjectId: variantId, data: data(0) },
      { type: "stock.low", subjectId: variantId, data: data(5) },
    ]);
    // the sale's stock.low is in the order's transaction: written before its order.created
    const around = await eventsAfter(from);
    const low = around.findLastIndex((e) => e.type === "stock.low");
    expect(around[low + 1]).toMatchObject({ type: "order.created", subjectId: sold.id });
    // a change rolled back: its crossing is no event
    const before = await lastEventId();
    await expect(
      db.transaction().execute(async (trx) => {
        await adjustStockLevel(trx, { variantId, delta: -5 }, { reason: "admin_adjust", actor: OWNER.id });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await eventsAfter(before)).toEqual([]);
    // an outbox that refuses: the sale that would sell out does not happen
    await poison(true);
    await expect(order(product, 5)).rejects.toThrow();
    await poison(false);
    expect(
      (
        await db
          .selectFrom("productVariants")
          .select("stock")
          .where("id", "=", variantId)
          .executeTakeFirstOrThrow()
      ).stock,
    ).toBe(5);
  });

  it("a sale crossing the low-stock line costs Place Order no statement more on PostgreSQL", async () => {
    // the statements Place Order sends, counted by a plugin on the database it is given
    let statements = 0;
    const counted = db.withPlugin({
      transformQuery: (args) => {
        statements++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const place = async (stock: number) => {
      const product = await insertProduct(db, { stock });
      const before = statements;
      await order(product, 2, counted);
      return statements - before;
    };
    await place(50); // warm: whatever a first order reads once
    const plain = await place(50); // 50 → 48: nothing crossed
    const crossing = await place(LOW_STOCK_THRESHOLD + 1); // 11 → 9: stock.low
    expect(plain).toBeGreaterThan(5);
    // SQLite has no data-modifying WITH: the event is one insert more there (no network to cross)
    expect(crossing - plain).toBe(engine === "postgres" ? 0 : 1);
  });

  it("return.requested and return.received, each with its transition", async () => {
    const lamp = await insertProduct(db, { stock: 50, priceCents: 3_000 });
    const placed = await order(lamp, 2);
    const delivered = new Date(Date.now() - 3 * DAY);
    await transitionOrder(db, {
      orderId: placed.id,
      to: "shipped",
      actor: "admin",
      now: new Date(delivered.getTime() - DAY),
    });
    await transitionOrder(db, { orderId: placed.id, to: "delivered", actor: "admin", now: delivered });
    const item = await db
      .selectFrom("orderItems")
      .select("id")
      .where("orderId", "=", placed.id)
      .executeTakeFirstOrThrow();
    const mailShop = { shopName: "Cartwheel", publicUrl: TEST_ORIGIN };
    const services = { gateway: shop.services.gateway, mail: shop.services.mail, shop: mailShop };
    const from = await lastEventId();
    const asked = await requestReturn(db, shop.services.mail, mailShop, {
      orderNumber: placed.number,
      lines: [{ itemId: item.id, quantity: 1 }],
      reason: "Changed my mind",
    });
    if (!asked.ok) throw new Error(asked.error.code);
    const { number } = asked.value;
    expect(await moveReturn(db, services, { number, to: "approved", actor: OWNER })).toMatchObject({
      ok: true,
    });
    expect(await moveReturn(db, services, { number, to: "received", actor: OWNER })).toMatchObject({
      ok: true,
    });
    const returnId = (
      await db.selectFrom("returns").select("id").where("number", "=", number).executeTakeFirstOrThrow()
    ).id;
    const data = {
      number,
      orderNumber: placed.number,
      reason: "Changed my mind",
      items: [{ orderItemId: item.id, quantity: 1 }],
    };
    expect((await eventsAfter(from)).filter((e) => e.type.startsWith("return."))).toEqual([
      { type: "return.requested", subjectId: returnId, data },
      { type: "return.received", subjectId: returnId, data },
    ]);
    // refused by the outbox: no return is requested
    await poison(true);
    await expect(
      requestReturn(db, shop.services.mail, mailShop, {
        orderNumber: placed.number,
        lines: [{ itemId: item.id, quantity: 1 }],
        reason: "Changed my mind",
      }),
    ).rejects.toThrow();
    await poison(false);
    expect(
      await db.selectFrom("returns").select("id").where("orderId", "=", placed.id).execute(),
    ).toHaveLength(1);
  });

  it("customer.created when an account registers", async () => {
    const from = await lastEventId();
    const email = `new-${randomUUID().slice(0, 8)}@example.com`;
    const registered = await register(
      shop.services,
      { name: "New Customer", email, password: "correct horse battery" },
      authSessionFromHeaders(new Headers()),
    );
    if (!registered.ok) throw new Error(registered.error.message);
    expect(await eventsAfter(from)).toEqual([
      { type: "customer.created", subjectId: 0, data: { id: registered.value.userId, email } },
    ]);
    // refused by the outbox: no account is made
    await poison(true);
    const refused = `refused-${randomUUID().slice(0, 8)}@example.com`;
    const again = await register(
      shop.services,
      { name: "Refused", email: refused, password: "correct horse battery" },
      authSessionFromHeaders(new Headers()),
    );
    await poison(false);
    expect(again.ok).toBe(false);
    expect(await db.selectFrom("users").select("id").where("email", "=", refused).execute()).toEqual([]);
  });

  it("gift_card.issued and gift_card.used, with the issue and with the order's take", async () => {
    const from = await lastEventId();
    const issued = await issueGiftCard(db, {
      input: {
        key: randomUUID(),
        amountCents: 5_000,
        currency: "USD",
        expiresAt: null,
        recipientEmail: "friend@example.com",
        recipientName: null,
        message: null,
      },
      actor: OWNER,
    });
    if (!issued.ok) throw new Error(issued.error.code);
    const card = issued.value.card;
    const number = await insertOrder(db, {
      userId: null,
      createdAt: new Date().toISOString(),
      status: "pending_payment",
    });
    const orderId = (
      await db.selectFrom("orders").select("id").where("number", "=", number).executeTakeFirstOrThrow()
    ).id;
    expect(
      await db
        .transaction()
        .execute((trx) =>
          takeGiftCard(trx, { giftCardId: card.id, orderId, amountCents: 1_200, now: new Date() }),
        ),
    ).toBe(true);
    // a take rolled back is no use
    await expect(
      db.transaction().execute(async (trx) => {
        await takeGiftCard(trx, { giftCardId: card.id, orderId, amountCents: 300, now: new Date() });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await eventsAfter(from)).toEqual([
      {
        type: "gift_card.issued",
        subjectId: card.id,
        data: {
          id: card.id,
          last4: card.last4,
          initial: { amount: 5_000, currency: "USD" },
          expiresAt: null,
          orderNumber: null,
        },
      },
      {
        type: "gift_card.used",
        subjectId: card.id,
        data: {
          id: card.id,
          last4: card.last4,
          orderId,
          amount: { amount: 1_200, currency: "USD" },
          balance: { amount: 3_800, currency: "USD" },
        },
      },
    ]);
    // refused by the outbox: the card is not taken from
    await poison(true);
    await expect(
      db
        .transaction()
        .execute((trx) =>
          takeGiftCard(trx, { giftCardId: card.id, orderId, amountCents: 100, now: new Date() }),
        ),
    ).rejects.toThrow();
    await poison(false);
    expect(
      (
        await db
          .selectFrom("giftCards")
          .select("balanceCents")
          .where("id", "=", card.id)
          .executeTakeFirstOrThrow()
      ).balanceCents,
    ).toBe(3_800);
  });
});
