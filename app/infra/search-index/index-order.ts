import type { ListingQuery } from "../../lib/listing-query.ts";
import { hasBit, popcount } from "./bitset.ts";
import { type FilterBits, flagBits } from "./filter-bits.ts";
import { FEATURED } from "./product-flags.ts";
import { Smallest } from "./smallest.ts";

/** What the listing's sorts read of each product (catalog-index.ts), by position. */
export interface SortKeys {
  /** position → product id (ascending) */
  ids: Float64Array;
  size: number;
  price: Float64Array;
  maxPrice: number;
  /** dense rank of the rating (0 = highest) and how many ranks there are */
  rating: { rank: Uint32Array; ranks: number };
  ratingValue: Float64Array;
  reviewCount: Float64Array;
  maxReviewCount: number;
  /** dense rank of created_at, 0 for the newest */
  createdRank: Uint32Array;
  /** created_at as time: what orders Newest across an index and its patch */
  createdTime: Float64Array;
  flags: Uint8Array;
}

/**
 * The first `limit` of the positions in the listing's order (listing.server.ts `orderBy`): a
 * primary key per sort with the id as the tie-break, packed into one number when it fits (a
 * native numeric sort, or a bounded heap for the first pages), else compared in two steps.
 */
export function orderPositions(
  keys: SortKeys,
  {
    positions,
    sort,
    nameMatch,
    limit,
    packLimit,
  }: {
    positions: Int32Array;
    sort: ListingQuery["sort"];
    /** a bitset of the products whose name holds every search word */
    nameMatch: Uint32Array | null;
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
        ((nameMatch && hasBit(nameMatch, p) ? 0 : 2) + ((keys.flags[p] as number) & FEATURED ? 0 : 1)) *
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
  const first = new Smallest(Math.min(limit, count));
  offerKeys(keys, positions, first, span, sort, nameMatch);
  return Array.from(first.sorted(), (key) => {
    const t = key % span;
    return idDescending ? n - 1 - t : t;
  });
}

/**
 * Offers the packed keys (primary × span + tie) of `positions`: the same as `primary` and `tie` in
 * orderPositions, in one loop per sort (a listing can order hundreds of thousands).
 */
function offerKeys(
  keys: SortKeys,
  positions: Int32Array,
  first: Smallest,
  span: number,
  sort: ListingQuery["sort"],
  nameMatch: Uint32Array | null,
) {
  const last = keys.size - 1;
  const count = positions.length;
  const { price, maxPrice, flags, createdRank, reviewCount, maxReviewCount } = keys;
  const rank = keys.rating.rank;
  switch (sort) {
    case "price-asc":
      for (let i = 0; i < count; i++) {
        const p = positions[i] as number;
        first.offer((price[p] as number) * span + p);
      }
      return;
    case "price-desc":
      for (let i = 0; i < count; i++) {
        const p = positions[i] as number;
        first.offer((maxPrice - (price[p] as number)) * span + (last - p));
      }
      return;
    case "rating": {
      const reviews = maxReviewCount + 1;
      for (let i = 0; i < count; i++) {
        const p = positions[i] as number;
        const primary = (rank[p] as number) * reviews + (maxReviewCount - (reviewCount[p] as number));
        first.offer(primary * span + (last - p));
      }
      return;
    }
    case "newest":
      for (let i = 0; i < count; i++) {
        const p = positions[i] as number;
        first.offer((createdRank[p] as number) * span + (last - p));
      }
      return;
    default: {
      const ranks = keys.rating.ranks;
      for (let i = 0; i < count; i++) {
        const p = positions[i] as number;
        const name = nameMatch !== null && ((nameMatch[p >>> 5] as number) & (1 << (p & 31))) !== 0 ? 0 : 2;
        const featured = (flags[p] as number) & FEATURED ? 0 : 1;
        first.offer(((name + featured) * ranks + (rank[p] as number)) * span + (last - p));
      }
    }
  }
}

/**
 * The listed positions (a bitset) that can be among the first `limit` in the Featured order, into
 * `out`: that order ranks a name holding every search word first (`nameMatch`), then featured
 * products — so the leading tiers (name and featured, name, featured, the rest) that hold `limit`
 * products are all that needs ordering.
 */
export function leadingTiers(
  listed: Uint32Array,
  nameMatch: Uint32Array | null,
  filterBits: FilterBits,
  limit: number,
  out: Int32Array,
): Int32Array {
  const featured = flagBits(filterBits, FEATURED);
  const tierWord = (tier: number, w: number): number => {
    const name = nameMatch === null ? 0 : (nameMatch[w] as number);
    const flagged = featured[w] as number;
    const all = listed[w] as number;
    switch (tier) {
      case 0:
        return all & name & flagged;
      case 1:
        return all & name;
      case 2:
        return all & (name | flagged);
      default:
        return all;
    }
  };
  let tier = 0;
  for (; tier < 3; tier++) {
    let count = 0;
    for (let w = 0; w < listed.length && count < limit; w++) count += popcount(tierWord(tier, w));
    if (count >= limit) break;
  }
  let n = 0;
  for (let w = 0; w < listed.length; w++) {
    let word = tierWord(tier, w);
    while (word !== 0) {
      const low = word & -word;
      word ^= low;
      out[n++] = (w << 5) + 31 - Math.clz32(low);
    }
  }
  return out.subarray(0, n);
}

/**
 * A listed product with what orders it in its listing, comparable across indexes (a patched
 * index merges its base's and its patch's, patched-index.ts): compared element by element, the
 * smaller first — the sort's keys, then the id as the tie-break.
 */
export interface Ranked {
  id: number;
  key: number[];
}

/**
 * Product `p` with its keys in the listing's order (as orderPositions orders), comparable across
 * indexes: values rather than an index's ranks.
 */
export function rankedAt(
  keys: SortKeys,
  p: number,
  sort: ListingQuery["sort"],
  nameMatch: Uint32Array | null,
): Ranked {
  const id = keys.ids[p] as number;
  const rating = keys.ratingValue[p] as number;
  switch (sort) {
    case "price-asc":
      return { id, key: [keys.price[p] as number, id] };
    case "price-desc":
      return { id, key: [-(keys.price[p] as number), -id] };
    case "rating":
      return { id, key: [-rating, -(keys.reviewCount[p] as number), -id] };
    case "newest":
      return { id, key: [-(keys.createdTime[p] as number), -id] };
    default:
      return {
        id,
        key: [
          nameMatch && hasBit(nameMatch, p) ? 0 : 1,
          (keys.flags[p] as number) & FEATURED ? 0 : 1,
          -rating,
          -id,
        ],
      };
  }
}
