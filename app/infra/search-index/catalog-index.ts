import {
  type ListingQuery,
  PAGE_SIZE,
  PRICE_MAX,
  PRICE_MIN,
  searchWords,
  wantsOptionFacets,
} from "../../lib/listing-query.ts";
import { priceBands } from "../../lib/price-bands.ts";
import { orderPositions } from "./index-order.ts";
import {
  BEST_SELLER,
  DEAL,
  FEATURED,
  type IndexAnswer,
  type IndexParts,
  matchAll,
  maxOf,
  NEW_ARRIVAL,
  type Postings,
  wordsContaining,
} from "./index-parts.ts";
import { countBands } from "./option-bands.ts";
import { candidates, pricedCandidates } from "./option-candidates.ts";
import {
  countRows,
  keyBit,
  type OptionCountRow,
  type OptionParts,
  OptionQuery,
  optionBytes,
  pairsContaining,
} from "./option-index.ts";

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
  /** the in-stock variants' prices and option values (option-index.ts) */
  private readonly options: OptionParts;

  constructor(parts: IndexParts) {
    this.version = parts.version;
    this.ids = parts.ids;
    this.categoryOf = parts.categoryOf;
    this.subcategoryOf = parts.subcategoryOf;
    this.brandOf = parts.brandOf;
    this.price = parts.price;
    // a matching variant may cost more than its product's summary (the cheapest variant)
    this.maxPrice = Math.max(maxOf(parts.price), maxOf(parts.options.variantPrice));
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
    this.options = parts.options;
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
    return (
      arrays.reduce((sum, a) => sum + a.byteLength, 0) +
      this.vocabulary.length * 2 +
      optionBytes(this.options)
    );
  }

  /** The vocabulary words that contain `word` (a lower-cased search word without whitespace). */
  wordsContaining(word: string): number[] {
    return wordsContaining(this.vocabulary, this.wordStarts, word);
  }

  /**
   * Scratch space for one search at a time (searches are synchronous), allocated once: fresh
   * megabyte-sized typed arrays cost more in page faults than the loops that use them.
   */
  private scratchSpace: {
    marks: Uint8Array;
    nameMarks: Uint8Array;
    listed: Int32Array;
    /** a one-key option filter's candidates, their prices in keys (until the page is ordered) */
    candidates: Int32Array;
    keys: Float64Array;
    prices: Float64Array;
    /** always left zeroed by its users */
    clean: Uint8Array;
  } | null = null;
  private scratch() {
    this.scratchSpace ??= {
      marks: new Uint8Array(this.size),
      nameMarks: new Uint8Array(this.size),
      listed: new Int32Array(this.size),
      candidates: new Int32Array(this.size),
      keys: new Float64Array(this.size),
      prices: new Float64Array(this.size),
      clean: new Uint8Array(this.size),
    };
    return this.scratchSpace;
  }

  /** The query's filters against the index: -1 = no product can match (an unknown category or subcategory). */
  private filtersOf(query: ListingQuery) {
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
    return {
      category,
      subcategory,
      brandWanted,
      minPrice: query.minPrice > PRICE_MIN ? query.minPrice * 100 : -Infinity,
      maxPrice: query.maxPrice < PRICE_MAX ? query.maxPrice * 100 : Infinity,
      minRating: query.rating ? query.rating : -Infinity,
      flagMask:
        (query.featured ? FEATURED : 0) |
        (query.newArrival ? NEW_ARRIVAL : 0) |
        (query.bestSeller ? BEST_SELLER : 0) |
        (query.deals ? DEAL : 0),
    };
  }

  /** Positions by category (a counting sort, made on first use): category c's are byCategory[start[c] .. start[c + 1]). */
  private categoryLists: { start: Int32Array; positions: Int32Array } | null = null;
  private inCategory(category: number): Int32Array {
    if (!this.categoryLists) {
      const start = new Int32Array(this.categories.length + 1);
      for (let p = 0; p < this.size; p++) start[(this.categoryOf[p] as number) + 1]! += 1;
      for (let c = 0; c < this.categories.length; c++) start[c + 1]! += start[c] as number;
      const next = start.slice(0, this.categories.length);
      const positions = new Int32Array(this.size);
      for (let p = 0; p < this.size; p++) positions[next[this.categoryOf[p] as number]!++] = p;
      this.categoryLists = { start, positions };
    }
    const { start, positions } = this.categoryLists;
    return positions.subarray(start[category] as number, start[category + 1] as number);
  }

  /**
   * The option facets alone of a listing without a search or option filters — its page, total and
   * other facets come from SQL's roll-ups (listing.server.ts): from the index's own roll-up
   * (option-bands.ts) when the filters are a category, prices on the $100 steps and a rating, as
   * SQL's are; else by visiting the category's products.
   */
  optionCounts(query: ListingQuery): OptionCountRow[] {
    const f = this.filtersOf(query);
    if (f.category === -1 || f.subcategory === -1) return [];
    const bands = priceBands(query);
    if (bands && f.subcategory === null && f.brandWanted === null && f.flagMask === 0) {
      return countRows(
        this.options,
        countBands(this.options.bands, this.options.pairKey.length, f.category, bands),
      );
    }
    const options = new OptionQuery(this.options, {});
    const count = (p: number) => {
      if ((this.rating[p] as number) < f.minRating) return;
      if (((this.flags[p] as number) & f.flagMask) !== f.flagMask) return;
      if (f.subcategory !== null && this.subcategoryOf[p] !== f.subcategory) return;
      if (f.brandWanted !== null && f.brandWanted[this.brandOf[p] as number] !== 1) return;
      options.count(p, f.minPrice, f.maxPrice);
    };
    if (f.category === null) for (let p = 0; p < this.size; p++) count(p);
    else for (const p of this.inCategory(f.category)) count(p);
    return options.rows();
  }

  /**
   * The listing's answer (a search term, option filters, or a listing that shows option facets):
   * the page's product ids in order, the total, and the category, brand and option facet counts —
   * the same as the SQL of listing.server.ts and listing-options.server.ts.
   */
  search(query: ListingQuery): IndexAnswer {
    const words = searchWords(query.search ?? "");
    const answer: IndexAnswer = {
      ids: [],
      total: 0,
      categoryCounts: new Map(),
      brandCounts: new Map(),
      optionCounts: [],
    };
    // a search word is found in the words of the text fields and in option values
    const sources = words.map((word): Postings[] => [
      { offsets: this.offsets, postings: this.postings, lists: this.wordsContaining(word) },
      {
        offsets: this.options.pairOffsets,
        postings: this.options.pairPostings,
        lists: pairsContaining(this.options, word),
      },
    ]);
    if (sources.some((found) => found.every((source) => source.lists.length === 0))) return answer;
    const chosen = Object.keys(query.options);
    const options = new OptionQuery(this.options, query.options);
    if (!options.satisfiable) return answer;
    const filtered = chosen.length > 0;
    // option facets are counted only where the listing shows them (lib/listing-query.ts)
    const counting = wantsOptionFacets(query);
    const f = this.filtersOf(query);
    const { category, subcategory, brandWanted, minPrice, maxPrice, minRating, flagMask } = f;
    if (category === -1 || subcategory === -1) return answer;

    const scratch = this.scratch();
    const { marks, nameMarks, listed, prices, clean } = scratch;
    // the products a search matches (every word), else those an option filter may match
    let matched: Int32Array | null = null;
    if (words.length > 0) {
      marks.fill(0);
      const found: number[] = [];
      matchAll(sources, marks, (p) => found.push(p));
      matched = Int32Array.from(found);
    }
    /** the positions a pass visits; null: every product */
    const domain = (keys: string[], narrow: boolean): Int32Array | null => {
      if (matched) return matched;
      if (keys.length > 0) return candidates(this.options, query.options, keys, clean);
      if (narrow && category !== null) return this.inCategory(category);
      return null;
    };
    const passes = (p: number) =>
      (this.rating[p] as number) >= minRating && ((this.flags[p] as number) & flagMask) === flagMask;
    const inCategory = (p: number) =>
      (category === null || this.categoryOf[p] === category) &&
      (subcategory === null || this.subcategoryOf[p] === subcategory);

    const categoryCounts = new Float64Array(this.categories.length);
    const brandCounts = new Float64Array(this.brandKeys.length);
    let total = 0;
    // one key filtered: the candidates' prices from the postings; a product's variants are visited
    // only to count the facets of the other keys it holds
    const single = !matched && chosen.length === 1 ? this.options.keys.indexOf(chosen[0]!) : -1;
    const found =
      single >= 0 && single < 7
        ? pricedCandidates(
            this.options,
            chosen[0]!,
            query.options[chosen[0]!]!,
            scratch.candidates,
            scratch.keys,
          )
        : -1;
    const fast =
      found >= 0 ? { positions: scratch.candidates.subarray(0, found), prices: scratch.keys } : null;
    const others = ~keyBit(single);
    const { keyMask } = this.options;
    const main = fast ? fast.positions : domain(chosen, false);
    for (let i = 0, n = main ? main.length : this.size; i < n; i++) {
      const p = main ? (main[i] as number) : i;
      if (!passes(p)) continue;
      const here = inCategory(p);
      const brand = this.brandOf[p] as number;
      const inBrands = brandWanted === null || brandWanted[brand] === 1;
      const counts = counting && here && inBrands;
      // with option filters, the cheapest matching variant's price is the product's (count finds
      // it in the same loop over the variants)
      let price: number;
      if (fast && !(counts && ((keyMask[p] as number) & others) !== 0)) price = fast.prices[i] as number;
      else if (counts) {
        const cheapest = options.count(p, minPrice, maxPrice);
        price = filtered ? cheapest : (this.price[p] as number);
      } else price = filtered ? options.price(p) : (this.price[p] as number);
      if (price === Infinity || price < minPrice || price > maxPrice) continue;
      prices[p] = price;
      // the category facet ignores the category filter, the brand facet the brand filter
      if (inBrands) categoryCounts[this.categoryOf[p] as number]! += 1;
      if (here) brandCounts[brand]! += 1;
      if (here && inBrands) listed[total++] = p;
    }
    answer.total = total;
    answer.optionCounts = options.rows();
    // a chosen key's values are counted against the other keys' choices only
    for (const key of counting ? chosen : []) {
      const others = chosen.filter((k) => k !== key);
      if (others.length === 0 && !matched) {
        // the key's counts without any option choice: the category's (from the roll-up when it can)
        const rows = this.optionCounts({ ...query, options: {} });
        answer.optionCounts.push(...rows.filter((row) => row.optionKey === key));
        continue;
      }
      const own = new OptionQuery(
        this.options,
        Object.fromEntries(others.map((k) => [k, query.options[k]!])),
        key,
      );
      const list = domain(others, true);
      for (let i = 0, n = list ? list.length : this.size; i < n; i++) {
        const p = list ? (list[i] as number) : i;
        if (!passes(p) || !inCategory(p)) continue;
        if (brandWanted !== null && brandWanted[this.brandOf[p] as number] !== 1) continue;
        own.count(p, minPrice, maxPrice);
      }
      answer.optionCounts.push(...own.rows());
    }
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
      matchAll(
        words.map((word) => [
          { offsets: this.nameOffsets, postings: this.namePostings, lists: this.wordsContaining(word) },
        ]),
        nameMarks,
      );
      nameMatch = nameMarks;
    }
    answer.ids = this.order(
      listed.subarray(0, total),
      query.sort,
      nameMatch,
      words.length,
      offset + PAGE_SIZE,
      2 ** 53,
      filtered ? prices : this.price,
    )
      .slice(offset)
      .map((p) => this.ids[p] as number);
    return answer;
  }

  /**
   * The first `limit` of the positions in the listing's order (listing.server.ts `orderBy`), with
   * `price` as the products' prices (the cheapest matching variant's under option filters).
   */
  order(
    positions: Int32Array,
    sort: ListingQuery["sort"],
    nameMatch: Uint8Array | null,
    words: number,
    limit = positions.length,
    packLimit = 2 ** 53,
    price: Float64Array = this.price,
  ): number[] {
    return orderPositions(
      {
        size: this.size,
        price,
        maxPrice: this.maxPrice,
        rating: { rank: this.ratingRank, ranks: this.ratingRanks },
        reviewCount: this.reviewCount,
        maxReviewCount: this.maxReviewCount,
        createdRank: this.createdRank,
        flags: this.flags,
      },
      this.scratch().keys,
      { positions, sort, nameMatch, words, limit, packLimit },
    );
  }
}
