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
  /** three slots per variant: a pair number + 1, or 0 */
  variantPairs: Uint16Array | Uint32Array;
  /** per pair: its key's number, its value key and the value as shown */
  pairKey: Uint16Array;
  pairValues: string[];
  pairLabels: string[];
  /** per key: the URL key and the option's name as shown */
  keys: string[];
  keyLabels: string[];
}

const SLOTS = 3;

/** Collects OptionParts while the index is built, one product at a time. */
export class OptionPartsBuilder {
  private readonly starts: number[] = [0];
  private prices: number[] = [];
  private pairs: number[] = [];
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
          if (key === null || slot === SLOTS) continue;
          this.pairs.push(this.pairNumber(key, name, value) + 1);
          slot++;
        }
        for (; slot < SLOTS; slot++) this.pairs.push(0);
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
    return {
      variantStart: Int32Array.from(this.starts),
      variantPrice: Uint32Array.from(this.prices),
      variantPairs: wide ? Uint32Array.from(this.pairs) : Uint16Array.from(this.pairs),
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
  }

  /** How many filter keys variant v fails, and (when exactly one) which filter slot. */
  private misses(v: number): { missing: number; slot: number } {
    if (this.filters === 0) return { missing: 0, slot: 0 };
    const pairs = this.parts.variantPairs;
    let met = 0;
    let metMask = 0;
    for (let s = 0; s < SLOTS; s++) {
      const pair = (pairs[v * SLOTS + s] as number) - 1;
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
    return { missing, slot };
  }

  /** The cheapest in-stock variant of product p holding every filter's values, or Infinity. */
  price(p: number): number {
    const start = this.parts.variantStart[p] as number;
    const end = this.parts.variantStart[p + 1] as number;
    let best = Infinity;
    for (let v = start; v < end; v++) {
      if (this.misses(v).missing === 0) best = Math.min(best, this.parts.variantPrice[v] as number);
    }
    return best;
  }

  /**
   * Counts product p into the facets: a value counts once per product when a variant holds it and
   * the other keys' chosen values, its cheapest such price within [min, max].
   */
  count(p: number, min: number, max: number): void {
    const { variantStart, variantPrice, variantPairs, pairKey } = this.parts;
    let touched = 0;
    for (let v = variantStart[p] as number; v < (variantStart[p + 1] as number); v++) {
      const { missing, slot } = this.misses(v);
      if (missing > 1) continue;
      for (let s = 0; s < SLOTS; s++) {
        const pair = (variantPairs[v * SLOTS + s] as number) - 1;
        if (pair < 0) continue;
        const own = this.filterOfKey[pairKey[pair] as number] as number;
        // a chosen key's values are counted against the other keys only
        if (missing === 1 && own !== slot) continue;
        const price = variantPrice[v] as number;
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
