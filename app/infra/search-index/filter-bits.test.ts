import { describe, expect, it } from "vitest";
import { createRandom } from "../../db/seed/synthetic-catalog.ts";
import { collectBits, hasBit, popcount, setBit } from "./bitset.ts";
import { buildFilterBits, RowFilter } from "./filter-bits.ts";
import { BEST_SELLER, DEAL, FEATURED, NEW_ARRIVAL } from "./product-flags.ts";

/** Prices on and around the price bands' edges (lib/price-bands.ts), in cents. */
const PRICES = [
  0, 1, 99, 9_999, 10_000, 10_001, 25_000, 49_999, 50_000, 50_001, 199_999, 200_000, 200_001, 350_000,
];
const RATINGS = [0, 0.5, 1, 2.5, 3.9, 4, 4.1, 4.9, 5];
const FLAGS = [FEATURED, NEW_ARRIVAL, BEST_SELLER, DEAL];

describe("bitsets", () => {
  it("counts and lists set positions", () => {
    const bits = new Uint32Array(4);
    const positions = [0, 1, 31, 32, 63, 64, 100, 127];
    for (const p of positions) setBit(bits, p);
    expect(Array.from(bits, popcount).reduce((a, b) => a + b, 0)).toBe(positions.length);
    const out = new Int32Array(8);
    expect(collectBits(bits, out)).toBe(8);
    expect([...out]).toEqual(positions);
    expect(popcount(0xffffffff)).toBe(32);
    expect(popcount(0)).toBe(0);
  });
});

describe("row filters as bitsets", () => {
  it("passes exactly the products a listing's rating, flags and price filters pass", () => {
    const random = createRandom(7);
    // more than one block of rangeInto's 512 words
    const size = 17_000;
    const price = Float64Array.from({ length: size }, () => random.pick(PRICES));
    const rating = Float64Array.from({ length: size }, () => random.pick(RATINGS));
    const flags = Uint8Array.from({ length: size }, () =>
      FLAGS.reduce((mask, flag) => (random.next() < 0.3 ? mask | flag : mask), 0),
    );
    const categoryOf = Uint16Array.from({ length: size }, () => random.int(0, 2));
    const bits = buildFilterBits(categoryOf, 3, price, rating, flags);
    for (let c = 0; c < 3; c++) {
      const ofCategory = bits.categories.subarray(c * bits.words, (c + 1) * bits.words);
      const counted = Array.from(ofCategory, popcount).reduce((a, b) => a + b, 0);
      expect(counted).toBe(categoryOf.filter((x) => x === c).length);
    }
    let checkedSome = 0;
    const wrong: string[] = [];
    for (let run = 0; run < 80; run++) {
      const dollars = () => random.pick([0, 1, 99, 100, 250, 500, 501, 1999, 2000]);
      const [a, b] = [dollars(), dollars()];
      const filters = {
        minPrice: random.next() < 0.5 ? Math.min(a, b) * 100 : Number.NEGATIVE_INFINITY,
        maxPrice: random.next() < 0.5 ? Math.max(a, b) * 100 : Number.POSITIVE_INFINITY,
        minRating: random.next() < 0.5 ? random.int(1, 4) : Number.NEGATIVE_INFINITY,
        flagMask: random.next() < 0.3 ? random.pick(FLAGS) : 0,
      };
      const row = new RowFilter(bits, filters);
      const rowBits = new Uint32Array(bits.words);
      const insideBits = new Uint32Array(bits.words);
      const edgeBits = new Uint32Array(bits.words);
      if (!row.rowsInto(rowBits)) rowBits.fill(~0);
      if (!row.insideInto(insideBits)) insideBits.fill(~0);
      if (!row.edgeInto(edgeBits, insideBits)) edgeBits.fill(0);
      for (let p = 0; p < size; p++) {
        const rows = hasBit(rowBits, p);
        const sure = hasBit(insideBits, p);
        const edge = hasBit(edgeBits, p);
        const cents = price[p] as number;
        const priced = cents >= filters.minPrice && cents <= filters.maxPrice;
        const rowsPass =
          (rating[p] as number) >= filters.minRating &&
          ((flags[p] as number) & filters.flagMask) === filters.flagMask;
        // a price is passed whole (sure), or its band is partly in range and it is compared (edge)
        if (rows !== rowsPass || (sure && edge) || (sure || (edge && priced)) !== priced)
          wrong.push(
            `product ${p} (${cents}, ${rating[p]}, ${flags[p]}): ${JSON.stringify({ filters, rows, sure, edge })}`,
          );
        if (edge) checkedSome++;
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(checkedSome).toBeGreaterThan(0);
  });
});
