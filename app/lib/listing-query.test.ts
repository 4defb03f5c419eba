import { describe, expect, it } from "vitest";
import {
  type ListingQuery,
  listingHref,
  listingSearchParams,
  PAGE_SIZE,
  PRICE_MAX,
  PRICE_MIN,
  parseListingQuery,
  SEARCH_MAX_LENGTH,
  SORT_OPTIONS,
  searchWords,
} from "./listing-query.ts";

const parse = (query: string, preset: Partial<ListingQuery> = {}) =>
  parseListingQuery(new URLSearchParams(query), preset);

const DEFAULTS: ListingQuery = {
  category: null,
  subcategory: null,
  search: null,
  brands: [],
  minPrice: 0,
  maxPrice: 2000,
  rating: null,
  sort: "featured",
  page: 1,
  featured: false,
  newArrival: false,
  bestSeller: false,
  deals: false,
  options: {},
};

describe("parseListingQuery", () => {
  it("an empty query is the defaults", () => {
    expect(parse("")).toEqual(DEFAULTS);
    expect(PRICE_MIN).toBe(0);
    expect(PRICE_MAX).toBe(2000);
    expect(PAGE_SIZE).toBe(24);
  });

  it("ignores parameters it does not know, keeping option-like ones as candidate option filters", () => {
    // the listing keeps only the keys the catalogue's options have (listing.server.ts)
    expect(parse("foo=bar&utm_source=x&Category=electronics")).toEqual({
      ...DEFAULTS,
      options: { foo: ["bar"] },
    });
  });

  describe("category and subcategory", () => {
    it.each([
      ["electronics", "electronics"],
      ["ELECTRONICS", "electronics"],
      ["  home ", "home"],
      ["books", "books"],
      ["health", "health"],
      ["bogus", null],
      ["", null],
      ["smartphones", null], // a subcategory is not a category
      ["electronics,home", null],
    ])("category=%j → %j", (value, expected) => {
      expect(parse(`category=${encodeURIComponent(value)}`).category).toBe(expected);
    });

    it("keeps a subcategory that belongs to the category", () => {
      const q = parse("category=electronics&subcategory=smartphones");
      expect(q.category).toBe("electronics");
      expect(q.subcategory).toBe("smartphones");
    });

    it("a subcategory alone implies its category", () => {
      expect(parse("subcategory=laptops")).toMatchObject({ category: "electronics", subcategory: "laptops" });
      expect(parse("subcategory=Skincare")).toMatchObject({ category: "beauty", subcategory: "skincare" });
      expect(parse("subcategory=security")).toMatchObject({ category: "home", subcategory: "security" });
    });

    it("a subcategory with an unknown category still implies its own category", () => {
      expect(parse("category=bogus&subcategory=furniture")).toMatchObject({
        category: "home",
        subcategory: "furniture",
      });
    });

    it("an explicitly empty category ('All categories') drops the subcategory as well", () => {
      expect(parse("category=&subcategory=smartphones")).toMatchObject({ category: null, subcategory: null });
      expect(parse("subcategory=smartphones&category=%20")).toMatchObject({
        category: null,
        subcategory: null,
      });
      // but an absent or unknown one does not
      expect(parse("subcategory=smartphones")).toMatchObject({
        category: "electronics",
        subcategory: "smartphones",
      });
    });

    it("drops a subcategory that contradicts the category, keeping the category", () => {
      expect(parse("category=clothing&subcategory=smartphones")).toMatchObject({
        category: "clothing",
        subcategory: null,
      });
    });

    it("ignores an unknown subcategory", () => {
      expect(parse("category=electronics&subcategory=bogus")).toMatchObject({
        category: "electronics",
        subcategory: null,
      });
      expect(parse("subcategory=bogus")).toMatchObject({ category: null, subcategory: null });
      // a category id is not a subcategory
      expect(parse("subcategory=electronics")).toMatchObject({ category: null, subcategory: null });
    });

    it("uses the first value of a repeated category", () => {
      expect(parse("category=home&category=electronics").category).toBe("home");
    });
  });

  describe("brand", () => {
    it("is repeatable and comma-separated, lower-cased, trimmed, deduplicated and sorted", () => {
      expect(parse("brand=Kestrel&brand=lumen,%20AURORA%20&brand=kestrel,,&brand=Lumen").brands).toEqual([
        "aurora",
        "kestrel",
        "lumen",
      ]);
    });

    it("drops values with control characters", () => {
      expect(parse("brand=%00&brand=kes%00trel,lumen&brand=a%7F").brands).toEqual(["lumen"]);
    });

    it("lower-cases non-ASCII letters too", () => {
      expect(parse(`brand=${encodeURIComponent("ÉLAN,Öko")}`).brands).toEqual(["élan", "öko"]);
    });

    it("ignores empty values", () => {
      expect(parse("brand=&brand=,,%20,").brands).toEqual([]);
    });

    it("keeps at most 30 brands and drops absurdly long ones", () => {
      const many = Array.from({ length: 100 }, (_, i) => `b${String(i).padStart(3, "0")}`);
      const brands = parse(`brand=${many.join(",")}`).brands;
      expect(brands).toHaveLength(30);
      expect(new Set(brands).size).toBe(30);
      for (const b of brands) expect(many).toContain(b);
      expect(parse(`brand=${"x".repeat(61)}&brand=${"y".repeat(60)}`).brands).toEqual(["y".repeat(60)]);
    });

    it("a brand that is a repeat of an earlier one does not use up the limit", () => {
      const repeated = Array.from({ length: 40 }, () => "kestrel").join(",");
      expect(parse(`brand=${repeated},lumen`).brands).toEqual(["kestrel", "lumen"]);
    });
  });

  describe("price", () => {
    it.each([
      ["minPrice=100&maxPrice=500", 100, 500],
      ["minPrice=0&maxPrice=2000", 0, 2000],
      ["minPrice=-5", 0, 2000],
      ["maxPrice=-5", 0, 0],
      ["minPrice=5000", 2000, 2000],
      ["maxPrice=99999999999999999999999", 0, 2000],
      ["minPrice=800&maxPrice=200", 200, 800],
      ["minPrice=3000&maxPrice=100", 100, 2000],
      ["minPrice=12.75", 12, 2000],
      ["minPrice=%20150%20", 150, 2000],
      ["minPrice=abc&maxPrice=def", 0, 2000],
      ["minPrice=1e3", 0, 2000],
      ["minPrice=0x10", 0, 2000],
      ["minPrice=&maxPrice=", 0, 2000],
      ["minPrice=100abc", 0, 2000],
      ["minPrice=Infinity&maxPrice=NaN", 0, 2000],
    ])("%s → %i..%i", (query, min, max) => {
      const q = parse(query);
      expect([q.minPrice, q.maxPrice]).toEqual([min, max]);
      expect(Number.isInteger(q.minPrice) && Number.isInteger(q.maxPrice)).toBe(true);
    });
  });

  describe("rating", () => {
    it.each([
      ["1", 1],
      ["2", 2],
      ["3", 3],
      ["4", 4],
      ["3.7", 3],
      ["9", 4],
      ["5", 4],
      ["0", null],
      ["-1", null],
      ["-10", null],
      ["", null],
      ["four", null],
      ["4stars", null],
    ])("rating=%j → %j", (value, expected) => {
      expect(parse(`rating=${encodeURIComponent(value)}`).rating).toBe(expected);
    });
  });

  describe("sort", () => {
    it.each(SORT_OPTIONS.map((o) => o.value))("accepts %s", (value) => {
      expect(parse(`sort=${value}`).sort).toBe(value);
    });

    it.each(["bogus", "", "PRICE-ASC", "price", "price-asc ", "__proto__", "toString"])(
      "unknown sort %j → featured",
      (value) => {
        expect(parse(`sort=${encodeURIComponent(value)}`).sort).toBe("featured");
      },
    );

    it("offers exactly the spec's five orders with its labels", () => {
      expect(SORT_OPTIONS.map((o) => o.label)).toEqual([
        "Featured",
        "Price: Low to High",
        "Price: High to Low",
        "Top Rated",
        "Newest",
      ]);
    });
  });

  describe("page", () => {
    it.each([
      ["2", 2],
      ["17", 17],
      ["1", 1],
      ["0", 1],
      ["-3", 1],
      ["abc", 1],
      ["", 1],
      ["2.9", 2],
      ["1e9", 1],
      ["99999999", 10_000],
    ])("page=%j → %i", (value, expected) => {
      expect(parse(`page=${encodeURIComponent(value)}`).page).toBe(expected);
    });
  });

  describe("flags", () => {
    it("are set only by exactly 'true'", () => {
      expect(parse("featured=true&new=true&bestseller=true")).toMatchObject({
        featured: true,
        newArrival: true,
        bestSeller: true,
      });
      for (const value of ["1", "TRUE", "True", "yes", "", "on", "false", " true"]) {
        const q = parse(
          `featured=${encodeURIComponent(value)}&new=${encodeURIComponent(value)}&bestseller=${encodeURIComponent(value)}`,
        );
        expect([q.featured, q.newArrival, q.bestSeller], value).toEqual([false, false, false]);
      }
    });

    it("deals is never read from the URL, only from a preset", () => {
      expect(parse("deals=true").deals).toBe(false);
      expect(parse("", { deals: true }).deals).toBe(true);
    });

    it("a preset wins over the URL", () => {
      expect(parse("new=false", { newArrival: true }).newArrival).toBe(true);
    });
  });

  describe("search", () => {
    it("is trimmed, with runs of whitespace collapsed to one space", () => {
      expect(parse(`search=${encodeURIComponent("  Wireless \t\n  HEADphones   ")}`).search).toBe(
        "Wireless HEADphones",
      );
    });

    it("treats control characters as spaces (a NUL must never reach the database)", () => {
      expect(parse("search=oak%00chair").search).toBe("oak chair");
      expect(parse("search=%00").search).toBeNull();
      expect(parse("search=%01a%1Fb%7F").search).toBe("a b");
    });

    it("blank is none", () => {
      expect(parse("search=").search).toBeNull();
      expect(parse(`search=${encodeURIComponent(" \t\n ")}`).search).toBeNull();
    });

    it(`is capped at ${SEARCH_MAX_LENGTH} characters`, () => {
      expect(SEARCH_MAX_LENGTH).toBe(100);
      const q = parse(`search=${"a".repeat(150)}`);
      expect(q.search).toBe("a".repeat(100));
    });

    it("does not end on a space after the cut", () => {
      const search = parse(`search=${"a".repeat(99)}%20bbbb`).search!;
      expect(search).toBe("a".repeat(99));
    });

    it("never cuts a character in half (no lone surrogate at the cap)", () => {
      const search = parse(`search=${encodeURIComponent(`${"a".repeat(99)}😀😀`)}`).search!;
      expect(search.length).toBeLessThanOrEqual(100);
      expect(search.isWellFormed()).toBe(true);
      expect(search.startsWith("a".repeat(99))).toBe(true);
    });

    it("copes with a 10 000-character input of every kind", () => {
      const inputs = [
        "x".repeat(10_000),
        "word ".repeat(2_000),
        "😀".repeat(5_000),
        "%_\\'\"".repeat(2_000),
        " ".repeat(10_000),
      ];
      for (const input of inputs) {
        const q = parse(`search=${encodeURIComponent(input)}&brand=${encodeURIComponent(input)}`);
        expect(q.search === null || q.search.length <= 100).toBe(true);
        if (q.search) expect(q.search.isWellFormed()).toBe(true);
        expect(q.brands).toEqual([]);
      }
    });
  });

  it("parses a full query", () => {
    expect(
      parse(
        "category=electronics&subcategory=audio&search=noise+cancelling&brand=Aurora&brand=kestrel&minPrice=100&maxPrice=900&rating=4&sort=price-desc&page=3&featured=true&new=true&bestseller=true",
      ),
    ).toEqual({
      category: "electronics",
      subcategory: "audio",
      search: "noise cancelling",
      brands: ["aurora", "kestrel"],
      minPrice: 100,
      maxPrice: 900,
      rating: 4,
      sort: "price-desc",
      page: 3,
      featured: true,
      newArrival: true,
      bestSeller: true,
      deals: false,
      options: {},
    });
  });
});

