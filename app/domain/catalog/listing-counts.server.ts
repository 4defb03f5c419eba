import { sql } from "kysely";
import type { Database, Engine } from "../../db/database.server.ts";
import { type ListingQuery, PRICE_MAX, PRICE_MIN } from "../../lib/listing-query.ts";
import { type Bands, bandRange, priceBands } from "../../lib/price-bands.ts";
import { filterConditions, type Omit } from "./listing-filters.server.ts";

/**
 * How many products a listing matches, and its facet counts: from the trigger-maintained roll-up
 * tables (category, subcategory, brand, price band) when the filters allow, else by counting the
 * matching products.
 */
export interface Counts {
  total: number;
  categoryCounts: Map<string, number>;
  brandCounts: Map<string, number>;
}

/** Filters that look inside products (price, rating, flags, search) need counting the products. */
export function hasRowFilters(query: ListingQuery): boolean {
  return Boolean(
    query.search ||
      query.rating ||
      query.minPrice > PRICE_MIN ||
      query.maxPrice < PRICE_MAX ||
      query.featured ||
      query.newArrival ||
      query.bestSeller ||
      query.deals ||
      query.productIds ||
      Object.keys(query.options).length > 0,
  );
}

/** Category, subcategory and brand filters only: sums over the trigger-maintained facet table. */
export async function countFromFacets(db: Database, query: ListingQuery): Promise<Counts> {
  const facets = db.selectFrom("catalogFacets");
  const byCategory = (qb: typeof facets) =>
    qb
      .$if(query.category !== null, (q) => q.where("categoryId", "=", query.category!))
      .$if(query.subcategory !== null, (q) => q.where("subcategoryId", "=", query.subcategory!));
  const byBrand = (qb: typeof facets) =>
    qb.$if(query.brands.length > 0, (q) => q.where("brandKey", "in", query.brands));
  const sum = sql<number>`coalesce(sum(product_count), 0)`;
  const [total, categories, brands] = await Promise.all([
    byBrand(byCategory(facets)).select(sum.as("count")).executeTakeFirstOrThrow(),
    // the category facet: per-category totals unless brands are filtered
    query.brands.length === 0
      ? db
          .selectFrom("catalogCategoryTotals")
          .select(["categoryId as value", "productCount as count"])
          .where("productCount", ">", 0)
          .execute()
      : byBrand(facets)
          .select(["categoryId as value", sum.as("count")])
          .groupBy("categoryId")
          .execute(),
    byCategory(facets)
      .select(["brandKey as value", sum.as("count")])
      .groupBy("brandKey")
      .execute(),
  ]);
  return {
    total: Number(total.count),
    categoryCounts: new Map(categories.map((c) => [c.value, Number(c.count)])),
    brandCounts: new Map(brands.map((b) => [b.value, Number(b.count)])),
  };
}

/**
 * Row filters (price, rating, flags, search): the matching groups by category, subcategory and
 * brand; the total and both facets are summed from them exactly as from the facet table. Without
 * a category filter that is one grouping of all matches; with one, two: the matches inside the
 * category (the total and the brand facet) and those of every category (the category facet).
 *
 * A grouping whose filters are only prices on the filter form's $100 steps and a rating minimum
 * (and category/brand) is summed from the trigger-maintained price bands (`catalog_price_bands`,
 * migration 0320); any other (a subcategory, flags, deals, a search, other price bounds) counts
 * the products through a covering index.
 */
