import { Worker } from "node:worker_threads";
import { logger } from "../../adapters/logger.server.ts";
import type { Database } from "../../db/database.server.ts";
import { type ListingQuery, PAGE_SIZE, PRICE_MAX, PRICE_MIN, searchWords } from "../../lib/listing-query.ts";

/**
 * The search index kept in the process's memory (decision 004, revision 3): every live product's
 * filter and sort keys in typed arrays, and word postings — the lower-cased, whitespace-separated
 * words of name, description, brand, category and subcategory, each with the products that hold
 * it. A search word (it holds no whitespace) occurs in a field exactly when it is a substring of
 * one of the field's words, so the products matching it are the union of the postings of the
 * vocabulary words that contain it — found by one scan of the vocabulary, whatever its length
 * (1 or 2 characters included). Counting, facets and the page's order are then loops over the
 * matches' typed-array keys: no product row is visited.
 *
 * It answers only while it is fresh: triggers bump `catalog_version` on every product write that
 * changes what a listing filters, sorts or searches on (migration 1100), and a search whose
 * version differs from the index's is answered by SQL while a new index is built in the
 * background (in slices between requests).
 */
export class CatalogSearchIndex {
  /** the catalogue version the index was built at */
  readonly version: number;
  /** live products, ordered by id: position → id */
  readonly ids: Float64Array;
  private readonly categoryOf: Uint16Array;
  private readonly subcategoryOf: Uint16Array;
  private readonly brandOf: Uint32Array;
  private readonly price: Float64Array;
  private readonly maxPrice: number;
  private readonly rating: Float64Array;
  private readonly flags: Uint8Array;
  /** dense rank of the rating, 0 for the highest */
  private readonly ratingRank: Uint32Array;
  private readonly ratingRanks: number;
  private readonly reviewCount: Float64Array;
  private readonly maxReviewCount: number;
  /** dense rank of created_at, 0 for the newest */
  private readonly createdRank: Uint32Array;
  /** category ids and subcategory ids by number (subcategory 0 = none); brand keys (lower case) */
  private readonly categories: string[];
  private readonly subcategories: string[];
  private readonly brandKeys: string[];
  /** the vocabulary as one string, "\n" after each word, and where each word starts */
  private readonly vocabulary: string;
  private readonly wordStarts: Int32Array;
  /** postings: the positions holding word w are postings[offsets[w] .. offsets[w + 1]) */
  private readonly offsets: Int32Array;
  private readonly postings: Int32Array;
  /** the same for the names alone (the Featured sort ranks name matches first) */
  private readonly nameOffsets: Int32Array;
  private readonly namePostings: Int32Array;

  constructor(parts: IndexParts) {
    this.version = parts.version;
    this.ids = parts.ids;
    this.categoryOf = parts.categoryOf;
    this.subcategoryOf = parts.subcategoryOf;
    this.brandOf = parts.brandOf;
    this.price = parts.price;
    this.maxPrice = maxOf(parts.price);
    this.rating = parts.rating;
    this.flags = parts.flags;
    this.ratingRank = parts.ratingRank;
    this.ratingRanks = parts.ratingRanks;
    this.reviewCount = parts.reviewCount;
    this.maxReviewCount = parts.maxReviewCount;
    this.createdRank = parts.createdRank;
    this.categories = parts.categories;
    this.subcategories = parts.subcategories;
    this.brandKeys = parts.brandKeys;
    this.vocabulary = parts.vocabulary;
    this.wordStarts = parts.wordStarts;
    this.offsets = parts.offsets;
    this.postings = parts.postings;
    this.nameOffsets = parts.nameOffsets;
    this.namePostings = parts.namePostings;
  }

  get size(): number {
    return this.ids.length;
  }

  /** distinct words in the vocabulary */
  get wordsCount(): number {
    return this.wordStarts.length - 1;
  }

  /** Bytes held by the typed arrays and the vocabulary (an estimate of the index's memory). */
  get bytes(): number {
    const arrays = [
      this.ids,
      this.categoryOf,
      this.subcategoryOf,
      this.brandOf,
      this.price,
      this.rating,
      this.flags,
      this.ratingRank,
      this.reviewCount,
      this.createdRank,
      this.wordStarts,
      this.offsets,
      this.postings,
      this.nameOffsets,
      this.namePostings,
    ];
    return arrays.reduce((sum, a) => sum + a.byteLength, 0) + this.vocabulary.length * 2;
  }

