import { optionFacetKey, optionValueKey } from "../../lib/variants.ts";

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
  /** per key: the URL key and the option's name as shown */
  keys: string[];
  keyLabels: string[];
}

const MAX_SLOTS = 3;

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

  /** the next product's variant_facets ("cents\tname\u001fvalue…" per in-stock variant) */
  add(variantFacets: string) {
    if (variantFacets !== "") {
      for (const line of variantFacets.split("\n")) {
        const [cents, ...pairs] = line.split("\t");
        this.prices.push(Number(cents));
        let slot = 0;
        for (const pair of pairs) {
          const [name = "", value = ""] = pair.split("\u001f");
          const key = optionFacetKey(name);
          if (key === null || slot === MAX_SLOTS) continue;
          this.pairs.push(this.pairNumber(key, name, value) + 1);
          slot++;
        }
        if (slot > this.slots) this.slots = slot;
        for (; slot < MAX_SLOTS; slot++) this.pairs.push(0);
      }
    }
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
    return {
      variantStart: Int32Array.from(this.starts),
      variantPrice: Uint32Array.from(this.prices),
      variantPairs: packed,
      slots,
      pairKey: Uint16Array.from(this.pairKey),
      pairValues: this.pairValues,
      pairLabels: this.pairLabels,
      keys: [...this.keyNumbers.keys()],
      keyLabels: this.keyLabels,
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

/** One listing's option filters against the option data: matching, pricing, counting. */
export class OptionQuery {
  private readonly parts: OptionParts;
  /** per pair: the filter slot (1-based) whose wanted values it is one of, else 0 */
  private readonly wanted: Uint8Array;
  /** per key: its filter slot (1-based), else 0 */
  private readonly filterOfKey: Uint8Array;
  private readonly filters: number;
  /** false: a filtered key no in-stock variant has (nothing matches) */
  readonly satisfiable: boolean;
  private readonly counts: Float64Array;
  private readonly best: Float64Array;
  private readonly touched: Int32Array;
  /** per pair: the last product (position + 1) counted for it */
  private readonly seen: Float64Array;

  constructor(parts: OptionParts, options: Record<string, string[]>) {
    this.parts = parts;
    const pairs = parts.pairKey.length;
    this.wanted = new Uint8Array(pairs);
    this.filterOfKey = new Uint8Array(parts.keys.length);
    const entries = Object.entries(options);
    this.filters = entries.length;
    let satisfiable = true;
    entries.forEach(([key, values], i) => {
      const k = parts.keys.indexOf(key);
      if (k < 0) {
        satisfiable = false;
        return;
      }
      this.filterOfKey[k] = i + 1;
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

  /**
   * How many filter keys variant v fails, times 8, plus (when exactly one) that filter's slot:
   * one number, so the loops below allocate nothing.
   */
  private misses(v: number): number {
    if (this.filters === 0) return 0;
    const { variantPairs, slots } = this.parts;
    let metMask = 0;
    let met = 0;
    for (let s = 0; s < slots; s++) {
      const pair = (variantPairs[v * slots + s] as number) - 1;
      if (pair < 0) continue;
      const slot = this.wanted[pair] as number;
      if (slot > 0 && !(metMask & (1 << slot))) {
        metMask |= 1 << slot;
        met++;
      }
    }
    const missing = this.filters - met;
    let slot = 0;
    if (missing === 1) {
      for (let f = 1; f <= this.filters; f++) if (!(metMask & (1 << f))) slot = f;
    }
    return missing * 8 + slot;
  }

  /** The cheapest in-stock variant of product p holding every filter's values, or Infinity. */
  price(p: number): number {
    const { variantStart, variantPrice } = this.parts;
    const end = variantStart[p + 1] as number;
    let best = Infinity;
    for (let v = variantStart[p] as number; v < end; v++) {
      if (this.misses(v) === 0) {
        const price = variantPrice[v] as number;
        if (price < best) best = price;
      }
    }
    return best;
  }

  /**
   * Counts product p into the facets: a value counts once per product when a variant holds it and
   * the other keys' chosen values, its cheapest such price within [min, max].
   */
  count(p: number, min: number, max: number): void {
    const { variantStart, variantPrice, variantPairs, pairKey, slots } = this.parts;
    const end = variantStart[p + 1] as number;
    const start = variantStart[p] as number;
    if (start === end || slots === 0) return;
    const priced = min !== -Infinity || max !== Infinity;
    let touched = 0;
    for (let v = start; v < end; v++) {
      const misses = this.misses(v);
      if (misses >= 16) continue; // two or more keys missing
      const slot = misses & 7;
      const price = variantPrice[v] as number;
      for (let s = 0; s < slots; s++) {
        const pair = (variantPairs[v * slots + s] as number) - 1;
        if (pair < 0) continue;
        // a chosen key's values are counted against the other keys only
        if (misses !== 0 && (this.filterOfKey[pairKey[pair] as number] as number) !== slot) continue;
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
  }

  /** The counted values, as rows for the listing's facets. */
  rows(): OptionCountRow[] {
    const rows: OptionCountRow[] = [];
    this.counts.forEach((count, pair) => {
      if (count === 0) return;
      const key = this.parts.pairKey[pair] as number;
      rows.push({
        optionKey: this.parts.keys[key] as string,
        valueKey: this.parts.pairValues[pair] as string,
        optionName: this.parts.keyLabels[key] as string,
        optionValue: this.parts.pairLabels[pair] as string,
        count,
      });
    });
    return rows;
  }
}

/** Bytes held by the option data's typed arrays. */
export function optionBytes(parts: OptionParts): number {
  return (
    parts.variantStart.byteLength +
    parts.variantPrice.byteLength +
    parts.variantPairs.byteLength +
    parts.pairKey.byteLength
  );
}
