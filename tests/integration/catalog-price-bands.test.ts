import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/db/database.server.ts";
import { searchProducts } from "../../app/domain/catalog/listing.server.ts";
import { PRICE_MAX, PRICE_MIN, parseListingQuery } from "../../app/lib/listing-query.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { ensureCategory, insertProduct } from "../helpers/catalog.ts";

/**
 * catalog_price_bands (migration 0320): kept exact by triggers through random writes, and the
 * listing's totals and facet counts answered from it equal a count over the products themselves
 * — on the edges of the bands ($100.00 vs $100.01, 3.9 vs 4.0 stars, $2,000 and above).
 */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
  };
}

const TREE: Record<string, Array<string | null>> = {
  electronics: ["smartphones", "audio", null],
  home: ["kitchen", null],
  toys: [null],
};
const BRANDS = ["Kestrel", "KESTREL", "Lumen", "Aurora", "Élan", "élan"];
// band edges: whole $100s, a cent either side, $2,000 and far above it
const PRICES = [
  0, 1, 9_999, 10_000, 10_001, 49_999, 50_000, 50_001, 150_050, 199_999, 200_000, 200_001, 950_000,
];
const RATINGS = [0, 0.9, 1, 2.5, 3.9, 4, 4.1, 4.9, 5];

interface Live {
  categoryId: string;
  subcategoryId: string | null;
  brand: string;
  priceCents: number;
  rating: number;
}

