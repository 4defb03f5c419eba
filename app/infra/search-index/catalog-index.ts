import { type ListingQuery, PAGE_SIZE, searchGroups, wantsOptionFacets } from "../../lib/listing-query.ts";
import { priceBands } from "../../lib/price-bands.ts";
import { listBits } from "./bit-listing.ts";
import { andInto, andNotInto, collectBits, fillBits, forEachBit, hasBit, setBit } from "./bitset.ts";
import { type FilterBits, filterBitsBytes } from "./filter-bits.ts";
import { type IndexFilters, indexFilters } from "./index-filters.ts";
import { leadingTiers, orderPositions, type Ranked, rankedAt, type SortKeys } from "./index-order.ts";
import {
  type IndexAnswer,
  type IndexParts,
  matchWords,
  maxOf,
  type Postings,
  wordsContaining,
} from "./index-parts.ts";
import { countBands } from "./option-bands.ts";
import { candidates, inStockHolders, optionSource, wantedPairs } from "./option-candidates.ts";
import {
  addRows,
  countRows,
  keyBit,
  type OptionCountRow,
  type OptionParts,
  OptionQuery,
  optionBytes,
} from "./option-index.ts";
import { newSearchScratch, type SearchScratch } from "./search-scratch.ts";
import { closestWords, correctionsOf, nearLengths, type TypoWords, typoAllowance } from "./typos.ts";

/** A listing's answer with its first `offset + PAGE_SIZE` products ranked (ids holds them all). */
export interface RankedAnswer extends IndexAnswer {
  ranked: Ranked[];
}

