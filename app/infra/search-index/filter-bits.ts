import { LAST_BAND, priceBand, ratingFloor } from "../../lib/price-bands.ts";
import { bitsetWords } from "./bitset.ts";
import { BEST_SELLER, DEAL, FEATURED, NEW_ARRIVAL } from "./product-flags.ts";

/**
 * The listing's row filters as bitsets over the index's positions (bitset.ts), read 32 products at
 * a time: each category's products, the products' price band (lib/price-bands.ts) and rating
 * floor bit-sliced (slice s holds bit s of each product's value), and one bitset per flag. An
 * option filter's candidates are filtered and counted per category with them without visiting
 * most products (one-key-listing.ts).
 */
export interface FilterBits {
  words: number;
  /** category c's products: words [c·words, (c + 1)·words) */
  categories: Uint32Array;
  /** BAND_SLICES slices of the band of each product's price */
  bands: Uint32Array;
  /** RATING_SLICES slices of each product's whole-star rating floor */
  ratings: Uint32Array;
  /** one bitset per flag, in FLAG_ORDER */
  flags: Uint32Array;
}

const BAND_SLICES = 6; // bands 0 … 41
const RATING_SLICES = 3; // floors 0 … 5
const FLAG_ORDER = [FEATURED, NEW_ARRIVAL, BEST_SELLER, DEAL];

export function buildFilterBits(
  categoryOf: Uint16Array,
  categories: number,
  price: Float64Array,
  rating: Float64Array,
  flags: Uint8Array,
): FilterBits {
  const size = categoryOf.length;
  const words = bitsetWords(size);
  const bits = {
    words,
    categories: new Uint32Array(categories * words),
    bands: new Uint32Array(BAND_SLICES * words),
    ratings: new Uint32Array(RATING_SLICES * words),
    flags: new Uint32Array(FLAG_ORDER.length * words),
  };
  for (let p = 0; p < size; p++) {
    const word = p >>> 5;
    const bit = 1 << (p & 31);
    bits.categories[(categoryOf[p] as number) * words + word]! |= bit;
    const band = priceBand(price[p] as number);
    for (let s = 0; s < BAND_SLICES; s++) if ((band >> s) & 1) bits.bands[s * words + word]! |= bit;
    const floor = ratingFloor(rating[p] as number);
    for (let s = 0; s < RATING_SLICES; s++) if ((floor >> s) & 1) bits.ratings[s * words + word]! |= bit;
    FLAG_ORDER.forEach((flag, f) => {
      if ((flags[p] as number) & flag) bits.flags[f * words + word]! |= bit;
    });
  }
  return bits;
}

/** The bitset of the products with `flag` (product-flags.ts). */
export function flagBits(bits: FilterBits, flag: number): Uint32Array {
  const f = FLAG_ORDER.indexOf(flag);
  return bits.flags.subarray(f * bits.words, (f + 1) * bits.words);
}

export function filterBitsBytes(bits: FilterBits): number {
  return bits.categories.byteLength + bits.bands.byteLength + bits.ratings.byteLength + bits.flags.byteLength;
}

/** words handled together by rangeInto (its running bitsets stay in the first-level cache) */
const BLOCK = 512;
const above = new Uint32Array(BLOCK);
const equalLo = new Uint32Array(BLOCK);
const below = new Uint32Array(BLOCK);
const equalHi = new Uint32Array(BLOCK);

/**
 * Into `out`: the products whose bit-sliced value (`count` slices of `words` words) lies in
 * [lo, hi]. From the highest slice down it keeps "above lo so far", "below hi so far" and the bits
 * still equal to each bound, a block of words at a time; a bound of 0 (or of the greatest value)
 * holds for every product and costs nothing.
 */
export function rangeInto(
  slices: Uint32Array,
  count: number,
  words: number,
  lo: number,
  hi: number,
  out: Uint32Array,
): void {
  const anyLo = lo === 0;
  const anyHi = hi >= 2 ** count - 1;
  for (let start = 0; start < words; start += BLOCK) {
    const n = Math.min(BLOCK, words - start);
    above.fill(anyLo ? ~0 : 0, 0, n);
    equalLo.fill(anyLo ? 0 : ~0, 0, n);
    below.fill(anyHi ? ~0 : 0, 0, n);
    equalHi.fill(anyHi ? 0 : ~0, 0, n);
    for (let s = count - 1; s >= 0; s--) {
      const base = s * words + start;
      if (!anyLo) {
        if ((lo >> s) & 1) for (let i = 0; i < n; i++) equalLo[i]! &= slices[base + i] as number;
        else
          for (let i = 0; i < n; i++) {
            const bits = slices[base + i] as number;
            above[i]! |= (equalLo[i] as number) & bits;
            equalLo[i]! &= ~bits;
          }
      }
      if (!anyHi) {
        if ((hi >> s) & 1)
          for (let i = 0; i < n; i++) {
            const bits = slices[base + i] as number;
            below[i]! |= (equalHi[i] as number) & ~bits;
            equalHi[i]! &= bits;
          }
        else for (let i = 0; i < n; i++) equalHi[i]! &= ~(slices[base + i] as number);
      }
    }
    for (let i = 0; i < n; i++) {
      out[start + i] =
        ((above[i] as number) | (equalLo[i] as number)) & ((below[i] as number) | (equalHi[i] as number));
    }
  }
}

