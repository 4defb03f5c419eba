import { type Bands, LAST_BAND, priceBand, RATING_FLOORS, ratingFloor } from "../../lib/price-bands.ts";

/**
 * The option facets' roll-up in the search index (decision 019): per category and option value,
 * how many products hold the value in stock with the cheapest such variant in each price band
 * (lib/price-bands.ts) and at each whole-star rating floor. A category listing filtered by price
 * steps and a rating — or by nothing — counts its option facets from it without visiting a
 * product, as SQL counts its other facets from `catalog_price_bands`.
 */
export interface OptionBands {
  /** per row: its category number and pair number */
  rowCategory: Uint16Array;
  rowPair: Uint32Array;
  /** row r's cells: cellStart[r] .. cellStart[r + 1] */
  cellStart: Int32Array;
  /** band × RATING_FLOORS + rating floor */
  cellCode: Uint16Array;
  cellCount: Uint32Array;
}

const CELLS = (LAST_BAND + 1) * RATING_FLOORS;

export class OptionBandsBuilder {
  /** category × 2^32 + pair → row number */
  private readonly rows = new Map<number, number>();
  private readonly rowKeys: number[] = [];
  /** row × CELLS + cell → products */
  private readonly cells = new Map<number, number>();

  /** One product: its category, rating and, per counted pair, its cheapest in-stock variant's price. */
  add(category: number, rating: number, cheapest: Map<number, number>) {
    const floor = ratingFloor(rating);
    for (const [pair, cents] of cheapest) {
      const key = category * 2 ** 32 + pair;
      let row = this.rows.get(key);
      if (row === undefined) {
        row = this.rowKeys.length;
        this.rows.set(key, row);
        this.rowKeys.push(key);
      }
      const cell = row * CELLS + priceBand(cents) * RATING_FLOORS + floor;
      this.cells.set(cell, (this.cells.get(cell) ?? 0) + 1);
    }
  }

  finish(): OptionBands {
    const rows = this.rowKeys.length;
    const cellStart = new Int32Array(rows + 1);
    const ordered = [...this.cells.keys()].sort((a, b) => a - b);
    for (const cell of ordered) cellStart[Math.floor(cell / CELLS) + 1]! += 1;
    for (let r = 0; r < rows; r++) cellStart[r + 1]! += cellStart[r] as number;
    return {
      rowCategory: Uint16Array.from(this.rowKeys, (key) => Math.floor(key / 2 ** 32)),
      rowPair: Uint32Array.from(this.rowKeys, (key) => key % 2 ** 32),
      cellStart,
      cellCode: Uint16Array.from(ordered, (cell) => cell % CELLS),
      cellCount: Uint32Array.from(ordered, (cell) => this.cells.get(cell) as number),
    };
  }
}

/**
 * Per pair, the products of `category` (null: every category) holding it in stock with the
 * cheapest such variant in the bands' range.
 */
export function countBands(
  rollup: OptionBands,
  pairs: number,
  category: number | null,
  bands: Bands,
): Float64Array {
  const counts = new Float64Array(pairs);
  const last = bands.to ?? LAST_BAND;
  const { rowCategory, rowPair, cellStart, cellCode, cellCount } = rollup;
  for (let r = 0; r < rowPair.length; r++) {
    if (category !== null && rowCategory[r] !== category) continue;
    let sum = 0;
    for (let c = cellStart[r] as number; c < (cellStart[r + 1] as number); c++) {
      const code = cellCode[c] as number;
      const band = Math.floor(code / RATING_FLOORS);
      if (band >= bands.from && band <= last && code % RATING_FLOORS >= bands.rating)
        sum += cellCount[c] as number;
    }
    counts[rowPair[r] as number]! += sum;
  }
  return counts;
}

export function bandBytes(rollup: OptionBands): number {
  return Object.values(rollup).reduce((sum, array: ArrayBufferView) => sum + array.byteLength, 0);
}
