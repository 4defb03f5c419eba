import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../../app/db/database.server.ts";
import { type ListingResult, searchProducts } from "../../app/domain/catalog/listing.server.ts";
import { setStockLevels } from "../../app/domain/inventory/inventory.server.ts";
import {
  attachSearchIndex,
  detachSearchIndex,
  searchIndexReady,
} from "../../app/infra/search-index/search-index.server.ts";
import { parseListingQuery } from "../../app/lib/listing-query.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { ensureCategory, insertProduct, insertProductWithVariants } from "../helpers/catalog.ts";

/**
 * The listing's option facets and option filters (issue 18), with known answers, through SQL and
 * through the search index: a product matches `size=m&colour=black` when one in-stock variant has
 * both; its price for the price filter and sort is the cheapest such variant's; facet counts come
 * from the result set; the search finds option values as words and a SKU exactly.
 */
describe.each(ENGINES)("option facets on %s", (engine) => {
  let t: TestDatabase;
  let indexed: Database;
  let plain: Database;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    plain = t.db;
    await ensureCategory(plain, "clothing");
    const tee = (name: string, variants: [string, string, number, number][]) =>
      insertProductWithVariants(plain, {
        name,
        categoryId: "clothing",
        subcategoryId: null,
        brand: "Loomwell",
        options: [
          { name: "Size", values: ["S", "M", "L"] },
          { name: "Colour", values: ["Black", "White"] },
        ],
        variants: variants.map(([size, colour, priceCents, stock], i) => ({
          values: [size, colour],
          sku: `${name.toUpperCase().replace(/\W+/g, "-")}-${engine.toUpperCase()}-${i}`,
          priceCents,
          stock,
        })),
      });
    // A: M/Black in stock at $30, S/Black at $20
    ids.a = (
      await tee("Alpha Tee", [
        ["S", "Black", 2_000, 3],
        ["M", "Black", 3_000, 2],
        ["L", "White", 2_500, 1],
      ])
    ).productId;
    // B: M/Black sold out, M/White in stock
    ids.b = (
      await tee("Beta Tee", [
        ["M", "Black", 1_500, 0],
        ["M", "White", 1_800, 5],
      ])
    ).productId;
    // C: L/Black only
    ids.c = (await tee("Gamma Tee", [["L", "Black", 4_000, 7]])).productId;
    // no options at all
    ids.d = await insertProduct(plain, {
      name: "Plain Scarf",
      categoryId: "clothing",
      subcategoryId: null,
      priceCents: 999,
    });
    indexed = createDatabase(t.url);
    attachSearchIndex(indexed);
    expect(await searchIndexReady(indexed)).not.toBeNull();
  });
  afterAll(async () => {
    await detachSearchIndex(indexed);
    await indexed?.destroy();
    await t?.destroy();
  });

  /** The listing through SQL and through the index: they must agree; returns SQL's. */
  async function listing(qs: string): Promise<ListingResult> {
    const query = parseListingQuery(new URLSearchParams(qs));
    const [viaSql, viaIndex] = await Promise.all([
      searchProducts(plain, query),
      searchProducts(indexed, query),
    ]);
    expect(viaIndex, qs).toEqual(viaSql);
    return viaSql;
  }
  const names = (r: ListingResult) => r.products.map((p) => p.name).sort();
  const facet = (r: ListingResult, key: string) =>
    Object.fromEntries(
      (r.facets.options.find((f) => f.key === key)?.values ?? []).map((v) => [v.label, v.count]),
    );

  it("lists the products with an in-stock variant holding every chosen value", async () => {
    expect(names(await listing("category=clothing&size=m&colour=black"))).toEqual(["Alpha Tee"]);
    expect(names(await listing("category=clothing&size=m"))).toEqual(["Alpha Tee", "Beta Tee"]);
    expect(names(await listing("category=clothing&colour=black"))).toEqual(["Alpha Tee", "Gamma Tee"]);
    // values of one key are alternatives
    expect(names(await listing("category=clothing&size=s&size=l&colour=black"))).toEqual([
      "Alpha Tee",
      "Gamma Tee",
    ]);
    // a parameter no option has is not a filter
    expect(names(await listing("category=clothing&fbclid=abc"))).toHaveLength(4);
  });

  it("counts each option value over the result set, a chosen key against the other choices", async () => {
    const all = await listing("category=clothing");
    expect(facet(all, "size")).toEqual({ S: 1, M: 2, L: 2 });
    expect(facet(all, "colour")).toEqual({ Black: 2, White: 2 });
    expect(all.facets.options.map((f) => f.label)).toEqual(["Colour", "Size"]);
    const black = await listing("category=clothing&colour=black");
    expect(facet(black, "size")).toEqual({ S: 1, M: 1, L: 1 });
    // the colour facet ignores the colour choice, as the brand facet ignores the brand filter
    expect(facet(black, "colour")).toEqual({ Black: 2, White: 2 });
    const m = await listing("category=clothing&size=m");
    expect(facet(m, "colour")).toEqual({ Black: 1, White: 1 });
    // no option facets across every category, a search's results included
    expect((await listing("")).facets.options).toEqual([]);
    expect((await listing("search=tee")).facets.options).toEqual([]);
    expect(facet(await listing("search=tee&category=clothing"), "colour")).toEqual({ Black: 2, White: 2 });
  });

  it("filters and sorts by the cheapest matching variant's price", async () => {
    // Alpha is $20 overall but $30 in M/Black
    expect(names(await listing("category=clothing&minPrice=25"))).toEqual(["Gamma Tee"]);
    expect(names(await listing("category=clothing&size=m&colour=black&maxPrice=25"))).toEqual([]);
    expect(names(await listing("category=clothing&size=m&colour=black&minPrice=25"))).toEqual(["Alpha Tee"]);
    const byPrice = await listing("category=clothing&size=m&sort=price-asc");
    // Beta's M is $18 (in White), Alpha's M $30
    expect(byPrice.products.map((p) => p.name)).toEqual(["Beta Tee", "Alpha Tee"]);
  });

  /** a variant's level set as staff would (through the inventory, which keeps the summary) */
  const setStockBySku = async (sku: string, level: number) => {
    const { id } = await plain
      .selectFrom("productVariants")
      .select("id")
      .where("sku", "=", sku)
      .executeTakeFirstOrThrow();
    await setStockLevels(plain, [{ variantId: id, level }], { reason: "admin_set", actor: "system" });
  };

  it("follows a variant selling out and coming back", async () => {
    const before = names(await listing("category=clothing&size=l&colour=white"));
    expect(before).toEqual(["Alpha Tee"]);
    await setStockBySku(`ALPHA-TEE-${engine.toUpperCase()}-2`, 0);
    await searchIndexReady(indexed);
    expect(names(await listing("category=clothing&size=l&colour=white"))).toEqual([]);
    await setStockBySku(`ALPHA-TEE-${engine.toUpperCase()}-2`, 1);
    await searchIndexReady(indexed);
    expect(names(await listing("category=clothing&size=l&colour=white"))).toEqual(["Alpha Tee"]);
  });

  it("finds option values as words and a SKU exactly", async () => {
    expect(names(await listing("search=white+tee"))).toEqual(["Alpha Tee", "Beta Tee"]);
    expect(names(await listing("search=black+gamma"))).toEqual(["Gamma Tee"]);
    expect(names(await listing(`search=BETA-TEE-${engine.toUpperCase()}-1`))).toEqual(["Beta Tee"]);
    expect(names(await listing(`search=beta-tee-${engine}-1`))).toEqual(["Beta Tee"]);
    // part of a SKU is not a SKU
    expect(names(await listing(`search=BETA-TEE-${engine.toUpperCase()}`))).toEqual([]);
  });
});
