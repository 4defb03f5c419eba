import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAdminProduct, listLowStockProducts } from "../../app/domain/catalog/admin/product-list.server.ts";
import { adjustStock, updateProduct } from "../../app/domain/catalog/admin/product-write.server.ts";
import { GRID_MESSAGES } from "../../app/domain/catalog/admin/variant-editor.server.ts";
import { VARIANT_EDITOR_MESSAGES } from "../../app/domain/catalog/admin/variant-editor-form.server.ts";
import { removeVariant } from "../../app/domain/catalog/admin/variant-write.server.ts";
import { takeStock } from "../../app/domain/inventory/inventory.server.ts";
import { getAdminDashboard } from "../../app/domain/reports/dashboard.server.ts";
import { productInputOf } from "../../app/lib/product-input.ts";
import * as editProductRoute from "../../app/routes/admin.products.$id.tsx";
import { ENGINES } from "../db-utils.ts";
import { ADMIN_COOKIE, adminAction, adminContext } from "../helpers/admin-route.ts";
import { insertProductWithVariants } from "../helpers/catalog.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * The admin side of variants: each variant's price and stock are changed through the edit page's
 * variant grid (intents `variants` and `bulk-variants`: guarded against what sold meanwhile,
 * audited, the product's summary following); the product-level price and stock refuse to change
 * a product sold in variants rather than ignoring the change; low stock is listed per variant;
 * a variant is removed (intent `remove-variant`: deleted, or archived when an order holds it).
 */
const ACTOR = { id: "admin-1", email: "admin@example.com", role: "admin" as const };

describe.each(ENGINES)("admin variants on %s", (engine) => {
  let t: TestShop;
  beforeAll(async () => {
    t = await createTestShop(engine);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const hoodie = (tag: string) =>
    insertProductWithVariants(t.db, {
      name: `Hoodie ${tag}`,
      options: [{ name: "Size", values: ["S", "M"] }],
      variants: [
        { values: ["S"], sku: `HOOD-${tag}-S`, priceCents: 4_000, stock: 12 },
        { values: ["M"], sku: `HOOD-${tag}-M`, priceCents: 4_500, originalPriceCents: 6_000, stock: 3 },
      ],
    });
  const summary = (id: number) =>
    t.db
      .selectFrom("products")
      .select(["priceCents", "originalPriceCents", "discountPercentage", "stock"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  const variantAudit = (productId: number) =>
    t.db
      .selectFrom("auditLog")
      .select(["action", "entityId", "actorEmail", "beforeJson", "afterJson"])
      .where("action", "=", "product.variant")
      .where("entityId", "=", String(productId))
      .orderBy("id")
      .execute();
  const stockOf = async (variantId: number) =>
    (
      await t.db
        .selectFrom("productVariants")
        .select("stock")
        .where("id", "=", variantId)
        .executeTakeFirstOrThrow()
    ).stock;
  /** units sold down to `stock` (as checkout would: through the inventory, which keeps the summary) */
  const sell = async (_productId: number, variantId: number, stock: number) => {
    const now = await stockOf(variantId);
    const taken = await takeStock(t.db, [{ variantId, quantity: now - stock }], {
      reason: "sale",
      actor: "checkout",
    });
    expect(taken.ok).toBe(true);
  };
  /** the edit page's action, as the browser posts its forms */
  const post = (productId: number, fields: [string, string][]) =>
    adminAction(
      editProductRoute.action,
      new Request(`${TEST_ORIGIN}/admin/products/${productId}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: ADMIN_COOKIE },
        body: new URLSearchParams(fields).toString(),
      }),
      adminContext({ db: t.db, files: t.services.files }, ACTOR),
      { id: String(productId) },
    );
  /** the variant grid as the page shows it (every field as loaded), with `change` typed over it */
  const gridForm = async (
    productId: number,
    change: (i: number, field: string, value: string) => string = (_i, _f, value) => value,
  ): Promise<[string, string][]> => {
    const money = (cents: number | null) => (cents === null ? "" : (cents / 100).toFixed(2));
    const variants = (await getAdminProduct(t.db, productId))!.variants;
    return [
      ["intent", "variants"],
      ...variants.flatMap((v, i): [string, string][] =>
        (
          [
            ["id", String(v.id)],
            ["shownStock", String(v.stock)],
            ["sku", v.sku],
            ["price", money(v.priceCents)],
            ["originalPrice", money(v.originalPriceCents)],
            ["stock", String(v.stock)],
            ["barcode", v.barcode ?? ""],
            ["image", v.imageId === null ? "" : String(v.imageId)],
          ] as const
        ).map(([field, value]): [string, string] => [`variants[${i}].${field}`, change(i, field, value)]),
      ),
    ];
  };

  it("the grid sets a variant's price and changes its stock against what sold meanwhile; bulk sets a price; the summary and the audit log follow", async () => {
    const { productId, variantIds } = await hoodie("a");
    const [small, medium] = variantIds as [number, number];
    expect(await summary(productId)).toEqual({
      priceCents: 4_000,
      originalPriceCents: null,
      discountPercentage: 25,
      stock: 15,
    });
    // the page shows S with 12; the admin takes 2 away (types 10) and prices it 50.00, while one sells
    const form = await gridForm(productId, (i, field, value) =>
      i === 0 && field === "price" ? "50.00" : i === 0 && field === "stock" ? "10" : value,
    );
    await sell(productId, small, 11);
    expect(await post(productId, form)).toMatchObject({
      ok: true,
      status: 302,
      location: `/admin/products/${productId}`,
      message: "Variants saved: 1 variant changed",
    });
    // the sale is not put back: 11 − 2
    expect(await stockOf(small)).toBe(9);
    // the cheapest is now M (4 500, was 6 000)
    expect(await summary(productId)).toEqual({
      priceCents: 4_500,
      originalPriceCents: 6_000,
      discountPercentage: 25,
      stock: 12,
    });
    const audit = await variantAudit(productId);
    expect(audit.map((a) => [a.action, a.entityId, a.actorEmail])).toEqual([
      ["product.variant", String(productId), ACTOR.email],
    ]);
    expect(JSON.parse(audit[0]!.beforeJson!)).toEqual([
      expect.objectContaining({ sku: "HOOD-a-S", priceCents: 4_000, stock: 11 }),
    ]);
    expect(JSON.parse(audit[0]!.afterJson!)).toEqual([
      expect.objectContaining({ sku: "HOOD-a-S", priceCents: 5_000, stock: 9 }),
    ]);

    // bulk: M at 30.00 (its original price kept), S untouched
    expect(
      await post(productId, [
        ["intent", "bulk-variants"],
        ["selected", String(medium)],
        ["price", "30.00"],
        ["stock", ""],
      ]),
    ).toMatchObject({ ok: true, status: 302, message: "Selected variants updated: 1 variant" });
    expect(await summary(productId)).toEqual({
      priceCents: 3_000,
      originalPriceCents: 6_000,
      discountPercentage: 50,
      stock: 12,
    });
    expect(await variantAudit(productId)).toHaveLength(2);
  });

  it("never takes a variant below 0 (409 beside its field), refuses a negative level (400), and another product's variant as stale (409)", async () => {
    const { productId, variantIds } = await hoodie("b");
    const medium = variantIds[1]!;
    const other = await hoodie("c");
    // the page shows M with 3; the admin types 0, but 2 sold meanwhile: 1 − 3 would be −2
    const form = await gridForm(productId, (i, field, value) => (i === 1 && field === "stock" ? "0" : value));
    await sell(productId, medium, 1);
    expect(await post(productId, form)).toMatchObject({
      ok: false,
      status: 409,
      message: VARIANT_EDITOR_MESSAGES.variantsInvalid,
      fieldErrors: { "variants[1].stock": GRID_MESSAGES.stockBelowZero(1) },
    });
    expect(
      await post(
        productId,
        await gridForm(productId, (i, field, value) => (i === 1 && field === "stock" ? "-4" : value)),
      ),
    ).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { "variants[1].stock": VARIANT_EDITOR_MESSAGES.stock },
    });
    // a row naming a variant of another product: the grid is not this product's any more
    const foreign = await gridForm(productId, (i, field, value) =>
      i === 0 && field === "id" ? String(other.variantIds[0]) : value,
    );
    expect(await post(productId, foreign)).toMatchObject({
      ok: false,
      status: 409,
      message: VARIANT_EDITOR_MESSAGES.stale,
    });
    expect(
      await post(productId, [
        ["intent", "bulk-variants"],
        ["selected", String(other.variantIds[0])],
        ["stock", "5"],
      ]),
    ).toMatchObject({ ok: false, status: 409, message: VARIANT_EDITOR_MESSAGES.stale });
    // nothing of it was written
    expect(await stockOf(medium)).toBe(1);
    expect(await stockOf(other.variantIds[0]!)).toBe(12);
    expect((await summary(productId)).stock).toBe(13);
    expect(await variantAudit(productId)).toEqual([]);
    expect(await variantAudit(other.productId)).toEqual([]);
  });

  it("refuses a product-level price or stock change of a product sold in variants", async () => {
    const { productId } = await hoodie("d");
    const product = (await getAdminProduct(t.db, productId))!;
    expect(product.variants.map((v) => [v.title, v.sku, v.stock])).toEqual([
      ["Size: S", "HOOD-d-S", 12],
      ["Size: M", "HOOD-d-M", 3],
    ]);
    const input = productInputOf(product);
    expect(
      await updateProduct(t.db, { id: productId, input: { ...input, priceCents: 100 }, actor: ACTOR }),
    ).toEqual({
      ok: false,
      error: { code: "priced-per-variant" },
    });
    // unchanged prices: the other fields save
    expect(
      await updateProduct(t.db, { id: productId, input: { ...input, name: "Hoodie renamed" }, actor: ACTOR }),
    ).toEqual({ ok: true, value: undefined });
    expect(await adjustStock(t.db, { id: productId, delta: 5, actor: ACTOR })).toEqual({
      ok: false,
      error: { code: "choose-variant" },
    });
    expect(await summary(productId)).toMatchObject({ priceCents: 4_000, stock: 15 });
  });

  it("lists low stock per variant, with its options and SKU", async () => {
    const { productId } = await hoodie("e");
    const low = (await listLowStockProducts(t.db)).filter((row) => row.id === productId);
    expect(low.map((row) => [row.variantTitle, row.sku, row.stock])).toEqual([["Size: M", "HOOD-e-M", 3]]);
    // the dashboard's counter counts what the page lists
    expect((await getAdminDashboard(t.db)).lowStock).toBe((await listLowStockProducts(t.db)).length);
  });

  it("removes a variant: deleted without orders, archived with them, never the last one", async () => {
    const { productId, variantIds } = await hoodie("f");
    const [small, medium] = variantIds as [number, number];
    // an order line names the medium one
    await t.db
      .insertInto("orders")
      .values({
        number: "CW-VARIANT-F",
        idempotencyKey: "variant-f",
        userId: null,
        email: "a@example.com",
        firstName: "A",
        lastName: "B",
        phone: "1",
        address: "x",
        city: "y",
        state: "z",
        zipCode: "1",
        country: "US",
        shippingMethod: "standard",
        subtotalCents: 4_500,
        discountCents: 0,
        shippingCents: 0,
        taxCents: 0,
        totalCents: 4_500,
        couponCode: null,
        status: "delivered",
        paymentBrand: "Visa",
        paymentLast4: "4242",
        paymentReference: "ref",
        estimatedDelivery: "2026-11-30",
        createdAt: "2026-11-20T00:00:00.000Z",
        updatedAt: "2026-11-20T00:00:00.000Z",
      })
      .execute();
    const order = await t.db
      .selectFrom("orders")
      .select("id")
      .where("number", "=", "CW-VARIANT-F")
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto("orderItems")
      .values({
        orderId: order.id,
        productId,
        variantId: medium,
        sku: "HOOD-f-M",
        productSlug: "hoodie-f",
        name: "Hoodie f",
        brand: "Testbrand",
        imageKey: null,
        unitPriceCents: 4_500,
        quantity: 1,
        lineTotalCents: 4_500,
      })
      .execute();

    expect(await removeVariant(t.db, { productId, variantId: medium }, ACTOR)).toEqual({
      ok: true,
      value: { outcome: "archived", sku: "HOOD-f-M" },
    });
    expect(await summary(productId)).toMatchObject({
      priceCents: 4_000,
      stock: 12,
      discountPercentage: null,
    });
    // the last live one stays
    expect(await removeVariant(t.db, { productId, variantId: small }, ACTOR)).toEqual({
      ok: false,
      error: { code: "last-variant" },
    });
    expect(await removeVariant(t.db, { productId, variantId: medium }, ACTOR)).toEqual({
      ok: false,
      error: { code: "not-found" },
    });
    const rows = await t.db
      .selectFrom("productVariants")
      .select(["sku", "archivedAt"])
      .where("productId", "=", productId)
      .orderBy("id")
      .execute();
    expect(rows.map((r) => [r.sku, r.archivedAt !== null])).toEqual([
      ["HOOD-f-S", false],
      ["HOOD-f-M", true],
    ]);

    const other = await hoodie("g");
    expect(
      await removeVariant(t.db, { productId: other.productId, variantId: other.variantIds[0]! }, ACTOR),
    ).toEqual({
      ok: true,
      value: { outcome: "deleted", sku: "HOOD-g-S" },
    });
    expect(
      await t.db
        .selectFrom("productVariants")
        .select("sku")
        .where("productId", "=", other.productId)
        .execute(),
    ).toEqual([{ sku: "HOOD-g-M" }]);
    expect(await summary(other.productId)).toMatchObject({
      priceCents: 4_500,
      originalPriceCents: 6_000,
      stock: 3,
    });
  });
});
