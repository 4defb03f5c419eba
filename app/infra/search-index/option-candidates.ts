import { NO_VARIANT, type OptionParts } from "./option-index.ts";

/**
 * The products an option filter may match, from the option values' postings (option-index.ts):
 * a superset checked variant by variant afterwards, or — one key filtered — the candidates with
 * their prices read straight from the postings.
 */

/**
 * The products that may match option filters: those holding a wanted value of the key whose
 * wanted values are held by the fewest products (a superset: variants are checked afterwards),
 * ascending for up to 8 values. `marks` (zeroed, one per product; for more values) is left zeroed.
 */
export function candidates(
  parts: OptionParts,
  options: Record<string, string[]>,
  keys: string[],
  marks: Uint8Array,
): Int32Array {
  let best: number[] | null = null;
  let bestSize = Infinity;
  for (const key of keys) {
    const pairs = wantedPairs(parts, key, options[key] ?? []);
    const size = pairs.reduce(
      (sum, pair) => sum + (parts.pairOffsets[pair + 1] as number) - (parts.pairOffsets[pair] as number),
      0,
    );
    if (size < bestSize) {
      best = pairs;
      bestSize = size;
    }
  }
  const lists = (best ?? []).map((pair) =>
    parts.pairPostings.subarray(parts.pairOffsets[pair] as number, parts.pairOffsets[pair + 1] as number),
  );
  if (lists.length <= 8) return union(lists);
  const found = new Int32Array(bestSize === Infinity ? 0 : bestSize);
  let n = 0;
  for (const list of lists) {
    for (const p of list) {
      if (marks[p] === 0) {
        marks[p] = 1;
        found[n++] = p;
      }
    }
  }
  for (let i = 0; i < n; i++) marks[found[i] as number] = 0;
  return found.subarray(0, n);
}

/** The pairs of `key` with one of `values`. */
function wantedPairs(parts: OptionParts, key: string, values: string[]): number[] {
  const k = parts.keys.indexOf(key);
  const wanted = new Set(values);
  const pairs: number[] = [];
  parts.pairKey.forEach((pk, pair) => {
    if (pk === k && wanted.has(parts.pairValues[pair] as string)) pairs.push(pair);
  });
  return pairs;
}

/**
 * A filter on one key: the products holding one of its values (ascending, into `positions`) and,
 * for each, the price of its cheapest in-stock variant holding one (Infinity: none in stock, into
 * `prices`) — read from the postings, without a loop over the variants: a merge of the values'
 * postings lists. Returns how many, or -1 for more than 8 values.
 */
export function pricedCandidates(
  parts: OptionParts,
  key: string,
  values: string[],
  positions: Int32Array,
  prices: Float64Array,
): number {
  const pairs = wantedPairs(parts, key, values);
  if (pairs.length > 8) return -1;
  const { pairOffsets, pairPostings, pairPostingVariant, variantStart, variantPrice } = parts;
  const heads = Int32Array.from(pairs, (pair) => pairOffsets[pair] as number);
  const ends = Int32Array.from(pairs, (pair) => pairOffsets[pair + 1] as number);
  const lists = pairs.length;
  const NONE = 2 ** 31 - 1;
  let n = 0;
  for (;;) {
    // the least position at the lists' heads, and the cheapest price among the lists holding it
    let p = NONE;
    for (let k = 0; k < lists; k++) {
      if ((heads[k] as number) < (ends[k] as number)) {
        const q = pairPostings[heads[k] as number] as number;
        if (q < p) p = q;
      }
    }
    if (p === NONE) return n;
    let price = Infinity;
    for (let k = 0; k < lists; k++) {
      const at = heads[k] as number;
      if (at < (ends[k] as number) && pairPostings[at] === p) {
        const variant = pairPostingVariant[at] as number;
        if (variant !== NO_VARIANT) {
          const cents = variantPrice[(variantStart[p] as number) + variant] as number;
          if (cents < price) price = cents;
        }
        heads[k] = at + 1;
      }
    }
    positions[n] = p;
    prices[n] = price;
    n++;
  }
}

/** The union of a few ascending lists, ascending: merged two at a time (sequential reads, no marks). */
function union(lists: Int32Array[]): Int32Array {
  let merged: Int32Array = lists[0] ?? new Int32Array(0);
  for (let k = 1; k < lists.length; k++) {
    const a = merged;
    const b = lists[k] as Int32Array;
    const out = new Int32Array(a.length + b.length);
    let i = 0;
    let j = 0;
    let n = 0;
    while (i < a.length && j < b.length) {
      const x = a[i] as number;
      const y = b[j] as number;
      if (x <= y) {
        out[n++] = x;
        i++;
        if (x === y) j++;
      } else {
        out[n++] = y;
        j++;
      }
    }
    while (i < a.length) out[n++] = a[i++] as number;
    while (j < b.length) out[n++] = b[j++] as number;
    merged = out.subarray(0, n);
  }
  return merged;
}
