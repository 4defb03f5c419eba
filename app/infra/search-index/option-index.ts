import { optionFacetKey, optionValueKey } from "../../lib/variants.ts";
import { bitsetWords, setBit } from "./bitset.ts";
import { bandBytes, type OptionBands, OptionBandsBuilder } from "./option-bands.ts";

/**
 * The search index's option data (decision 019): each live product's in-stock variants — price
 * and option values — in typed arrays, read from `products.variant_facets` (migration 1300).
 * Answers the listing's option filters (`size=m&colour=black`: a variant with those values in
 * stock; its price, the cheapest such, is the one filtered and sorted on) and counts the option
 * facets, exactly as the SQL of listing-options.server.ts does.
 */
export interface OptionParts {
  /** the in-stock variants of product position p: variantStart[p] .. variantStart[p + 1] */
  variantStart: Int32Array;
  variantPrice: Uint32Array;
  /** `slots` entries per variant: a pair number + 1, or 0 */
  variantPairs: Uint16Array | Uint32Array;
  /** the most option facets one variant has (1–3; 0 without any): the width of variantPairs */
  slots: number;
  /** per pair: its key's number, its value key and the value as shown */
  pairKey: Uint16Array;
  pairValues: string[];
  pairLabels: string[];
  /** per key: the URL key and the option's name as shown ("" for options that are no facet) */
  keys: string[];
  keyLabels: string[];
  /**
   * Which products hold each pair: those one of whose live variants holds it (in stock or not:
   * what a search word finds in option values), and those with an in-stock variant holding it
   * (the candidates of an option filter). A pair held by many products keeps two bitsets
   * (denseSlot[pair] = s ≥ 0: live holders in denseBits words [2s·words, (2s+1)·words), in-stock
   * holders in the next `words`); the others (denseSlot −1) a postings list of the live holders,
   * pairPostings[pairOffsets[pair] .. pairOffsets[pair + 1]) ascending, with a 1 in
   * pairPostingInStock beside each in-stock one.
   */
  pairOffsets: Int32Array;
  pairPostings: Int32Array;
  pairPostingInStock: Uint8Array;
  denseSlot: Int32Array;
  denseBits: Uint32Array;
  /** words of one bitset over the products */
  words: number;
  /** per pair: the products with an in-stock variant holding it */
  pairInStock: Int32Array;
  /**
   * bitset of the products whose live variants all cost the same (the product's price): a
   * matching in-stock variant's price is then the product's, without a loop over the variants
   */
  uniform: Uint32Array;
  /** per product: bit k set when an in-stock variant holds a value of key k (k < 7; bit 7: any later key) */
  keyMask: Uint8Array;
  /** the option facets' counts by category, price band and rating (option-bands.ts) */
  bands: OptionBands;
}

const MAX_SLOTS = 3;
/**
 * A pair keeps bitsets (2 bits per product) rather than a postings list (5 bytes per holder) once
 * more than one product in 20 holds it.
 */
export const DENSE_SHARE = 1 / 20;

/** The bit of key k in OptionParts.keyMask. */
export const keyBit = (k: number) => 1 << Math.min(k, 7);

/** Collects OptionParts while the index is built, one product at a time. */
export class OptionPartsBuilder {
  private readonly starts: number[] = [0];
  private prices: number[] = [];
  /** MAX_SLOTS entries per variant while building; packed to `slots` by finish() */
  private pairs: number[] = [];
  private slots = 0;
  private readonly pairNumbers = new Map<string, number>();
  private readonly pairKey: number[] = [];
  private readonly pairValues: string[] = [];
  private readonly pairLabels: string[] = [];
  private readonly keyNumbers = new Map<string, number>();
  private readonly keyLabels: string[] = [];

  /** the products holding each pair: pair numbers per product (CSR), turned into postings by finish() */
  private readonly productPairs: number[] = [];
  private readonly productPairStarts: number[] = [0];
  private readonly productPairInStock: number[] = [];
  private readonly keyMasks: number[] = [];
  private readonly uniform: boolean[] = [];
  private readonly bands = new OptionBandsBuilder();
  /** share of the products from which a pair keeps bitsets (DENSE_SHARE; tests force one kind) */
  private readonly denseShare: number;

  constructor({ denseShare = DENSE_SHARE }: { denseShare?: number } = {}) {
    this.denseShare = denseShare;
  }

