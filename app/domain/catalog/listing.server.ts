import { sql } from "kysely";
import { type Database, engineOf } from "../../db/database.server.ts";
import type { IndexAnswer } from "../../infra/search-index/index-parts.ts";
import {
  optionCountsFromIndex,
  searchCorrections,
  searchFromIndex,
} from "../../infra/search-index/search-index.server.ts";
import { readerOf } from "../../infra/sqlite-readers.server.ts";
import { CATEGORY_TREE } from "../../lib/catalog-constants.ts";
import type { FacetCount, OptionFacet, ProductCardData } from "../../lib/catalog-types.ts";
import {
  hasOptionFilters,
  type ListingQuery,
  PAGE_SIZE,
  searchWords,
  wantsOptionFacets,
} from "../../lib/listing-query.ts";
import { liveAt } from "../../lib/promotions/catalogue-sale.ts";
import { SKU_TEXT } from "../../lib/variant-input.ts";
import { cataloguePromotions } from "../promotions/promotions.server.ts";
import { type Counts, countFromFacets, countFromProducts, hasRowFilters } from "./listing-counts.server.ts";
import { filterConditions, orderBy } from "./listing-filters.server.ts";
import { optionCountRowsBySql, toOptionFacets, withKnownOptions } from "./listing-options.server.ts";
import { regularCeiling, salePriceSql } from "./listing-sale.server.ts";
import { selectCardColumns, toProductCards } from "./product-card.server.ts";
import { synonymsFor } from "./search-synonyms.server.ts";

export type { FacetCount } from "../../lib/catalog-types.ts";

export interface ListingResult {
  products: ProductCardData[];
  total: number;
  page: number;
  pageCount: number;
  facets: { categories: FacetCount[]; brands: FacetCount[]; options: OptionFacet[] };
  /** the catalogue's words searched in place of misspelt ones (typo tolerance), none when spelt right */
  corrected: string[];
}

const CATEGORY_NAMES = new Map(CATEGORY_TREE.map((c) => [c.id, c.name]));

/**
 * The listing: one page of products, the total, and facet counts for categories and brands. A
 * search is answered by the in-memory search index when the database has a fresh one
 * (search-index.server.ts), else — like every other listing — by SQL.
 */
export async function searchProducts(
  db: Database,
  parsed: ListingQuery,
  now: Date = new Date(),
  /** the signed-in shopper: the cards show their member prices (filters and sorts stay on the others', decision 037) */
  userId: string | null = null,
): Promise<ListingResult> {
  const brandKeys = listBrandKeys(db);
  return listPrepared(db, await prepareListingQuery(db, parsed, now, brandKeys), now, userId, brandKeys);
}

/** The listing of a query prepareListingQuery gave (searchProducts, and the suggestions before an index). */
export async function listPrepared(
  db: Database,
  query: ListingQuery,
  now: Date = new Date(),
  userId: string | null = null,
  brandKeys: Promise<Array<{ value: string; label: string }>> = listBrandKeys(db),
): Promise<ListingResult> {
  const optionFacets = wantsOptionFacets(query);
  // filters that look inside products (a search, options, prices, rating, flags): the index
  // answers everything — SQL would count every matching row, seconds at 1M products; a category
  // or brand alone: SQL's roll-ups answer the page and counts, the index the option facets
  const indexed = hasRowFilters(query) && !query.productIds ? await searchFromIndex(db, query) : null;
  // the index's option counts are a listing's without search or option filters (those it answers
  // whole, unless a live sale leaves a priced one to SQL: then SQL counts too)
  const searchedOrOptioned = Boolean(query.search) || hasOptionFilters(query);
  const optionRows = async () =>
    toOptionFacets(
      (searchedOrOptioned ? null : await optionCountsFromIndex(db, query)) ??
        (await optionCountRowsBySql(readerOf(db), query, engineOf(db))),
      query.options,
    );
  const [{ rows, total, categoryCounts, brandCounts }, keys, options] = await Promise.all([
    indexed ? pageFromIndex(db, indexed) : pageFromSql(readerOf(db), query),
    brandKeys,
    !optionFacets ? [] : indexed ? toOptionFacets(indexed.optionCounts, query.options) : optionRows(),
  ]);
  // brand counts by the URL's value (see withBrandKeys)
  const countByValue = new Map<string, number>();
  for (const [key, count] of brandCounts) {
    const value = key.toLowerCase();
    countByValue.set(value, (countByValue.get(value) ?? 0) + count);
  }

  return {
    products: await toProductCards(db, rows, now, userId),
    total,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    corrected: [...new Set(Object.values(query.corrections ?? {}).flat())],
    facets: {
      categories: CATEGORY_TREE.filter((c) => c.subcategories.length > 0 || categoryCounts.has(c.id)).map(
        (c) => ({
          value: c.id,
          label: CATEGORY_NAMES.get(c.id) ?? c.id,
          count: categoryCounts.get(c.id) ?? 0,
        }),
      ),
      brands: brandsByValue(keys).map((brand) => ({ ...brand, count: countByValue.get(brand.value) ?? 0 })),
      options,
    },
  };
}

/**
 * The parsed query as the listing answers it: brand values mapped to the keys that exist, the
 * known option keys, a SKU search turned into its product, the search words' synonyms and typo
 * corrections, and the catalogue promotions live at `now`.
 */