/** The lowest and highest price (cents) of band b (lib/price-bands.ts). */
function bandSpan(b: number): [number, number] {
  const dollars = Math.floor(b / 2) * 100;
  if (b >= 2 * 20) return b % 2 === 0 ? [dollars * 100, Infinity] : [dollars * 100 + 1, Infinity];
  return b % 2 === 0 ? [dollars * 100, dollars * 100] : [dollars * 100 + 1, dollars * 100 + 99_99];
}

/**
 * A listing's row filters as bitsets: the products whose rating and flags pass (`rowsInto`), those
 * whose price band lies wholly in the price range (`insideInto`) and those whose band lies partly
 * in it (`edgeInto`: each one's price is to be compared). Prices are the products' own (a product
 * whose variants differ in price is checked on its own by the caller).
 */
export class RowFilter {
  private readonly bits: FilterBits;
  private readonly priced: boolean;
  /** bands wholly inside the price range, and those touching it ([lo, hi], empty when lo > hi) */
  private readonly inside: [number, number];
  private readonly touching: [number, number];
  private readonly rating: number;
  private readonly flagWords: number[];

  constructor(
    bits: FilterBits,
    filters: { minPrice: number; maxPrice: number; minRating: number; flagMask: number },
  ) {
    this.bits = bits;
    const { minPrice, maxPrice } = filters;
    this.priced = minPrice !== -Infinity || maxPrice !== Infinity;
    let inside: [number, number] = [LAST_BAND + 1, -1];
    let touching: [number, number] = [LAST_BAND + 1, -1];
    for (let b = 0; b <= LAST_BAND; b++) {
      const [lo, hi] = bandSpan(b);
      if (hi < minPrice || lo > maxPrice) continue;
      touching = [Math.min(touching[0], b), b];
      if (lo >= minPrice && hi <= maxPrice) inside = [Math.min(inside[0], b), b];
    }
    this.inside = inside;
    this.touching = touching;
    // ratings in the URL are whole stars (listing-query.ts): rating ≥ N ⇔ its floor ≥ N
    this.rating = filters.minRating === -Infinity ? 0 : Math.ceil(filters.minRating);
    this.flagWords = FLAG_ORDER.flatMap((flag, f) => (filters.flagMask & flag ? [f * bits.words] : []));
  }

  /** Into `rows`, the products whose rating and flags pass; false (and `rows` untouched): every product. */
  rowsInto(rows: Uint32Array): boolean {
    if (this.rating === 0 && this.flagWords.length === 0) return false;
    const { words, ratings, flags } = this.bits;
    if (this.rating > 0) rangeInto(ratings, RATING_SLICES, words, this.rating, 7, rows);
    else rows.fill(~0);
    for (const at of this.flagWords) {
      for (let w = 0; w < words; w++) rows[w]! &= flags[at + w] as number;
    }
    return true;
  }

  /** Into `inside`, the products whose price band lies wholly in the range; false: no price filter (every product). */
  insideInto(inside: Uint32Array): boolean {
    if (!this.priced) return false;
    const [lo, hi] = this.inside;
    if (lo > hi) inside.fill(0);
    else rangeInto(this.bits.bands, BAND_SLICES, this.bits.words, lo, hi, inside);
    return true;
  }

  /**
   * Into `edge`, the products whose price band lies partly in the range (`inside`: what
   * insideInto gave); false (and `edge` untouched): none can.
   */
  edgeInto(edge: Uint32Array, inside: Uint32Array): boolean {
    if (!this.priced) return false;
    const [lo, hi] = this.touching;
    if (lo > hi || (lo === this.inside[0] && hi === this.inside[1])) return false;
    rangeInto(this.bits.bands, BAND_SLICES, this.bits.words, lo, hi, edge);
    for (let w = 0; w < edge.length; w++) edge[w]! &= ~(inside[w] as number);
    return true;
  }
}