describe.each(ENGINES)("catalog_price_bands on %s", (engine) => {
  let t: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    t = await createTestDatabase(engine, { checkStockLedger: false }); // the triggers' tests write and delete product rows directly
    db = t.db;
    for (const [category, subs] of Object.entries(TREE)) {
      await ensureCategory(db, category);
      for (const sub of subs) if (sub) await ensureCategory(db, sub, category);
    }
  });
  afterAll(async () => {
    await t?.destroy();
  });

  async function liveProducts(): Promise<Live[]> {
    const rows = await db
      .selectFrom("products")
      .select(["categoryId", "subcategoryId", "brand", "priceCents", "rating"])
      .where("archivedAt", "is", null)
      .execute();
    return rows.map((r) => ({ ...r, rating: Number(r.rating) }));
  }

  /** The band table (non-empty cells) against the same grouping computed here from the products. */
  async function expectBandsInSync(step: string) {
    const band = (p: number) => 2 * Math.min(Math.floor(p / 10_000), 20) + (p % 10_000 === 0 ? 0 : 1);
    const truth = new Map<string, number>();
    for (const p of await liveProducts()) {
      // the engine's lower() (ASCII only on SQLite) is what the table keys by
      const key = `${p.categoryId}|${band(p.priceCents)}|${Math.floor(p.rating)}`;
      truth.set(`${key}|${p.brand}`, (truth.get(`${key}|${p.brand}`) ?? 0) + 1);
    }
    const rows = await db
      .selectFrom("catalogPriceBands")
      .select(["categoryId", "priceBand", "ratingFloor", "brandKey", "productCount"])
      .execute();
    expect(
      rows.every((r) => Number(r.productCount) >= 0),
      `negative counts after ${step}`,
    ).toBe(true);
    const total = rows.reduce((n, r) => n + Number(r.productCount), 0);
    expect(total, `band total after ${step}`).toBe([...truth.values()].reduce((a, b) => a + b, 0));
    // per (category, band, rating) the sum over brands must match
    const sumBy = (entries: Array<[string, number]>) => {
      const out = new Map<string, number>();
      for (const [k, n] of entries) {
        if (n === 0) continue;
        const key = k.split("|").slice(0, 3).join("|");
        out.set(key, (out.get(key) ?? 0) + n);
      }
      return Object.fromEntries([...out].sort());
    };
    expect(
      sumBy(
        rows.map((r) => [
          `${r.categoryId}|${r.priceBand}|${r.ratingFloor}|${r.brandKey}`,
          Number(r.productCount),
        ]),
      ),
      `bands after ${step}`,
    ).toEqual(sumBy([...truth]));
    const totals = await db
      .selectFrom("catalogPriceBandTotals")
      .select(["categoryId", "priceBand", "ratingFloor", "productCount"])
      .execute();
    expect(
      totals.every((r) => Number(r.productCount) >= 0),
      `negative totals after ${step}`,
    ).toBe(true);
    expect(
      sumBy(totals.map((r) => [`${r.categoryId}|${r.priceBand}|${r.ratingFloor}|`, Number(r.productCount)])),
      `band totals after ${step}`,
    ).toEqual(sumBy([...truth]));
  }

  /** searchProducts' total and facets against a count over the live products, for aligned bounds. */
  async function expectListingCounts(step: string) {
    const live = await liveProducts();
    const queries = [
      "minPrice=100",
      "maxPrice=100",
      "minPrice=100&maxPrice=500",
      "minPrice=500&maxPrice=500",
      "minPrice=2000",
      "maxPrice=1900&rating=4",
      "rating=4",
      "rating=1&category=electronics",
      "category=electronics&minPrice=100&maxPrice=500&rating=4",
      "category=home&maxPrice=1500&brand=kestrel",
      "brand=kestrel&brand=%C3%A9lan&minPrice=0&maxPrice=1000&rating=3",
      "category=electronics&subcategory=audio&minPrice=100",
      "category=electronics&minPrice=150&maxPrice=501", // off the $100 steps: counted from products
    ];
    for (const qs of queries) {
      const query = parseListingQuery(new URLSearchParams(qs));
      const result = await searchProducts(db, query);
      const rowOk = (p: Live) =>
        (query.minPrice === PRICE_MIN || p.priceCents >= query.minPrice * 100) &&
        (query.maxPrice === PRICE_MAX || p.priceCents <= query.maxPrice * 100) &&
        (!query.rating || p.rating >= query.rating);
      const catOk = (p: Live) =>
        (!query.category || p.categoryId === query.category) &&
        (!query.subcategory || p.subcategoryId === query.subcategory);
      const brandOk = (p: Live) => query.brands.length === 0 || query.brands.includes(p.brand.toLowerCase());
      expect(result.total, `${step}: total of ${qs}`).toBe(
        live.filter((p) => rowOk(p) && catOk(p) && brandOk(p)).length,
      );
      for (const facet of result.facets.categories) {
        expect(facet.count, `${step}: category ${facet.value} of ${qs}`).toBe(
          live.filter((p) => rowOk(p) && brandOk(p) && p.categoryId === facet.value).length,
        );
      }
      for (const facet of result.facets.brands) {
        expect(facet.count, `${step}: brand ${facet.value} of ${qs}`).toBe(
          live.filter((p) => rowOk(p) && catOk(p) && p.brand.toLowerCase() === facet.value).length,
        );
      }
    }
  }

  it("stays exact through 150 random writes, and the listing counts from it match the products", async () => {
    const random = prng(engine === "sqlite" ? 320 : 3200);
    const place = () => {
      const categoryId = random.pick(Object.keys(TREE));
      return { categoryId, subcategoryId: random.pick(TREE[categoryId]!) };
    };
    const ids: number[] = [];
    const newProduct = () =>
      insertProduct(db, {
        ...place(),
        brand: random.pick(BRANDS),
        priceCents: random.pick(PRICES),
        rating: random.pick(RATINGS),
        archivedAt: random.next() < 0.15 ? "2026-02-01T00:00:00.000Z" : null,
      });
    for (let i = 0; i < 30; i++) ids.push(await newProduct());
    await expectBandsInSync("the first inserts");
    await expectListingCounts("the first inserts");

    const anyId = () => random.pick(ids);
    const operations: Array<() => Promise<unknown>> = [
      async () => ids.push(await newProduct()),
      () =>
        db
          .updateTable("products")
          .set({ priceCents: random.pick(PRICES) })
          .where("id", "=", anyId())
          .execute(),
      () =>
        db
          .updateTable("products")
          .set({ rating: random.pick(RATINGS) })
          .where("id", "=", anyId())
          .execute(),
      () =>
        db
          .updateTable("products")
          .set({ brand: random.pick(BRANDS) })
          .where("id", "=", anyId())
          .execute(),
      () => db.updateTable("products").set(place()).where("id", "=", anyId()).execute(),
      () =>
        db
          .updateTable("products")
          .set({ stock: random.int(9) })
          .where("id", "=", anyId())
          .execute(),
      () =>
        db
          .updateTable("products")
          .set({ archivedAt: random.next() < 0.5 ? "2026-03-01T00:00:00.000Z" : null })
          .where("id", "=", anyId())
          .execute(),
      () => db.deleteFrom("products").where("id", "=", anyId()).execute(),
    ];
    for (let i = 0; i < 150; i++) {
      await random.pick(operations)();
      if (i % 25 === 24) await expectBandsInSync(`operation ${i + 1}`);
    }
    await expectBandsInSync("150 operations");
    await expectListingCounts("150 operations");
  });
});