  /**
   * the next product's variant_facets: per live variant "cents\tname\u001fvalue…", "!cents…" when
   * out of stock (variant-summary.server.ts); only in-stock variants are kept as variants. The
   * product's category number and rating place it in the roll-up.
   */
  add(variantFacets: string, category = 0, rating = 0) {
    let mask = 0;
    let lowest = Infinity;
    let highest = -Infinity;
    if (variantFacets !== "") {
      const held = new Set<number>();
      /** per counted pair, the cheapest in-stock variant holding it: its price */
      const cheapest = new Map<number, number>();
      for (const line of variantFacets.split("\n")) {
        const [cents = "", ...pairs] = line.split("\t");
        const inStock = !cents.startsWith("!");
        const price = Number(inStock ? cents : cents.slice(1));
        if (price < lowest) lowest = price;
        if (price > highest) highest = price;
        if (inStock) this.prices.push(price);
        let slot = 0;
        for (const pair of pairs) {
          const [name = "", value = ""] = pair.split("\u001f");
          const key = optionFacetKey(name) ?? "";
          const number = this.pairNumber(key, name, value);
          held.add(number);
          if (!inStock || key === "" || slot === MAX_SLOTS) continue;
          this.pairs.push(number + 1);
          slot++;
          mask |= keyBit(this.pairKey[number] as number);
          if (price < (cheapest.get(number) ?? Infinity)) cheapest.set(number, price);
        }
        if (!inStock) continue;
        if (slot > this.slots) this.slots = slot;
        for (; slot < MAX_SLOTS; slot++) this.pairs.push(0);
      }
      for (const number of held) {
        this.productPairs.push(number);
        this.productPairInStock.push(cheapest.has(number) ? 1 : 0);
      }
      this.bands.add(category, rating, cheapest);
    }
    this.uniform.push(lowest === highest || lowest === Infinity);
    this.keyMasks.push(mask);
    this.productPairStarts.push(this.productPairs.length);
    this.starts.push(this.prices.length);
  }

  private pairNumber(key: string, name: string, value: string): number {
    const valueKey = optionValueKey(value);
    const id = `${key}\u0000${valueKey}`;
    let number = this.pairNumbers.get(id);
    if (number === undefined) {
      let keyNumber = this.keyNumbers.get(key);
      if (keyNumber === undefined) {
        keyNumber = this.keyNumbers.size;
        this.keyNumbers.set(key, keyNumber);
        this.keyLabels.push(name);
      }
      number = this.pairNumbers.size;
      this.pairNumbers.set(id, number);
      this.pairKey.push(keyNumber);
      this.pairValues.push(valueKey);
      this.pairLabels.push(value);
    }
    return number;
  }

  finish(): OptionParts {
    const wide = this.pairNumbers.size >= 0xffff;
    const slots = this.slots;
    const variants = this.prices.length;
    const packed = wide ? new Uint32Array(variants * slots) : new Uint16Array(variants * slots);
    for (let v = 0; v < variants; v++) {
      for (let s = 0; s < slots; s++) packed[v * slots + s] = this.pairs[v * MAX_SLOTS + s] as number;
    }
    // per pair: bitsets when many products hold it, else the positions holding it, ascending
    const pairs = this.pairNumbers.size;
    const products = this.productPairStarts.length - 1;
    const words = bitsetWords(products);
    const holders = new Int32Array(pairs);
    const pairInStock = new Int32Array(pairs);
    this.productPairs.forEach((number, i) => {
      holders[number]! += 1;
      pairInStock[number]! += this.productPairInStock[i] as number;
    });
    const denseSlot = new Int32Array(pairs).fill(-1);
    let dense = 0;
    for (let q = 0; q < pairs; q++) {
      if ((holders[q] as number) > products * this.denseShare) denseSlot[q] = dense++;
    }
    const denseBits = new Uint32Array(2 * dense * words);
    const pairOffsets = new Int32Array(pairs + 1);
    for (let q = 0; q < pairs; q++) {
      pairOffsets[q + 1] =
        (pairOffsets[q] as number) + ((denseSlot[q] as number) < 0 ? (holders[q] as number) : 0);
    }
    const next = pairOffsets.slice(0, pairs);
    const pairPostings = new Int32Array(pairOffsets[pairs] as number);
    const pairPostingInStock = new Uint8Array(pairOffsets[pairs] as number);
    for (let p = 0; p < products; p++) {
      for (let i = this.productPairStarts[p] as number; i < (this.productPairStarts[p + 1] as number); i++) {
        const number = this.productPairs[i] as number;
        const inStock = this.productPairInStock[i] as number;
        const slot = denseSlot[number] as number;
        if (slot >= 0) {
          const word = 2 * slot * words + (p >>> 5);
          const bit = 1 << (p & 31);
          denseBits[word]! |= bit;
          if (inStock) denseBits[word + words]! |= bit;
          continue;
        }
        const at = next[number]!++;
        pairPostings[at] = p;
        pairPostingInStock[at] = inStock;
      }
    }
    const uniform = new Uint32Array(words);
    this.uniform.forEach((same, p) => {
      if (same) setBit(uniform, p);
    });
    return {
      pairOffsets,
      pairPostings,
      pairPostingInStock,
      denseSlot,
      denseBits,
      words,
      pairInStock,
      uniform,
      keyMask: Uint8Array.from(this.keyMasks),
      variantStart: Int32Array.from(this.starts),
      variantPrice: Uint32Array.from(this.prices),
      variantPairs: packed,
      slots,
      pairKey: Uint16Array.from(this.pairKey),
      pairValues: this.pairValues,
      pairLabels: this.pairLabels,
      keys: [...this.keyNumbers.keys()],
      keyLabels: this.keyLabels,
      bands: this.bands.finish(),
    };
  }
}