/** how many searched words' vocabulary matches, and typo corrections, an index keeps (it never changes) */
const RECENT_WORDS = 256;

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
  private readonly createdTime: Float64Array;
  /** category ids and subcategory ids by number (subcategory 0 = none); brand keys (lower case) */
  private readonly categories: string[];
  private readonly subcategories: string[];
  private readonly brandKeys: string[];
  /** the vocabulary as one string, "\n" after each word, and where each word starts */
  private readonly vocabulary: string;
  private readonly wordStarts: Int32Array;
  /** the words are ordered by length: per length m, the first word at least m long */
  private readonly wordLengthStarts: Int32Array;
  /** postings: the positions holding word w are postings[offsets[w] .. offsets[w + 1]) */
  private readonly offsets: Int32Array;
  private readonly postings: Int32Array;
  /** the same for the names alone (the Featured sort ranks name matches first) */
  private readonly nameOffsets: Int32Array;
  private readonly namePostings: Int32Array;
  /** the in-stock variants' prices and option values (option-index.ts) */
  private readonly options: OptionParts;
  /** the row filters as bitsets (filter-bits.ts) */
  private readonly filterBits: FilterBits;
  /** the words a misspelt search word is corrected to (typos.ts) */
  private readonly typoWords: TypoWords;

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
    this.createdTime = parts.createdTime;
    this.categories = parts.categories;
    this.subcategories = parts.subcategories;
    this.brandKeys = parts.brandKeys;
    this.vocabulary = parts.vocabulary;
    this.wordStarts = parts.wordStarts;
    this.wordLengthStarts = parts.wordLengthStarts;
    this.offsets = parts.offsets;
    this.postings = parts.postings;
    this.nameOffsets = parts.nameOffsets;
    this.namePostings = parts.namePostings;
    this.options = parts.options;
    this.filterBits = parts.filterBits;
    this.typoWords = parts.typoWords;
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
      this.createdTime,
      this.wordStarts,
      this.offsets,
      this.postings,
      this.nameOffsets,
      this.namePostings,
    ];
    return (
      arrays.reduce((sum, a) => sum + a.byteLength, 0) +
      this.vocabulary.length * 2 +
      optionBytes(this.options) +
      filterBitsBytes(this.filterBits)
    );
  }

  /** The position of product `id`, or -1 when the index does not hold it. */
  positionOf(id: number): number {
    let lo = 0;
    let hi = this.ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = this.ids[mid] as number;
      if (at === id) return mid;
      if (at < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The vocabulary words that contain `word` (a lower-cased search word without whitespace). */
  wordsContaining(word: string): number[] {
    let found = this.recentWords.get(word);
    if (!found) {
      found = wordsContaining(this.vocabulary, this.wordStarts, word, this.wordLengthStarts);
      // a search asks for its words twice (holds, for typo tolerance, then search) and shoppers
      // repeat searches: each is a scan of the vocabulary (~10 ms at 1M products)
      if (this.recentWords.size >= RECENT_WORDS) this.recentWords.clear();
      this.recentWords.set(word, found);
    }
    return found;
  }
  private readonly recentWords = new Map<string, number[]>();

  /** True when a product holds `word` (a lower-cased search word): in its text's words or an option value. */
  holds(word: string): boolean {
    if (this.wordsContaining(word).length > 0) return true;
    const options = optionSource(this.options, word);
    return options.lists.length > 0 || (options.bitsets?.length ?? 0) > 0;
  }

  /**
   * The catalogue's words — of the text fields and the option values, letters only — closest to
   * `word` within its typo allowance (typos.ts): only the words of a near length are compared.
   */
  corrections(word: string): string[] {
    let found = this.recentCorrections.get(word);
    if (!found) {
      const allowance = typoAllowance(word);
      found = allowance === 0 ? [] : closestWords(word, nearLengths(this.typoWords, word, allowance));
      // shoppers repeat a misspelling as they repeat a search (a short word's neighbours: ~100 ms at 1M)
      if (this.recentCorrections.size >= RECENT_WORDS) this.recentCorrections.clear();
      this.recentCorrections.set(word, found);
    }
    return found;
  }
  private readonly recentCorrections = new Map<string, string[]>();

  /**
   * The catalogue's words close to each search word that nothing holds — neither the word nor one
   * of its synonyms — (typo tolerance, decision 041); null when there are none.
   */
  correctionsFor(
    words: readonly string[],
    synonyms: ListingQuery["synonyms"],
  ): Record<string, string[]> | null {
    return correctionsOf(
      words,
      synonyms,
      (word) => this.holds(word),
      (word) => this.corrections(word),
    );
  }

  /** Scratch space for one search at a time (search-scratch.ts), allocated on first use. */
  private scratchSpace: SearchScratch | null = null;
  private scratch(): SearchScratch {
    this.scratchSpace ??= newSearchScratch(this.size, this.filterBits.words);
    return this.scratchSpace;
  }

  /** The query's filters against the index (index-filters.ts). */
  private filtersOf(query: ListingQuery): IndexFilters {
    return indexFilters(query, {
      categories: this.categories,
      subcategories: this.subcategories,
      brandKeys: this.brandKeys,
    });
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
  optionCounts(query: ListingQuery, excluded: Uint32Array | null = null): OptionCountRow[] {
    const f = this.filtersOf(query);
    if (f.category === -1 || f.subcategory === -1) return [];
    const bands = priceBands(query);
    if (bands && f.subcategory === null && f.brandWanted === null && f.flagMask === 0) {
      const rows = countRows(
        this.options,
        countBands(this.options.bands, this.options.pairKey.length, f.category, bands),
      );
      if (!excluded) return rows;
      // the roll-up counts every product: the excluded ones' counts are taken away
      const gone = new OptionQuery(this.options, {});
      forEachBit(excluded, (p) => {
        if (f.category !== null && this.categoryOf[p] !== f.category) return;
        if ((this.rating[p] as number) >= f.minRating) gone.count(p, f.minPrice, f.maxPrice);
      });
      return addRows(rows, gone.rows(), -1);
    }
    const options = new OptionQuery(this.options, {});
    const count = (p: number) => {
      if (excluded && hasBit(excluded, p)) return;
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
   * Where each search word (with its synonyms: a group) is found — the vocabulary words holding it,
   * for the text fields, and the option values holding it; null when some group is found nowhere.
   */
  private wordSources(words: string[][]): { wordLists: number[][]; sources: Postings[][] } | null {
    const wordLists = words.map((group) =>
      group.length === 1
        ? this.wordsContaining(group[0]!)
        : [...new Set(group.flatMap((word) => this.wordsContaining(word)))],
    );
    const sources = words.map((group, k): Postings[] => [
      { offsets: this.offsets, postings: this.postings, lists: wordLists[k]! },
      ...group.map((word) => optionSource(this.options, word)),
    ]);
    const nowhere = (source: Postings) => source.lists.length === 0 && (source.bitsets?.length ?? 0) === 0;
    return sources.some((found) => found.every(nowhere)) ? null : { wordLists, sources };
  }

  /** The products whose name holds every word (or one of its synonyms), as bits in `scratch.nameBits`. */
  private nameMatches(wordLists: number[][], scratch: SearchScratch): Uint32Array {
    return matchWords(
      wordLists.map((lists) => [{ offsets: this.nameOffsets, postings: this.namePostings, lists }]),
      scratch.nameBits,
      scratch.wordBits,
    );
  }

  /**
   * The first `limit` products of a search's listing on its first page, in the Featured order —
   * the same ids as `search` of the search alone, without its total and facets: the suggestions
   * as a shopper types (decision 041). Only the query's words (synonyms, corrections) count.
   */
  firstMatches(query: ListingQuery, limit: number): number[] {
    return this.firstPart(query, limit, null).map((ranked) => ranked.id);
  }

  /** firstMatches ranked, leaving out the `excluded` positions (a patched index's changed products). */
  firstPart(query: ListingQuery, limit: number, excluded: Uint32Array | null): Ranked[] {
    const words = searchGroups(query);
    const found = words.length > 0 ? this.wordSources(words) : null;
    if (!found) return [];
    const scratch = this.scratch();
    // every live product is listed when nothing filters: the matches are the listing
    const searched = matchWords(found.sources, scratch.searchBits, scratch.wordBits);
    if (excluded) andNotInto(searched, excluded);
    const nameMatch = this.nameMatches(found.wordLists, scratch);
    const positions = leadingTiers(searched, nameMatch, this.filterBits, limit, scratch.candidates);
    return this.order(positions, "featured", nameMatch, limit).map((p) =>
      rankedAt(this.sortKeys(this.price), p, "featured", nameMatch),
    );
  }

  /**
   * The listing's answer (a search term, option filters, or a listing that shows option facets):
   * the page's product ids in order, the total, and the category, brand and option facet counts —
   * the same as the SQL of listing.server.ts and listing-options.server.ts.
   */
  search(query: ListingQuery): IndexAnswer {
    return this.answer(query, null, false);
  }

  /**
   * The listing's answer leaving out the `excluded` positions (a patched index's changed products),
   * with its first `offset + PAGE_SIZE` products ranked, whatever its total.
   */
  searchPart(query: ListingQuery, excluded: Uint32Array | null): RankedAnswer {
    return this.answer(query, excluded, true) as RankedAnswer;
  }

  private answer(query: ListingQuery, excluded: Uint32Array | null, whole: boolean): IndexAnswer {
    // each word with its synonyms: a product holding any of them matches the word
    const words = searchGroups(query);
    const answer: IndexAnswer = {
      ids: [],
      total: 0,
      categoryCounts: new Map(),
      brandCounts: new Map(),
      optionCounts: [],
      ...(whole ? { ranked: [] } : {}),
    };
    const found = this.wordSources(words);
    if (!found) return answer;
    const { wordLists, sources } = found;
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
    const { listed, prices, listedBits } = scratch;
    // the products a search matches (every word)
    const searched = words.length > 0 ? matchWords(sources, scratch.searchBits, scratch.wordBits) : null;
    if (searched && excluded) andNotInto(searched, excluded);
    let matchedList: Int32Array | null = null;
    const matched = () => {
      matchedList ??= scratch.matched.subarray(0, collectBits(searched!, scratch.matched));
      return matchedList;
    };
    /** the positions a pass visits; null: every product */
    const domain = (keys: string[], narrow: boolean): Int32Array | null => {
      if (searched) return matched();
      if (keys.length > 0) {
        const n = candidates(this.options, query.options, keys, scratch.bits, scratch.candidates);
        return scratch.candidates.subarray(0, n);
      }
      if (narrow && category !== null) return this.inCategory(category);
      return null;
    };
    const { rating, flags, categoryOf, subcategoryOf, brandOf, price: productPrice } = this;
    const checkRating = minRating !== -Infinity;
    const checkFlags = flagMask !== 0;

    const categoryCounts = new Float64Array(this.categories.length);
    const brandCounts = new Float64Array(this.brandKeys.length);
    let total = 0;
    /** the listed products' prices are in `prices` (the cheapest matching variants'), else their own */
    let ownPrices = filtered;
    if (chosen.length <= 1) {
      // a search, one option key or both: 32 products at a time (bit-listing.ts)
      const held = scratch.bits;
      if (chosen.length === 1) {
        const key = chosen[0]!;
        held.fill(0);
        inStockHolders(this.options, wantedPairs(this.options, key, query.options[key]!), held);
        if (searched) andInto(held, searched);
      } else if (searched) held.set(searched);
      else fillBits(held, this.size);
      if (excluded) andNotInto(held, excluded);
      const k = chosen.length === 1 ? this.options.keys.indexOf(chosen[0]!) : -1;
      ({ total, ownPrices } = listBits(
        {
          categoryOf,
          subcategoryOf,
          brandOf,
          price: productPrice,
          options: this.options,
          filterBits: this.filterBits,
        },
        {
          filters: f,
          candidates: held,
          options,
          optionFiltered: filtered,
          // the chosen key's own counts are made apart (below); keys from the 8th share a bit
          countedKeys: !counting ? null : k >= 0 && k < 7 ? ~keyBit(k) : ~0,
        },
        {
          matched: scratch.matchedBits,
          checked: scratch.checkedBits,
          listedBits,
          listed,
          prices,
          rowBits: scratch.rowBits,
          insideBits: scratch.insideBits,
          edgeBits: scratch.edgeBits,
        },
        categoryCounts,
        brandCounts,
      ));
    } else {
      // several keys: the candidates of the rarest, each one's variants checked
      listedBits.fill(0);
      const main = domain(chosen, false)!;
      for (let i = 0; i < main.length; i++) {
        const p = main[i] as number;
        if (excluded && hasBit(excluded, p)) continue;
        if (checkRating && (rating[p] as number) < minRating) continue;
        if (checkFlags && ((flags[p] as number) & flagMask) !== flagMask) continue;
        const productCategory = categoryOf[p] as number;
        const here =
          (category === null || productCategory === category) &&
          (subcategory === null || subcategoryOf[p] === subcategory);
        const brand = brandOf[p] as number;
        const inBrands = brandWanted === null || brandWanted[brand] === 1;
        // the cheapest matching variant's price is the product's (count finds it in the same loop)
        const price = counting && here && inBrands ? options.count(p, minPrice, maxPrice) : options.price(p);
        if (price === Infinity || price < minPrice || price > maxPrice) continue;
        // the category facet ignores the category filter, the brand facet the brand filter
        if (inBrands) categoryCounts[productCategory]! += 1;
        if (!here) continue;
        brandCounts[brand]! += 1;
        if (!inBrands) continue;
        prices[p] = price;
        listed[total++] = p;
        setBit(listedBits, p);
      }
    }
    answer.total = total;
    answer.optionCounts = options.rows();
    // a chosen key's values are counted against the other keys' choices only
    for (const key of counting ? chosen : []) {
      const others = chosen.filter((k) => k !== key);
      if (others.length === 0 && !searched) {
        // the key's counts without any option choice: the category's (from the roll-up when it can)
        const rows = this.optionCounts({ ...query, options: {} }, excluded);
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
        if (excluded && hasBit(excluded, p)) continue;
        if (checkRating && (rating[p] as number) < minRating) continue;
        if (checkFlags && ((flags[p] as number) & flagMask) !== flagMask) continue;
        if (category !== null && categoryOf[p] !== category) continue;
        if (subcategory !== null && subcategoryOf[p] !== subcategory) continue;
        if (brandWanted !== null && brandWanted[brandOf[p] as number] !== 1) continue;
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
    if (offset >= total && !whole) return answer;
    let positions = listed.subarray(0, total);
    let nameMatch: Uint32Array | null = null;
    if (query.sort === "featured") {
      // the products whose name holds every word first, then the featured ones: only the tiers
      // that fill the pages are ordered
      if (searched) nameMatch = this.nameMatches(wordLists, scratch);
      positions = leadingTiers(
        listedBits,
        nameMatch,
        this.filterBits,
        offset + PAGE_SIZE,
        scratch.candidates,
      );
    }
    const price = ownPrices ? prices : this.price;
    const ordered = this.order(positions, query.sort, nameMatch, offset + PAGE_SIZE, 2 ** 53, price);
    if (whole) {
      const keys = this.sortKeys(price);
      const ranked = ordered.map((p) => rankedAt(keys, p, query.sort, nameMatch));
      return { ...answer, ids: ranked.map((r) => r.id), ranked } as RankedAnswer;
    }
    answer.ids = ordered.slice(offset).map((p) => this.ids[p] as number);
    return answer;
  }

  /**
   * The first `limit` of the positions in the listing's order (listing.server.ts `orderBy`), with
   * `price` as the products' prices (the cheapest matching variant's under option filters).
   */
  order(
    positions: Int32Array,
    sort: ListingQuery["sort"],
    nameMatch: Uint32Array | null,
    limit = positions.length,
    packLimit = 2 ** 53,
    price: Float64Array = this.price,
  ): number[] {
    return orderPositions(this.sortKeys(price), { positions, sort, nameMatch, limit, packLimit });
  }

  /** What the listing's sorts read (index-order.ts), with `price` as the products' prices. */
  private sortKeys(price: Float64Array): SortKeys {
    return {
      ids: this.ids,
      size: this.size,
      price,
      maxPrice: this.maxPrice,
      rating: { rank: this.ratingRank, ranks: this.ratingRanks },
      ratingValue: this.rating,
      reviewCount: this.reviewCount,
      maxReviewCount: this.maxReviewCount,
      createdRank: this.createdRank,
      createdTime: this.createdTime,
      flags: this.flags,
    };
  }
}
