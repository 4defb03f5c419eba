import { collectBits, orInto } from "./bitset.ts";
import type { Postings } from "./index-parts.ts";
import type { OptionParts } from "./option-index.ts";

/**
 * Which products hold option values (option-index.ts keeps, per value, a bitset or a postings
 * list): the candidates of an option filter, and where a search word is found in option values.
 */

/** The pairs of `key` with one of `values`. */
export function wantedPairs(parts: OptionParts, key: string, values: string[]): number[] {
  const k = parts.keys.indexOf(key);
  const wanted = new Set(values);
  const pairs: number[] = [];
  parts.pairKey.forEach((pk, pair) => {
    if (pk === k && wanted.has(parts.pairValues[pair] as string)) pairs.push(pair);
  });
  return pairs;
}

/** Sets in `bits` the products with an in-stock variant holding one of `pairs`. */
export function inStockHolders(parts: OptionParts, pairs: number[], bits: Uint32Array): void {
  const { denseSlot, denseBits, words, pairOffsets, pairPostings, pairPostingInStock } = parts;
  for (const pair of pairs) {
    const slot = denseSlot[pair] as number;
    if (slot >= 0) {
      orInto(bits, denseBits.subarray((2 * slot + 1) * words, (2 * slot + 2) * words));
      continue;
    }
    const end = pairOffsets[pair + 1] as number;
    for (let i = pairOffsets[pair] as number; i < end; i++) {
      if (pairPostingInStock[i] === 1) {
        const p = pairPostings[i] as number;
        bits[p >>> 5] = (bits[p >>> 5] as number) | (1 << (p & 31));
      }
    }
  }
}

/**
 * The products that may match option filters, ascending into `out` (returns how many): those with
 * an in-stock variant holding a wanted value of the filtered key whose values the fewest products
 * hold in stock — with one key filtered, exactly the matches; with more, a superset whose
 * variants are checked afterwards. `bits` is scratch (one bitset over the products).
 */
export function candidates(
  parts: OptionParts,
  options: Record<string, string[]>,
  keys: string[],
  bits: Uint32Array,
  out: Int32Array,
): number {
  let best: number[] = [];
  let bestSize = Infinity;
  for (const key of keys) {
    const pairs = wantedPairs(parts, key, options[key] ?? []);
    const size = pairs.reduce((sum, pair) => sum + (parts.pairInStock[pair] as number), 0);
    if (size < bestSize) {
      best = pairs;
      bestSize = size;
    }
  }
  bits.fill(0);
  inStockHolders(parts, best, bits);
  return collectBits(bits, out);
}

/** Where a search word is found among option values: the live holders of the pairs whose value holds it. */
export function optionSource(parts: OptionParts, word: string): Postings {
  const lists: number[] = [];
  const bitsets: Uint32Array[] = [];
  const { denseSlot, denseBits, words } = parts;
  parts.pairValues.forEach((value, pair) => {
    if (!value.includes(word)) return;
    const slot = denseSlot[pair] as number;
    if (slot < 0) lists.push(pair);
    else bitsets.push(denseBits.subarray(2 * slot * words, (2 * slot + 1) * words));
  });
  return { offsets: parts.pairOffsets, postings: parts.pairPostings, lists, bitsets };
}
