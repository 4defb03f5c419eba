import { CATEGORY_TREE } from "./catalog-constants.ts";
import type { Promotion } from "./promotions/engine.ts";
import { optionFacetKey, optionValueKey } from "./variants.ts";

/**
 * The public URL contract of /products: category, subcategory, search, brand (repeatable),
 * minPrice, maxPrice (whole dollars), rating (minimum), sort, page, featured=true, new=true,
 * bestseller=true. Anything invalid is normalised, never an error.
 */
export const SORT_OPTIONS = [
  { value: "featured", label: "Featured" },
  { value: "price-asc", label: "Price: Low to High" },
  { value: "price-desc", label: "Price: High to Low" },
  { value: "rating", label: "Top Rated" },
  { value: "newest", label: "Newest" },
] as const;
export type SortOrder = (typeof SORT_OPTIONS)[number]["value"];

export const PRICE_MIN = 0;
export const PRICE_MAX = 2000;
export const PRICE_STEP = 100;
export const RATING_OPTIONS = [4, 3, 2, 1] as const;
export const PAGE_SIZE = 24;
export const SEARCH_MAX_LENGTH = 100;
const MAX_BRANDS = 30;
const MAX_PAGE = 10_000;

export interface ListingQuery {
  category: string | null;
  subcategory: string | null;
  search: string | null;
  /** lower-case brand values */
  brands: string[];
  /** whole dollars; PRICE_MIN means no lower bound */
  minPrice: number;
  /** whole dollars; PRICE_MAX means no upper bound */
  maxPrice: number;
  rating: number | null;
  sort: SortOrder;
  page: number;
  featured: boolean;
  newArrival: boolean;
  bestSeller: boolean;
  /** only discounted products (/products/deals) */
  deals: boolean;
  /**
   * option filters (`size=m&colour=black`): facet key → wanted value keys, both sorted; a product
   * matches when one of its in-stock variants has one of the values of every key
   */
  options: Record<string, string[]>;
  /** only these products (a search that named a SKU); never read from the URL */
  productIds?: number[];
  /**
   * the catalogue promotions live now, by precedence (decision 035): prices filter and sort as
   * a shopper pays them; never read from the URL
   */
  sale?: readonly Promotion[];
  /**
   * the owner's synonyms (word → the words that mean the same, lower case), read when the listing
   * is searched; never read from the URL
   */
  synonyms?: Readonly<Record<string, readonly string[]>>;
  /**
   * the catalogue's words close to a search word that nothing holds (typo tolerance, decision
   * 041), by search word; never read from the URL
   */
  corrections?: Readonly<Record<string, readonly string[]>>;
}

const CATEGORY_IDS = new Set(CATEGORY_TREE.map((c) => c.id));
const SUBCATEGORY_PARENT = new Map(
  CATEGORY_TREE.flatMap((c) => c.subcategories.map((s) => [s.id, c.id] as const)),
);

function wholeNumber(value: string | null, min: number, max: number, fallback: number): number {
  if (value === null || !/^\s*-?\d+(\.\d+)?\s*$/.test(value)) return fallback;
  const number = Math.floor(Number(value));
  return Math.min(max, Math.max(min, number));
}

const MAX_OPTION_KEYS = 6;
const MAX_OPTION_VALUES = 20;

/** Every other parameter named like an option key (`size`, `case-size`) is an option filter. */
function optionFilters(params: URLSearchParams): Record<string, string[]> {
  const filters: Record<string, string[]> = {};
  const keys = [...new Set(params.keys())].filter((key) => optionFacetKey(key) === key).sort();
  for (const key of keys.slice(0, MAX_OPTION_KEYS)) {
    const values = [
      ...new Set(
        params
          .getAll(key)
          .map(optionValueKey)
          .filter((v) => v.length > 0 && v.length <= 40 && !/\p{Cc}/u.test(v)),
      ),
    ]
      .sort()
      .slice(0, MAX_OPTION_VALUES);
    if (values.length > 0) filters[key] = values;
  }
  return filters;
}

/**
 * Option facets are shown once the listing is narrowed to a category (or options are chosen):
 * across every category — a search's results included — the sizes of shoes and of shirts would
 * mix in one list.
 */
export function wantsOptionFacets(query: ListingQuery): boolean {
  return Boolean(query.category || Object.keys(query.options).length > 0);
}

/** True when the query filters on options. */
export const hasOptionFilters = (query: ListingQuery): boolean => Object.keys(query.options).length > 0;