export interface OptionCountRow {
  optionKey: string;
  valueKey: string;
  optionName: string;
  optionValue: string;
  count: number;
}

/**
 * One listing's option filters against the option data: which variants match, the product's
 * price (its cheapest matching variant), and the facet counts of the keys it counts — the keys it
 * does not filter on, or the one key `countKey` (a chosen key's counts leave its own choice out:
 * the listing counts them with a query filtering on the other keys only).
 */
export class OptionQuery {
  private readonly parts: OptionParts;
  /** per pair: the filter (1-based) whose wanted values it is one of, else 0 */
  private readonly wanted: Uint8Array;
  /** per key: 1 when its values are counted */
  private readonly counted: Uint8Array;
  private readonly filters: number;
  /** false: a filtered key the catalogue does not have (nothing matches) */
  readonly satisfiable: boolean;
  private readonly counts: Float64Array;
  private readonly best: Float64Array;
  private readonly touched: Int32Array;
  /** per pair: the last product (position + 1) counted for it */
  private readonly seen: Float64Array;

  constructor(parts: OptionParts, options: Record<string, string[]>, countKey: string | null = null) {
    this.parts = parts;
    const pairs = parts.pairKey.length;
    this.wanted = new Uint8Array(pairs);
    this.counted = new Uint8Array(parts.keys.length);
    const entries = Object.entries(options);
    this.filters = entries.length;
    let satisfiable = true;
    parts.keys.forEach((key, k) => {
      this.counted[k] = key !== "" && (countKey === null ? !(key in options) : key === countKey) ? 1 : 0;
    });
    entries.forEach(([key, values], i) => {
      const k = parts.keys.indexOf(key);
      if (k < 0 || key === "") {
        satisfiable = false;
        return;
      }
      const set = new Set(values);
      for (let pair = 0; pair < pairs; pair++) {
        if (parts.pairKey[pair] === k && set.has(parts.pairValues[pair] as string)) this.wanted[pair] = i + 1;
      }
    });
    this.satisfiable = satisfiable;
    this.counts = new Float64Array(pairs);
    this.best = new Float64Array(pairs).fill(Infinity);
    this.touched = new Int32Array(pairs);
    this.seen = new Float64Array(pairs);
  }

  /** True when in-stock variant v holds one wanted value of every filtered key. */
  private matches(v: number): boolean {
    if (this.filters === 0) return true;
    const { variantPairs, slots } = this.parts;
    let mask = 0;
    for (let s = 0; s < slots; s++) {
      const pair = (variantPairs[v * slots + s] as number) - 1;
      if (pair >= 0) mask |= 1 << (this.wanted[pair] as number);
    }
    // bits 1..filters all set (bit 0 is "not wanted")
    const all = ((1 << (this.filters + 1)) - 1) & ~1;
    return (mask & all) === all;
  }

