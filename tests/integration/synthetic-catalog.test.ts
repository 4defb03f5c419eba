import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalFileStore } from "../../app/adapters/files/file-store.server.ts";
import { generateSyntheticCatalog } from "../../app/db/seed/synthetic-catalog.ts";
import { syncProductSummary } from "../../app/domain/inventory/product-summary.server.ts";
import { createTestDatabase, type TestDatabase } from "../db-utils.ts";

/** `catalog:generate` gives products variants too: 3 per product on average, the product row their summary. */
describe("synthetic catalogue", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase("sqlite");
    await generateSyntheticCatalog(t.db, createLocalFileStore(join(t.dir, "uploads")), {
      count: 600,
      batchSize: 250,
    });
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("has about 3 variants per product, options where there are several, and exact summaries", async () => {
    const products = await t.db.selectFrom("products").select(["id", "priceCents", "stock"]).execute();
    const variants = await t.db
      .selectFrom("productVariants")
      .select(["productId", "sku", "option1", "priceCents", "stock"])
      .execute();
    const options = await t.db.selectFrom("productOptions").select(["productId", "optionValues"]).execute();
    expect(products).toHaveLength(600);
    const perProduct = variants.length / products.length;
    expect(perProduct).toBeGreaterThan(2.6);
    expect(perProduct).toBeLessThan(3.4);
    expect(new Set(variants.map((v) => v.sku)).size).toBe(variants.length);

    const byProduct = Map.groupBy(variants, (v) => v.productId);
    const optionsOf = new Map(options.map((o) => [o.productId, JSON.parse(o.optionValues) as string[]]));
    for (const product of products) {
      const own = byProduct.get(product.id) ?? [];
      expect(own.length).toBeGreaterThan(0);
      expect(own.reduce((sum, v) => sum + v.stock, 0)).toBe(product.stock);
      expect(Math.min(...own.map((v) => v.priceCents))).toBe(product.priceCents);
      if (own.length === 1) {
        expect(own[0]!.option1).toBeNull();
        expect(optionsOf.has(product.id)).toBe(false);
      } else {
        expect(own.map((v) => v.option1)).toEqual(optionsOf.get(product.id));
      }
    }
  });

  it("writes the option text, variant facets and option rows exactly as the shop's summary does", async () => {
    const before = await t.db
      .selectFrom("products")
      .select(["id", "optionText", "variantFacets"])
      .orderBy("id")
      .execute();
    const rowsBefore = await t.db
      .selectFrom("variantOptionValues")
      .selectAll()
      .orderBy("variantId")
      .execute();
    expect(before.filter((p) => p.optionText !== "").length).toBeGreaterThan(300);
    expect(rowsBefore.length).toBeGreaterThan(900);
    const version = await t.db.selectFrom("catalogVersion").select("version").executeTakeFirstOrThrow();
    // recomputing every product's summary changes nothing
    for (const { id } of before) await syncProductSummary(t.db, id);
    expect(
      await t.db.selectFrom("products").select(["id", "optionText", "variantFacets"]).orderBy("id").execute(),
    ).toEqual(before);
    expect(await t.db.selectFrom("variantOptionValues").selectAll().orderBy("variantId").execute()).toEqual(
      rowsBefore,
    );
    expect(await t.db.selectFrom("catalogVersion").select("version").executeTakeFirstOrThrow()).toEqual(
      version,
    );
  });
});