describe("option filters", () => {
  const parse = (search: string) => parseListingQuery(new URLSearchParams(search)).options;

  it("reads every parameter named like an option key, values lower-cased, sorted and once", () => {
    expect(parse("size=M&colour=Black&size=l&size=m&case-size=40+mm")).toEqual({
      "case-size": ["40 mm"],
      colour: ["black"],
      size: ["l", "m"],
    });
  });

  it("never takes the listing's own parameters or keys not in the option key form", () => {
    expect(parse("category=fashion&minPrice=10&sort=newest&Size=M&size_x=m&-size=m")).toEqual({});
  });

  it("drops empty, over-long and control-character values, and keeps at most 6 keys", () => {
    expect(parse(`size=&size=${"x".repeat(41)}&size=%00m&colour=%20`)).toEqual({});
    const many = "a=1&b=1&c=1&d=1&e=1&f=1&g=1&h=1";
    expect(Object.keys(parse(many))).toEqual(["a", "b", "c", "d", "e", "f"]);
  });
});

describe("listingSearchParams / listingHref", () => {
  const full: ListingQuery = {
    category: "electronics",
    subcategory: "smartphones",
    search: "x12 phone",
    brands: ["kestrel", "lumen"],
    minPrice: 100,
    maxPrice: 1500,
    rating: 3,
    sort: "newest",
    page: 2,
    featured: true,
    newArrival: true,
    bestSeller: true,
    deals: false,
    options: { colour: ["black"], size: ["l", "m"] },
  };

  it("omits every default", () => {
    expect(listingSearchParams(DEFAULTS).toString()).toBe("");
    expect(listingHref("/products", DEFAULTS)).toBe("/products");
    expect(
      listingHref("/products", { ...DEFAULTS, minPrice: 0, maxPrice: 2000, page: 1, rating: null }),
    ).toBe("/products");
  });

  it("writes each non-default value once, in a stable order", () => {
    expect(listingHref("/products", full)).toBe(
      "/products?category=electronics&subcategory=smartphones&search=x12+phone&brand=kestrel&brand=lumen&minPrice=100&maxPrice=1500&rating=3&colour=black&size=l&size=m&featured=true&new=true&bestseller=true&sort=newest&page=2",
    );
  });

  it("leaves out flags the listing's preset implies", () => {
    const preset = { newArrival: true };
    const q = parse("sort=price-asc", preset);
    expect(listingHref("/products/new-arrivals", q, preset)).toBe("/products/new-arrivals?sort=price-asc");
    expect(listingHref("/products/deals", parse("", { deals: true }), { deals: true })).toBe(
      "/products/deals",
    );
  });

  const samples: Array<[string, ListingQuery]> = [
    ["defaults", DEFAULTS],
    ["full", full],
    ["category only", { ...DEFAULTS, category: "home" }],
    ["min only", { ...DEFAULTS, minPrice: 300 }],
    ["max only", { ...DEFAULTS, maxPrice: 0 }],
    ["min = max", { ...DEFAULTS, minPrice: 700, maxPrice: 700 }],
    ["min = max = 2000", { ...DEFAULTS, minPrice: 2000, maxPrice: 2000 }],
    ["rating 4, last page", { ...DEFAULTS, rating: 4, page: 10_000 }],
    ["search with symbols", { ...DEFAULTS, search: `50% off & "quotes" + a=b #1 / ü 😀` }],
    ["every sort", { ...DEFAULTS, sort: "price-desc" }],
    ["brands", { ...DEFAULTS, brands: ["a&b", "c d", "é"] }],
  ];

  it.each(samples)("round trip: parse(serialise(q)) equals q (%s)", (_, q) => {
    expect(parseListingQuery(listingSearchParams(q))).toEqual(q);
    const href = listingHref("/products", q);
    expect(parseListingQuery(new URL(href, "http://x").searchParams)).toEqual(q);
  });

  it("round trips with a preset", () => {
    const preset = { deals: true };
    const q = parse("category=beauty&sort=rating&page=2", preset);
    expect(parseListingQuery(listingSearchParams(q, preset), preset)).toEqual(q);
  });

  it("round trips whatever was parsed (normalisation is idempotent)", () => {
    const messy = [
      "category=ELECTRONICS&subcategory=Laptops&brand=B,a,A&minPrice=900&maxPrice=100&rating=9&sort=bogus&page=0",
      `search=${encodeURIComponent(`  ${"long ".repeat(50)}`)}&featured=true`,
      `search=${encodeURIComponent(`${"a".repeat(99)}😀`)}`,
      "subcategory=kitchen&minPrice=-1&maxPrice=5000&page=-2&new=TRUE&bestseller=true",
    ];
    for (const m of messy) {
      const q = parse(m);
      expect(parseListingQuery(listingSearchParams(q)), m).toEqual(q);
    }
  });
});

describe("searchWords", () => {
  it.each([
    ["phone", ["phone"]],
    ["Wireless HEADPHONES", ["wireless", "headphones"]],
    ["a b a B", ["a", "b"]],
    [
      "one two three four five six seven eight nine ten",
      ["one", "two", "three", "four", "five", "six", "seven", "eight"],
    ],
    ['"quoted" OR -x', ['"quoted"', "or", "-x"]],
    ["", []],
  ])("%j → %j", (search, words) => {
    expect(searchWords(search)).toEqual(words);
  });

  it("never yields an empty word, even on unnormalised input", () => {
    expect(searchWords("  a   b  ")).toEqual(["a", "b"]);
    expect(searchWords("a\tb\u0000c\n")).toEqual(["a", "b", "c"]);
    expect(searchWords("\u0000")).toEqual([]);
  });
});
