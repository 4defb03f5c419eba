import { andInto, orInto } from "./bitset.ts";
import type { FilterBits } from "./filter-bits.ts";
import type { OptionCountRow, OptionParts } from "./option-index.ts";
import type { TypoWords } from "./typos.ts";

/** The search index's parts and answer (catalog-index.ts), and the flags it keeps per product. */
/**
 * Where a search word is found: postings lists (list w holds postings[offsets[w] .. offsets[w + 1]))
 * and bitsets over the positions (option values most products hold, bitset.ts).
 */
export interface Postings {
  offsets: Int32Array;
  postings: Int32Array;
  lists: number[];
  bitsets?: Uint32Array[];
}

/**
 * The products holding every search word, as a bitset into `bits` (`temp`: scratch of the same
 * length): `sources[k]` are where search word k is found (vocabulary words, option values).
 */
export function matchWords(sources: Postings[][], bits: Uint32Array, temp: Uint32Array): Uint32Array {
  sources.forEach((found, k) => {
    const target = k === 0 ? bits : temp;
    target.fill(0);
    for (const { offsets, postings, lists, bitsets } of found) {
      for (const w of lists) {
        const end = offsets[w + 1] as number;
        for (let i = offsets[w] as number; i < end; i++) {
          const p = postings[i] as number;
          target[p >>> 5] = (target[p >>> 5] as number) | (1 << (p & 31));
        }
      }
      for (const set of bitsets ?? []) orInto(target, set);
    }
    if (k > 0) andInto(bits, temp);
  });
  return bits;
}

/**
 * The words of a vocabulary string ("\n" after each word; word w starts at starts[w]) that contain
 * `word` (a lower-cased search word without whitespace): one scan of the string, whatever its length.
 */
export function wordsContaining(
  vocabulary: string,
  starts: Int32Array,
  word: string,
  /** per length m, the first word at least m long (the words are ordered by length) */
  lengthStarts: Int32Array | null = null,
): number[] {
  const found: number[] = [];
  if (word.length === 0 || word.includes("\n")) return found;
  const shortest = lengthStarts
    ? (lengthStarts[Math.min(word.length, lengthStarts.length - 2)] as number)
    : 0;
  let from = starts[shortest] as number;
  for (;;) {
    const at = vocabulary.indexOf(word, from);
    if (at < 0) break;
    // the word whose span holds `at`: the last start ≤ at
    let lo = 0;
    let hi = starts.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= at) lo = mid;
      else hi = mid - 1;
    }
    found.push(lo);
    from = starts[lo + 1] as number; // the next word
  }
  return found;
}

export { BEST_SELLER, DEAL, FEATURED, NEW_ARRIVAL } from "./product-flags.ts";

export function maxOf(values: Float64Array | Uint32Array): number {
  let max = 0;
  for (const v of values) if (v > max) max = v;
  return max;
}

export interface IndexAnswer {
  /** the page's product ids, in the listing's order */
  ids: number[];
  total: number;
  categoryCounts: Map<string, number>;
  /** by brand key (the JavaScript lower case of the brand) */
  brandCounts: Map<string, number>;
  /** the option facets' counted values */
  optionCounts: OptionCountRow[];
}

export interface IndexParts {
  version: number;
  ids: Float64Array;
  categoryOf: Uint16Array;
  subcategoryOf: Uint16Array;
  brandOf: Uint32Array;
  price: Float64Array;
  rating: Float64Array;
  flags: Uint8Array;
  ratingRank: Uint32Array;
  ratingRanks: number;
  reviewCount: Float64Array;
  maxReviewCount: number;
  createdRank: Uint32Array;
  /** created_at as time (Date.parse): what orders the Newest sort across an index and its patch */
  createdTime: Float64Array;
  categories: string[];
  subcategories: string[];
  brandKeys: string[];
  vocabulary: string;
  wordStarts: Int32Array;
  wordLengthStarts: Int32Array;
  offsets: Int32Array;
  postings: Int32Array;
  nameOffsets: Int32Array;
  namePostings: Int32Array;
  options: OptionParts;
  filterBits: FilterBits;
  typoWords: TypoWords;
}

/** The buffers of the parts' typed arrays (moved, not copied, to the receiving thread). */
export function transferList(parts: IndexParts): ArrayBuffer[] {
  return [
    ...Object.values(parts),
    ...Object.values(parts.options),
    ...Object.values(parts.options.bands),
    ...Object.values(parts.filterBits),
    parts.typoWords.lengthStarts,
  ]
    .filter((value): value is ArrayBufferView => ArrayBuffer.isView(value))
    .map((view) => view.buffer as ArrayBuffer);
}
