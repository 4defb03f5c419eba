/**
 * Scratch space for one search at a time (searches are synchronous), allocated once per index:
 * fresh megabyte-sized typed arrays cost more in page faults than the loops that use them.
 */
export interface SearchScratch {
  listed: Int32Array;
  /** a search's matches, as a list */
  matched: Int32Array;
  /** an option filter's candidates as a list; the positions ordered */
  candidates: Int32Array;
  prices: Float64Array;
  /** bitsets over the positions */
  searchBits: Uint32Array;
  nameBits: Uint32Array;
  wordBits: Uint32Array;
  bits: Uint32Array;
  matchedBits: Uint32Array;
  checkedBits: Uint32Array;
  listedBits: Uint32Array;
  rowBits: Uint32Array;
  insideBits: Uint32Array;
  edgeBits: Uint32Array;
}

/** Lists of `size` positions and bitsets of `words` 32-bit words. */
export function newSearchScratch(size: number, words: number): SearchScratch {
  return {
    listed: new Int32Array(size),
    matched: new Int32Array(size),
    candidates: new Int32Array(size),
    prices: new Float64Array(size),
    searchBits: new Uint32Array(words),
    nameBits: new Uint32Array(words),
    wordBits: new Uint32Array(words),
    bits: new Uint32Array(words),
    matchedBits: new Uint32Array(words),
    checkedBits: new Uint32Array(words),
    listedBits: new Uint32Array(words),
    rowBits: new Uint32Array(words),
    insideBits: new Uint32Array(words),
    edgeBits: new Uint32Array(words),
  };
}
