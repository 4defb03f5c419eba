import type { Database } from "../../db/database.server.ts";
import { firstMatchesFromIndex } from "../../infra/search-index/search-index.server.ts";
import { CATEGORY_TREE, productsUrl } from "../../lib/catalog-constants.ts";
import { parseListingQuery, searchWords } from "../../lib/listing-query.ts";
import { listPrepared, prepareListingQuery } from "./listing.server.ts";

/**
 * Suggestions as a shopper types in the header's search box (issue 33, decision 041): the first
 * products the search's listing would show — the same words, synonyms and typo corrections, from
 * the search index when it answers — and the categories whose names hold the words.
 */
export const SUGGESTIONS_MIN_LENGTH = 2;
export const SUGGESTED_PRODUCTS = 6;
export const SUGGESTED_CATEGORIES = 4;

export interface SearchSuggestions {
  /** the search as it was read (trimmed, control characters as spaces) */
  query: string;
  products: Array<{ id: number; name: string; href: string; category: string }>;
  categories: Array<{ label: string; href: string }>;
}

const CATEGORY_NAMES = new Map(CATEGORY_TREE.map((c) => [c.id, c.name]));

/** Every category and subcategory as a suggestion, with the text its name is matched in. */
const CATEGORY_SUGGESTIONS = CATEGORY_TREE.flatMap((category) => [
  { label: category.name, href: productsUrl({ category: category.id }), text: category.name.toLowerCase() },
  ...category.subcategories.map((sub) => ({
    label: `${category.name} › ${sub.name}`,
    href: productsUrl({ category: category.id, subcategory: sub.id }),
    text: `${category.name} ${sub.name}`.toLowerCase(),
  })),
]);

export async function suggestSearch(
  db: Database,
  text: string,
  now: Date = new Date(),
): Promise<SearchSuggestions> {
  const parsed = parseListingQuery(new URLSearchParams({ search: text }));
  const search = parsed.search ?? "";
  if ([...search].length < SUGGESTIONS_MIN_LENGTH) return { query: search, products: [], categories: [] };
  const query = await prepareListingQuery(db, parsed, now);
  // the listing's first products from the index, no counting (a SKU search names its product:
  // the listing answers it, as it does before an index is built)
  const ids =
    (query.productIds ? null : await firstMatchesFromIndex(db, query, SUGGESTED_PRODUCTS)) ??
    (await listPrepared(db, query, now)).products.slice(0, SUGGESTED_PRODUCTS).map((p) => p.id);
  const rows =
    ids.length === 0
      ? []
      : await db
          .selectFrom("products")
          .select(["id", "name", "categoryId"])
          .where("id", "in", ids)
          .where("archivedAt", "is", null)
          .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const words = searchWords(search);
  return {
    query: search,
    products: ids.flatMap((id) => {
      const row = byId.get(id);
      return row
        ? [
            {
              id: row.id,
              name: row.name,
              href: `/products/${row.id}`,
              category: CATEGORY_NAMES.get(row.categoryId) ?? row.categoryId,
            },
          ]
        : [];
    }),
    categories: CATEGORY_SUGGESTIONS.filter((c) => words.every((word) => c.text.includes(word)))
      .slice(0, SUGGESTED_CATEGORIES)
      .map(({ label, href }) => ({ label, href })),
  };
}