export async function prepareListingQuery(
  db: Database,
  parsed: ListingQuery,
  now: Date,
  brandKeys: Promise<Array<{ value: string; label: string }>> = listBrandKeys(db),
): Promise<ListingQuery> {
  return withSale(
    db,
    await withSearchWords(
      db,
      await withSku(db, await withKnownOptions(db, await withBrandKeys(parsed, brandKeys))),
    ),
    now,
  );
}

type CardRows = Awaited<ReturnType<ReturnType<typeof selectCardColumns>["execute"]>>;

/**
 * The listing by SQL alone (every listing without an index answer); `db` is the database's reader
 * (readerOf): on SQLite these reads run off the app's thread.
 */
async function pageFromSql(db: Database, query: ListingQuery): Promise<Counts & { rows: CardRows }> {
  const engine = engineOf(db);
  const counts = hasRowFilters(query) ? countFromProducts(db, query, engine) : countFromFacets(db, query);
  const [bound, answer] = await Promise.all([saleSortBound(db, query), counts]);
  const rows = await selectCardColumns(db)
    .where((eb) => eb.and(filterConditions(eb, query, engine, null)))
    .$if(bound !== null, (qb) => qb.where("products.priceCents", bound!.op, bound!.cents))
    .$call((qb) => {
      let ordered = qb;
      for (const [expression, direction] of orderBy(query)) ordered = ordered.orderBy(expression, direction);
      return ordered;
    })
    .limit(PAGE_SIZE)
    .offset((query.page - 1) * PAGE_SIZE)
    .execute();
  return { rows, ...answer };
}

/**
 * A price-sorted listing while a catalogue sale is live (decision 035) is ordered by an expression
 * no index holds; this bounds the rows it is computed for. The first K = page × PAGE_SIZE listed
 * products by regular price (read in index order) have sale prices; S, the largest of them
 * (ascending) or the smallest (descending), bounds the true K-th: every product of the page then
 * has a regular price ≤ regularCeiling(S) (ascending) or ≥ S (descending, as sale ≤ regular).
 * Null: no sale, another order, option filters (the price is a variant's), or fewer than K listed.
 */
async function saleSortBound(
  db: Database,
  query: ListingQuery,
): Promise<{ op: "<=" | ">="; cents: number } | null> {
  const sale = query.sale ?? [];
  const ascending = query.sort === "price-asc";
  if (sale.length === 0 || (!ascending && query.sort !== "price-desc")) return null;
  if (Object.keys(query.options).length > 0) return null;
  const k = query.page * PAGE_SIZE;
  const engine = engineOf(db);
  const first = await db
    .selectFrom("products")
    .select(salePriceSql(sql.ref("products.price_cents"), sale).as("paid"))
    .where((eb) => eb.and(filterConditions(eb, query, engine, null)))
    .orderBy("products.priceCents", ascending ? "asc" : "desc")
    .limit(k)
    .execute();
  if (first.length < k) return null;
  const paid = first.map((row) => Number(row.paid));
  if (!ascending) return { op: ">=", cents: Math.min(...paid) };
  const ceiling = regularCeiling(sale, Math.max(...paid));
  return ceiling === null ? null : { op: "<=", cents: ceiling };
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

/**
 * The catalogue promotions live at `now` (decision 035): the listing's prices filter and sort as a
 * shopper pays them (listing-sale.server.ts); without any, the query is unchanged.
 */
async function withSale(db: Database, query: ListingQuery, now: Date): Promise<ListingQuery> {
  const sale = liveAt(await cataloguePromotions(db), now);
  return sale.length === 0 ? query : { ...query, sale };
}

/**
 * A searched listing with the owner's synonyms of its words (issue 33), read now — none needs a
 * rebuild — and the catalogue's words close to a word nothing holds (typo tolerance, decision
 * 041). Given ones (tests, to answer the same query by the index and by SQL) are kept.
 */
async function withSearchWords(db: Database, query: ListingQuery): Promise<ListingQuery> {
  if (!query.search) return query;
  const words = searchWords(query.search);
  const synonyms = query.synonyms ?? (await synonymsFor(db, words)) ?? undefined;
  const corrections = query.corrections ?? (await searchCorrections(db, words, synonyms)) ?? undefined;
  return {
    ...query,
    ...(synonyms ? { synonyms } : {}),
    ...(corrections ? { corrections } : {}),
  };
}

/**
 * A search for one word that is a SKU (exactly, or in upper case) lists that variant's product:
 * the shop's staff and returning customers search by the code on a label or an invoice.
 */
async function withSku(db: Database, query: ListingQuery): Promise<ListingQuery> {
  const words = query.search ? searchWords(query.search) : [];
  if (words.length !== 1 || !SKU_TEXT.test(query.search!)) return query;
  const term = query.search!;
  const variant = await db
    .selectFrom("productVariants")
    .select("productId")
    .where("sku", "in", [...new Set([term, term.toUpperCase()])])
    .where("archivedAt", "is", null)
    .executeTakeFirst();
  return variant ? { ...query, search: null, productIds: [variant.productId] } : query;
}

export async function countProducts(
  db: Database,
  parsed: ListingQuery,
  now: Date = new Date(),
): Promise<number> {
  const engine = engineOf(db);
  const query = await prepareListingQuery(db, parsed, now);
  const row = await readerOf(db)
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
