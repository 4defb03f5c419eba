import type { Database } from "../../db/database.server.ts";
import { CatalogSearchIndex } from "./catalog-index.ts";
import { buildFilterBits } from "./filter-bits.ts";
import { BEST_SELLER, DEAL, FEATURED, type IndexParts, maxOf, NEW_ARRIVAL } from "./index-parts.ts";
import { OptionPartsBuilder } from "./option-index.ts";
import { typoWords } from "./typos.ts";

/**
 * Building the search index's parts (decision 004, revision 3) from the database: every live
 * product's filter and sort keys and the word postings, in chunks, yielding to requests between
 * slices of work when it runs on the app's thread (search-index.server.ts keeps it; a worker
 * thread, search-index-worker.ts, builds without slicing).
 */
/** Splits text into the words a search word can be a substring of (searchWords' separators). */
const SEPARATORS = /[\s\p{Cc}]+/u;

/** A growable typed buffer. */
class IntList {
  data = new Int32Array(1024);
  length = 0;
  push(value: number) {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = value;
  }
  /** makes data[0 .. length) addressable, new entries set to `fill` */
  ensure(length: number, fill: number) {
    while (this.data.length < length) this.grow();
    if (this.length < length) {
      this.data.fill(fill, this.length, length);
      this.length = length;
    }
  }
  private grow() {
    const grown = new Int32Array(this.data.length * 2);
    grown.set(this.data);
    this.data = grown;
  }
  toArray(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

class FloatList {
  data = new Float64Array(1024);
  length = 0;
  push(value: number) {
    if (this.length === this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
  toArray(): Float64Array {
    return this.data.slice(0, this.length);
  }
}

/**
 * The distinct words, numbered in order of appearance while the products are read, and the
 * vocabulary string made of them: ordered by length (wordsByLength), so a search word is looked
 * for only among the words at least as long.
 */
class Vocabulary {
  readonly numbers = new Map<string, number>();
  readonly parts: string[] = [];

  number(word: string): number {
    let number = this.numbers.get(word);
    if (number === undefined) {
      number = this.numbers.size;
      this.numbers.set(word, number);
      this.parts.push(word);
    }
    return number;
  }

  /**
   * The words ordered by length (a stable counting sort): "\n" after each word, joined in slices;
   * each word's start with the end after the last; the new number of each word by its number of
   * appearance; and per length m the first word at least m long (lengthStarts).
   */
  async finish(
    slice: TimeSlice,
  ): Promise<{ text: string; starts: Int32Array; renumber: Int32Array; lengthStarts: Int32Array }> {
    const count = this.parts.length;
    const lengthStarts = new Int32Array(LONGEST_WORD_BUCKET + 2);
    for (const word of this.parts) lengthStarts[Math.min(word.length, LONGEST_WORD_BUCKET) + 1]! += 1;
    for (let m = 0; m <= LONGEST_WORD_BUCKET; m++) lengthStarts[m + 1]! += lengthStarts[m] as number;
    const next = lengthStarts.slice();
    const renumber = new Int32Array(count);
    const ordered = new Array<string>(count);
    this.parts.forEach((word, number) => {
      const at = next[Math.min(word.length, LONGEST_WORD_BUCKET)]!++;
      renumber[number] = at;
      ordered[at] = word;
    });
    const starts = new Int32Array(count + 1);
    for (let w = 0; w < count; w++) starts[w + 1] = (starts[w] as number) + (ordered[w] as string).length + 1;
    const blocks: string[] = [];
    for (let i = 0; i < count; i += 20_000) {
      blocks.push(`${ordered.slice(i, i + 20_000).join("\n")}\n`);
      await slice.maybeYield();
    }
    return { text: blocks.join(""), starts, renumber, lengthStarts };
  }
}

/** The word numbers of each product (positions in order) as one list, turned into postings. */
class PostingsCollector {
  /** the word numbers of product p: words[starts[p] .. starts[p + 1]) */
  private readonly words = new IntList();
  private readonly starts = new IntList();
  private readonly lastSeen = new IntList();

  constructor() {
    this.starts.push(0);
  }

  add(position: number, word: number) {
    if (word >= this.lastSeen.length) this.lastSeen.ensure(word + 1, -1);
    if (this.lastSeen.data[word] !== position) {
      this.lastSeen.data[word] = position;
      this.words.push(word);
    }
  }

  /** closes product `position` (call once per product, in order, words or not) */
  next() {
    this.starts.push(this.words.length);
  }

  /** Postings by word number, positions ascending, built in slices. */
  async postings(
    renumber: Int32Array,
    slice: TimeSlice,
  ): Promise<{ offsets: Int32Array; postings: Int32Array }> {
    const vocabularySize = renumber.length;
    const offsets = new Int32Array(vocabularySize + 1);
    const words = this.words.data;
    for (let i = 0; i < this.words.length; i++) offsets[(renumber[words[i] as number] as number) + 1]! += 1;
    for (let w = 0; w < vocabularySize; w++) offsets[w + 1]! += offsets[w] as number;
    await slice.maybeYield();
    const postings = new Int32Array(this.words.length);
    const next = offsets.slice(0, vocabularySize);
    const starts = this.starts.data;
    const products = this.starts.length - 1;
    for (let p = 0; p < products; p++) {
      for (let i = starts[p] as number; i < (starts[p + 1] as number); i++) {
        const w = renumber[words[i] as number] as number;
        postings[next[w]!++] = p;
      }
      if ((p & 4095) === 0) await slice.maybeYield();
    }
    return { offsets, postings };
  }
}

/** Yields to requests once the current stretch of work has run for `ms`. */
class TimeSlice {
  private started = performance.now();
  private readonly ms: number;
  constructor(ms: number) {
    this.ms = ms;
  }
  async maybeYield() {
    if (performance.now() - this.started < this.ms) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Dense ranks of `values` in descending order (0 = greatest). */
async function descendingRanks(
  values: Float64Array,
  slice: TimeSlice,
): Promise<{ ranks: Uint32Array; count: number }> {
  // a native sort of a copy, the distinct values kept, then a binary search per value
  const sorted = values.slice().sort();
  let count = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (i === 0 || sorted[i] !== sorted[count - 1]) sorted[count++] = sorted[i] as number;
  }
  const ranks = new Uint32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as number;
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sorted[mid] as number) < value) lo = mid + 1;
      else hi = mid;
    }
    ranks[i] = count - 1 - lo;
    if ((i & 16383) === 0) await slice.maybeYield();
  }
  return { ranks, count };
}

/** The same for text, compared by UTF-16 code unit (the order of ASCII text in both engines). */
function descendingTextRanks(values: string[]): Uint32Array {
  const distinct = [...new Set(values)].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  const rankOf = new Map(distinct.map((v, i) => [v, i]));
  return Uint32Array.from(values, (v) => rankOf.get(v) as number);
}

/**
 * created_at, kept as time while every value is a toISOString() instant (whose text order is
 * time order), else as text from the first other value on.
 */
class CreatedAtList {
  private readonly times = new FloatList();
  private texts: string[] | null = null;
  push(value: string) {
    if (this.texts) this.texts.push(value);
    else if (ISO_INSTANT.test(value)) this.times.push(Date.parse(value));
    else {
      this.texts = Array.from(this.times.data.subarray(0, this.times.length), (t) =>
        new Date(t).toISOString(),
      );
      this.texts.push(value);
    }
  }
  /** ranks, 0 = newest */
  async ranks(slice: TimeSlice): Promise<Uint32Array> {
    return this.texts
      ? descendingTextRanks(this.texts)
      : (await descendingRanks(this.times.toArray(), slice)).ranks;
  }
}

const CHUNK = 1_000;
/** words longer than this share the vocabulary's last length bucket */
const LONGEST_WORD_BUCKET = 64;
/** the longest stretch of building work between two chances for requests to run */
export const SLICE_MS = 8;

export interface BuildOptions {
  /** false: leaves out option values and variants, as the index was before them (benchmarks) */
  variants?: boolean;
  /** from which share of the products an option value keeps bitsets (option-index.ts; tests) */
  denseShare?: number;
  /** only these products (a patch of the index, patched-index.ts), ascending; else every live one */
  onlyIds?: readonly number[];
}

export async function readCatalogVersion(db: Database): Promise<number> {
  const row = await db.selectFrom("catalogVersion").select("version").executeTakeFirst();
  return Number(row?.version ?? 0);
}

/**
 * Reads every live product in slices of 1 000 and builds the index, yielding to requests every
 * few milliseconds of work; null when cancelled. Its version is the catalogue's when the reading
 * began: a change while it read makes it stale at once (a newer one is built next), yet newer than
 * the index before it, which a large catalogue answers from meanwhile (decision 041).
 */
export async function buildSearchIndex(
  db: Database,
  /** checked between slices: true gives up (null), e.g. when the process is stopping */
  cancelled: () => boolean = () => false,
  how: BuildOptions = {},
): Promise<CatalogSearchIndex | null> {
  const parts = await buildIndexParts(db, cancelled, SLICE_MS, how);
  return parts ? new CatalogSearchIndex(parts) : null;
}

/** The index's arrays (a worker thread sends them to the app's thread); see buildSearchIndex. */
export async function buildIndexParts(
  db: Database,
  cancelled: () => boolean,
  sliceMs: number,
  { variants = true, denseShare, onlyIds }: BuildOptions = {},
): Promise<IndexParts | null> {
  const slice = new TimeSlice(sliceMs);
  const version = await readCatalogVersion(db);
  const ids = new FloatList();
  const categoryOf = new IntList();
  const subcategoryOf = new IntList();
  const brandOf = new IntList();
  const price = new FloatList();
  const rating = new FloatList();
  const flags = new IntList();
  const reviewCount = new FloatList();
  const createdAt = new CreatedAtList();
  const createdTime = new FloatList();
  const categories = new Map<string, number>();
  const subcategories = new Map<string, number>([["", 0]]);
  const brands = new Map<string, number>();
  const numberOf = (map: Map<string, number>, key: string) => {
    let n = map.get(key);
    if (n === undefined) {
      n = map.size;
      map.set(key, n);
    }
    return n;
  };
  // every category and subcategory the shop has, products or not: a listing of one without any
  // still counts the other categories (its facet ignores the category), and a patch's few
  // products do not hold every category (patched-index.ts)
  for (const row of await db.selectFrom("categories").select(["id", "parentId"]).orderBy("id").execute()) {
    numberOf(row.parentId === null ? categories : subcategories, row.id);
  }
  const vocabulary = new Vocabulary();
  const all = new PostingsCollector();
  const names = new PostingsCollector();
  const addWords = (p: number, text: string | null, collectors: PostingsCollector[]) => {
    if (!text) return;
    for (const word of text.toLowerCase().split(SEPARATORS)) {
      if (!word) continue;
      const number = vocabulary.number(word);
      for (const collector of collectors) collector.add(p, number);
    }
  };
  const optionParts = new OptionPartsBuilder({ denseShare });
  const both = [all, names];
  const allOnly = [all];

  let lastId = 0;
  for (let chunk = 0; ; chunk++) {
    const wanted = onlyIds?.slice(chunk * CHUNK, (chunk + 1) * CHUNK);
    if (wanted?.length === 0) break;
    const rows = await db
      .selectFrom("products")
      .select([
        "id",
        "name",
        "description",
        "brand",
        "categoryId",
        "subcategoryId",
        "priceCents",
        "discountPercentage",
        "rating",
        "reviewCount",
        "featured",
        "newArrival",
        "bestSeller",
        "createdAt",
        "variantFacets",
      ])
      .where("archivedAt", "is", null)
      .$if(wanted !== undefined, (q) => q.where("id", "in", wanted!))
      .$if(wanted === undefined, (q) => q.where("id", ">", lastId).limit(CHUNK))
      .orderBy("id")
      .execute();
    for (const row of rows) {
      const p = ids.length;
      ids.push(row.id);
      const category = numberOf(categories, row.categoryId);
      categoryOf.push(category);
      subcategoryOf.push(numberOf(subcategories, row.subcategoryId ?? ""));
      brandOf.push(numberOf(brands, row.brand.toLowerCase()));
      price.push(Number(row.priceCents));
      rating.push(Number(row.rating));
      reviewCount.push(Number(row.reviewCount));
      flags.push(
        (row.featured ? FEATURED : 0) |
          (row.newArrival ? NEW_ARRIVAL : 0) |
          (row.bestSeller ? BEST_SELLER : 0) |
          (row.discountPercentage !== null ? DEAL : 0),
      );
      createdAt.push(String(row.createdAt));
      createdTime.push(Date.parse(String(row.createdAt)));
      addWords(p, row.name, both);
      addWords(p, row.description, allOnly);
      addWords(p, row.brand, allOnly);
      addWords(p, row.categoryId, allOnly);
      addWords(p, row.subcategoryId, allOnly);
      // option values are searched through the option data's values (option-index.ts)
      optionParts.add(variants ? row.variantFacets : "", category, Number(row.rating));
      all.next();
      names.next();
    }
    if (!wanted && rows.length < CHUNK) break;
    lastId = rows[rows.length - 1]!.id;
    await slice.maybeYield();
    if (cancelled()) return null;
  }
  // a change while the rows were read leaves each product as it was read, before or after it: the
  // index keeps the version it started at, so it is stale at once and the next one follows

  const { text, starts, renumber, lengthStarts } = await vocabulary.finish(slice);
  await slice.maybeYield();
  const options = optionParts.finish();
  const typos = typoWords([...vocabulary.parts, ...options.pairValues]);
  const allPostings = await all.postings(renumber, slice);
  const namePostings = await names.postings(renumber, slice);
  const ratings = await descendingRanks(rating.toArray(), slice);
  const createdRank = await createdAt.ranks(slice);
  await slice.maybeYield();
  const reviewCounts = reviewCount.toArray();
  const categoryNumbers = Uint16Array.from(categoryOf.toArray());
  const prices = price.toArray();
  const ratingValues = rating.toArray();
  const flagBits = Uint8Array.from(flags.toArray());
  return {
    version,
    ids: ids.toArray(),
    categoryOf: categoryNumbers,
    subcategoryOf: Uint16Array.from(subcategoryOf.toArray()),
    brandOf: Uint32Array.from(brandOf.toArray()),
    price: prices,
    rating: ratingValues,
    flags: flagBits,
    ratingRank: ratings.ranks,
    ratingRanks: ratings.count,
    reviewCount: reviewCounts,
    maxReviewCount: maxOf(reviewCounts),
    createdRank,
    createdTime: createdTime.toArray(),
    categories: [...categories.keys()],
    subcategories: [...subcategories.keys()],
    brandKeys: [...brands.keys()],
    vocabulary: text,
    wordStarts: starts,
    wordLengthStarts: lengthStarts,
    offsets: allPostings.offsets,
    postings: allPostings.postings,
    nameOffsets: namePostings.offsets,
    namePostings: namePostings.postings,
    options,
    filterBits: buildFilterBits(categoryNumbers, categories.size, prices, ratingValues, flagBits),
    typoWords: typos,
  };
}
