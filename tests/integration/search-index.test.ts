import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../../app/db/database.server.ts";
import type { ProductUpdate } from "../../app/db/schema.ts";
import type { Flag } from "../../app/db/schema-types.ts";
import { createRandom } from "../../app/db/seed/synthetic-catalog.ts";
import { prepareListingQuery, searchProducts } from "../../app/domain/catalog/listing.server.ts";
import { setStockLevels } from "../../app/domain/inventory/inventory.server.ts";
import { syncProductSummary } from "../../app/domain/inventory/product-summary.server.ts";
import { cataloguePromotions } from "../../app/domain/promotions/promotions.server.ts";
import { buildSearchIndex, readCatalogVersion } from "../../app/infra/search-index/build-index.server.ts";
import {
  attachSearchIndex,
  detachSearchIndex,
  searchCorrections,
  searchFromIndex,
  searchIndexReady,
} from "../../app/infra/search-index/search-index.server.ts";
import {
  type ListingQuery,
  parseListingQuery,
  SORT_OPTIONS,
  searchWords,
} from "../../app/lib/listing-query.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { ensureCategory, insertProduct, insertProductWithVariants } from "../helpers/catalog.ts";

/**
 * The in-memory search index (decision 004, revision 3) against SQL: for hundreds of random
 * searches with every filter, sort and page, the page, the total and both facets are the same as
 * the SQL listing's; it is used only while fresh (catalog_version), and rebuilt after changes.
 */
const TREE: Record<string, Array<string | null>> = {
  electronics: ["smartphones", "audio", null],
  home: ["kitchen", null],
  toys: [null],
};
const BRANDS = ["Kestrel", "KESTREL", "Lumen", "Aurora", "Élan", "Nordvik"];
const NAME_WORDS = [
  "Wireless",
  "Headphones",
  "Classic",
  "T-Shirt",
  "Ultra-Light",
  "Kettle",
  "Café",
  "Chair",
  "Firewire",
  "4K",
  "Pro",
  "(Limited)",
];
const TEXT_WORDS = [
  "wireless",
  "comfort",
  "Their",
  "first",
  "aid",
  "kit,",
  "stainless",
  "steel.",
  "bluetooth",
  "irony",
  "CAFÉ",
  "\u00e9lan",
  "50%",
  "off",
];
const SIZES = ["XS", "S", "M", "L", "XL"];
const COLOURS = ["Black", "White", "Navy"];
const PRICES = [499, 999, 1_000, 10_000, 10_001, 25_050, 49_999, 150_000, 199_999, 250_000];
const RATINGS = [0, 1, 2.5, 3.9, 4, 4.1, 4.9, 5];
const DATES = ["2026-01-01T00:00:00.000Z", "2026-02-01T10:00:00.000Z", "2026-03-05T08:30:00.000Z"];
const TERMS = [
  "wireless",
  "ir",
  "i",
  "é",
  "café",
  "CAFE",
  "t-shirt",
  "shirt",
  "ultra-light",
  "light",
  "4k",
  "(limited)",
  "50%",
  "kit,",
  "aid kit",
  "wireless comfort",
  "pro kettle",
  "steel",
  "electronics",
  "kitchen",
  "kestrel",
  "élan",
  "nothingmatches",
  '"quoted',
  "a*",
  "NEAR(x",
  "%",
  "_",
  "e",
  "re",
];

const BRAND_VALUES = [...new Set(BRANDS.map((b) => b.toLowerCase()))];

/** A random category in `params`, and one of its subcategories `subShare` of the time. */
function pickCategory(random: ReturnType<typeof createRandom>, params: URLSearchParams, subShare: number) {
  const category = random.pick(Object.keys(TREE));
  params.set("category", category);
  const sub = random.pick(TREE[category]!);
  if (sub && random.next() < subShare) params.set("subcategory", sub);
}