export async function countFromProducts(db: Database, query: ListingQuery, engine: Engine): Promise<Counts> {
  const bands = priceBands(query);
  const grouped = (omit: Omit, byBrand: boolean): Promise<Group[]> =>
    bands && (omit === "category" || !query.subcategory)
      ? groupBands(db, query, bands, omit, byBrand)
      : groupProducts(db, query, engine, omit, byBrand);
  const brands = new Set(query.brands);
  const inCategory = (g: Group) =>
    (!query.category || g.categoryId === query.category) &&
    (!query.subcategory || g.subcategoryId === query.subcategory);
  const inBrands = (g: Group) => brands.size === 0 || brands.has(g.brandKey);
  const counts: Counts = { total: 0, categoryCounts: new Map(), brandCounts: new Map() };
  const addCategory = (g: Group, count: number) =>
    counts.categoryCounts.set(g.categoryId, (counts.categoryCounts.get(g.categoryId) ?? 0) + count);
  const addBrand = (g: Group, count: number) =>
    counts.brandCounts.set(g.brandKey, (counts.brandCounts.get(g.brandKey) ?? 0) + count);

  if (!query.category && !query.subcategory) {
    for (const group of await grouped("facets", true)) {
      const count = Number(group.count);
      if (inBrands(group)) {
        counts.total += count;
        addCategory(group, count);
      }
      addBrand(group, count);
    }
    return counts;
  }
  // inside the category every brand counts; across categories the brand filter applies
  const [inside, across] = await Promise.all([grouped("brand", true), grouped("category", false)]);
  for (const group of inside) {
    const count = Number(group.count);
    if (!inCategory(group)) continue;
    if (inBrands(group)) counts.total += count;
    addBrand(group, count);
  }
  for (const group of across) addCategory(group, Number(group.count));
  return counts;
}

type Group = { categoryId: string; subcategoryId: string; brandKey: string; count: number };

/** The matching products, grouped by category (and subcategory and brand when byBrand). */
function groupProducts(
  db: Database,
  query: ListingQuery,
  engine: Engine,
  omit: Omit,
  byBrand: boolean,
): Promise<Group[]> {
  return db
    .selectFrom("products")
    .select([
      "categoryId",
      sql<string>`${byBrand ? sql`coalesce(subcategory_id, '')` : sql`''`}`.as("subcategoryId"),
      sql<string>`${byBrand ? sql`lower(brand)` : sql`''`}`.as("brandKey"),
      (eb) => eb.fn.countAll<number>().as("count"),
    ])
    .where((eb) => eb.and(filterConditions(eb, query, engine, omit)))
    .groupBy(byBrand ? ["categoryId", sql`coalesce(subcategory_id, '')`, sql`lower(brand)`] : ["categoryId"])
    .execute();
}

/** Like groupProducts (never with a subcategory filter), summed from the price bands. */
async function groupBands(
  db: Database,
  query: ListingQuery,
  bands: Bands,
  omit: Omit,
  byBrand: boolean,
): Promise<Group[]> {
  const category = omit !== "category" && omit !== "facets" ? query.category : null;
  const brands = omit !== "brand" && omit !== "facets" ? query.brands : [];
  const sum = sql<number>`sum(product_count)`;
  // per category over all brands: the small totals table
  const rows =
    !byBrand && brands.length === 0
      ? await db
          .selectFrom("catalogPriceBandTotals")
          .select(["categoryId", sql<string>`''`.as("brandKey"), sum.as("count")])
          .where("priceBand", "in", bandRange(bands))
          .where("ratingFloor", ">=", bands.rating)
          .$if(category !== null, (q) => q.where("categoryId", "=", category!))
          .groupBy("categoryId")
          .having(sum, ">", 0)
          .execute()
      : await db
          .selectFrom("catalogPriceBands")
          .select(["categoryId", byBrand ? "brandKey" : sql<string>`''`.as("brandKey"), sum.as("count")])
          // every band in range: seeks on the primary key (category, band, rating, brand)
          .where("priceBand", "in", bandRange(bands))
          .where("ratingFloor", ">=", bands.rating)
          .$if(category !== null, (q) => q.where("categoryId", "=", category!))
          .$if(brands.length > 0, (q) => q.where("brandKey", "in", brands))
          .groupBy(byBrand ? ["categoryId", "brandKey"] : ["categoryId"])
          .having(sum, ">", 0)
          .execute();
  return rows.map((r) => ({ ...r, subcategoryId: "", count: Number(r.count) }));
}
