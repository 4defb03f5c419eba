import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import { type Database, type Engine, engineOf } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import type { IndexAnswer } from "../../infra/search-index/catalog-index.ts";
import { searchFromIndex } from "../../infra/search-index/search-index.server.ts";
import { CATEGORY_TREE } from "../../lib/catalog-constants.ts";
import type { FacetCount, ProductCardData } from "../../lib/catalog-types.ts";
import { type ListingQuery, PAGE_SIZE, PRICE_MAX, PRICE_MIN, searchWords } from "../../lib/listing-query.ts";
import { selectCardColumns, toProductCards } from "./product-card.server.ts";

export type { FacetCount } from "../../lib/catalog-types.ts";

export interface ListingResult {
  products: ProductCardData[];
  total: number;
  page: number;
  pageCount: number;
  facets: { categories: FacetCount[]; brands: FacetCount[] };
}

type ProductsExpression = ExpressionBuilder<DB, "products">;
/** Filters left out: the category facet ignores category/subcategory, the brand facet brands. */
type Omit = "category" | "brand" | "facets" | null;

const CATEGORY_NAMES = new Map(CATEGORY_TREE.map((c) => [c.id, c.name]));

/**
 * The listing: one page of products, the total, and facet counts for categories and brands. A
 * search is answered by the in-memory search index when the database has a fresh one
 * (search-index.server.ts), else — like every other listing — by SQL.
 */
export async function searchProducts(db: Database, parsed: ListingQuery): Promise<ListingResult> {
  const brandKeys = listBrandKeys(db);
  const query = await withBrandKeys(parsed, brandKeys);
  const indexed = query.search ? await searchFromIndex(db, query) : null;
  const [{ rows, total, categoryCounts, brandCounts }, keys] = await Promise.all([
    indexed ? pageFromIndex(db, indexed) : pageFromSql(db, query),
    brandKeys,
  ]);
  // brand counts by the URL's value (see withBrandKeys)
  const countByValue = new Map<string, number>();
  for (const [key, count] of brandCounts) {
    const value = key.toLowerCase();
    countByValue.set(value, (countByValue.get(value) ?? 0) + count);
  }

  return {
    products: await toProductCards(db, rows),
    total,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    facets: {
      categories: CATEGORY_TREE.filter((c) => c.subcategories.length > 0 || categoryCounts.has(c.id)).map(
        (c) => ({
          value: c.id,
          label: CATEGORY_NAMES.get(c.id) ?? c.id,
          count: categoryCounts.get(c.id) ?? 0,
        }),
      ),
      brands: brandsByValue(keys).map((brand) => ({ ...brand, count: countByValue.get(brand.value) ?? 0 })),
    },
  };
}

interface Counts {
  total: number;
  categoryCounts: Map<string, number>;
  brandCounts: Map<string, number>;
}

type CardRows = Awaited<ReturnType<ReturnType<typeof selectCardColumns>["execute"]>>;

/** The listing by SQL alone (every listing without a fresh index answer). */
async function pageFromSql(db: Database, query: ListingQuery): Promise<Counts & { rows: CardRows }> {
  const engine = engineOf(db);
  const counts = hasRowFilters(query) ? countFromProducts(db, query, engine) : countFromFacets(db, query);
  const [rows, answer] = await Promise.all([
    selectCardColumns(db)
      .where((eb) => eb.and(filterConditions(eb, query, engine, null)))
      .$call((qb) => {
        let ordered = qb;
        for (const [expression, direction] of orderBy(query))
          ordered = ordered.orderBy(expression, direction);
        return ordered;
      })
      .limit(PAGE_SIZE)
      .offset((query.page - 1) * PAGE_SIZE)
      .execute(),
    counts,
  ]);
  return { rows, ...answer };
}

/** The index's page of ids as card rows, in its order. */
async function pageFromIndex(db: Database, answer: IndexAnswer): Promise<Counts & { rows: CardRows }> {
  const rows =
    answer.ids.length === 0
      ? []
      : await selectCardColumns(db).where("products.id", "in", answer.ids).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return {
    // a product archived since the index was read is left out (the next search is answered by SQL)
    rows: answer.ids.flatMap((id) => byId.get(id) ?? []),
    total: answer.total,
    categoryCounts: answer.categoryCounts,
    brandCounts: answer.brandCounts,
  };
}

/** Filters that look inside products (price, rating, flags, search) need counting the products. */
function hasRowFilters(query: ListingQuery): boolean {
  return Boolean(
    query.search ||
      query.rating ||
      query.minPrice > PRICE_MIN ||
      query.maxPrice < PRICE_MAX ||
      query.featured ||
      query.newArrival ||
      query.bestSeller ||
      query.deals,
  );
}