  /** The vocabulary words that contain `word` (a lower-cased search word without whitespace). */
  wordsContaining(word: string): number[] {
    const found: number[] = [];
    if (word.length === 0 || word.includes("\n")) return found;
    const starts = this.wordStarts;
    let from = 0;
    for (;;) {
      const at = this.vocabulary.indexOf(word, from);
      if (at < 0) break;
      // the word whose span holds `at`: the last start ≤ at
      let lo = 0;
      let hi = starts.length - 2;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((starts[mid] as number) <= at) lo = mid;
        else hi = mid - 1;
      }
      found.push(lo);
      from = starts[lo + 1] as number; // the next word
    }
    return found;
  }

  /**
   * Scratch space for one search at a time (searches are synchronous), allocated once: fresh
   * megabyte-sized typed arrays cost more in page faults than the loops that use them.
   */
  private scratchSpace: {
    marks: Uint8Array;
    nameMarks: Uint8Array;
    listed: Int32Array;
    keys: Float64Array;
  } | null = null;
  private scratch() {
    this.scratchSpace ??= {
      marks: new Uint8Array(this.size),
      nameMarks: new Uint8Array(this.size),
      listed: new Int32Array(this.size),
      keys: new Float64Array(this.size),
    };
    return this.scratchSpace;
  }

  /**
   * Marks the products holding every search word: afterwards `marks[p] === words` exactly for
   * them. `vocabulary[k]` is the vocabulary words containing search word k; `marks` is zeroed.
   * Calls `found` once per match.
   */
  private matchAll(
    vocabulary: number[][],
    offsets: Int32Array,
    postings: Int32Array,
    marks: Uint8Array,
    found?: (p: number) => void,
  ): void {
    const words = vocabulary.length;
    for (let k = 0; k < words; k++) {
      for (const w of vocabulary[k] as number[]) {
        const end = offsets[w + 1] as number;
        for (let i = offsets[w] as number; i < end; i++) {
          const p = postings[i] as number;
          if (marks[p] === k) marks[p] = k + 1;
        }
      }
    }
    if (!found) return;
    // each match once: through the last word's postings, stepping its mark past `words` and back
    const last = vocabulary[words - 1] as number[];
    for (const w of last) {
      const end = offsets[w + 1] as number;
      for (let i = offsets[w] as number; i < end; i++) {
        const p = postings[i] as number;
        if (marks[p] === words) {
          marks[p] = words + 1;
          found(p);
        }
      }
    }
  }

  /**
   * The listing's answer for a query with a search term: the page's product ids in order, the
   * total, and the category and brand facet counts — the same as the SQL in listing.server.ts.
   */
  search(query: ListingQuery): IndexAnswer {
    const words = searchWords(query.search ?? "");
    const answer: IndexAnswer = { ids: [], total: 0, categoryCounts: new Map(), brandCounts: new Map() };
    if (words.length === 0) return answer;
    const vocabulary = words.map((word) => this.wordsContaining(word));
    if (vocabulary.some((found) => found.length === 0)) return answer;

    // filters: -1 = no product can match (an unknown category, subcategory or brand)
    const category = query.category === null ? null : this.categories.indexOf(query.category);
    const subcategory = query.subcategory === null ? null : this.subcategories.indexOf(query.subcategory);
    let brandWanted: Uint8Array | null = null;
    if (query.brands.length > 0) {
      const wanted = new Set(query.brands.map((b) => b.toLowerCase()));
      brandWanted = new Uint8Array(this.brandKeys.length);
      this.brandKeys.forEach((key, b) => {
        if (wanted.has(key)) brandWanted![b] = 1;
      });
    }
    const minPrice = query.minPrice > PRICE_MIN ? query.minPrice * 100 : -Infinity;
    const maxPrice = query.maxPrice < PRICE_MAX ? query.maxPrice * 100 : Infinity;
    const minRating = query.rating ? query.rating : -Infinity;
    const flagMask =
      (query.featured ? FEATURED : 0) |
      (query.newArrival ? NEW_ARRIVAL : 0) |
      (query.bestSeller ? BEST_SELLER : 0) |
      (query.deals ? DEAL : 0);

    const { marks, nameMarks, listed } = this.scratch();
    marks.fill(0);
    const categoryCounts = new Float64Array(this.categories.length);
    const brandCounts = new Float64Array(this.brandKeys.length);
    let total = 0;
    this.matchAll(vocabulary, this.offsets, this.postings, marks, (p) => {
      const price = this.price[p] as number;
      if (price < minPrice || price > maxPrice) return;
      if ((this.rating[p] as number) < minRating) return;
      if (((this.flags[p] as number) & flagMask) !== flagMask) return;
      const inCategory =
        (category === null || this.categoryOf[p] === category) &&
        (subcategory === null || this.subcategoryOf[p] === subcategory);
      const brand = this.brandOf[p] as number;
      const inBrands = brandWanted === null || brandWanted[brand] === 1;
      // the category facet ignores the category filter, the brand facet the brand filter
      if (inBrands) categoryCounts[this.categoryOf[p] as number]! += 1;
      if (inCategory) brandCounts[brand]! += 1;
      if (inCategory && inBrands) listed[total++] = p;
    });
    answer.total = total;
    categoryCounts.forEach((count, c) => {
      if (count > 0) answer.categoryCounts.set(this.categories[c] as string, count);
    });
    brandCounts.forEach((count, b) => {
      if (count > 0) answer.brandCounts.set(this.brandKeys[b] as string, count);
    });

    const offset = (query.page - 1) * PAGE_SIZE;
    if (offset >= total) return answer;
    let nameMatch: Uint8Array | null = null;
    if (query.sort === "featured") {
      nameMarks.fill(0);
      this.matchAll(vocabulary, this.nameOffsets, this.namePostings, nameMarks);
      nameMatch = nameMarks;
    }
    answer.ids = this.order(
      listed.subarray(0, total),
      query.sort,
      nameMatch,
      words.length,
      offset + PAGE_SIZE,
    )
      .slice(offset)
      .map((p) => this.ids[p] as number);
    return answer;
  }

  /**
   * The first `limit` of the positions in the listing's order (listing.server.ts `orderBy`): a
   * primary key per sort with the id as the tie-break, packed into one number when it fits (a
   * native numeric sort, or a bounded heap for the first pages), else compared in two steps.
   */
  order(
    positions: Int32Array,
    sort: ListingQuery["sort"],
    nameMatch: Uint8Array | null,
    words: number,
    limit = positions.length,
    packLimit = 2 ** 53,
  ): number[] {
    const n = this.size;
    let primary: (p: number) => number;
    let primaryMax: number;
    let idDescending: boolean;
    switch (sort) {
      case "price-asc":
        primary = (p) => this.price[p] as number;
        primaryMax = this.maxPrice;
        idDescending = false;
        break;
      case "price-desc": {
        const max = this.maxPrice;
        primary = (p) => max - (this.price[p] as number);
        primaryMax = max;
        idDescending = true;
        break;
      }
      case "rating": {
        const reviews = this.maxReviewCount + 1;
        primary = (p) =>
          (this.ratingRank[p] as number) * reviews + (this.maxReviewCount - (this.reviewCount[p] as number));
        primaryMax = this.ratingRanks * reviews;
        idDescending = true;
        break;
      }
      case "newest":
        primary = (p) => this.createdRank[p] as number;
        primaryMax = n;
        idDescending = true;
        break;
      default: {
        // name holds every word first, then featured, then rating (all descending), then id
        const ranks = this.ratingRanks;
        primary = (p) =>
          ((nameMatch && nameMatch[p] === words ? 0 : 2) + ((this.flags[p] as number) & FEATURED ? 0 : 1)) *
            ranks +
          (this.ratingRank[p] as number);
        primaryMax = 4 * ranks;
        idDescending = true;
      }
    }
    // positions are in id order, so the position is the id's tie-break
    const tie = (p: number) => (idDescending ? n - 1 - p : p);
    const count = positions.length;
    const span = 2 ** Math.max(1, Math.ceil(Math.log2(n + 1)));
    if ((primaryMax + 1) * span >= packLimit) {
      return [...positions].sort((a, b) => primary(a) - primary(b) || tie(a) - tie(b)).slice(0, limit);
    }
    const keys = this.scratch().keys.subarray(0, count);
    for (let i = 0; i < count; i++) {
      const p = positions[i] as number;
      keys[i] = primary(p) * span + tie(p);
    }
    const first = smallest(keys, Math.min(limit, count));
    return Array.from(first, (key) => {
      const t = key % span;
      return idDescending ? n - 1 - t : t;
    });
  }
}

