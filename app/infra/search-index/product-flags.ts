/** The flags the search index keeps per product (index-parts.ts), one bit each. */
export const FEATURED = 1;
export const NEW_ARRIVAL = 2;
export const BEST_SELLER = 4;
export const DEAL = 8;