/** Category, subcategory and brand filters only: sums over the trigger-maintained facet table. */
async function countFromFacets(db: Database, query: ListingQuery): Promise<Counts> {
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
async function countFromProducts(db: Database, query: ListingQuery, engine: Engine): Promise<Counts> {
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

/** The width of a price band in whole dollars, as migration 0320 defines the bands (the filter form's step). */
const BAND_DOLLARS = 100;

interface Bands {
  /** the least price band in range */
  from: number;
  /** the greatest price band in range, or null for no upper bound */
  to: number | null;
  /** the least whole-star rating floor in range */
  rating: number;
}

/**
 * The price-band range of a query the bands can answer exactly, or null. Band b holds prices
 * p with min(⌊p / $100⌋, 20) = ⌊b / 2⌋, odd b the ones that are not a whole $100: so
 * p ≥ $100·M ⇔ b ≥ 2M, and p ≤ $100·X ⇔ b ≤ 2X (for X < 20). Ratings: rating ≥ N ⇔ ⌊rating⌋ ≥ N.
 */
function priceBands(query: ListingQuery): Bands | null {
  if (query.search || query.featured || query.newArrival || query.bestSeller || query.deals) return null;
  if (query.minPrice % BAND_DOLLARS !== 0 || query.maxPrice % BAND_DOLLARS !== 0) return null;
  if (query.rating !== null && !Number.isInteger(query.rating)) return null;
  return {
    from: query.minPrice > PRICE_MIN ? 2 * (query.minPrice / BAND_DOLLARS) : 0,
    to: query.maxPrice < PRICE_MAX ? 2 * (query.maxPrice / BAND_DOLLARS) : null,
    rating: query.rating ?? 0,
  };
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

/** Every band from bands.from to bands.to (or the last band, 41). */
function bandRange(bands: Bands): number[] {
  const last = bands.to ?? 41;
  return Array.from({ length: Math.max(0, last - bands.from + 1) }, (_, i) => bands.from + i);
}

export async function countProducts(db: Database, parsed: ListingQuery): Promise<number> {
  const engine = engineOf(db);
  const query = await withBrandKeys(parsed, listBrandKeys(db));
  const row = await db
    .selectFrom("products")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where((eb) => eb.and(filterConditions(eb, query, engine, null)))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Every brand with live products, by lower-case value with its display name. */
export async function listBrands(db: Database): Promise<Array<{ value: string; label: string }>> {
  return brandsByValue(await listBrandKeys(db));
}

/** The brand keys with live products (lower(brand) as the engine computes it), from the roll-up table. */
function listBrandKeys(db: Database): Promise<Array<{ value: string; label: string }>> {
  return db
    .selectFrom("catalogBrands")
    .select(["brandKey as value", "brandName as label"])
    .where("productCount", ">", 0)
    .orderBy("brandKey")
    .execute();
}

/**
 * Brand values in the URL are lower-cased by JavaScript (listing-query.ts), brand keys in the
 * database by the engine's lower(), and SQLite's lower() folds ASCII only: "Élan" has the key
 * "Élan" there and the value "élan" in the URL. Facet values are the JavaScript lower case of
 * the keys (the same on both engines), and a requested value with non-ASCII letters is mapped
 * back to the keys that exist.
 */
function brandsByValue(
  keys: Array<{ value: string; label: string }>,
): Array<{ value: string; label: string }> {
  const byValue = new Map<string, { value: string; label: string }>();
  for (const key of keys) {
    const value = key.value.toLowerCase();
    if (!byValue.has(value)) byValue.set(value, { value, label: key.label });
  }
  return [...byValue.values()].sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

async function withBrandKeys(
  query: ListingQuery,
  keys: Promise<Array<{ value: string; label: string }>>,
): Promise<ListingQuery> {
  if (!query.brands.some((brand) => /\P{ASCII}/u.test(brand))) return query;
  const wanted = new Set(query.brands);
  const existing = (await keys).map((k) => k.value).filter((key) => wanted.has(key.toLowerCase()));
  return { ...query, brands: [...new Set([...query.brands, ...existing])] };
}

function filterConditions(
  eb: ProductsExpression,
  query: ListingQuery,
  engine: Engine,
  omit: Omit,
): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [eb("products.archivedAt", "is", null)];
  if (omit !== "category" && omit !== "facets") {
    if (query.category) conditions.push(eb("products.categoryId", "=", query.category));
    if (query.subcategory) conditions.push(eb("products.subcategoryId", "=", query.subcategory));
  }
  if (omit !== "brand" && omit !== "facets" && query.brands.length > 0) {
    conditions.push(eb(sql`lower(products.brand)`, "in", query.brands));
  }
  if (query.minPrice > PRICE_MIN) conditions.push(eb("products.priceCents", ">=", query.minPrice * 100));
  if (query.maxPrice < PRICE_MAX) conditions.push(eb("products.priceCents", "<=", query.maxPrice * 100));
  if (query.rating) conditions.push(eb("products.rating", ">=", query.rating));
  if (query.featured) conditions.push(eb("products.featured", "=", 1));
  if (query.newArrival) conditions.push(eb("products.newArrival", "=", 1));
  if (query.bestSeller) conditions.push(eb("products.bestSeller", "=", 1));
  if (query.deals) conditions.push(eb("products.discountPercentage", "is not", null));
  if (query.search) conditions.push(...searchConditions(eb, query.search, engine));
  return conditions;
}

const escapeLike = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The text a search looks in; on PostgreSQL exactly the expression of the pg_trgm index. */
const SEARCH_TEXT = sql`lower(products.name || ' ' || products.brand || ' ' || products.category_id || ' ' || coalesce(products.subcategory_id, '') || ' ' || products.description)`;

/** The fields a search looks in, one by one (SQLite, short words). */
const SEARCH_FIELDS = [
  sql`products.name`,
  sql`products.description`,
  sql`products.brand`,
  sql`products.category_id`,
  sql`products.subcategory_id`,
];

/**
 * Every word of the term must occur, as a case-insensitive substring, in the name, description,
 * brand, category or subcategory. SQLite answers words of 3+ characters from the FTS5 trigram
 * index (one phrase per word, so FTS syntax in the input is inert) and shorter words with LIKE;
 * PostgreSQL uses LIKE on the pg_trgm-indexed expression.
 */
function searchConditions(eb: ProductsExpression, search: string, engine: Engine): Expression<SqlBool>[] {
  const words = searchWords(search);
  if (engine === "postgres") {
    return words.map((word) => eb(SEARCH_TEXT, "like", sql<string>`${escapeLike(word)} escape '\\'`));
  }
  const conditions: Expression<SqlBool>[] = [];
  const indexed = words.filter((w) => [...w].length >= 3);
  if (indexed.length > 0) {
    const match = indexed.map((w) => `"${w.replaceAll('"', '""')}"`).join(" ");
    conditions.push(
      eb(
        "products.id",
        "in",
        sql<number>`(select rowid from products_fts where products_fts match ${match})`,
      ),
    );
  }
  for (const word of words.filter((w) => [...w].length < 3)) {
    // SQLite's LIKE folds ASCII case itself (no lower() needed) and only ASCII: "él" must also find
    // "Él". Each field is tested on its own rather than building the lower-cased concatenation per
    // row (a word holds no space, so it can never span two fields anyway): the scan is ~1.5× faster.
    const variants = caseVariants(word).flatMap((v) =>
      SEARCH_FIELDS.map((field) => eb(field, "like", sql<string>`${escapeLike(v)} escape '\\'`)),
    );
    conditions.push(eb.or(variants));
  }
  return conditions;
}

/** The word with each non-ASCII letter in lower and upper case (a word here has 1 or 2 letters). */
function caseVariants(word: string): string[] {
  let variants = [""];
  for (const char of word) {
    const forms = /\P{ASCII}/u.test(char) ? [...new Set([char, char.toUpperCase()])] : [char];
    variants = variants.flatMap((v) => forms.map((f) => v + f));
  }
  return variants;
}

type Direction = "asc" | "desc";

function orderBy(query: ListingQuery) {
  const order: Array<[ReturnType<typeof sql> | string, Direction]> = [];
  switch (query.sort) {
    case "price-asc":
      order.push(["products.priceCents", "asc"], ["products.id", "asc"]);
      break;
    case "price-desc":
      order.push(["products.priceCents", "desc"], ["products.id", "desc"]);
      break;
    case "rating":
      order.push(["products.rating", "desc"], ["products.reviewCount", "desc"], ["products.id", "desc"]);
      break;
    case "newest":
      order.push(["products.createdAt", "desc"], ["products.id", "desc"]);
      break;
    default: {
      const words = query.search ? searchWords(query.search) : [];
      if (words.length > 0) {
        // Products whose name holds every word come first.
        const nameMatches = words.map((w) => sql`lower(products.name) like ${escapeLike(w)} escape '\\'`);
        order.push([sql`case when ${sql.join(nameMatches, sql` and `)} then 0 else 1 end`, "asc"]);
      }
      order.push(["products.featured", "desc"], ["products.rating", "desc"], ["products.id", "desc"]);
    }
  }
  return order as Array<[never, Direction]>;
}