/** The `k` smallest of `keys` (distinct), ascending; `keys` may be reordered. */
function smallest(keys: Float64Array, k: number): Float64Array {
  if (k * 8 >= keys.length) return keys.sort().subarray(0, k);
  // a max-heap of the k smallest so far
  const heap = new Float64Array(k);
  let size = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as number;
    if (size < k) {
      let j = size++;
      heap[j] = key;
      while (j > 0) {
        const parent = (j - 1) >> 1;
        if ((heap[parent] as number) >= key) break;
        heap[j] = heap[parent] as number;
        j = parent;
      }
      heap[j] = key;
    } else if (key < (heap[0] as number)) {
      let j = 0;
      for (;;) {
        const left = 2 * j + 1;
        if (left >= k) break;
        const right = left + 1;
        const child = right < k && (heap[right] as number) > (heap[left] as number) ? right : left;
        if ((heap[child] as number) <= key) break;
        heap[j] = heap[child] as number;
        j = child;
      }
      heap[j] = key;
    }
  }
  return heap.sort();
}

const FEATURED = 1;
const NEW_ARRIVAL = 2;
const BEST_SELLER = 4;
const DEAL = 8;

function maxOf(values: Float64Array): number {
  let max = 0;
  for (const v of values) if (v > max) max = v;
  return max;
}

