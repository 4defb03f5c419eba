import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../app/api/api.server.ts";
import { loadListing } from "../../app/domain/catalog/listing-page.server.ts";
import { SUGGESTED_PRODUCTS } from "../../app/domain/catalog/search-suggestions.server.ts";
import { createApiKey } from "../../app/domain/integrations/api-keys.server.ts";
import {
  attachSearchIndex,
  detachSearchIndex,
  searchIndexReady,
} from "../../app/infra/search-index/search-index.server.ts";
import { settleAfterResponseTasks } from "../../app/jobs/after-response.server.ts";
import * as route from "../../app/routes/search.suggestions.tsx";
import { ENGINES } from "../db-utils.ts";
import { ensureCategory, insertProduct } from "../helpers/catalog.ts";
import { callRoute } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

const PRESET = { path: "/products", title: "All Products", description: "" };
const OWNER = { id: "owner-1", email: "owner@example.com", role: "owner" as const };

/**
 * Suggestions as you type (issue 33) and typo tolerance through the shop's own listing, on both
 * engines: GET /search/suggestions answers the first products the search's listing shows — from the
 * index, or from SQL before there is one — and the categories named like the words; public JSON.
 */
describe.each(ENGINES)("search suggestions and typos on %s", (engine) => {
  let shop: TestShop;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    shop = await createTestShop(engine);
    for (const [name, category, sub] of [
      ["Wireless Headphones", "electronics", "audio"],
      ["Studio Headphones Pro", "electronics", "audio"],
      ["Trail Sneakers", "clothing", "shoes"],
      ["Cotton T-Shirt", "clothing", "men"],
      ["Steel Kettle", "home", null],
    ] as const) {
      await ensureCategory(shop.db, category);
      if (sub) await ensureCategory(shop.db, sub, category);
      ids[name] = await insertProduct(shop.db, { name, categoryId: category, subcategoryId: sub });
    }
    for (let i = 0; i < 8; i++) await insertProduct(shop.db, { name: `Headphone Stand ${i}` });
  });
  afterAll(async () => {
    await settleAfterResponseTasks();
    await detachSearchIndex(shop.db);
    await shop?.destroy();
  });

  /** `q` as the box sends it; `encoded`: the query string's value as given (broken UTF-8, say) */
  const suggest = async (q: string, encoded = encodeURIComponent(q)) => {
    const { response } = await callRoute(route, "loader", `${TEST_ORIGIN}/search/suggestions?q=${encoded}`, {
      context: shop.context(),
    });
    expect(response!.status).toBe(200);
    expect(response!.headers.get("Cache-Control")).toMatch(/^public, max-age=60/);
    expect(response!.headers.get("Set-Cookie")).toBeNull();
    return (await response!.json()) as {
      query: string;
      products: Array<{ id: number; name: string; href: string; category: string }>;
      categories: Array<{ label: string; href: string }>;
    };
  };
  const listed = async (search: string) =>
    (await loadListing(shop.db, new URLSearchParams({ search }), PRESET)).result.products.map((p) => p.id);

  for (const source of ["SQL (no index yet)", "the index"]) {
    it(`suggests the listing's first products and the categories named so, from ${source}`, async () => {
      if (source === "the index") {
        attachSearchIndex(shop.db);
        expect(await searchIndexReady(shop.db)).not.toBeNull();
      }
      const headphones = await suggest("  HEadph ");
      expect(headphones.query).toBe("HEadph");
      expect(headphones.products).toHaveLength(SUGGESTED_PRODUCTS);
      // the same products, in the same order, as the first page of the search's listing
      expect(headphones.products.map((p) => p.id)).toEqual(
        (await listed("headph")).slice(0, SUGGESTED_PRODUCTS),
      );
      expect(headphones.products[0]).toMatchObject({
        href: `/products/${headphones.products[0]!.id}`,
        category: "Electronics",
      });
      expect(headphones.categories).toEqual([]);

      const shoes = await suggest("sho");
      expect(shoes.categories).toEqual([
        { label: "Clothing & Fashion › Shoes", href: "/products?category=clothing&subcategory=shoes" },
      ]);
      expect((await suggest("electronics audio")).categories.map((c) => c.label)).toEqual([
        "Electronics › Audio",
      ]);
      // under two characters, or nothing to read: nothing suggested (and no error)
      for (const q of ["", "h", " \u0000 "]) {
        expect(await suggest(q), JSON.stringify(q)).toMatchObject({ products: [], categories: [] });
      }
      expect(await suggest("", "%F0%9F")).toMatchObject({ products: [], categories: [] });
      expect(await suggest("", "%")).toMatchObject({ products: [], categories: [] });
      expect((await suggest("x".repeat(5_000))).query).toHaveLength(100);
    });
  }

  it("forgives a typo in the listing and the suggestions alike, once the index holds the words", async () => {
    attachSearchIndex(shop.db);
    await searchIndexReady(shop.db);
    expect(await listed("wirless headphnes")).toEqual([ids["Wireless Headphones"]]);
    const { result } = await loadListing(
      shop.db,
      new URLSearchParams({ search: "wirless headphnes" }),
      PRESET,
    );
    expect(result.corrected).toEqual(["wireless", "headphones"]);
    expect(
      (await loadListing(shop.db, new URLSearchParams({ search: "wireless" }), PRESET)).result.corrected,
    ).toEqual([]);
    // the Store API's listing says the same
    const made = await createApiKey(shop.db, {
      actor: OWNER,
      input: { name: "App", kind: "publishable", scopes: [], expiresAt: null },
    });
    if (!made.ok) throw new Error(made.error.code);
    const api = createApi(async () => shop.services);
    const viaApi = async (search: string) => {
      const answer = await api.request(`/api/v1/store/products?search=${encodeURIComponent(search)}`, {
        headers: { Authorization: `Bearer ${made.value.secret}` },
      });
      expect(answer.status).toBe(200);
      return (await answer.json()) as { data: Array<{ id: number }>; corrected: string[] };
    };
    const corrected = await viaApi("wirless headphnes");
    expect(corrected.data.map((p) => p.id)).toEqual([ids["Wireless Headphones"]]);
    expect(corrected.corrected).toEqual(["wireless", "headphones"]);
    expect((await viaApi("wireless")).corrected).toEqual([]);
    expect(await listed("sneekers")).toEqual([ids["Trail Sneakers"]]);
    expect(await listed("ketle")).toEqual([ids["Steel Kettle"]]);
    expect((await suggest("sneekers")).products.map((p) => p.name)).toEqual(["Trail Sneakers"]);
    // exact words are taken as typed: "shirt" finds the T-shirt and nothing a letter away
    expect(await listed("shirt")).toEqual([ids["Cotton T-Shirt"]]);
    // nothing close: nothing found
    expect(await listed("qqqqqqq")).toEqual([]);
  });
});
