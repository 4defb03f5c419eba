import type { ListingQuery } from "../../lib/listing-query.ts";
import { FEATURED } from "./index-parts.ts";
import { smallest } from "./smallest.ts";

/** What the listing's sorts read of each product (catalog-index.ts), by position. */
export interface SortKeys {
  size: number;
  price: Float64Array;
  maxPrice: number;
  /** dense rank of the rating (0 = highest) and how many ranks there are */
  rating: { rank: Uint32Array; ranks: number };
  reviewCount: Float64Array;
  maxReviewCount: number;
  /** dense rank of created_at, 0 for the newest */
  createdRank: Uint32Array;
  flags: Uint8Array;
}

/**
 * The first `limit` of the positions in the listing's order (listing.server.ts `orderBy`): a
 * primary key per sort with the id as the tie-break, packed into one number when it fits (a
 * native numeric sort, or a bounded heap for the first pages), else compared in two steps.
 * `scratch` holds the packed keys (at least as long as `positions`).
 */
export function orderPositions(
  keys: SortKeys,
  scratch: Float64Array,
  {
    positions,
    sort,
    nameMatch,
    words,
    limit,
    packLimit,
  }: {
    positions: Int32Array;
    sort: ListingQuery["sort"];
    nameMatch: Uint8Array | null;
    words: number;
    limit: number;
    packLimit: number;
  },
): number[] {
  const n = keys.size;
  let primary: (p: number) => number;
  let primaryMax: number;
  let idDescending: boolean;
  switch (sort) {
    case "price-asc":
      primary = (p) => keys.price[p] as number;
      primaryMax = keys.maxPrice;
      idDescending = false;
      break;
    case "price-desc": {
      const max = keys.maxPrice;
      primary = (p) => max - (keys.price[p] as number);
      primaryMax = max;
      idDescending = true;
      break;
    }
    case "rating": {
      const reviews = keys.maxReviewCount + 1;
      primary = (p) =>
        (keys.rating.rank[p] as number) * reviews + (keys.maxReviewCount - (keys.reviewCount[p] as number));
      primaryMax = keys.rating.ranks * reviews;
      idDescending = true;
      break;
    }
    case "newest":
      primary = (p) => keys.createdRank[p] as number;
      primaryMax = n;
      idDescending = true;
      break;
    default: {
      // name holds every word first, then featured, then rating (all descending), then id
      const ranks = keys.rating.ranks;
      primary = (p) =>
        ((nameMatch && nameMatch[p] === words ? 0 : 2) + ((keys.flags[p] as number) & FEATURED ? 0 : 1)) *
          ranks +
        (keys.rating.rank[p] as number);
      primaryMax = 4 * ranks;
      idDescending = true;
    }
  }
  // positions are in id order, so the position is the id's tie-break
  const tie = (p: number) => (idDescending ? n - 1 - p : p);
  const count = positions.length;
  const span = 2 ** Math.max(1, Math.ceil(Math.log2(n + 1)));
  if ((primaryMax + 1) * span >= packLimit) {
    return [...positions].sort((a, b) => primary(a) - primary(b) || tie(a) - tie(b)).slice(0, limit);
  }
  const packed = scratch.subarray(0, count);
  for (let i = 0; i < count; i++) {
    const p = positions[i] as number;
    packed[i] = primary(p) * span + tie(p);
  }
  const first = smallest(packed, Math.min(limit, count));
  return Array.from(first, (key) => {
    const t = key % span;
    return idDescending ? n - 1 - t : t;
  });
}
