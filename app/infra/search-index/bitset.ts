/**
 * Sets of product positions as bitsets (bit p is bit p & 31 of word p >>> 5): what the search index
 * keeps for option values most products hold, where a bitset is smaller than a postings list
 * (4 bytes per product holding the value) and is read 32 products at a time.
 */

/** Words of a bitset over `size` positions. */
export const bitsetWords = (size: number) => (size + 31) >>> 5;

export function setBit(bits: Uint32Array, p: number): void {
  bits[p >>> 5] = (bits[p >>> 5] as number) | (1 << (p & 31));
}

export function hasBit(bits: Uint32Array, p: number): boolean {
  return ((bits[p >>> 5] as number) & (1 << (p & 31))) !== 0;
}

/** Sets the bits of positions 0 … size − 1 (and clears the rest of the last word). */
export function fillBits(bits: Uint32Array, size: number): void {
  bits.fill(~0);
  if (size & 31) bits[size >>> 5] = (1 << (size & 31)) - 1;
  bits.fill(0, bitsetWords(size));
}

/** `into` |= `bits` (same length). */
export function orInto(into: Uint32Array, bits: Uint32Array): void {
  for (let w = 0; w < into.length; w++) into[w] = (into[w] as number) | (bits[w] as number);
}

/** `into` &= `bits` (same length). */
export function andInto(into: Uint32Array, bits: Uint32Array): void {
  for (let w = 0; w < into.length; w++) into[w] = (into[w] as number) & (bits[w] as number);
}

/** `into` &= ~`bits` (same length). */
export function andNotInto(into: Uint32Array, bits: Uint32Array): void {
  for (let w = 0; w < into.length; w++) into[w] = (into[w] as number) & ~(bits[w] as number);
}

/** The set positions, ascending, into `out` (long enough); returns how many. */
export function collectBits(bits: Uint32Array, out: Int32Array): number {
  let n = 0;
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w] as number;
    const base = w << 5;
    while (word !== 0) {
      const low = word & -word;
      out[n++] = base + 31 - Math.clz32(low);
      word ^= low;
    }
  }
  return n;
}

/** Calls `each` with every set position, ascending. */
export function forEachBit(bits: Uint32Array, each: (p: number) => void): void {
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w] as number;
    const base = w << 5;
    while (word !== 0) {
      const low = word & -word;
      each(base + 31 - Math.clz32(low));
      word ^= low;
    }
  }
}

/** Set bits in a 32-bit word. */
export function popcount(word: number): number {
  const pairs = word - ((word >>> 1) & 0x55555555);
  const nibbles = (pairs & 0x33333333) + ((pairs >>> 2) & 0x33333333);
  return Math.imul((nibbles + (nibbles >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}
