import { CATEGORY_TREE } from "./catalog-constants.ts";
import type { ListingQuery } from "./listing-query.ts";

const CATEGORY_NAMES = new Map(CATEGORY_TREE.map((c) => [c.id, c.name]));
const SUBCATEGORY_NAMES = new Map(CATEGORY_TREE.flatMap((c) => c.subcategories.map((s) => [s.id, s.name])));

export function categoryName(id: string): string {
  return CATEGORY_NAMES.get(id) ?? id;
}

export function subcategoryName(id: string): string {
  return SUBCATEGORY_NAMES.get(id) ?? id;
}

/** The heading of a listing: what the shopper searched or chose, else the listing's own title. */
export function listingTitle(query: ListingQuery, fallback: string): string {
  if (query.search) return `Search results for "${query.search}"`;
  if (query.subcategory) return subcategoryName(query.subcategory);
  if (query.category) return categoryName(query.category);
  if (query.featured) return "Featured Products";
  if (query.newArrival) return "New Arrivals";
  if (query.bestSeller) return "Best Sellers";
  return fallback;
}
