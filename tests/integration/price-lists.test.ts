import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestGateway, mintTestToken } from "../../app/adapters/payments/test-gateway.server.ts";
import type { StaffActor } from "../../app/domain/audit/audit-log.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { getCart, type Shopper } from "../../app/domain/cart/get-cart.server.ts";
import { selectCardColumns, toProductCards } from "../../app/domain/catalog/product-card.server.ts";
import { getProductDetail } from "../../app/domain/catalog/product-detail.server.ts";
import { createGroup, deleteGroup } from "../../app/domain/customer-groups/customer-groups.server.ts";
import { addMembers } from "../../app/domain/customer-groups/group-members.server.ts";
import {
  getPriceList,
  importGroupPricesCsv,
  removeGroupPrice,
  setGroupPrice,
} from "../../app/domain/customer-groups/price-lists.server.ts";
import { takeStock } from "../../app/domain/inventory/inventory.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import type { PromotionAction } from "../../app/lib/promotions/engine.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertUser } from "../helpers/account-fixtures.ts";
import { insertProduct, insertProductWithVariants } from "../helpers/catalog.ts";
import { SPEC_SHOP } from "../helpers/spec-pricing.ts";

/**
 * Price lists (issue 31, decision 037), on each engine: a group's prices set by SKU, replaced,
 * removed, imported from a CSV (all lines or none, the bad ones reported by line), gone with their
 * group or variant; a signed-in member's cart, order and storefront at the lowest of their groups'
 * prices, everyone else's at the regular one; the lower of a member price and a live catalogue sale,
 * never both; Place Order charging the member price (the gateway's amount is the order's total).
 */
const OWNER: StaffActor = { id: "owner-1", email: "owner@price-lists.example", role: "owner" };
const STAFF: StaffActor = { id: "staff-1", email: "staff@price-lists.example", role: "staff" };
const USD = "USD" as const;