describe.each(ENGINES)("in-memory search index on %s", (engine) => {
  let t: TestDatabase;
  let db: Database;
  /** a second handle on the same database without an index: the SQL answer */
  let sqlDb: Database;

  beforeAll(async () => {
    t = await createTestDatabase(engine, { checkStockLedger: false }); // the index's tests write and delete product rows directly
    db = t.db;
    sqlDb = createDatabase(t.url);
    for (const [category, subs] of Object.entries(TREE)) {
      await ensureCategory(db, category);
      for (const sub of subs) if (sub) await ensureCategory(db, sub, category);
    }
    const random = createRandom(engine === "sqlite" ? 11 : 12);
    const words = (pool: string[], n: number) => Array.from({ length: n }, () => random.pick(pool)).join(" ");
    for (let i = 0; i < 240; i++) {
      const categoryId = random.pick(Object.keys(TREE));
      const price = random.pick(PRICES);
      const discounted = random.next() < 0.3;
      await insertProduct(db, {
        categoryId,
        subcategoryId: random.pick(TREE[categoryId]!),
        name: `${words(NAME_WORDS, 1 + random.int(0, 2))} ${i}`,
        description: words(TEXT_WORDS, random.int(0, 7)),
        brand: random.pick(BRANDS),
        priceCents: price,
        originalPriceCents: discounted ? price * 2 : null,
        discountPercentage: discounted ? 50 : null,
        rating: random.pick(RATINGS),
        reviewCount: random.int(0, 3),
        featured: random.next() < 0.3 ? 1 : 0,
        newArrival: random.next() < 0.3 ? 1 : 0,
        bestSeller: random.next() < 0.3 ? 1 : 0,
        createdAt: random.pick(DATES),
        archivedAt: random.next() < 0.1 ? "2026-02-01T00:00:00.000Z" : null,
      });
    }
    // products in sizes and colours: some combinations missing, some out of stock, prices apart
    for (let i = 0; i < 90; i++) {
      const categoryId = random.pick(Object.keys(TREE));
      const sizes = SIZES.filter(() => random.next() < 0.6);
      const colours = COLOURS.filter(() => random.next() < 0.6);
      const options = [
        ...(sizes.length > 0 ? [{ name: "Size", values: sizes }] : []),
        ...(colours.length > 0 ? [{ name: "Colour", values: colours }] : []),
        ...(random.next() < 0.2 ? [{ name: "Sort", values: ["Plain"] }] : []), // never a facet
      ];
      if (options.length === 0) continue;
      const grid = options.reduce<string[][]>(
        (rows, o) => rows.flatMap((r) => o.values.map((v) => [...r, v])),
        [[]],
      );
      const kept = grid.filter((_, j) => j === 0 || random.next() < 0.7);
      await insertProductWithVariants(db, {
        categoryId,
        subcategoryId: random.pick(TREE[categoryId]!),
        name: `${words(NAME_WORDS, 1)} Tee ${i}`,
        description: words(TEXT_WORDS, random.int(0, 4)),
        brand: random.pick(BRANDS),
        rating: random.pick(RATINGS),
        featured: random.next() < 0.3 ? 1 : 0,
        createdAt: random.pick(DATES),
        archivedAt: random.next() < 0.05 ? "2026-02-01T00:00:00.000Z" : null,
        options,
        variants: kept.map((values, j) => ({
          values,
          sku: `TEE-${engine}-${i}-${j}`,
          priceCents: random.pick(PRICES),
          stock: random.next() < 0.3 ? 0 : random.int(1, 5),
        })),
      });
    }
    // products in sizes whose variants all cost the same (the index prices them without a loop)
    for (let i = 0; i < 40; i++) {
      const categoryId = random.pick(Object.keys(TREE));
      const sizes = SIZES.filter(() => random.next() < 0.6);
      if (sizes.length === 0) continue;
      const priceCents = random.pick(PRICES);
      await insertProductWithVariants(db, {
        categoryId,
        subcategoryId: random.pick(TREE[categoryId]!),
        name: `${words(NAME_WORDS, 1)} Plain Tee ${i}`,
        description: words(TEXT_WORDS, random.int(0, 4)),
        brand: random.pick(BRANDS),
        rating: random.pick(RATINGS),
        featured: random.next() < 0.3 ? 1 : 0,
        createdAt: random.pick(DATES),
        options: [{ name: "Size", values: sizes }],
        variants: sizes.map((size, j) => ({
          values: [size],
          sku: `PLAIN-${engine}-${i}-${j}`,
          priceCents,
          stock: random.next() < 0.3 ? 0 : random.int(1, 5),
        })),
      });
    }
    attachSearchIndex(db);
    expect(await searchIndexReady(db)).not.toBeNull();
  });
  afterAll(async () => {
    await detachSearchIndex(db);
    await sqlDb?.destroy();
    await t?.destroy();
  });

  /**
   * The listing through the index and through SQL; both answer the same query — with the typo
   * corrections the index's words give (the SQL handle has no index to take them from).
   */
  async function sideBySide(query: ListingQuery) {
    const words = query.search ? searchWords(query.search) : [];
    const corrections = (await searchCorrections(db, words, query.synonyms)) ?? undefined;
    const same = { ...query, corrections };
    return Promise.all([searchProducts(db, same), searchProducts(sqlDb, same)]);
  }

  /** The listing through the index (asserting it answered) and through SQL, side by side. */
  async function both(qs: string) {
    const query = parseListingQuery(new URLSearchParams(qs));
    expect(await searchFromIndex(db, query), `the index answers ${qs}`).not.toBeNull();
    const [viaIndex, viaSql] = await sideBySide(query);
    return { viaIndex, viaSql };
  }

  it("answers every term with the SQL listing's page, total and facets", async () => {
    for (const term of TERMS) {
      const { viaIndex, viaSql } = await both(`search=${encodeURIComponent(term)}`);
      expect(viaIndex, term).toEqual(viaSql);
    }
    // the data holds matches for most terms, so the comparison is not between empty lists
    const nonEmpty = await Promise.all(
      TERMS.map(
        async (term) =>
          (await searchProducts(sqlDb, parseListingQuery(new URLSearchParams({ search: term })))).total,
      ),
    );
    expect(nonEmpty.filter((n) => n > 0).length).toBeGreaterThan(20);
  });

  it("matches SQL for 400 random searches with filters, sorts and pages", async () => {
    const random = createRandom(engine === "sqlite" ? 21 : 22);
    for (let i = 0; i < 400; i++) {
      const params = new URLSearchParams();
      params.set("search", random.pick(TERMS));
      if (random.next() < 0.4) pickCategory(random, params, 0.5);
      if (random.next() < 0.3) params.append("brand", random.pick(BRAND_VALUES));
      if (random.next() < 0.15) params.append("brand", random.pick(BRAND_VALUES));
      if (random.next() < 0.3) params.set("minPrice", String(random.pick([0, 10, 100, 250, 1500])));
      if (random.next() < 0.3) params.set("maxPrice", String(random.pick([100, 250, 500, 1999, 2000])));
      if (random.next() < 0.3) params.set("rating", String(random.pick([1, 2, 3, 4])));
      if (random.next() < 0.15) params.set("featured", "true");
      if (random.next() < 0.15) params.set("new", "true");
      if (random.next() < 0.15) params.set("bestseller", "true");
      params.set("sort", random.pick(SORT_OPTIONS).value);
      if (random.next() < 0.3) params.set("page", String(1 + random.int(0, 3)));
      const query = parseListingQuery(params, random.next() < 0.1 ? { deals: true } : {});
      expect(await searchFromIndex(db, query)).not.toBeNull();
      const [viaIndex, viaSql] = await sideBySide(query);
      expect(viaIndex, params.toString()).toEqual(viaSql);
    }
  });

  it("gives a search's first products without counting (the suggestions) as its listing orders them", async () => {
    const index = (await searchIndexReady(db))!;
    let compared = 0;
    for (const term of [...TERMS, "tee", "navy tee", "m", "wirless"]) {
      const query = await prepareListingQuery(
        db,
        parseListingQuery(new URLSearchParams({ search: term })),
        new Date(),
      );
      const page = (await index.search(query)).ids;
      for (const limit of [1, 6, 24]) {
        expect(await index.firstMatches(query, limit), `${term} ×${limit}`).toEqual(page.slice(0, limit));
      }
      if (page.length > 6) compared++;
    }
    expect(compared).toBeGreaterThan(10);
  });

  it("answers listings without a search by their row filters (prices, rating, flags, deals) as SQL does", async () => {
    const random = createRandom(engine === "sqlite" ? 41 : 42);
    let listed = 0;
    for (let i = 0; i < 200; i++) {
      const params = new URLSearchParams();
      if (random.next() < 0.7) pickCategory(random, params, 0.3);
      if (random.next() < 0.3) params.append("brand", random.pick(BRAND_VALUES));
      // at least one filter the roll-ups cannot answer
      const rowFilters: Array<() => void> = [
        () => params.set("minPrice", String(random.pick([10, 100, 250, 1500]))),
        () => params.set("maxPrice", String(random.pick([100, 250, 500, 1999]))),
        () => params.set("rating", String(random.pick([1, 2, 3, 4]))),
        () => params.set("featured", "true"),
        () => params.set("new", "true"),
        () => params.set("bestseller", "true"),
      ];
      random.pick(rowFilters)();
      if (random.next() < 0.3) random.pick(rowFilters)();
      params.set("sort", random.pick(SORT_OPTIONS).value);
      if (random.next() < 0.3) params.set("page", String(1 + random.int(0, 2)));
      const query = parseListingQuery(params, random.next() < 0.15 ? { deals: true } : {});
      const fromIndex = await searchFromIndex(db, query);
      expect(fromIndex, params.toString()).not.toBeNull();
      const [viaIndex, viaSql] = await sideBySide(query);
      expect(viaIndex, params.toString()).toEqual(viaSql);
      // the index's own answer is SQL's page (what the listing shows from it)
      expect(fromIndex!.ids, params.toString()).toEqual(viaSql.products.map((p) => p.id));
      expect(fromIndex!.total, params.toString()).toBe(viaSql.total);
      if (viaSql.total > 0) listed++;
    }
    expect(listed).toBeGreaterThan(120);
  });

  it("matches SQL for 200 random searches with the owner's synonyms (issue 33), short words included", async () => {
    const random = createRandom(engine === "sqlite" ? 31 : 32);
    const SYNONYMS: Record<string, string[]>[] = [
      { kettle: ["chair", "headphones"], chair: ["kettle", "headphones"] },
      { wireless: ["café", "4k"], pro: ["ir", "é"] },
      { i: ["kettle"], "t-shirt": ["tee", "(limited)"] },
      { aid: ["wireless"], kit: ["50%", "light"], comfort: ["ultra-light"] },
    ];
    for (let i = 0; i < 200; i++) {
      const params = new URLSearchParams();
      const synonyms = random.pick(SYNONYMS);
      const keys = Object.keys(synonyms);
      params.set(
        "search",
        random.next() < 0.7 ? random.pick(keys) : `${random.pick(keys)} ${random.pick(TERMS)}`,
      );
      if (random.next() < 0.3) params.set("category", random.pick(Object.keys(TREE)));
      if (random.next() < 0.2) params.set("minPrice", String(random.pick([0, 10, 100, 250])));
      if (random.next() < 0.2) params.set("size", random.pick(SIZES).toLowerCase());
      params.set("sort", random.pick(SORT_OPTIONS).value);
      if (random.next() < 0.3) params.set("page", String(1 + random.int(0, 2)));
      const query = { ...parseListingQuery(params), synonyms };
      expect(await searchFromIndex(db, query)).not.toBeNull();
      const [viaIndex, viaSql] = await sideBySide(query);
      expect(viaIndex, `${params} with ${JSON.stringify(synonyms)}`).toEqual(viaSql);
    }
    // a synonym finds more: "chair" alone against "chair" with its synonyms
    const alone = await searchProducts(sqlDb, parseListingQuery(new URLSearchParams("search=chair")));
    const withSynonyms = await searchProducts(sqlDb, {
      ...parseListingQuery(new URLSearchParams("search=chair")),
      synonyms: SYNONYMS[0],
    });
    expect(withSynonyms.total).toBeGreaterThan(alone.total);
  });

  /** Misspellings of the catalogue's words (and of option values) and what they mean. */
  const TYPOS: Record<string, string> = {
    wirless: "wireless",
    headphnes: "headphones",
    ketle: "kettle",
    bluetoth: "bluetooth",
    stainlss: "stainless",
    comfrot: "comfort",
    blakc: "black",
    kestral: "kestrel",
    clasic: "classic",
  };

  it("forgives typos (issue 33): a word nothing holds finds the words a small edit away, the same through the index and SQL", async () => {
    await searchIndexReady(db);
    for (const [typo, meant] of Object.entries(TYPOS)) {
      // nothing holds the misspelling; the correction is the word meant
      const asTyped = { ...parseListingQuery(new URLSearchParams({ search: typo })), corrections: {} };
      expect((await searchProducts(sqlDb, asTyped)).total, typo).toBe(0);
      expect(await searchCorrections(db, [typo], undefined), typo).toEqual({ [typo]: [meant] });
      const corrected = await searchProducts(db, parseListingQuery(new URLSearchParams({ search: typo })));
      const exact = await searchProducts(sqlDb, parseListingQuery(new URLSearchParams({ search: meant })));
      expect(corrected.total, typo).toBeGreaterThan(0);
      expect(corrected, typo).toEqual({ ...exact, corrected: [meant] });
    }
    // a word something holds is taken as typed (so exact matches are never mixed with near ones),
    // and so are short words and words with a digit
    for (const word of ["kettle", "shirt", "ir", "kit", "tea", "4k", "xyzzyx"]) {
      expect(await searchCorrections(db, [word], undefined), word).toBeNull();
    }
    // a word whose synonym matches is not corrected
    expect(await searchCorrections(db, ["kettel"], { kettel: ["kettle"] })).toBeNull();
    expect(await searchCorrections(db, ["kettel"], undefined)).toEqual({ kettel: ["kettle"] });
    // one misspelt word of two: the other must still match
    const two = await searchProducts(
      db,
      parseListingQuery(new URLSearchParams({ search: "wirless comfort" })),
    );
    const meant = await searchProducts(
      sqlDb,
      parseListingQuery(new URLSearchParams({ search: "wireless comfort" })),
    );
    expect(two).toEqual({ ...meant, corrected: ["wireless"] });
  });

  it("matches SQL for 200 random misspelt searches with filters, sorts and pages", async () => {
    const random = createRandom(engine === "sqlite" ? 61 : 62);
    let found = 0;
    for (let i = 0; i < 200; i++) {
      const params = new URLSearchParams();
      const typo = random.pick(Object.keys(TYPOS));
      params.set("search", random.next() < 0.7 ? typo : `${typo} ${random.pick(TERMS)}`);
      if (random.next() < 0.3) params.set("category", random.pick(Object.keys(TREE)));
      if (random.next() < 0.2) params.set("minPrice", String(random.pick([0, 10, 100, 250])));
      if (random.next() < 0.2) params.set("size", random.pick(SIZES).toLowerCase());
      params.set("sort", random.pick(SORT_OPTIONS).value);
      if (random.next() < 0.3) params.set("page", String(1 + random.int(0, 2)));
      const parsed = parseListingQuery(params);
      // the corrections come from the index's words; SQL answers the same corrected query
      const corrections = (await searchCorrections(db, searchWords(parsed.search!), undefined)) ?? undefined;
      const query = { ...parsed, corrections };
      expect(await searchFromIndex(db, query)).not.toBeNull();
      const [viaIndex, viaSql] = await sideBySide(query);
      expect(viaIndex, params.toString()).toEqual(viaSql);
      if (viaSql.total > 0) found++;
    }
    expect(found).toBeGreaterThan(80);
  });

  /** A random listing with option filters, and often a search, a category, prices, a rating, a brand. */
  function randomOptionListing(random: ReturnType<typeof createRandom>) {
    const params = new URLSearchParams();
    if (random.next() < 0.3) params.set("search", random.pick(["tee", "black", "m", "wireless", "navy tee"]));
    if (random.next() < 0.6) params.set("category", random.pick(Object.keys(TREE)));
    for (const size of SIZES) if (random.next() < 0.2) params.append("size", size.toLowerCase());
    for (const colour of COLOURS) if (random.next() < 0.2) params.append("colour", colour.toLowerCase());
    if (random.next() < 0.05) params.set("fbclid", "x"); // not an option: ignored
    if (random.next() < 0.3) params.set("minPrice", String(random.pick([0, 10, 100, 250])));
    if (random.next() < 0.3) params.set("maxPrice", String(random.pick([100, 250, 500, 2000])));
    // whole-star ratings and $100 steps: counted from the index's roll-up (option-bands.ts)
    if (random.next() < 0.25) params.set("rating", String(random.pick([1, 2, 3, 4])));
    if (random.next() < 0.2) params.append("brand", random.pick(BRANDS).toLowerCase());
    if (random.next() < 0.1) params.set("featured", "true");
    params.set("sort", random.pick(SORT_OPTIONS).value);
    return params;
  }

  it("matches SQL for 300 random listings with option filters and facets", async () => {
    const random = createRandom(engine === "sqlite" ? 31 : 32);
    let withOptions = 0;
    let oneKey = 0;
    for (let i = 0; i < 300; i++) {
      const params = randomOptionListing(random);
      const query = parseListingQuery(params);
      expect(await searchFromIndex(db, query)).not.toBeNull();
      const [viaIndex, viaSql] = await sideBySide(query);
      expect(viaIndex, params.toString()).toEqual(viaSql);
      if (viaSql.facets.options.length > 0 && viaSql.total > 0) withOptions++;
      if (!query.search && Object.keys(query.options).length === 1 && viaSql.total > 0) oneKey++;
    }
    // most comparisons had option facets with products behind them, many one key without a search
    // (answered a word of products at a time, one-key-listing.ts)
    expect(withOptions).toBeGreaterThan(100);
    expect(oneKey).toBeGreaterThan(40);
  });

  it("answers the same whether option values keep postings lists or bitsets", async () => {
    const lists = await buildSearchIndex(sqlDb, () => false, { denseShare: Number.POSITIVE_INFINITY });
    const bitsets = await buildSearchIndex(sqlDb, () => false, { denseShare: 0 });
    const random = createRandom(engine === "sqlite" ? 41 : 42);
    let nonEmpty = 0;
    for (let i = 0; i < 300; i++) {
      const params = randomOptionListing(random);
      const query = parseListingQuery(params);
      const answer = lists!.search(query);
      expect(bitsets!.search(query), params.toString()).toEqual(answer);
      if (answer.total > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(150);
  });

  it("is built the same in a worker thread (as the server builds it) and answers the same", async () => {
    const workerDb = createDatabase(t.url);
    try {
      attachSearchIndex(workerDb, {
        url: new URL("../../app/infra/search-index/search-index-worker.ts", import.meta.url),
        databaseUrl: t.url,
      });
      const index = await searchIndexReady(workerDb);
      expect(index?.size).toBe((await buildSearchIndex(db))?.size);
      for (const qs of ["search=ir&sort=featured", "search=wireless&sort=newest", "search=é&category=home"]) {
        const query = parseListingQuery(new URLSearchParams(qs));
        expect(await searchFromIndex(workerDb, query), qs).not.toBeNull();
        expect(await searchProducts(workerDb, query), qs).toEqual(await searchProducts(sqlDb, query));
      }
    } finally {
      await detachSearchIndex(workerDb);
      await workerDb.destroy();
    }
  });

  it("orders the same whether the sort keys are packed into one number or compared in two steps", async () => {
    const index = await buildSearchIndex(db);
    expect(index).not.toBeNull();
    const positions = Int32Array.from({ length: index!.size }, (_, p) => p);
    for (const { value } of SORT_OPTIONS) {
      const compared = index!.order(positions, value, null, positions.length, 0);
      expect(compared).toHaveLength(index!.size);
      expect(index!.order(positions, value, null), value).toEqual(compared);
      // the first pages through the bounded heap
      for (const limit of [1, 5, 24]) {
        expect(index!.order(positions, value, null, limit), `${value} first ${limit}`).toEqual(
          compared.slice(0, limit),
        );
      }
    }
  });

  it("orders Newest by the text of created_at when a value is not a toISOString() instant", async () => {
    const odd = await insertProduct(db, {
      categoryId: "toys",
      subcategoryId: null,
      name: "Wireless Oddity",
      createdAt: "2026-02-01 10:00:00",
    });
    try {
      await searchIndexReady(db);
      for (const term of ["wireless", "i", "odd"]) {
        const { viaIndex, viaSql } = await both(`search=${term}&sort=newest`);
        expect(viaIndex, term).toEqual(viaSql);
      }
    } finally {
      await db.deleteFrom("products").where("id", "=", odd).execute();
      await searchIndexReady(db);
    }
  });

  it("finds every vocabulary word that contains a term, short terms included", async () => {
    const index = await buildSearchIndex(db);
    const found = (term: string) => new Set(index!.wordsContaining(term));
    // "ir" is inside firewire, their, first, irony and t-shirt
    expect(found("ir").size).toBeGreaterThanOrEqual(5);
    expect(found("\n").size).toBe(0);
    expect(found("zzzz").size).toBe(0);
  });

  it("with a catalogue promotion live: the same listings as SQL, price-bound and price-sorted ones left to SQL", async () => {
    // decision 035: the index holds regular prices; a catalogue promotion (automatic, no condition)
    // moves no catalogue version, so the index stays fresh and answers what prices do not decide
    const version = await readCatalogVersion(db);
    const promotion = await db
      .insertInto("promotions")
      .values({
        name: "Electronics 15 % off",
        action: JSON.stringify({
          type: "items-percent",
          target: { categories: ["electronics"], brands: ["Lumen"] },
          basisPoints: 1_500,
          apply: "all",
        }),
        conditions: "[]",
        createdAt: "2026-01-01T00:00:00.000Z",
        updatedAt: "2026-01-01T00:00:00.000Z",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    try {
      expect(await readCatalogVersion(db)).toBe(version);
      const random = createRandom(engine === "sqlite" ? 51 : 52);
      let byIndex = 0;
      let bySql = 0;
      for (let i = 0; i < 150; i++) {
        const params =
          i % 2 === 0 ? randomOptionListing(random) : new URLSearchParams({ search: random.pick(TERMS) });
        if (i % 2 === 1 && random.next() < 0.4) params.set("maxPrice", String(random.pick([100, 250, 500])));
        if (i % 2 === 1) params.set("sort", random.pick(SORT_OPTIONS).value);
        const query = parseListingQuery(params);
        const priced =
          query.minPrice > 0 ||
          query.maxPrice < 2000 ||
          query.sort === "price-asc" ||
          query.sort === "price-desc";
        const indexed = await searchFromIndex(db, { ...query, sale: await cataloguePromotions(db) });
        if (priced) {
          expect(indexed, params.toString()).toBeNull();
          bySql++;
        } else {
          expect(indexed, params.toString()).not.toBeNull();
          byIndex++;
        }
        const [viaIndex, viaSql] = await sideBySide(query);
        expect(viaIndex, params.toString()).toEqual(viaSql);
      }
      expect(byIndex).toBeGreaterThan(30);
      expect(bySql).toBeGreaterThan(30);
    } finally {
      await db.deleteFrom("promotions").where("id", "=", promotion.id).execute();
    }
  });

  it("in a large catalogue answers from the last index while the next is built, never from SQL", async () => {
    // a handle whose catalogue counts as large from one product (STALE_INDEX_FROM_PRODUCTS)
    const large = createDatabase(t.url);
    attachSearchIndex(large, null, { staleFromProducts: 1 });
    try {
      const built = await searchIndexReady(large);
      const query = parseListingQuery(new URLSearchParams({ search: "wombatphone" }));
      const id = await insertProduct(db, {
        categoryId: "toys",
        subcategoryId: null,
        name: "Wombatphone Mini",
      });
      // stale: the last index answers at once (without the new product) and a rebuild starts
      const stale = await searchFromIndex(large, query);
      expect(stale).not.toBeNull();
      expect(stale!.total).toBe(0);
      const rebuilt = await searchIndexReady(large);
      expect(rebuilt).not.toBe(built);
      expect((await searchFromIndex(large, query))?.ids).toEqual([id]);
      // while stale, a typo is still corrected from the words the last index holds
      await db.updateTable("products").set({ priceCents: 1234 }).where("id", "=", id).execute();
      expect(await searchCorrections(large, ["wombatphon"], undefined)).toBeNull(); // a substring: exact
      expect(await searchCorrections(large, ["wonbatphone"], undefined)).toEqual({
        wonbatphone: ["wombatphone"],
      });
      expect(
        (
          await searchFromIndex(large, {
            ...query,
            search: "wonbatphone",
            corrections: { wonbatphone: ["wombatphone"] },
          })
        )?.ids,
      ).toEqual([id]);
      await db.deleteFrom("products").where("id", "=", id).execute();
      await searchIndexReady(large);
      expect((await searchFromIndex(large, query))?.total).toBe(0);
    } finally {
      await detachSearchIndex(large);
      await large.destroy();
    }
  });

  it("is bypassed while stale: a change is found at once by SQL, then by the rebuilt index", async () => {
    const before = await readCatalogVersion(db);
    const id = await insertProduct(db, {
      categoryId: "toys",
      subcategoryId: null,
      name: "Quokkaphone Deluxe",
    });
    expect(await readCatalogVersion(db)).toBeGreaterThan(before);
    const query = parseListingQuery(new URLSearchParams({ search: "quokka" }));
    // stale: the index does not answer, SQL does, and a rebuild has started
    expect(await searchFromIndex(db, query)).toBeNull();
    expect((await searchProducts(db, query)).products.map((p) => p.id)).toEqual([id]);
    await searchIndexReady(db);
    expect((await searchFromIndex(db, query))?.ids).toEqual([id]);

    // a stock change (every order makes one) leaves the version, and the index, as they are
    const version = await readCatalogVersion(db);
    await db.updateTable("products").set({ stock: 3 }).where("id", "=", id).execute();
    expect(await readCatalogVersion(db)).toBe(version);
    expect(await searchFromIndex(db, query)).not.toBeNull();

    // a price change, an archive and a delete each make it stale
    for (const change of [
      () => db.updateTable("products").set({ priceCents: 777 }).where("id", "=", id).execute(),
      () =>
        db
          .updateTable("products")
          .set({ archivedAt: "2026-03-01T00:00:00.000Z" })
          .where("id", "=", id)
          .execute(),
      () => db.deleteFrom("products").where("id", "=", id).execute(),
    ]) {
      const at = await readCatalogVersion(db);
      await change();
      expect(await readCatalogVersion(db)).toBeGreaterThan(at);
      expect(await searchFromIndex(db, query)).toBeNull();
      await searchIndexReady(db);
    }
    expect((await searchFromIndex(db, query))?.total).toBe(0);
  });

  it("is patched with the products written since its build (decision 041): the same listings as SQL, no rebuild", async () => {
    const built = (await searchIndexReady(db))!;
    const random = createRandom(engine === "sqlite" ? 71 : 72);
    const ids = (await db.selectFrom("products").select("id").orderBy("id").execute()).map((row) => row.id);
    const variantIds = (await db.selectFrom("productVariants").select("id").orderBy("id").execute()).map(
      (row) => row.id,
    );
    const added: number[] = [];
    const change = async (i: number) => {
      const id = random.pick(ids);
      const set = (values: ProductUpdate) =>
        db.updateTable("products").set(values).where("id", "=", id).execute();
      switch (random.int(0, 7)) {
        case 0: // a review
          return set({ rating: random.pick(RATINGS), reviewCount: random.int(0, 9) });
        case 1: {
          // a variant's new price, and its product's summary (the domain's rule)
          const variant = await db
            .selectFrom("productVariants")
            .select("id")
            .where("productId", "=", id)
            .executeTakeFirst();
          if (!variant) return;
          await db
            .updateTable("productVariants")
            .set({ priceCents: random.pick(PRICES) })
            .where("id", "=", variant.id)
            .execute();
          return syncProductSummary(db, id);
        }
        case 2: // a word no product held
          return set({ name: `Zebrafone ${random.pick(NAME_WORDS)} ${i}` });
        case 3: // archived, or back
          return set({ archivedAt: random.next() < 0.5 ? "2026-04-01T00:00:00.000Z" : null });
        case 4:
          return set({
            featured: random.pick<Flag>([0, 1]),
            bestSeller: random.pick<Flag>([0, 1]),
            createdAt: random.pick(DATES),
          });
        case 5: // a variant sold out or restocked (the product's in-stock options change)
          return setStockLevels(db, [{ variantId: random.pick(variantIds), level: random.int(0, 2) }], {
            reason: "admin_set",
            actor: "test",
          });
        case 6: {
          const categoryId = random.pick(Object.keys(TREE));
          const newId = await insertProduct(db, {
            categoryId,
            subcategoryId: random.pick(TREE[categoryId]!),
            name: `Zebrafone ${random.pick(NAME_WORDS)} new ${i}`,
            brand: random.pick(BRANDS),
            priceCents: random.pick(PRICES),
            rating: random.pick(RATINGS),
            featured: random.pick<Flag>([0, 1]),
            createdAt: random.pick(DATES),
          });
          added.push(newId);
          ids.push(newId);
          return;
        }
        default: {
          // one added here deleted again
          const gone = added.pop();
          if (gone !== undefined) await db.deleteFrom("products").where("id", "=", gone).execute();
        }
      }
    };
    const listing = (): URLSearchParams => {
      if (random.next() < 0.35) return randomOptionListing(random);
      const params = new URLSearchParams();
      if (random.next() < 0.7) params.set("search", random.pick([...TERMS, "zebrafone", "zebrafone tee"]));
      if (random.next() < 0.4) pickCategory(random, params, 0.5);
      if (random.next() < 0.3) params.set("minPrice", String(random.pick([0, 10, 100, 250])));
      if (random.next() < 0.3) params.set("rating", String(random.pick([1, 2, 3, 4])));
      if (random.next() < 0.15) params.set("featured", "true");
      params.set("sort", random.pick(SORT_OPTIONS).value);
      if (random.next() < 0.3) params.set("page", String(1 + random.int(0, 2)));
      return params;
    };
    for (let round = 1; round <= 2; round++) {
      for (let i = 0; i < 40; i++) await change(round * 100 + i);
      const index = (await searchIndexReady(db))!;
      // the build with the changed products applied, not a new build
      expect(index.baseVersion).toBe(built.version);
      expect(index.version).toBe(await readCatalogVersion(db));
      let listed = 0;
      for (let i = 0; i < 150; i++) {
        const params = listing();
        const query = parseListingQuery(params);
        expect(await searchFromIndex(db, query), params.toString()).not.toBeNull();
        const [viaIndex, viaSql] = await sideBySide(query);
        expect(viaIndex, params.toString()).toEqual(viaSql);
        if (viaSql.total > 0) listed++;
      }
      expect(listed).toBeGreaterThan(75);
      // the suggestions: the listing's first products
      for (const term of ["zebrafone", "tee", "wireless"]) {
        const query = await prepareListingQuery(
          db,
          parseListingQuery(new URLSearchParams({ search: term })),
          new Date(),
        );
        const page = (await index.search(query)).ids;
        expect(await index.firstMatches(query, 6), term).toEqual(page.slice(0, 6));
      }
    }
    // a misspelling of a word only changed products hold is corrected to it
    expect(await searchCorrections(db, ["zebrafome"], undefined)).toEqual({ zebrafome: ["zebrafone"] });

    // the same through the searcher thread, as the server asks it
    const workerDb = createDatabase(t.url);
    try {
      attachSearchIndex(workerDb, {
        url: new URL("../../app/infra/search-index/search-index-worker.ts", import.meta.url),
        databaseUrl: t.url,
      });
      const workerBuilt = (await searchIndexReady(workerDb))!;
      for (let i = 0; i < 20; i++) await change(300 + i);
      const index = (await searchIndexReady(workerDb))!;
      expect(index.baseVersion).toBe(workerBuilt.version);
      expect(index.version).toBeGreaterThan(workerBuilt.version);
      for (let i = 0; i < 40; i++) {
        const params = listing();
        const query = parseListingQuery(params);
        expect(await searchFromIndex(workerDb, query), params.toString()).not.toBeNull();
        expect(await searchProducts(workerDb, query), params.toString()).toEqual(
          await searchProducts(sqlDb, query),
        );
      }
    } finally {
      await detachSearchIndex(workerDb);
      await workerDb.destroy();
    }
  });
});
