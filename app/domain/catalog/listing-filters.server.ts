import { type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from "kysely";
import type { Engine } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import { type ListingQuery, PRICE_MAX, PRICE_MIN, searchGroups } from "../../lib/listing-query.ts";
import { regularCeiling, salePriceSql } from "./listing-sale.server.ts";

/** The listing's filters, search and order as SQL (both engines). */

/**
 * While a catalogue sale is live (decision 035), a price bound on the sale price is also one on the
 * regular price (sale ≤ regular ≤ `regularCeiling`): stated on the column, so the price indexes
 * narrow the rows the sale expression is computed for. Not under option filters (the listed price
 * is then a variant's, not the row's).
 */
function regularPriceRange(eb: ProductsExpression, query: ListingQuery): Expression<SqlBool>[] {
  const sale = query.sale ?? [];
  if (sale.length === 0 || Object.keys(query.options).length > 0) return [];
  const range: Expression<SqlBool>[] = [];
  if (query.minPrice > PRICE_MIN) range.push(eb("products.priceCents", ">=", query.minPrice * 100));
  const ceiling = query.maxPrice < PRICE_MAX ? regularCeiling(sale, query.maxPrice * 100) : null;
  if (ceiling !== null) range.push(eb("products.priceCents", "<=", ceiling));
  return range;
}

export type ProductsExpression = ExpressionBuilder<DB, "products">;
/** Filters left out: the category facet ignores category/subcategory, the brand facet brands. */
export type Omit = "category" | "brand" | "facets" | null;

export function filterConditions(
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
  conditions.push(...optionConditions(query));
  const price = listedPrice(query);
  if (query.minPrice > PRICE_MIN) conditions.push(eb(price, ">=", query.minPrice * 100));
  if (query.maxPrice < PRICE_MAX) conditions.push(eb(price, "<=", query.maxPrice * 100));
  conditions.push(...regularPriceRange(eb, query));
  if (query.productIds)
    conditions.push(eb("products.id", "in", query.productIds.length > 0 ? query.productIds : [0]));
  if (query.rating) conditions.push(eb("products.rating", ">=", query.rating));
  if (query.featured) conditions.push(eb("products.featured", "=", 1));
  if (query.newArrival) conditions.push(eb("products.newArrival", "=", 1));
  if (query.bestSeller) conditions.push(eb("products.bestSeller", "=", 1));
  if (query.deals) conditions.push(eb("products.discountPercentage", "is not", null));
  if (query.search) conditions.push(...searchConditions(eb, searchGroups(query), engine));
  return conditions;
}

const escapeLike = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The text a search looks in; on PostgreSQL exactly the expression of the pg_trgm index. */
const SEARCH_TEXT = sql`lower(products.name || ' ' || products.brand || ' ' || products.category_id || ' ' || coalesce(products.subcategory_id, '') || ' ' || products.description || ' ' || products.option_text)`;

/** The fields a search looks in, one by one (SQLite, short words). */
const SEARCH_FIELDS = [
  sql`products.name`,
  sql`products.description`,
  sql`products.brand`,
  sql`products.category_id`,
  sql`products.subcategory_id`,
  sql`products.option_text`,
];

/**
 * Every word of the term — or one of its synonyms (`searchGroups`) — must occur, as a
 * case-insensitive substring, in the name, description, brand, category, subcategory or option
 * values (migration 1300). SQLite answers words of 3+ characters from the FTS5 trigram index (one
 * phrase per word, a word's synonyms OR-ed in brackets, so FTS syntax in the input is inert) and
 * shorter words with LIKE; PostgreSQL uses LIKE on the pg_trgm-indexed expression. (FTS5 ANDs
 * phrases side by side, but a bracketed OR only with an explicit AND.)
 */
function searchConditions(
  eb: ProductsExpression,
  groups: readonly string[][],
  engine: Engine,
): Expression<SqlBool>[] {
  if (engine === "postgres") {
    return groups.map((group) =>
      eb.or(group.map((word) => eb(SEARCH_TEXT, "like", sql<string>`${escapeLike(word)} escape '\\'`))),
    );
  }
  const phrase = (w: string) => `"${w.replaceAll('"', '""')}"`;
  const ftsMatch = (match: string) =>
    eb("products.id", "in", sql<number>`(select rowid from products_fts where products_fts match ${match})`);
  const long = (w: string) => [...w].length >= 3;
  const conditions: Expression<SqlBool>[] = [];
  // groups whose every word the trigram index holds: one MATCH for all of them
  const indexed = groups.filter((group) => group.every(long));
  if (indexed.length > 0) {
    conditions.push(
      ftsMatch(
        indexed
          .map((group) => (group.length === 1 ? phrase(group[0]!) : `(${group.map(phrase).join(" OR ")})`))
          .join(" AND "),
      ),
    );
  }
  for (const group of groups.filter((g) => !g.every(long))) {
    const longer = group.filter(long);
    conditions.push(
      eb.or([
        ...(longer.length > 0 ? [ftsMatch(longer.map(phrase).join(" OR "))] : []),
        // SQLite's LIKE folds ASCII case itself (no lower() needed) and only ASCII: "él" must also
        // find "Él". Each field is tested on its own rather than building the lower-cased
        // concatenation per row (a word holds no space, so it can never span two fields anyway).
        ...group
          .filter((w) => !long(w))
          .flatMap((word) =>
            caseVariants(word).flatMap((v) =>
              SEARCH_FIELDS.map((field) => eb(field, "like", sql<string>`${escapeLike(v)} escape '\\'`)),
            ),
          ),
      ]),
    );
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

export function orderBy(query: ListingQuery) {
  const order: Array<[ReturnType<typeof sql> | string, Direction]> = [];
  switch (query.sort) {
    case "price-asc":
      order.push([listedPrice(query) as never, "asc"], ["products.id", "asc"]);
      break;
    case "price-desc":
      order.push([listedPrice(query) as never, "desc"], ["products.id", "desc"]);
      break;
    case "rating":
      order.push(["products.rating", "desc"], ["products.reviewCount", "desc"], ["products.id", "desc"]);
      break;
    case "newest":
      order.push(["products.createdAt", "desc"], ["products.id", "desc"]);
      break;
    default: {
      const groups = searchGroups(query);
      if (groups.length > 0) {
        // Products whose name holds every word (or one of its synonyms) come first.
        const nameMatches = groups.map(
          (group) =>
            sql`(${sql.join(
              group.map((w) => sql`lower(products.name) like ${escapeLike(w)} escape '\\'`),
              sql` or `,
            )})`,
        );
        order.push([sql`case when ${sql.join(nameMatches, sql` and `)} then 0 else 1 end`, "asc"]);
      }
      order.push(["products.featured", "desc"], ["products.rating", "desc"], ["products.id", "desc"]);
    }
  }
  return order as Array<[never, Direction]>;
}

// ── option filters (decision 019): a live, in-stock variant with the chosen values ──────────

/** SQL true for a variant `pv` (live, in stock) holding one wanted value of every key but `except`. */
export function variantMatches(
  options: ListingQuery["options"],
  except: string | null = null,
): RawBuilder<SqlBool> {
  const parts = [sql`pv.archived_at is null`, sql`pv.stock > 0`];
  const wanted = Object.entries(options).filter(([key]) => key !== except);
  if (wanted.length > 0) {
    // one index lookup per variant (variant_id): how many of the keys it holds a wanted value of —
    // a scalar subquery the planner keeps per variant rather than joining the option rows blindly
    const any = wanted.map(
      ([key, values]) => sql`(o.option_key = ${key} and o.value_key in (${sql.join(values)}))`,
    );
    parts.push(
      sql`(select count(*) from variant_option_values o where o.variant_id = pv.id and (${sql.join(any, sql` or `)})) = ${wanted.length}`,
    );
  }
  return sql<SqlBool>`${sql.join(parts, sql` and `)}`;
}

/**
 * The product's price the listing filters and sorts on: with option filters, its cheapest matching
 * variant's; while catalogue promotions are live, as a shopper pays it (decision 035 — a
 * promotion takes the same percentage from every variant, so the cheapest stays the cheapest).
 */
export function listedPrice(query: ListingQuery): Expression<number> | "products.priceCents" {
  const sale = query.sale ?? [];
  if (Object.keys(query.options).length === 0) {
    return sale.length === 0 ? "products.priceCents" : salePriceSql(sql.ref("products.price_cents"), sale);
  }
  return sql<number>`(select min(${variantPrice(query)}) from product_variants pv where pv.product_id = products.id and ${variantMatches(query.options)})`;
}

/** A variant `pv`'s price as a shopper pays it now (its own without live catalogue promotions). */
export function variantPrice(query: ListingQuery): RawBuilder<number> {
  const sale = query.sale ?? [];
  return sale.length === 0 ? sql<number>`pv.price_cents` : salePriceSql(sql.ref("pv.price_cents"), sale);
}

/** The option filters as conditions on the products row. */
export function optionConditions(query: ListingQuery): Expression<SqlBool>[] {
  if (Object.keys(query.options).length === 0) return [];
  return [
    sql<SqlBool>`exists (select 1 from product_variants pv where pv.product_id = products.id and ${variantMatches(query.options)})`,
  ];
}