describe.each(ENGINES)("price lists on %s", (engine) => {
  let t: TestDatabase;
  /** $20.00, one variant */
  let plain = { productId: 0, variantId: 0, sku: "" };
  /** $30.00 in sizes S and M */
  let tee = { productId: 0, s: 0, m: 0 };
  /** $100.00 each: on a 10 % and a 30 % catalogue sale in the sale test */
  let mild = { productId: 0, variantId: 0, sku: "" };
  let deep = { productId: 0, variantId: 0, sku: "" };
  let gold = 0;
  let silver = 0;
  const users = { both: "", silverOnly: "", outsider: "" };
  const emails = {
    both: "both@price-lists.example",
    silverOnly: "silver@price-lists.example",
    outsider: "outsider@price-lists.example",
  };

  async function single(priceCents: number) {
    const productId = await insertProduct(t.db, { priceCents, stock: 1_000 });
    const variant = await t.db
      .selectFrom("productVariants")
      .select(["id", "sku"])
      .where("productId", "=", productId)
      .executeTakeFirstOrThrow();
    return { productId, variantId: variant.id, sku: variant.sku };
  }

  async function group(name: string, members: string[]) {
    const created = await createGroup(t.db, { input: { name, description: "" }, actor: OWNER });
    if (!created.ok) throw new Error(created.error.code);
    if (members.length > 0) await addMembers(t.db, { id: created.value.id, emails: members, actor: OWNER });
    return created.value.id;
  }

  async function set(id: number, sku: string, priceCents: number) {
    const done = await setGroupPrice(t.db, { id, sku, priceCents, currency: USD, actor: OWNER });
    if (!done.ok) throw new Error(done.error.code);
    return done.value;
  }

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    plain = await single(2_000);
    mild = await single(10_000);
    deep = await single(10_000);
    const made = await insertProductWithVariants(t.db, {
      name: "Price list tee",
      priceCents: 3_000,
      options: [{ name: "Size", values: ["S", "M"] }],
      variants: [
        { values: ["S"], sku: `PL-${engine}-TEE-S`, priceCents: 3_000, stock: 100 },
        { values: ["M"], sku: `PL-${engine}-TEE-M`, priceCents: 3_000, stock: 100 },
      ],
    });
    tee = { productId: made.productId, s: made.variantIds[0]!, m: made.variantIds[1]! };
    users.both = await insertUser(t.db, emails.both);
    users.silverOnly = await insertUser(t.db, emails.silverOnly);
    users.outsider = await insertUser(t.db, emails.outsider);
    gold = await group("Gold", [emails.both]);
    silver = await group("Silver", [emails.both, emails.silverOnly]);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("sets a price by SKU (any case), replaces it, lists it, removes it; audited; refused for a role without the permission", async () => {
    const id = await group("Scratch", []);
    expect(
      await setGroupPrice(t.db, { id, sku: "NO-SUCH-SKU", priceCents: 100, currency: USD, actor: OWNER }),
    ).toEqual({
      ok: false,
      error: { code: "unknown-sku", sku: "NO-SUCH-SKU" },
    });
    expect(await set(id, plain.sku.toLowerCase(), 1_900)).toEqual({
      sku: plain.sku,
      priceCents: 1_900,
      changed: true,
    });
    expect(await set(id, plain.sku, 1_800)).toEqual({ sku: plain.sku, priceCents: 1_800, changed: true });
    expect(await set(id, plain.sku, 1_800)).toMatchObject({ changed: false });
    const list = await getPriceList(t.db, id);
    expect(list?.count).toBe(1);
    expect(list?.prices).toEqual([
      {
        variantId: plain.variantId,
        sku: plain.sku,
        productName: expect.any(String),
        options: "",
        regularCents: 2_000,
        priceCents: 1_800,
      },
    ]);
    expect(
      await setGroupPrice(t.db, { id, sku: plain.sku, priceCents: 1, currency: USD, actor: STAFF }),
    ).toEqual({ ok: false, error: { code: "forbidden" } });
    expect(await removeGroupPrice(t.db, { id, variantId: plain.variantId, actor: STAFF })).toEqual({
      ok: false,
      error: { code: "forbidden" },
    });
    expect(await removeGroupPrice(t.db, { id, variantId: plain.variantId, actor: OWNER })).toEqual({
      ok: true,
      value: { sku: plain.sku },
    });
    expect(await removeGroupPrice(t.db, { id, variantId: plain.variantId, actor: OWNER })).toEqual({
      ok: false,
      error: { code: "not-listed" },
    });
    expect((await getPriceList(t.db, id))?.count).toBe(0);
    const audit = await t.db
      .selectFrom("auditLog")
      .select(["action", "summary"])
      .where("entityType", "=", "customer_group")
      .where("entityId", "=", String(id))
      .where("action", "like", "%price%")
      .orderBy("id")
      .execute();
    expect(audit).toEqual([
      {
        action: "customer_group.set_price",
        summary: `Price of ${plain.sku} for customer group Scratch: $19.00`,
      },
      {
        action: "customer_group.set_price",
        summary: `Price of ${plain.sku} for customer group Scratch: $18.00 (was $19.00)`,
      },
      {
        action: "customer_group.remove_price",
        summary: `Took ${plain.sku} off the price list of customer group Scratch`,
      },
    ]);
    // a price of 0 cannot be stored, whoever writes it
    await expect(
      t.db
        .insertInto("customerGroupPrices")
        .values({ groupId: id, variantId: plain.variantId, priceCents: 0, createdAt: "x", updatedAt: "x" })
        .execute(),
    ).rejects.toThrow();
  });

  it("imports a CSV whole, or — when a line is wrong — nothing, listing every bad line", async () => {
    const id = await group("Importers", []);
    await set(id, plain.sku, 1_950);
    const bad = await importGroupPricesCsv(t.db, {
      id,
      text: [
        "sku,price",
        `${plain.sku},18.00`,
        "NOT-A-VARIANT,5",
        `PL-${engine}-TEE-S,free`,
        "",
        `PL-${engine}-TEE-M,0`,
        `pl-${engine}-tee-m,25`,
        `${plain.sku.toLowerCase()},17`,
        ",3",
      ].join("\n"),
      actor: OWNER,
    });
    expect(bad).toEqual({
      ok: false,
      error: {
        code: "bad-lines",
        problems: [
          { line: 3, message: "no variant has the SKU NOT-A-VARIANT" },
          { line: 4, message: "“free” is not a price above 0 (like 19 or 18.50)" },
          { line: 6, message: "“0” is not a price above 0 (like 19 or 18.50)" },
          { line: 8, message: `${plain.sku.toLowerCase()} is already priced on line 2` },
          { line: 9, message: "no SKU in the first column" },
        ],
      },
    });
    // nothing half-written: the list is as it was
    expect((await getPriceList(t.db, id))?.prices.map((p) => [p.sku, p.priceCents])).toEqual([
      [plain.sku, 1_950],
    ]);
    expect(await importGroupPricesCsv(t.db, { id, text: `${plain.sku},1\n`, actor: STAFF })).toEqual({
      ok: false,
      error: { code: "forbidden" },
    });
    const good = await importGroupPricesCsv(t.db, {
      id,
      text: `SKU,Price\n${plain.sku},$18.00\npl-${engine}-tee-s,"1,250.5"\n`,
      filename: "gold.csv",
      actor: OWNER,
    });
    expect(good).toEqual({ ok: true, value: { name: "Importers", set: 2 } });
    expect((await getPriceList(t.db, id))?.prices.map((p) => [p.sku, p.priceCents])).toEqual(
      [
        [plain.sku, 1_800],
        [`PL-${engine}-TEE-S`, 125_050],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    const audit = await t.db
      .selectFrom("auditLog")
      .select("summary")
      .where("action", "=", "customer_group.import_prices")
      .where("entityId", "=", String(id))
      .execute();
    expect(audit).toEqual([
      { summary: "Imported 2 prices into the price list of customer group Importers from gold.csv" },
    ]);
  });

  it("a group's prices go with the group, and a variant's with the variant", async () => {
    const id = await group("Short-lived", []);
    const gone = await single(500);
    await t.db.updateTable("productVariants").set({ stock: 0 }).where("id", "=", gone.variantId).execute();
    await set(id, plain.sku, 1_000);
    await set(id, gone.sku, 400);
    await set(gold, gone.sku, 300);
    const rowsOf = (column: "groupId" | "variantId", value: number) =>
      t.db.selectFrom("customerGroupPrices").select("variantId").where(column, "=", value).execute();
    expect(await rowsOf("variantId", gone.variantId)).toHaveLength(2);
    await t.db.deleteFrom("stockMovements").where("variantId", "=", gone.variantId).execute();
    await t.db.deleteFrom("productVariants").where("id", "=", gone.variantId).execute();
    await t.db.deleteFrom("products").where("id", "=", gone.productId).execute();
    expect(await rowsOf("variantId", gone.variantId)).toEqual([]);
    expect(await rowsOf("groupId", id)).toHaveLength(1);
    const deleted = await deleteGroup(t.db, { id, actor: OWNER });
    expect(deleted.ok).toBe(true);
    expect(await rowsOf("groupId", id)).toEqual([]);
  });

  async function cartOf(shopper: Shopper, lines: [productId: number, variantId: number, quantity: number][]) {
    const cartId = randomUUID();
    for (const [productId, variantId, quantity] of lines)
      await addToCart(t.db, { cartId, productId, variantId, quantity });
    return { cartId, cart: await getCart(t.db, cartId, SPEC_SHOP, shopper) };
  }

  it("a member's cart is at the lowest of their groups' prices; a non-member's, a guest's, a signed-out one's at the regular", async () => {
    await set(gold, plain.sku, 1_500);
    await set(silver, plain.sku, 1_700);
    await set(silver, `PL-${engine}-TEE-S`, 2_500);
    // a list price above the regular one is not used
    await set(gold, `PL-${engine}-TEE-M`, 3_500);
    const lines: [number, number, number][] = [
      [plain.productId, plain.variantId, 2],
      [tee.productId, tee.s, 1],
      [tee.productId, tee.m, 1],
    ];
    const priced = async (shopper: Shopper) =>
      (await cartOf(shopper, lines)).cart.lines.map((line) => [
        line.sku,
        line.unitPriceCents,
        line.lineTotalCents,
      ]);
    expect(await priced({ userId: users.both, email: emails.both })).toEqual([
      [plain.sku, 1_500, 3_000],
      [`PL-${engine}-TEE-S`, 2_500, 2_500],
      [`PL-${engine}-TEE-M`, 3_000, 3_000],
    ]);
    expect(await priced({ userId: users.silverOnly, email: emails.silverOnly })).toEqual([
      [plain.sku, 1_700, 3_400],
      [`PL-${engine}-TEE-S`, 2_500, 2_500],
      [`PL-${engine}-TEE-M`, 3_000, 3_000],
    ]);
    const regular = [
      [plain.sku, 2_000, 4_000],
      [`PL-${engine}-TEE-S`, 3_000, 3_000],
      [`PL-${engine}-TEE-M`, 3_000, 3_000],
    ];
    expect(await priced({ userId: users.outsider, email: emails.outsider })).toEqual(regular);
    // the member's own e-mail as a guest: prices follow the signed-in account only
    expect(await priced({ email: emails.both })).toEqual(regular);
    expect(await priced({})).toEqual(regular);
    const { cart } = await cartOf({ userId: users.both }, lines);
    expect(cart.totals.subtotalCents).toBe(8_500);
    expect(cart.lines[0]).toMatchObject({
      regularPriceCents: 2_000,
      originalPriceCents: 2_000,
      listPrice: { groupId: gold, priceCents: 1_500 },
    });
  });

  it("shows a member their price on the product page and cards, struck through against the regular; others the regular", async () => {
    const detail = await getProductDetail(t.db, String(plain.productId), new Date(), users.both);
    expect(detail).toMatchObject({ priceCents: 1_500, originalPriceCents: 2_000, memberPrice: true });
    expect(detail?.variants[0]).toMatchObject({
      priceCents: 1_500,
      originalPriceCents: 2_000,
      memberPrice: true,
    });
    const others = await getProductDetail(t.db, String(plain.productId), new Date(), users.outsider);
    expect(others).toMatchObject({ priceCents: 2_000, originalPriceCents: null });
    expect(others?.memberPrice).toBeUndefined();
    expect((await getProductDetail(t.db, String(plain.productId)))?.priceCents).toBe(2_000);
    const teeDetail = await getProductDetail(t.db, String(tee.productId), new Date(), users.silverOnly);
    expect(teeDetail?.priceCents).toBe(2_500);
    expect(teeDetail?.variants.map((v) => [v.sku, v.priceCents, v.memberPrice ?? false])).toEqual([
      [`PL-${engine}-TEE-S`, 2_500, true],
      [`PL-${engine}-TEE-M`, 3_000, false],
    ]);
    const rows = await selectCardColumns(t.db)
      .where("products.id", "in", [plain.productId, tee.productId])
      .orderBy("products.id")
      .execute();
    const cards = async (userId: string | null) =>
      (await toProductCards(t.db, rows, new Date(), userId)).map((card) => [
        card.priceCents,
        card.originalPriceCents,
        card.priceVaries,
        card.memberPrice ?? false,
      ]);
    expect(await cards(users.both)).toEqual([
      [1_500, 2_000, false, true],
      [2_500, 3_000, true, true],
    ]);
    expect(await cards(users.outsider)).toEqual([
      [2_000, null, false, false],
      [3_000, null, false, false],
    ]);
    expect(await cards(null)).toEqual(await cards(users.outsider));
  });

  it("a member gets the lower of their price and a live catalogue sale, never both", async () => {
    await set(gold, mild.sku, 8_000);
    await set(gold, deep.sku, 8_000);
    const stamp = new Date().toISOString();
    const sale = (name: string, productId: number, basisPoints: number): Promise<unknown> =>
      t.db
        .insertInto("promotions")
        .values({
          name,
          action: JSON.stringify({
            type: "items-percent",
            target: { productIds: [productId] },
            basisPoints,
            apply: "all",
          } satisfies PromotionAction),
          conditions: "[]",
          createdAt: stamp,
          updatedAt: stamp,
        })
        .execute();
    await sale("Mild sale", mild.productId, 1_000);
    await sale("Deep sale", deep.productId, 3_000);
    const lines: [number, number, number][] = [
      [mild.productId, mild.variantId, 1],
      [deep.productId, deep.variantId, 1],
    ];
    // member: $80.00 beats the mild sale's $90.00 (the sale takes nothing from that line); the deep
    // sale's $70.00 beats $80.00 (the line at its regular price, the sale taking $30.00)
    const member = (await cartOf({ userId: users.both }, lines)).cart;
    expect(member.lines.map((l) => [l.unitPriceCents, l.listPrice?.priceCents ?? null])).toEqual([
      [8_000, 8_000],
      [10_000, null],
    ]);
    expect(member.promotions).toEqual([{ name: "Deep sale", kind: "product", amountCents: 3_000 }]);
    expect(member.totals.subtotalCents - member.totals.discountCents).toBe(15_000);
    const outsider = (await cartOf({ userId: users.outsider }, lines)).cart;
    expect(outsider.totals.subtotalCents - outsider.totals.discountCents).toBe(16_000);
    // the storefront says the same
    const shown = async (productId: number) => {
      const detail = await getProductDetail(t.db, String(productId), new Date(), users.both);
      return [detail?.priceCents, detail?.originalPriceCents, detail?.memberPrice ?? false];
    };
    expect(await shown(mild.productId)).toEqual([8_000, 10_000, true]);
    expect(await shown(deep.productId)).toEqual([7_000, 10_000, false]);
  });

  async function place(userId: string, email: string, lines: [number, number, number][]) {
    const secret = "price-lists-secret-0123456789";
    const { cartId, cart } = await cartOf({ userId, email }, lines);
    const placed = await placeOrder(t.db, createTestGateway({ processingDelayMs: 0, secret, db: t.db }), {
      cartId,
      userId,
      idempotencyKey: randomUUID(),
      shipping: {
        firstName: "Ada",
        lastName: "Lovelace",
        email,
        phone: "+1 555 0100",
        address: "1 Analytical Way",
        city: "Springfield",
        state: "IL",
        zipCode: "62701",
        country: "US",
      },
      method: "standard",
      shop: SPEC_SHOP,
      payment: { token: mintTestToken("approve", { secret }), brand: "Visa", last4: "4242" },
      expectedTotalCents: cart.totals.totalCents,
    });
    if (!placed.ok) throw new Error(JSON.stringify(placed.error));
    const order = await t.db
      .selectFrom("orders")
      .select(["id", "subtotalCents", "discountCents", "totalCents", "paymentReference", "status"])
      .where("number", "=", placed.value.order.number)
      .executeTakeFirstOrThrow();
    const items = await t.db
      .selectFrom("orderItems")
      .select(["sku", "unitPriceCents", "lineTotalCents"])
      .where("orderId", "=", order.id)
      .orderBy("variantId")
      .execute();
    const charged = await t.db
      .selectFrom("testGatewayPayments")
      .select(["amountCents"])
      .where("authorizationId", "=", order.paymentReference ?? "")
      .execute();
    return { order, items, charged, quoted: cart.totals.totalCents };
  }

  it("Place Order charges a member the member price, and the gateway takes the order's total", async () => {
    const lines: [number, number, number][] = [
      [plain.productId, plain.variantId, 2],
      [mild.productId, mild.variantId, 1],
    ];
    const member = await place(users.both, emails.both, lines);
    expect(member.order.status).toBe("paid");
    expect(member.items.map((i) => [i.sku, i.unitPriceCents, i.lineTotalCents])).toEqual([
      [plain.sku, 1_500, 3_000],
      [mild.sku, 8_000, 8_000],
    ]);
    expect(member.order).toMatchObject({
      subtotalCents: 11_000,
      discountCents: 0,
      totalCents: member.quoted,
    });
    expect(member.charged).toEqual([{ amountCents: member.order.totalCents }]);

    const outsider = await place(users.outsider, emails.outsider, lines);
    expect(outsider.items.map((i) => [i.sku, i.unitPriceCents])).toEqual([
      [plain.sku, 2_000],
      [mild.sku, 10_000],
    ]);
    // the mild sale's $10.00 off for a non-member
    expect(outsider.order).toMatchObject({ subtotalCents: 14_000, discountCents: 1_000 });
    expect(outsider.charged).toEqual([{ amountCents: outsider.order.totalCents }]);

    // the stock take confirms a member price in its transaction: the order's account in the group,
    // the list at that price, the variant's price the one it was decided against — else the
    // variant's own price, which Place Order then refuses as a changed price
    const rolledBack = new Error("rolled back");
    const takeAt = async (orderId: number, priceCents: number, regularPriceCents = 2_000) => {
      let answer = 0;
      await t.db
        .transaction()
        .execute(async (trx) => {
          const taken = await takeStock(
            trx,
            [
              {
                variantId: plain.variantId,
                quantity: 1,
                listPrice: { groupId: gold, priceCents },
                regularPriceCents,
              },
            ],
            { reason: "sale", actor: "checkout", orderId },
          );
          if (!taken.ok) throw new Error(taken.error.code);
          answer = taken.value.get(plain.variantId)!.priceCents;
          throw rolledBack;
        })
        .catch((error) => {
          if (error !== rolledBack) throw error;
        });
      return answer;
    };
    expect(await takeAt(member.order.id, 1_500)).toBe(1_500);
    expect(await takeAt(member.order.id, 1_400)).toBe(2_000);
    expect(await takeAt(member.order.id, 1_500, 2_100)).toBe(2_000);
    expect(await takeAt(outsider.order.id, 1_500)).toBe(2_000);
  });
});