export interface IndexAnswer {
  /** the page's product ids, in the listing's order */
  ids: number[];
  total: number;
  categoryCounts: Map<string, number>;
  /** by brand key (the JavaScript lower case of the brand) */
  brandCounts: Map<string, number>;
}

export interface IndexParts {
  version: number;
  ids: Float64Array;
  categoryOf: Uint16Array;
  subcategoryOf: Uint16Array;
  brandOf: Uint32Array;
  price: Float64Array;
  rating: Float64Array;
  flags: Uint8Array;
  ratingRank: Uint32Array;
  ratingRanks: number;
  reviewCount: Float64Array;
  maxReviewCount: number;
  createdRank: Uint32Array;
  categories: string[];
  subcategories: string[];
  brandKeys: string[];
  vocabulary: string;
  wordStarts: Int32Array;
  offsets: Int32Array;
  postings: Int32Array;
  nameOffsets: Int32Array;
  namePostings: Int32Array;
}

// ── building ────────────────────────────────────────────────────────────────────────────────

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

/** The distinct words, numbered in order of appearance, and the vocabulary string's parts. */
class Vocabulary {
  readonly numbers = new Map<string, number>();
  readonly parts: string[] = [];
  readonly starts = new IntList();
  private at = 0;

  number(word: string): number {
    let number = this.numbers.get(word);
    if (number === undefined) {
      number = this.numbers.size;
      this.numbers.set(word, number);
      this.parts.push(word);
      this.starts.push(this.at);
      this.at += word.length + 1;
    }
    return number;
  }

