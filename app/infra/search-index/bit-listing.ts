import { popcount } from "./bitset.ts";
import { type FilterBits, RowFilter } from "./filter-bits.ts";
import type { IndexFilters } from "./index-filters.ts";
import type { OptionParts, OptionQuery } from "./option-index.ts";

/**
 * A listing answered a word of 32 products at a time (decision 019): the candidates are a bitset
 * — a search's matches, the products with an in-stock variant holding one chosen value of one
 * option key (`category=clothing&size=m`), or both — filtered by rating, flags and price with the
 * row filters' bitsets (filter-bits.ts) and counted per category by popcount. Only the listed
 * products, and those whose price needs a look (variants in several prices under an option
 * filter, a price band partly in range), are visited one by one. Gives what the general pass of
 * catalog-index.ts gives: the listed positions (as a list and a bitset, and their prices in
 * `prices` when some differ from the products' own: `ownPrices`), the total and the category and
 * brand counts.
 */
export interface BitListingIndex {
  categoryOf: Uint16Array;
  subcategoryOf: Uint16Array;
  brandOf: Uint32Array;
  price: Float64Array;
  options: OptionParts;
  filterBits: FilterBits;
}

export interface BitListingScratch {
  /** bitsets over the positions */
  matched: Uint32Array;
  rowBits: Uint32Array;
  insideBits: Uint32Array;
  edgeBits: Uint32Array;
  checked: Uint32Array;
  listedBits: Uint32Array;
  listed: Int32Array;
  prices: Float64Array;
}

export interface BitListingQuery {
  filters: IndexFilters;
  /** the candidates (left as they are) */
  candidates: Uint32Array;
  /** the option filter the candidates hold: a product's price is its cheapest matching variant's */
  options: OptionQuery;
  optionFiltered: boolean;
  /** null: no option facets counted; else the key bits (keyMask) of the keys counted */
  countedKeys: number | null;
}

export function listBits(
  index: BitListingIndex,
  { filters: f, candidates, options, optionFiltered, countedKeys }: BitListingQuery,
  scratch: BitListingScratch,
  categoryCounts: Float64Array,
  brandCounts: Float64Array,
): { total: number; ownPrices: boolean } {
  const { categoryOf, subcategoryOf, brandOf, price, options: parts, filterBits } = index;
  const { uniform, keyMask } = parts;
  const { matched, checked, listedBits, listed, prices } = scratch;
  const { category, subcategory, brandWanted, minPrice, maxPrice } = f;
  const words = filterBits.words;

  // matched so far: passed every row filter at a price that is the product's own; checked: to be
  // priced (or counted) one by one
  const row = new RowFilter(filterBits, f);
  const rows = row.rowsInto(scratch.rowBits) ? scratch.rowBits : null;
  const inside = row.insideInto(scratch.insideBits) ? scratch.insideBits : null;
  const edge = inside && row.edgeInto(scratch.edgeBits, inside) ? scratch.edgeBits : null;
  // a product in several prices is looked at when its variants' prices matter: for an option
  // filter's price, or for the option facets it is counted in whatever its own price
  const pricedApart = optionFiltered || countedKeys !== null;
  for (let w = 0; w < words; w++) {
    const held = candidates[w] as number;
    if (held === 0) {
      matched[w] = 0;
      checked[w] = 0;
      continue;
    }
    const passing = rows === null ? held : held & (rows[w] as number);
    const same = pricedApart ? (uniform[w] as number) : ~0;
    matched[w] = passing & same & (inside === null ? ~0 : (inside[w] as number));
    checked[w] = passing & (~same | (edge === null ? 0 : (edge[w] as number)));
  }
  const here = (p: number) =>
    (category === null || categoryOf[p] === category) &&
    (subcategory === null || subcategoryOf[p] === subcategory);
  const countKeys = countedKeys ?? 0;
  const counts = (p: number) => countKeys !== 0 && ((keyMask[p] as number) & countKeys) !== 0;
  /** some product's matching variant costs more than the product's price: prices holds the listed ones' */
  let ownPrices = false;
  for (let w = 0; w < words; w++) {
    let word = checked[w] as number;
    while (word !== 0) {
      const low = word & -word;
      word ^= low;
      const p = (w << 5) + 31 - Math.clz32(low);
      // a listed product's option facets are counted in the same loop over its variants
      const listedHere = here(p) && (brandWanted === null || brandWanted[brandOf[p] as number] === 1);
      let cents: number;
      if (listedHere && counts(p)) {
        const cheapest = options.count(p, minPrice, maxPrice);
        cents = optionFiltered ? cheapest : (price[p] as number);
      } else if (!optionFiltered || ((uniform[w] as number) & low) !== 0) cents = price[p] as number;
      else cents = options.price(p);
      if (cents === Infinity || cents < minPrice || cents > maxPrice) continue;
      matched[w] = (matched[w] as number) | low;
      prices[p] = cents;
      ownPrices ||= cents !== price[p];
    }
  }

  // the category facet ignores the category filter (not the brand filter)
  const categoryBits = filterBits.categories;
  if (brandWanted === null) {
    const categories = categoryCounts.length;
    for (let w = 0; w < words; w++) {
      const all = matched[w] as number;
      if (all === 0) continue;
      for (let c = 0, at = w; c < categories; c++, at += words) {
        const some = all & (categoryBits[at] as number);
        if (some !== 0) categoryCounts[c]! += popcount(some);
      }
    }
  }
  let total = 0;
  const at = category === null ? -1 : category * words;
  for (let w = 0; w < words; w++) {
    const all = matched[w] as number;
    listedBits[w] = 0;
    if (all === 0) continue;
    if (brandWanted !== null) {
      let word = all;
      while (word !== 0) {
        const low = word & -word;
        word ^= low;
        const p = (w << 5) + 31 - Math.clz32(low);
        if (brandWanted[brandOf[p] as number] === 1) categoryCounts[categoryOf[p] as number]! += 1;
      }
    }
    let word = at < 0 ? all : all & (categoryBits[at + w] as number);
    let kept = 0;
    while (word !== 0) {
      const low = word & -word;
      word ^= low;
      const p = (w << 5) + 31 - Math.clz32(low);
      if (subcategory !== null && subcategoryOf[p] !== subcategory) continue;
      const brand = brandOf[p] as number;
      brandCounts[brand]! += 1;
      if (brandWanted !== null && brandWanted[brand] !== 1) continue;
      if (((checked[w] as number) & low) === 0) {
        // passed as a whole: its price is the product's own
        if (counts(p)) options.count(p, minPrice, maxPrice);
        if (ownPrices) prices[p] = price[p] as number;
      }
      kept |= low;
      listed[total++] = p;
    }
    listedBits[w] = kept;
  }
  return { total, ownPrices };
}