  /** The cheapest in-stock variant of product p holding every filter's values, or Infinity. */
  price(p: number): number {
    const { variantStart, variantPrice } = this.parts;
    const end = variantStart[p + 1] as number;
    let best = Infinity;
    for (let v = variantStart[p] as number; v < end; v++) {
      if (this.matches(v)) {
        const price = variantPrice[v] as number;
        if (price < best) best = price;
      }
    }
    return best;
  }

  /**
   * Counts product p into the facets: a counted value counts once per product when a matching
   * variant holds it, its cheapest such price within [min, max]. Returns what price(p) would (one
   * loop over the variants for both).
   */
  count(p: number, min: number, max: number): number {
    const { variantStart, variantPrice, variantPairs, pairKey, slots } = this.parts;
    const end = variantStart[p + 1] as number;
    const start = variantStart[p] as number;
    let cheapest = Infinity;
    if (start === end) return cheapest;
    const priced = min !== -Infinity || max !== Infinity;
    let touched = 0;
    for (let v = start; v < end; v++) {
      if (!this.matches(v)) continue;
      const price = variantPrice[v] as number;
      if (price < cheapest) cheapest = price;
      for (let s = 0; s < slots; s++) {
        const pair = (variantPairs[v * slots + s] as number) - 1;
        if (pair < 0 || this.counted[pairKey[pair] as number] !== 1) continue;
        if (!priced) {
          // once per product: the first variant holding the pair counts it
          if (this.seen[pair] !== p + 1) {
            this.seen[pair] = p + 1;
            this.counts[pair]! += 1;
          }
          continue;
        }
        if ((this.best[pair] as number) === Infinity) this.touched[touched++] = pair;
        if (price < (this.best[pair] as number)) this.best[pair] = price;
      }
    }
    for (let i = 0; i < touched; i++) {
      const pair = this.touched[i] as number;
      const price = this.best[pair] as number;
      if (price >= min && price <= max) this.counts[pair]! += 1;
      this.best[pair] = Infinity;
    }
    return cheapest;
  }

  /** The counted values, as rows for the listing's facets. */
  rows(): OptionCountRow[] {
    return countRows(this.parts, this.counts);
  }
}

/** Counts per pair as rows for the listing's facets (the pairs counted at least once). */
export function countRows(parts: OptionParts, counts: Float64Array): OptionCountRow[] {
  const rows: OptionCountRow[] = [];
  counts.forEach((count, pair) => {
    if (count === 0) return;
    const key = parts.pairKey[pair] as number;
    rows.push({
      optionKey: parts.keys[key] as string,
      valueKey: parts.pairValues[pair] as string,
      optionName: parts.keyLabels[key] as string,
      optionValue: parts.pairLabels[pair] as string,
      count,
    });
  });
  return rows;
}

/**
 * `rows` with `more`'s counts added (`sign` 1) or taken away (-1), by option and value: the rows
 * of an index and of its patch (patched-index.ts). Rows left at zero are dropped.
 */
export function addRows(rows: OptionCountRow[], more: OptionCountRow[], sign: 1 | -1): OptionCountRow[] {
  const byPair = new Map(rows.map((row) => [`${row.optionKey}\u0000${row.valueKey}`, { ...row }]));
  for (const row of more) {
    const pair = `${row.optionKey}\u0000${row.valueKey}`;
    const found = byPair.get(pair);
    if (found) found.count += sign * row.count;
    else byPair.set(pair, { ...row, count: sign * row.count });
  }
  return [...byPair.values()].filter((row) => row.count > 0);
}

/** Bytes held by the option data: typed arrays and the values' text. */
export function optionBytes(parts: OptionParts): number {
  const labels = [...parts.pairValues, ...parts.pairLabels].reduce((sum, text) => sum + text.length * 2, 0);
  return (
    parts.variantStart.byteLength +
    parts.variantPrice.byteLength +
    parts.variantPairs.byteLength +
    parts.pairKey.byteLength +
    parts.pairOffsets.byteLength +
    parts.pairPostings.byteLength +
    parts.pairPostingInStock.byteLength +
    parts.denseSlot.byteLength +
    parts.denseBits.byteLength +
    parts.pairInStock.byteLength +
    parts.uniform.byteLength +
    parts.keyMask.byteLength +
    bandBytes(parts.bands) +
    labels
  );
}
