import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAdminProduct, listLowStockProducts } from "../../app/domain/catalog/admin/product-list.server.ts";
import { adjustStock, updateProduct } from "../../app/domain/catalog/admin/product-write.server.ts";
import { removeVariant, updateVariant } from "../../app/domain/catalog/admin/variant-write.server.ts";
import { getAdminDashboard } from "../../app/domain/reports/dashboard.server.ts";
import { productInputOf } from "../../app/lib/product-input.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertProductWithVariants } from "../helpers/catalog.ts";

/**
 * The admin side of variants: each variant's price and stock are changed on its own (guarded,
 * audited, the product's summary following); the product-level price and stock refuse to change
 * a product sold in variants rather than ignoring the change; low stock is listed per variant.
 */
const ACTOR = { id: "admin-1", email: "admin@example.com" };

describe.each(ENGINES)("admin variants on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
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

  it("sets a variant's prices and changes its stock; the product's summary and the audit log follow", async () => {
    const { productId, variantIds } = await hoodie("a");
    expect(await summary(productId)).toEqual({
      priceCents: 4_000,
      originalPriceCents: null,
      discountPercentage: 25,
      stock: 15,
    });
    const result = await updateVariant(
      t.db,
      { productId, variantId: variantIds[0]!, priceCents: 5_000, originalPriceCents: null, stockDelta: -2 },
      ACTOR,
    );
    expect(result).toEqual({ ok: true, value: { sku: "HOOD-a-S", stockBefore: 12, stockAfter: 10 } });
    // the cheapest is now M (4 500, was 6 000)
    expect(await summary(productId)).toEqual({
      priceCents: 4_500,
      originalPriceCents: 6_000,
      discountPercentage: 25,
      stock: 13,
    });
    const audit = await t.db
      .selectFrom("auditLog")
      .select(["action", "entityId", "actorEmail"])
      .where("action", "=", "product.variant")
      .execute();
    expect(audit).toEqual([
      { action: "product.variant", entityId: String(productId), actorEmail: ACTOR.email },
    ]);
  });

  it("never takes a variant below 0, and finds no variant of another product", async () => {
    const { productId, variantIds } = await hoodie("b");
    const other = await hoodie("c");
    expect(
      await updateVariant(
        t.db,
        { productId, variantId: variantIds[1]!, priceCents: 4_500, originalPriceCents: null, stockDelta: -4 },
        ACTOR,
      ),
    ).toEqual({ ok: false, error: { code: "negative" } });
    expect(
      await updateVariant(
        t.db,
        {
          productId,
          variantId: other.variantIds[0]!,
          priceCents: 1,
          originalPriceCents: null,
          stockDelta: 0,
        },
        ACTOR,
      ),
    ).toEqual({ ok: false, error: { code: "not-found" } });
    expect((await summary(productId)).stock).toBe(15);
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