export function parseListingQuery(params: URLSearchParams, preset: Partial<ListingQuery> = {}): ListingQuery {
  const rawCategory = params.get("category")?.trim().toLowerCase() ?? "";
  const category = CATEGORY_IDS.has(rawCategory) ? rawCategory : null;
  const rawSubcategory = params.get("subcategory")?.trim().toLowerCase() ?? "";
  const parent = SUBCATEGORY_PARENT.get(rawSubcategory);
  // An explicitly empty category ("All categories" in the filter form) lets go of the
  // subcategory too; otherwise a subcategory without a category implies its category.
  const allCategories = params.has("category") && rawCategory === "";
  const subcategory = parent && !allCategories && (!category || category === parent) ? rawSubcategory : null;

  const search = (params.get("search") ?? "")
    // control characters count as spaces: a NUL reaches PostgreSQL as an error and SQLite's LIKE
    // as the end of the pattern (matching everything)
    .replace(/[\s\p{Cc}]+/gu, " ")
    .trim()
    .slice(0, SEARCH_MAX_LENGTH)
    // the cut must not leave half of a surrogate pair (an emoji) behind
    .replace(/[\uD800-\uDBFF]$/, "")
    .trim();
  const brands = [
    ...new Set(
      params
        .getAll("brand")
        .flatMap((b) => b.split(","))
        .map((b) => b.trim().toLowerCase())
        .filter((b) => b.length > 0 && b.length <= 60 && !/\p{Cc}/u.test(b)),
    ),
  ]
    .slice(0, MAX_BRANDS)
    .sort();

  let minPrice = wholeNumber(params.get("minPrice"), PRICE_MIN, PRICE_MAX, PRICE_MIN);
  let maxPrice = wholeNumber(params.get("maxPrice"), PRICE_MIN, PRICE_MAX, PRICE_MAX);
  if (minPrice > maxPrice) [minPrice, maxPrice] = [maxPrice, minPrice];

  const ratingValue = wholeNumber(params.get("rating"), 0, 4, 0);
  const sortValue = params.get("sort");
  const sort = SORT_OPTIONS.some((o) => o.value === sortValue) ? (sortValue as SortOrder) : "featured";

  return {
    category: category ?? (subcategory ? (SUBCATEGORY_PARENT.get(subcategory) ?? null) : null),
    subcategory,
    search: search.length > 0 ? search : null,
    brands,
    minPrice,
    maxPrice,
    rating: ratingValue >= 1 ? ratingValue : null,
    sort,
    page: wholeNumber(params.get("page"), 1, MAX_PAGE, 1),
    featured: params.get("featured") === "true",
    newArrival: params.get("new") === "true",
    bestSeller: params.get("bestseller") === "true",
    deals: false,
    options: optionFilters(params),
    ...preset,
  };
}

/** The canonical query string for a listing (defaults omitted, stable order). */
export function listingSearchParams(
  query: ListingQuery,
  preset: Partial<ListingQuery> = {},
): URLSearchParams {
  const params = new URLSearchParams();
  if (query.category) params.set("category", query.category);
  if (query.subcategory) params.set("subcategory", query.subcategory);
  if (query.search) params.set("search", query.search);
  for (const brand of query.brands) params.append("brand", brand);
  if (query.minPrice > PRICE_MIN) params.set("minPrice", String(query.minPrice));
  if (query.maxPrice < PRICE_MAX) params.set("maxPrice", String(query.maxPrice));
  if (query.rating) params.set("rating", String(query.rating));
  for (const [key, values] of Object.entries(query.options)) for (const v of values) params.append(key, v);
  if (query.featured && !preset.featured) params.set("featured", "true");
  if (query.newArrival && !preset.newArrival) params.set("new", "true");
  if (query.bestSeller && !preset.bestSeller) params.set("bestseller", "true");
  if (query.sort !== "featured") params.set("sort", query.sort);
  if (query.page > 1) params.set("page", String(query.page));
  return params;
}

export function listingHref(path: string, query: ListingQuery, preset: Partial<ListingQuery> = {}): string {
  const search = listingSearchParams(query, preset).toString();
  return search ? `${path}?${search}` : path;
}

/**
 * The search's words, each with the words the owner made synonyms of it (Admin → Searches, issue
 * 33) and, when nothing holds it, the catalogue's words close to it (its corrections): a product
 * matches a word when it holds the word or one of its alternatives, each as a substring, and the
 * search when it matches every word. Without either, each word alone.
 */
export function searchGroups(query: Pick<ListingQuery, "search" | "synonyms" | "corrections">): string[][] {
  return searchWords(query.search ?? "").map((word) => {
    const alternatives = [...(query.synonyms?.[word] ?? []), ...(query.corrections?.[word] ?? [])];
    return [word, ...new Set(alternatives.filter((alt) => alt !== word))];
  });
}

/** Words of a search term (at most 8), for matching each one as a substring somewhere. */

export function searchWords(search: string): string[] {
  return [
    ...new Set(
      search
        .toLowerCase()
        .split(/[\s\p{Cc}]+/u)
        .filter(Boolean),
    ),
  ].slice(0, 8);
}