  /** "\n" after each word, joined in slices; and each word's start with the end after the last */
  async finish(slice: TimeSlice): Promise<{ text: string; starts: Int32Array }> {
    const blocks: string[] = [];
    for (let i = 0; i < this.parts.length; i += 20_000) {
      blocks.push(`${this.parts.slice(i, i + 20_000).join("\n")}\n`);
      await slice.maybeYield();
    }
    this.starts.push(this.at);
    return { text: blocks.join(""), starts: this.starts.toArray() };
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
    vocabularySize: number,
    slice: TimeSlice,
  ): Promise<{ offsets: Int32Array; postings: Int32Array }> {
    const offsets = new Int32Array(vocabularySize + 1);
    const words = this.words.data;
    for (let i = 0; i < this.words.length; i++) offsets[(words[i] as number) + 1]! += 1;
    for (let w = 0; w < vocabularySize; w++) offsets[w + 1]! += offsets[w] as number;
    await slice.maybeYield();
    const postings = new Int32Array(this.words.length);
    const next = offsets.slice(0, vocabularySize);
    const starts = this.starts.data;
    const products = this.starts.length - 1;
    for (let p = 0; p < products; p++) {
      for (let i = starts[p] as number; i < (starts[p + 1] as number); i++) {
        const w = words[i] as number;
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
/** the longest stretch of building work between two chances for requests to run */
const SLICE_MS = 8;

export async function readCatalogVersion(db: Database): Promise<number> {
  const row = await db.selectFrom("catalogVersion").select("version").executeTakeFirst();
  return Number(row?.version ?? 0);
}

/**
 * Reads every live product in slices of 1 000 and builds the index, yielding to requests every
 * few milliseconds of work; null when the catalogue changed while it was read (the index would be
 * stale at once).
 */
export async function buildSearchIndex(
  db: Database,
  /** checked between slices: true gives up (null), e.g. when the process is stopping */
  cancelled: () => boolean = () => false,
): Promise<CatalogSearchIndex | null> {
  const parts = await buildIndexParts(db, cancelled, SLICE_MS);
  return parts ? new CatalogSearchIndex(parts) : null;
}

/** The index's arrays (a worker thread sends them to the app's thread); see buildSearchIndex. */
export async function buildIndexParts(
  db: Database,
  cancelled: () => boolean,
  sliceMs: number,
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
  const both = [all, names];
  const allOnly = [all];

  let lastId = 0;
  for (;;) {
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
      ])
      .where("archivedAt", "is", null)
      .where("id", ">", lastId)
      .orderBy("id")
      .limit(CHUNK)
      .execute();
    for (const row of rows) {
      const p = ids.length;
      ids.push(row.id);
      categoryOf.push(numberOf(categories, row.categoryId));
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
      addWords(p, row.name, both);
      addWords(p, row.description, allOnly);
      addWords(p, row.brand, allOnly);
      addWords(p, row.categoryId, allOnly);
      addWords(p, row.subcategoryId, allOnly);
      all.next();
      names.next();
    }
    if (rows.length < CHUNK) break;
    lastId = rows[rows.length - 1]!.id;
    await slice.maybeYield();
    if (cancelled()) return null;
  }
  if ((await readCatalogVersion(db)) !== version) return null;

  const words = vocabulary.numbers.size;
  const { text, starts } = await vocabulary.finish(slice);
  const allPostings = await all.postings(words, slice);
  const namePostings = await names.postings(words, slice);
  const ratings = await descendingRanks(rating.toArray(), slice);
  const createdRank = await createdAt.ranks(slice);
  await slice.maybeYield();
  const reviewCounts = reviewCount.toArray();
  return {
    version,
    ids: ids.toArray(),
    categoryOf: Uint16Array.from(categoryOf.toArray()),
    subcategoryOf: Uint16Array.from(subcategoryOf.toArray()),
    brandOf: Uint32Array.from(brandOf.toArray()),
    price: price.toArray(),
    rating: rating.toArray(),
    flags: Uint8Array.from(flags.toArray()),
    ratingRank: ratings.ranks,
    ratingRanks: ratings.count,
    reviewCount: reviewCounts,
    maxReviewCount: maxOf(reviewCounts),
    createdRank,
    categories: [...categories.keys()],
    subcategories: [...subcategories.keys()],
    brandKeys: [...brands.keys()],
    vocabulary: text,
    wordStarts: starts,
    offsets: allPostings.offsets,
    postings: allPostings.postings,
    nameOffsets: namePostings.offsets,
    namePostings: namePostings.postings,
  };
}

/** The buffers of the parts' typed arrays (moved, not copied, to the receiving thread). */
export function transferList(parts: IndexParts): ArrayBuffer[] {
  return Object.values(parts)
    .filter((value): value is ArrayBufferView => ArrayBuffer.isView(value))
    .map((view) => view.buffer as ArrayBuffer);
}

/**
 * Builds the parts in a worker thread (search-index-worker.ts) with a connection of its own, so
 * the app's thread only receives the finished arrays. `stop` ends the worker.
 */
function buildInWorker(worker: SearchIndexWorker): { parts: Promise<IndexParts | null>; stop: () => void } {
  const thread = new Worker(worker.url, { workerData: { databaseUrl: worker.databaseUrl } });
  const parts = new Promise<IndexParts | null>((resolve, reject) => {
    thread.once("message", (message: IndexParts | null) => resolve(message));
    thread.once("error", reject);
    thread.once("exit", (code) =>
      code === 0 ? resolve(null) : reject(new Error(`the search index worker stopped (exit code ${code})`)),
    );
  });
  return { parts, stop: () => void thread.terminate() };
}

// ── one index per database, kept fresh ──────────────────────────────────────────────────────

/** Where the worker entry is (server/main.ts knows) and what it connects to. */
export interface SearchIndexWorker {
  url: URL;
  databaseUrl: string;
}

interface Attached {
  index: CatalogSearchIndex | null;
  building: Promise<void> | null;
  worker: SearchIndexWorker | null;
  stopWorker: (() => void) | null;
  /** no new build before this time (ms): a build may not take more than half the time */
  notBefore: number;
  closed: boolean;
}

const attached = new WeakMap<Database, Attached>();

/**
 * Keeps a search index for `db` from now on (the first build starts at once): built in a worker
 * thread when `worker` is given, else on this thread in slices between requests.
 */
export function attachSearchIndex(db: Database, worker: SearchIndexWorker | null = null): void {
  if (attached.has(db)) return;
  const state: Attached = {
    index: null,
    building: null,
    worker,
    stopWorker: null,
    notBefore: 0,
    closed: false,
  };
  attached.set(db, state);
  startBuild(db, state);
}

/** Stops using and building the index of `db` (before the database closes). */
export async function detachSearchIndex(db: Database): Promise<void> {
  const state = attached.get(db);
  if (!state) return;
  state.closed = true;
  attached.delete(db);
  state.stopWorker?.();
  await state.building;
}

function startBuild(db: Database, state: Attached) {
  if (state.building || state.closed || Date.now() < state.notBefore) return;
  const started = Date.now();
  let built: Promise<CatalogSearchIndex | null>;
  if (state.worker) {
    const job = buildInWorker(state.worker);
    state.stopWorker = job.stop;
    built = job.parts.then((parts) => (parts ? new CatalogSearchIndex(parts) : null));
  } else {
    built = buildSearchIndex(db, () => state.closed);
  }
  state.building = built
    .then((index) => {
      if (state.closed) return;
      if (index) state.index = index;
      logger.info(
        index
          ? {
              products: index.size,
              words: index.wordsCount,
              megabytes: Math.round(index.bytes / 1e6),
              ms: Date.now() - started,
            }
          : { ms: Date.now() - started },
        index ? "search index built" : "catalogue changed during the search index build; it will be rebuilt",
      );
    })
    .catch((error: unknown) => {
      if (!state.closed) logger.warn({ err: error }, "could not build the search index; searches use SQL");
    })
    .finally(() => {
      state.building = null;
      state.stopWorker = null;
      state.notBefore = Date.now() + (Date.now() - started);
    });
}

/**
 * The index's answer when `db` has a fresh one; otherwise null (the caller answers with SQL)
 * and a rebuild is started.
 */
export async function searchFromIndex(db: Database, query: ListingQuery): Promise<IndexAnswer | null> {
  const state = attached.get(db);
  if (!state || state.closed) return null;
  const version = await readCatalogVersion(db);
  if (state.index && state.index.version === version) return state.index.search(query);
  startBuild(db, state);
  return null;
}

/** Waits for a fresh index (benchmarks and tests); null when none could be built. */
export async function searchIndexReady(
  db: Database,
  timeoutMs = 600_000,
): Promise<CatalogSearchIndex | null> {
  const state = attached.get(db);
  if (!state) return null;
  const deadline = Date.now() + timeoutMs;
  while (!state.closed && Date.now() < deadline) {
    const version = await readCatalogVersion(db);
    if (state.index?.version === version) return state.index;
    state.notBefore = 0;
    startBuild(db, state);
    await (state.building ?? new Promise((r) => setTimeout(r, 10)));
  }
  return null;
}
