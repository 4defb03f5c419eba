import { type ListingQuery, PRICE_MAX, PRICE_MIN } from "../../lib/listing-query.ts";
import { BEST_SELLER, DEAL, FEATURED, NEW_ARRIVAL } from "./product-flags.ts";

/** A listing's filters against the search index's numbering (catalog-index.ts). */
export interface IndexFilters {
  /** category and subcategory numbers; -1: one the index does not have (nothing matches) */
  category: number | null;
  subcategory: number | null;
  /** per brand number, 1 when wanted; null: every brand */
  brandWanted: Uint8Array | null;
  /** cents; ±Infinity without a bound */
  minPrice: number;
  maxPrice: number;
  minRating: number;
  flagMask: number;
}

export function indexFilters(
  query: ListingQuery,
  names: { categories: string[]; subcategories: string[]; brandKeys: string[] },
): IndexFilters {
  const category = query.category === null ? null : names.categories.indexOf(query.category);
  const subcategory = query.subcategory === null ? null : names.subcategories.indexOf(query.subcategory);
  let brandWanted: Uint8Array | null = null;
  if (query.brands.length > 0) {
    const wanted = new Set(query.brands.map((b) => b.toLowerCase()));
    const marks = new Uint8Array(names.brandKeys.length);
    names.brandKeys.forEach((key, b) => {
      if (wanted.has(key)) marks[b] = 1;
    });
    brandWanted = marks;
  }
  return {
    category,
    subcategory,
    brandWanted,
    minPrice: query.minPrice > PRICE_MIN ? query.minPrice * 100 : Number.NEGATIVE_INFINITY,
    maxPrice: query.maxPrice < PRICE_MAX ? query.maxPrice * 100 : Number.POSITIVE_INFINITY,
    minRating: query.rating ? query.rating : Number.NEGATIVE_INFINITY,
    flagMask:
      (query.featured ? FEATURED : 0) |
      (query.newArrival ? NEW_ARRIVAL : 0) |
      (query.bestSeller ? BEST_SELLER : 0) |
      (query.deals ? DEAL : 0),
  };
}
