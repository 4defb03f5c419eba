import type { OptionCountRow, OptionParts } from "./option-index.ts";

/** The search index's parts and answer (catalog-index.ts), and the flags it keeps per product. */
/** Postings lists: list w holds postings[offsets[w] .. offsets[w + 1]). */
export interface Postings {
  offsets: Int32Array;
  postings: Int32Array;
  lists: number[];
}

/**
 * Marks the products holding every search word: afterwards `marks[p] === words` exactly for
 * them. `sources[k]` are postings lists holding search word k (vocabulary words, option values);
 * `marks` is zeroed. Calls `found` once per match.
 */
export function matchAll(sources: Postings[][], marks: Uint8Array, found?: (p: number) => void): void {
  const words = sources.length;
  for (let k = 0; k < words; k++) {
    for (const { offsets, postings, lists } of sources[k] as Postings[]) {
      for (const w of lists) {
        const end = offsets[w + 1] as number;
        for (let i = offsets[w] as number; i < end; i++) {
          const p = postings[i] as number;
          if (marks[p] === k) marks[p] = k + 1;
        }
      }
    }
  }
  if (!found) return;
  // each match once: through the last word's postings, stepping its mark past `words` and back
  for (const { offsets, postings, lists } of sources[words - 1] as Postings[]) {
    for (const w of lists) {
      const end = offsets[w + 1] as number;
      for (let i = offsets[w] as number; i < end; i++) {
        const p = postings[i] as number;
        if (marks[p] === words) {
          marks[p] = words + 1;
          found(p);
        }
      }
    }
  }
}

/**
 * The words of a vocabulary string ("\n" after each word; word w starts at starts[w]) that contain
 * `word` (a lower-cased search word without whitespace): one scan of the string, whatever its length.
 */
export function wordsContaining(vocabulary: string, starts: Int32Array, word: string): number[] {
  const found: number[] = [];
  if (word.length === 0 || word.includes("\n")) return found;
  let from = 0;
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

export const FEATURED = 1;
export const NEW_ARRIVAL = 2;
export const BEST_SELLER = 4;
export const DEAL = 8;

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
  categories: string[];
  subcategories: string[];
  brandKeys: string[];
  vocabulary: string;
  wordStarts: Int32Array;
  offsets: Int32Array;
  postings: Int32Array;
  nameOffsets: Int32Array;
  namePostings: Int32Array;
  options: OptionParts;
}
