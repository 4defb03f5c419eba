import { type ListingQuery, PAGE_SIZE } from "../../lib/listing-query.ts";
import { bitsetWords, setBit } from "./bitset.ts";
import type { CatalogSearchIndex } from "./catalog-index.ts";
import type { Ranked } from "./index-order.ts";
import type { IndexAnswer } from "./index-parts.ts";
import { addRows, type OptionCountRow } from "./option-index.ts";
import { closestWords, correctionsOf } from "./typos.ts";

/** What a listing asks of an index: a built one (catalog-index.ts) or one with a patch applied. */
export interface ListingIndex {
  readonly version: number;
  readonly size: number;
  readonly wordsCount: number;
  readonly bytes: number;
  search(query: ListingQuery): IndexAnswer;
  firstMatches(query: ListingQuery, limit: number): number[];
  optionCounts(query: ListingQuery): OptionCountRow[];
  correctionsFor(
    words: readonly string[],
    synonyms: ListingQuery["synonyms"],
  ): Record<string, string[]> | null;
}

/** The products written since an index's build, as its patch (search-index.server.ts). */
export interface IndexPatch {
  /** the catalogue version the patch brings the index to */
  version: number;
  /** every product written since the base's version (changed, added, archived or deleted), ascending */
  changed: number[];
}

/**
 * A built index with the products written since its build applied (decision 041): the base
 * answers for every product but the changed ones, a small index of the changed products as they
 * are now (`delta`, built from their rows) answers for those, and the two answers are added —
 * totals and facet counts summed, the pages merged by the listing's order (catalog-index.ts
 * `Ranked`). So a new review or a stock change is searchable in the moments a patch takes instead
 * of a whole rebuild's seconds at a large catalogue; a patch is rebuilt from the base each time,
 * so it grows until the next build (search-index.server.ts decides when).
 */
export class PatchedIndex implements ListingIndex {
  readonly version: number;
  readonly size: number;
  /** the build the patch applies to */
  readonly base: CatalogSearchIndex;
  /** the changed products as they are now */
  private readonly delta: CatalogSearchIndex;
  /** the base's positions of the changed products */
  private readonly excluded: Uint32Array;

  constructor(base: CatalogSearchIndex, delta: CatalogSearchIndex, patch: IndexPatch) {
    this.base = base;
    this.delta = delta;
    this.version = patch.version;
    this.excluded = new Uint32Array(bitsetWords(base.size));
    let held = 0;
    for (const id of patch.changed) {
      const p = base.positionOf(id);
      if (p < 0) continue;
      setBit(this.excluded, p);
      held += 1;
    }
    this.size = base.size - held + delta.size;
  }

  get wordsCount(): number {
    return this.base.wordsCount;
  }

  get bytes(): number {
    return this.base.bytes + this.delta.bytes + this.excluded.byteLength;
  }

  search(query: ListingQuery): IndexAnswer {
    const old = this.base.searchPart(query, this.excluded);
    const now = this.delta.searchPart(query, null);
    const offset = (query.page - 1) * PAGE_SIZE;
    return {
      ids: merged(old.ranked, now.ranked, offset + PAGE_SIZE)
        .slice(offset)
        .map((ranked) => ranked.id),
      total: old.total + now.total,
      categoryCounts: addCounts(old.categoryCounts, now.categoryCounts),
      brandCounts: addCounts(old.brandCounts, now.brandCounts),
      optionCounts: addRows(old.optionCounts, now.optionCounts, 1),
    };
  }

  firstMatches(query: ListingQuery, limit: number): number[] {
    return merged(
      this.base.firstPart(query, limit, this.excluded),
      this.delta.firstPart(query, limit, null),
      limit,
    ).map((ranked) => ranked.id);
  }

  optionCounts(query: ListingQuery): OptionCountRow[] {
    return addRows(this.base.optionCounts(query, this.excluded), this.delta.optionCounts(query), 1);
  }

  /**
   * A word is corrected when neither index holds it (the base may still hold it in a changed
   * product's old text until the next build: the word is then taken as typed, as SQL would find
   * nothing for it either way); the corrections are the closest of both indexes'.
   */
  correctionsFor(
    words: readonly string[],
    synonyms: ListingQuery["synonyms"],
  ): Record<string, string[]> | null {
    return correctionsOf(
      words,
      synonyms,
      (word) => this.base.holds(word) || this.delta.holds(word),
      (word) => closestWords(word, [...this.base.corrections(word), ...this.delta.corrections(word)]),
    );
  }
}

/** The first `limit` of two ranked lists, each in order, merged. */
function merged(a: Ranked[], b: Ranked[], limit: number): Ranked[] {
  const out: Ranked[] = [];
  let i = 0;
  let j = 0;
  while (out.length < limit && (i < a.length || j < b.length)) {
    if (j >= b.length || (i < a.length && before(a[i]!.key, b[j]!.key))) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}

function before(a: number[], b: number[]): boolean {
  for (let k = 0; k < a.length; k++) {
    if (a[k] !== b[k]) return (a[k] as number) < (b[k] as number);
  }
  return false;
}

function addCounts(a: Map<string, number>, b: Map<string, number>): Map<string, number> {
  const sum = new Map(a);
  for (const [key, count] of b) sum.set(key, (sum.get(key) ?? 0) + count);
  return sum;
}
