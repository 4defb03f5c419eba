import { type ListingQuery, PRICE_MAX, PRICE_MIN } from "./listing-query.ts";

/**
 * Price bands (migration 0320): the roll-ups that count a listing's products by price and rating
 * without visiting them — SQL's `catalog_price_bands` and the search index's option counts
 * (option-index.ts). A band is one $100 step of the filter form, split in two: band b holds the
 * prices p with min(⌊p / $100⌋, 20) = ⌊b / 2⌋, odd b the ones that are not a whole $100, so
 * p ≥ $100·M ⇔ b ≥ 2M and p ≤ $100·X ⇔ b ≤ 2X (for X < 20). Ratings: rating ≥ N ⇔ ⌊rating⌋ ≥ N.
 */
export const BAND_DOLLARS = 100;
/** bands 0 … LAST_BAND */
export const LAST_BAND = 41;
/** rating floors 0 … 5 */
export const RATING_FLOORS = 6;

/** The band of a price in cents, as migration 0320's SQL expression computes it. */
export function priceBand(cents: number): number {
  return 2 * (cents >= 200_000 ? 20 : Math.floor(cents / 10_000)) + (cents % 10_000 === 0 ? 0 : 1);
}

/** The whole-star floor of a rating (0–5). */
export function ratingFloor(rating: number): number {
  return Math.trunc(rating);
}

export interface Bands {
  /** the least price band in range */
  from: number;
  /** the greatest price band in range, or null for no upper bound */
  to: number | null;
  /** the least whole-star rating floor in range */
  rating: number;
}

/**
 * The band range of a listing the bands can count exactly, or null: no search, flags, product
 * ids or option filters, prices on the $100 steps and a whole-star rating (the caller checks
 * its own further conditions, such as subcategories or brands).
 */
export function priceBands(query: ListingQuery): Bands | null {
  // the bands hold regular prices: while a catalogue promotion is live, a price-bound listing is
  // counted product by product (without bounds every band counts, whatever the price)
  const bounded = query.minPrice > PRICE_MIN || query.maxPrice < PRICE_MAX;
  if (query.sale && query.sale.length > 0 && bounded) return null;
  if (query.search || query.featured || query.newArrival || query.bestSeller || query.deals) return null;
  if (query.productIds || Object.keys(query.options).length > 0) return null;
  if (query.minPrice % BAND_DOLLARS !== 0 || query.maxPrice % BAND_DOLLARS !== 0) return null;
  if (query.rating !== null && !Number.isInteger(query.rating)) return null;
  return {
    from: query.minPrice > PRICE_MIN ? 2 * (query.minPrice / BAND_DOLLARS) : 0,
    to: query.maxPrice < PRICE_MAX ? 2 * (query.maxPrice / BAND_DOLLARS) : null,
    rating: query.rating ?? 0,
  };
}

/** Every band from bands.from to bands.to (or the last band). */
export function bandRange(bands: Bands): number[] {
  const last = bands.to ?? LAST_BAND;
  return Array.from({ length: Math.max(0, last - bands.from + 1) }, (_, i) => bands.from + i);
}
