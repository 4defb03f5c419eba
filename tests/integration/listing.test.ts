import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/db/database.server.ts";
import {
  countProducts,
  type ListingResult,
  listBrands,
  searchProducts,
} from "../../app/domain/catalog/listing.server.ts";
import { type ListingQuery, PAGE_SIZE, parseListingQuery, searchWords } from "../../app/lib/listing-query.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { ensureCategory, insertProduct } from "../helpers/catalog.ts";

/**
 * A known catalogue. Ties are deliberate: Lumen Book / Lumen Air share rating, review count
 * and creation date; the Veltro watch and wallet too. Prices sit on the edges of whole-dollar
 * bounds (99.99, 100.00, 500.00, 500.01) and above the slider's top (2,500.00). Two are archived.
 */
interface Fixture {
  key: string;
  name: string;
  description: string;
  brand: string;
  category: string;
  subcategory: string | null;
  price: number; // cents
  rating: number;
  reviews: number;
  age: number; // days before BASE
  flags?: string; // F featured, N new arrival, B best seller
  discount?: number;
  archived?: boolean;
}

const CATALOGUE: Fixture[] = [
  {
    key: "x12",
    name: "Kestrel X12 Smartphone",
    description: "OLED display and a triple camera.",
    brand: "Kestrel",
    category: "electronics",
    subcategory: "smartphones",
    price: 89999,
    rating: 4.6,
    reviews: 1284,
    age: 60,
    flags: "FB",
    discount: 18,
  },
  {
    key: "mini",
    name: "Kestrel Mini Phone",
    description: "A compact handset.",
    brand: "KESTREL",
    category: "electronics",
    subcategory: "smartphones",
    price: 49900,
    rating: 4,
    reviews: 50,
    age: 20,
    flags: "N",
  },
  {
    key: "book",
    name: "Lumen Book Pro 14 Laptop",
    description: "Twelve cores, 32 GB of memory.",
    brand: "Lumen",
    category: "electronics",
    subcategory: "laptops",
    price: 129999,
    rating: 4.8,
    reviews: 642,
    age: 6,
    flags: "FN",
    discount: 13,
  },
  {
    key: "air",
    name: "Lumen Air Notebook",
    description: "A light laptop for travel.",
    brand: "lumen",
    category: "electronics",
    subcategory: "laptops",
    price: 99900,
    rating: 4.8,
    reviews: 642,
    age: 6,
  },
  {
    key: "anc",
    name: "Aurora ANC Wireless Headphones",
    description: "Over-ear noise cancelling.",
    brand: "Aurora",
    category: "electronics",
    subcategory: "audio",
    price: 24999,
    rating: 4.5,
    reviews: 2113,
    age: 120,
    flags: "FB",
    discount: 24,
  },
  {
    key: "buds",
    name: "Aurora Buds",
    description: "In-ear wireless buds.",
    brand: "Aurora",
    category: "electronics",
    subcategory: "audio",
    price: 9999,
    rating: 3.9,
    reviews: 400,
    age: 30,
  },
  {
    key: "tab",
    name: "Tab Seven",
    description: "A 7-inch slate.",
    brand: "Pixelon",
    category: "electronics",
    subcategory: "tablets",
    price: 50000,
    rating: 3.2,
    reviews: 12,
    age: 15,
  },
  {
    key: "case",
    name: "Tablet Pro Case",
    description: "Folio with a stand.",
    brand: "Pixelon",
    category: "electronics",
    subcategory: "tablets",
    price: 50001,
    rating: 3.4,
    reviews: 7,
    age: 16,
  },
  {
    key: "cam",
    name: "Shutter Cam Z",
    description: "Mirrorless camera body.",
    brand: "Optik",
    category: "electronics",
    subcategory: "cameras",
    price: 250000,
    rating: 4.9,
    reviews: 88,
    age: 2,
    flags: "N",
    discount: 10,
  },
  {
    key: "stand",
    name: "Phone Stand",
    description: "Aluminium desk stand for any phone.",
    brand: "Optik",
    category: "electronics",
    subcategory: null,
    price: 1999,
    rating: 2.5,
    reviews: 5,
    age: 40,
  },
  {
    key: "watch",
    name: "Veltro Classic Leather Watch",
    description: "Sapphire crystal, brushed steel.",
    brand: "Veltro",
    category: "clothing",
    subcategory: "accessories",
    price: 18999,
    rating: 4.3,
    reviews: 318,
    age: 3,
    flags: "N",
    discount: 17,
  },
  {
    key: "wallet",
    name: "Veltro Wallet",
    description: "Slim leather wallet.",
    brand: "veltro",
    category: "clothing",
    subcategory: "accessories",
    price: 4999,
    rating: 4.3,
    reviews: 318,
    age: 3,
  },
  {
    key: "shoe",
    name: "Trail Runner Shoe",
    description: "Grippy sole for muddy paths.",
    brand: "Stride",
    category: "clothing",
    subcategory: "shoes",
    price: 10000,
    rating: 4.1,
    reviews: 77,
    age: 25,
    flags: "B",
  },
  {
    key: "shirt",
    name: "Men's Oxford Shirt",
    description: "100% cotton, button-down collar.",
    brand: "Stride",
    category: "clothing",
    subcategory: "men",
    price: 5000,
    rating: 3.5,
    reviews: 20,
    age: 50,
  },
  {
    key: "jacket",
    name: "Kids Rain Jacket",
    description: "Waterproof_shell with a hood.",
    brand: "Élan",
    category: "clothing",
    subcategory: "kids",
    price: 3500,
    rating: 4,
    reviews: 10,
    age: 12,
    flags: "N",
  },
  {
    key: "chair",
    name: "Nordhaus Oak Lounge Chair",
    description: "Solid oak, woven paper-cord seat.",
    brand: "Nordhaus",
    category: "home",
    subcategory: "furniture",
    price: 54999,
    rating: 4.7,
    reviews: 96,
    age: 45,
    flags: "F",
    discount: 21,
  },
  {
    key: "mixer",
    name: "Nordhaus Pro Stand Mixer",
    description: "Ten speeds, steel bowl.",
    brand: "Nordhaus",
    category: "home",
    subcategory: "kitchen",
    price: 32999,
    rating: 4.4,
    reviews: 210,
    age: 200,
    flags: "B",
    discount: 18,
  },
  {
    key: "seccam",
    name: "Kestrel 2K Home Security Camera",
    description: "Night vision and alerts.",
    brand: "Kestrel",
    category: "home",
    subcategory: "security",
    price: 12999,
    rating: 4.2,
    reviews: 150,
    age: 10,
    flags: "NB",
    discount: 24,
  },
  {
    key: "hose",
    name: "Garden Hose 30m",
    description: 'Kink-free, fits 1/2" taps, model GH\\30.',
    brand: "Verdant",
    category: "home",
    subcategory: "garden",
    price: 2999,
    rating: 3,
    reviews: 8,
    age: 80,
  },
  {
    key: "duvet",
    name: "Duvet Set",
    description: "Cotton cover and pillowcases.",
    brand: "Nordhaus",
    category: "home",
    subcategory: "bedding",
    price: 8999,
    rating: 4,
    reviews: 30,
    age: 35,
  },
  {
    key: "lamp",
    name: `O'Neill's "Special" Edition Lamp`,
    description: "A 2-in-1 reading light.",
    brand: "Lumen",
    category: "home",
    subcategory: "furniture",
    price: 7999,
    rating: 3.6,
    reviews: 14,
    age: 55,
  },
  {
    key: "skin",
    name: "Solace Radiance Skincare Set",
    description: "Serum and night cream.",
    brand: "Solace",
    category: "beauty",
    subcategory: "skincare",
    price: 14999,
    rating: 4.6,
    reviews: 500,
    age: 1,
    flags: "FNB",
    discount: 25,
  },
  {
    key: "tint",
    name: "Solace Lip Tint",
    description: "Sheer colour.",
    brand: "solace",
    category: "beauty",
    subcategory: "makeup",
    price: 1999,
    rating: 2,
    reviews: 3,
    age: 7,
  },
  {
    key: "puzzle",
    name: "Puzzle 1000",
    description: "A 1000-piece jigsaw.",
    brand: "Playwell",
    category: "toys",
    subcategory: "puzzles",
    price: 2500,
    rating: 4.5,
    reviews: 60,
    age: 90,
  },
  {
    key: "board",
    name: "Board Game Night",
    description: "Family strategy.",
    brand: "Playwell",
    category: "toys",
    subcategory: "games",
    price: 3999,
    rating: 3.8,
    reviews: 44,
    age: 100,
    flags: "F",
  },
  {
    key: "mat",
    name: "Yoga Mat",
    description: "Non-slip exercise mat.",
    brand: "Stride",
    category: "sports",
    subcategory: "fitness",
    price: 2999,
    rating: 4.4,
    reviews: 210,
    age: 18,
    flags: "B",
  },
  {
    key: "helmet",
    name: "Road Bike Helmet",
    description: "Aerodynamic shell with MIPS.",
    brand: "Velo",
    category: "sports",
    subcategory: "cycling",
    price: 8999,
    rating: 4.2,
    reviews: 90,
    age: 22,
    discount: 15,
  },
  {
    key: "speaker",
    name: "Emoji Speaker 🔊",
    description: "Party box 🎉 that goes loud.",
    brand: "Aurora",
    category: "electronics",
    subcategory: "audio",
    price: 5999,
    rating: 3.3,
    reviews: 9,
    age: 65,
  },
  // archived: newest, best rated, every flag, a discount — and must never show or count
  {
    key: "gone",
    name: "Archived Phone",
    description: "Smartphone no longer sold.",
    brand: "Kestrel",
    category: "electronics",
    subcategory: "smartphones",
    price: 39999,
    rating: 5,
    reviews: 999,
    age: 0,
    flags: "FNB",
    discount: 30,
    archived: true,
  },
  {
    key: "ghost",
    name: "Phantom Toy",
    description: "Discontinued toy.",
    brand: "Phantom",
    category: "toys",
    subcategory: "games",
    price: 999,
    rating: 5,
    reviews: 1,
    age: 0,
    flags: "FNB",
    discount: 50,
    archived: true,
  },
];

const BASE = Date.UTC(2026, 9, 1);
const created = (age: number) => new Date(BASE - age * 86_400_000).toISOString();

interface Row extends Fixture {
  id: number;
}

const q = (params = "", preset: Partial<ListingQuery> = {}) =>
  parseListingQuery(new URLSearchParams(params), preset);

/** The spec's semantics in plain code, over the fixture: the oracle for filters and counts. */
function matches(p: Row, query: ListingQuery, omit: "category" | "brand" | null = null): boolean {
  if (p.archived) return false;
  if (omit !== "category") {
    if (query.category && p.category !== query.category) return false;
    if (query.subcategory && p.subcategory !== query.subcategory) return false;
  }
  if (omit !== "brand" && query.brands.length > 0 && !query.brands.includes(p.brand.toLowerCase()))
    return false;
  if (query.minPrice > 0 && p.price < query.minPrice * 100) return false;
  if (query.maxPrice < 2000 && p.price > query.maxPrice * 100) return false;
  if (query.rating && p.rating < query.rating) return false;
  if (query.featured && !p.flags?.includes("F")) return false;
  if (query.newArrival && !p.flags?.includes("N")) return false;
  if (query.bestSeller && !p.flags?.includes("B")) return false;
  if (query.deals && p.discount === undefined) return false;
  if (query.search) {
    const text = [p.name, p.brand, p.category, p.subcategory ?? "", p.description].join(" ").toLowerCase();
    if (!searchWords(query.search).every((w) => text.includes(w))) return false;
  }
  return true;
}

const byNumber = (a: number, b: number) => (a < b ? -1 : a > b ? 1 : 0);
function sortOracle(rows: Row[], query: ListingQuery): Row[] {
  const words = query.search ? searchWords(query.search) : [];
  const nameRank = (p: Row) => (words.length && words.every((w) => p.name.toLowerCase().includes(w)) ? 0 : 1);
  const compare: Record<ListingQuery["sort"], (a: Row, b: Row) => number> = {
    featured: (a, b) =>
      byNumber(nameRank(a), nameRank(b)) ||
      byNumber(Number(Boolean(b.flags?.includes("F"))), Number(Boolean(a.flags?.includes("F")))) ||
      byNumber(b.rating, a.rating) ||
      byNumber(b.id, a.id),
    "price-asc": (a, b) => byNumber(a.price, b.price) || byNumber(a.id, b.id),
    "price-desc": (a, b) => byNumber(b.price, a.price) || byNumber(b.id, a.id),
    rating: (a, b) => byNumber(b.rating, a.rating) || byNumber(b.reviews, a.reviews) || byNumber(b.id, a.id),
    newest: (a, b) => byNumber(a.age, b.age) || byNumber(b.id, a.id),
  };
  return [...rows].sort(compare[query.sort]);
}

describe.each(ENGINES)("listing on %s", (engine) => {
  let t: TestDatabase;
  let db: Database;
  const rows: Row[] = [];
  const id = (key: string) => rows.find((r) => r.key === key)!.id;
  const keyOf = (productId: number) => rows.find((r) => r.id === productId)!.key;
  const live = () => rows.filter((r) => !r.archived);

  /** Every matching product over all pages, in the order the listing gives. */
  async function all(query: ListingQuery): Promise<{ keys: string[]; first: ListingResult }> {
    const first = await searchProducts(db, { ...query, page: 1 });
    const keys = first.products.map((p) => keyOf(p.id));
    for (let page = 2; page <= first.pageCount; page++) {
      const next = await searchProducts(db, { ...query, page });
      keys.push(...next.products.map((p) => keyOf(p.id)));
    }
    return { keys, first };
  }
  const keys = async (params: string, preset: Partial<ListingQuery> = {}) =>
    (await all(q(params, preset))).keys;
  const expected = (query: ListingQuery) =>
    sortOracle(
      live().filter((p) => matches(p, query)),
      query,
    ).map((p) => p.key);

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    db = t.db;
    for (const f of CATALOGUE) {
      await ensureCategory(db, f.category);
      if (f.subcategory) await ensureCategory(db, f.subcategory, f.category);
      const productId = await insertProduct(db, {
        name: f.name,
        description: f.description,
        brand: f.brand,
        categoryId: f.category,
        subcategoryId: f.subcategory,
        priceCents: f.price,
        originalPriceCents: f.discount ? Math.round(f.price / (1 - f.discount / 100)) : null,
        discountPercentage: f.discount ?? null,
        rating: f.rating,
        reviewCount: f.reviews,
        featured: f.flags?.includes("F") ? 1 : 0,
        newArrival: f.flags?.includes("N") ? 1 : 0,
        bestSeller: f.flags?.includes("B") ? 1 : 0,
        createdAt: created(f.age),
        updatedAt: created(f.age),
        archivedAt: f.archived ? created(0) : null,
      });
      rows.push({ ...f, id: productId });
    }
  });
  afterAll(async () => {
    await t?.destroy();
  });

  describe("filters", () => {
    it("with no filter lists every live product and counts them all", async () => {
      const result = await searchProducts(db, q());
      expect(result.total).toBe(28);
      expect(await countProducts(db, q())).toBe(28);
      const { keys: everything } = await all(q());
      expect(everything.sort()).toEqual(
        live()
          .map((r) => r.key)
          .sort(),
      );
    });

    it.each([
      [
        "category=electronics",
        ["x12", "mini", "book", "air", "anc", "buds", "tab", "case", "cam", "stand", "speaker"],
      ],
      ["category=beauty", ["skin", "tint"]],
      ["category=books", []],
      ["subcategory=smartphones", ["x12", "mini"]],
      ["category=home&subcategory=furniture", ["chair", "lamp"]],
      ["category=clothing&subcategory=smartphones", ["watch", "wallet", "shoe", "shirt", "jacket"]],
      ["brand=kestrel", ["x12", "mini", "seccam"]],
      ["brand=KESTREL", ["x12", "mini", "seccam"]],
      ["brand=kestrel&brand=solace", ["x12", "mini", "seccam", "skin", "tint"]],
      ["brand=veltro,lumen", ["book", "air", "watch", "wallet", "lamp"]],
      ["brand=nobody", []],
      ["brand=phantom", []],
      [
        "minPrice=100",
        [
          "x12",
          "mini",
          "book",
          "air",
          "anc",
          "tab",
          "case",
          "cam",
          "watch",
          "shoe",
          "chair",
          "mixer",
          "seccam",
          "skin",
        ],
      ],
      [
        "maxPrice=100",
        [
          "buds",
          "shoe",
          "stand",
          "wallet",
          "shirt",
          "jacket",
          "hose",
          "duvet",
          "lamp",
          "tint",
          "puzzle",
          "board",
          "mat",
          "helmet",
          "speaker",
        ],
      ],
      ["minPrice=100&maxPrice=500", ["mini", "anc", "tab", "watch", "shoe", "mixer", "seccam", "skin"]],
      ["minPrice=500&maxPrice=100", ["mini", "anc", "tab", "watch", "shoe", "mixer", "seccam", "skin"]],
      ["minPrice=1999&maxPrice=2000", ["cam"]],
      ["minPrice=2000", ["cam"]],
      ["maxPrice=0", []],
      [
        "rating=4",
        [
          "x12",
          "mini",
          "book",
          "air",
          "anc",
          "cam",
          "watch",
          "wallet",
          "shoe",
          "jacket",
          "chair",
          "mixer",
          "seccam",
          "duvet",
          "skin",
          "puzzle",
          "mat",
          "helmet",
        ],
      ],
      [
        "rating=9",
        [
          "x12",
          "mini",
          "book",
          "air",
          "anc",
          "cam",
          "watch",
          "wallet",
          "shoe",
          "jacket",
          "chair",
          "mixer",
          "seccam",
          "duvet",
          "skin",
          "puzzle",
          "mat",
          "helmet",
        ],
      ],
      ["featured=true", ["x12", "book", "anc", "chair", "skin", "board"]],
      ["new=true", ["mini", "book", "cam", "watch", "jacket", "seccam", "skin"]],
      ["bestseller=true", ["x12", "anc", "shoe", "mixer", "seccam", "skin", "mat"]],
      ["featured=true&new=true&bestseller=true", ["skin"]],
    ])("%s", async (params, expectedKeys) => {
      const query = q(params);
      const got = await keys(params);
      expect([...got].sort()).toEqual([...expectedKeys].sort());
      expect(got).toEqual(expected(query));
      expect(await countProducts(db, query)).toBe(expectedKeys.length);
    });

    it("price bounds are whole dollars and inclusive", async () => {
      // 99.99 is below 100, 100.00 is in; 500.00 is in, 500.01 is out
      const inRange = await keys("minPrice=100&maxPrice=500");
      expect(inRange).toContain("shoe");
      expect(inRange).not.toContain("buds");
      expect(inRange).toContain("tab");
      expect(inRange).not.toContain("case");
      // the slider's top means "no upper bound": $2,500 shows by default
      expect(await keys("")).toContain("cam");
      expect(await keys("maxPrice=1999")).not.toContain("cam");
    });

    it("rating is a minimum: 4.0 is in at 4 stars, 3.9 is not", async () => {
      const four = await keys("rating=4");
      expect(four).toEqual(expect.arrayContaining(["mini", "jacket", "duvet"]));
      expect(four).not.toContain("buds");
      expect(await keys("rating=3")).toContain("buds");
    });

    it("deals are exactly the discounted products", async () => {
      const deals = await keys("", { deals: true });
      expect([...deals].sort()).toEqual(
        ["x12", "book", "anc", "cam", "watch", "chair", "mixer", "seccam", "skin", "helmet"].sort(),
      );
      expect(await keys("category=home", { deals: true })).toEqual(
        expect.arrayContaining(["chair", "mixer", "seccam"]),
      );
      expect((await keys("category=home", { deals: true })).length).toBe(3);
    });

    it.each([
      "category=electronics&brand=kestrel",
      "category=electronics&brand=aurora&maxPrice=100",
      "brand=stride&rating=4",
      "brand=nordhaus&brand=kestrel&new=true",
      "category=home&minPrice=100&bestseller=true",
      "subcategory=audio&search=wireless",
      "category=electronics&minPrice=200&maxPrice=1000&rating=4&featured=true",
      "brand=lumen&brand=aurora&brand=velo&rating=3&sort=price-desc",
      "category=clothing&new=true&sort=newest",
      "brand=kestrel&search=camera&sort=rating",
    ])("combined: %s", async (params) => {
      const query = q(params);
      const got = await keys(params);
      expect(got).toEqual(expected(query));
      expect(got.length).toBeGreaterThan(0);
    });

    it("combined filters narrow as the hand-checked examples say", async () => {
      expect(await keys("category=electronics&brand=kestrel")).toEqual(["x12", "mini"]);
      expect(await keys("category=home&minPrice=100&bestseller=true&sort=price-asc")).toEqual([
        "seccam",
        "mixer",
      ]);
      expect(await keys("brand=stride&rating=4&sort=price-asc")).toEqual(["mat", "shoe"]);
      expect(await keys("", { deals: true, newArrival: true, category: "electronics" })).toEqual([
        "book",
        "cam",
      ]);
    });
  });

  describe("sort orders", () => {
    it.each(["featured", "price-asc", "price-desc", "rating", "newest"])(
      "%s: every product in order",
      async (sort) => {
        const query = q(`sort=${sort}`);
        expect(await keys(`sort=${sort}`)).toEqual(expected(query));
      },
    );

    it("price: low to high and high to low, ties broken by id", async () => {
      const asc = await keys("sort=price-asc");
      expect(asc.slice(0, 3)).toEqual(["stand", "tint", "puzzle"]); // 19.99, 19.99 (later id), 25.00
      expect(asc.at(-1)).toBe("cam");
      const desc = await keys("sort=price-desc");
      expect(desc.slice(0, 3)).toEqual(["cam", "book", "air"]);
      // equal prices (Phone Stand and Lip Tint, Hose and Yoga Mat): the higher id first
      expect(desc.indexOf("tint")).toBeLessThan(desc.indexOf("stand"));
      expect(desc.indexOf("mat")).toBeLessThan(desc.indexOf("hose"));
    });

    it("top rated: rating, then review count, then id", async () => {
      const rated = await keys("sort=rating");
      expect(rated.slice(0, 3)).toEqual(["cam", "air", "book"]); // 4.9; 4.8/642 twice → higher id first
      expect(rated.indexOf("wallet")).toBe(rated.indexOf("watch") - 1);
      expect(rated.at(-1)).toBe("tint");
    });

    it("newest: creation date, then id", async () => {
      const newest = await keys("sort=newest");
      expect(newest.slice(0, 5)).toEqual(["skin", "cam", "wallet", "watch", "air"]);
      expect(newest.indexOf("air")).toBe(newest.indexOf("book") - 1);
      expect(newest.at(-1)).toBe("mixer");
    });

    it("featured: featured products first, best rated first among them", async () => {
      const featured = await keys("sort=featured");
      // equal ratings (X12 and the skincare set, 4.6): the higher id first
      expect(featured.slice(0, 6)).toEqual(["book", "chair", "skin", "x12", "anc", "board"]);
      expect(featured[6]).toBe("cam");
    });

    it("each order is stable across pages (no product twice, none missing)", async () => {
      for (const sort of ["featured", "price-asc", "price-desc", "rating", "newest"]) {
        const got = await keys(`sort=${sort}`);
        expect(new Set(got).size).toBe(28);
      }
    });
  });

  describe("pagination", () => {
    it("'Showing N' is every match, not one page; page 2 holds the rest", async () => {
      for (const params of ["sort=price-asc", "sort=price-asc&minPrice=1"]) {
        const page1 = await searchProducts(db, q(params));
        expect(PAGE_SIZE).toBe(24);
        expect(page1.total).toBe(28);
        expect(page1.pageCount).toBe(2);
        expect(page1.page).toBe(1);
        expect(page1.products).toHaveLength(24);
        const page2 = await searchProducts(db, q(`${params}&page=2`));
        expect(page2.total).toBe(28);
        expect(page2.pageCount).toBe(2);
        expect(page2.page).toBe(2);
        expect(page2.products.map((p) => keyOf(p.id))).toEqual(expected(q(params)).slice(24));
        expect(page2.products.map((p) => keyOf(p.id))).toEqual(["x12", "air", "book", "cam"]);
        expect(page2.products).toHaveLength(4);
        const page3 = await searchProducts(db, q(`${params}&page=3`));
        expect(page3.products).toEqual([]);
        expect(page3.total).toBe(28);
      }
    });

    it("a single page of results has pageCount 1, an empty result too", async () => {
      const some = await searchProducts(db, q("category=beauty"));
      expect([some.total, some.pageCount]).toEqual([2, 1]);
      const none = await searchProducts(db, q("brand=nobody"));
      expect([none.total, none.pageCount, none.products.length]).toEqual([0, 1, 0]);
    });

    it("product cards carry what the card shows", async () => {
      const { products } = await searchProducts(db, q("search=radiance"));
      expect(products).toHaveLength(1);
      expect(products[0]).toMatchObject({
        id: id("skin"),
        name: "Solace Radiance Skincare Set",
        brand: "Solace",
        priceCents: 14999,
        discountPercentage: 25,
        rating: 4.6,
        reviewCount: 500,
        newArrival: true,
        bestSeller: true,
        image: null,
      });
    });
  });

  describe("facet counts", () => {
    const categoryCounts = (query: ListingQuery) => {
      const counts: Record<string, number> = {};
      for (const c of ["electronics", "clothing", "home", "beauty", "toys", "sports"]) counts[c] = 0;
      for (const p of live())
        if (matches(p, query, "category")) counts[p.category] = (counts[p.category] ?? 0) + 1;
      return counts;
    };
    const brandCounts = (query: ListingQuery) => {
      const counts: Record<string, number> = {};
      for (const p of live()) counts[p.brand.toLowerCase()] = 0;
      for (const p of live()) if (matches(p, query, "brand")) counts[p.brand.toLowerCase()]! += 1;
      return counts;
    };
    const asRecord = (facets: Array<{ value: string; count: number }>) =>
      Object.fromEntries(facets.map((f) => [f.value, f.count]));

    it("with no filter: every category and every live brand with its full count", async () => {
      const { facets } = await searchProducts(db, q());
      expect(facets.categories.map((c) => [c.value, c.label, c.count])).toEqual([
        ["electronics", "Electronics", 11],
        ["clothing", "Clothing & Fashion", 5],
        ["home", "Home & Garden", 6],
        ["beauty", "Beauty", 2],
        ["toys", "Toys", 2],
        ["sports", "Sports", 2],
      ]);
      expect(asRecord(facets.brands)).toEqual({
        aurora: 3,
        kestrel: 3,
        lumen: 3,
        nordhaus: 3,
        optik: 2,
        pixelon: 2,
        playwell: 2,
        solace: 2,
        stride: 3,
        velo: 1,
        veltro: 2,
        verdant: 1,
        élan: 1, // the same value on both engines, although SQLite's lower() folds ASCII only
      });
    });

    it("category counts ignore the active category but respect the other filters", async () => {
      const { facets } = await searchProducts(db, q("category=electronics&brand=kestrel"));
      expect(asRecord(facets.categories)).toEqual({
        electronics: 2,
        clothing: 0,
        home: 1,
        beauty: 0,
        toys: 0,
        sports: 0,
      });
    });

    it("brand counts ignore the brand filter but respect the other filters", async () => {
      const { facets, total } = await searchProducts(db, q("category=home&brand=kestrel"));
      expect(total).toBe(1);
      expect(asRecord(facets.brands)).toMatchObject({
        nordhaus: 3,
        kestrel: 1,
        lumen: 1,
        verdant: 1,
        aurora: 0,
      });
      // brands with no product here are still listed (count 0), so they can be chosen
      expect(facets.brands.map((b) => b.value)).toContain("solace");
    });

    it.each([
      "",
      "category=electronics",
      "subcategory=audio",
      "brand=kestrel",
      "brand=kestrel&brand=nordhaus",
      "category=home&brand=kestrel",
      "category=clothing&subcategory=accessories&brand=veltro",
      "category=books",
      "brand=nobody",
    ])(
      "the facet table (%s) and counting products (same + a filter matching all) agree with the oracle",
      async (params) => {
        const query = q(params);
        // hasRowFilters: minPrice=1 and rating=1 exclude nothing here (every price ≥ $19.99, every rating ≥ 2)
        const viaFacets = await searchProducts(db, query);
        const viaProducts = await searchProducts(db, { ...query, minPrice: 1 });
        const viaProducts2 = await searchProducts(db, { ...query, rating: 1 });
        for (const result of [viaFacets, viaProducts, viaProducts2]) {
          expect(result.total).toBe(expected(query).length);
          expect(asRecord(result.facets.categories)).toEqual(categoryCounts(query));
          expect(asRecord(result.facets.brands)).toEqual(brandCounts(query));
          expect(result.products.map((p) => keyOf(p.id))).toEqual(expected(query).slice(0, PAGE_SIZE));
        }
        expect(viaProducts.facets).toEqual(viaFacets.facets);
      },
    );

    it.each([
      "minPrice=100",
      "maxPrice=100&category=electronics",
      "rating=4&brand=kestrel",
      "search=camera",
      "search=kestrel&category=home",
      "featured=true&brand=aurora",
      "new=true&category=clothing",
      "bestseller=true&brand=stride&brand=kestrel",
    ])("with row filters (%s) the counts match the oracle", async (params) => {
      const query = q(params);
      const result = await searchProducts(db, query);
      expect(result.total).toBe(expected(query).length);
      expect(asRecord(result.facets.categories)).toEqual(categoryCounts(query));
      expect(asRecord(result.facets.brands)).toEqual(brandCounts(query));
    });

    it("deals count discounted products only", async () => {
      const query = q("category=home", { deals: true });
      const result = await searchProducts(db, query);
      expect(result.total).toBe(3);
      expect(asRecord(result.facets.categories)).toEqual(categoryCounts(query));
      expect(asRecord(result.facets.brands)).toEqual(brandCounts(query));
      expect(asRecord(result.facets.categories).electronics).toBe(4);
    });

    it("facet counts follow a product that moves, changes brand or is archived", async () => {
      const mat = id("mat");
      const before = await searchProducts(db, q("category=sports&brand=stride"));
      expect(before.total).toBe(1);
      try {
        await db.updateTable("products").set({ brand: "Velo" }).where("id", "=", mat).execute();
        const after = await searchProducts(db, q("category=sports"));
        expect(asRecord(after.facets.brands)).toMatchObject({ stride: 0, velo: 2 });
        expect(asRecord((await searchProducts(db, q())).facets.brands)).toMatchObject({ stride: 2, velo: 2 });
        await db
          .updateTable("products")
          .set({ archivedAt: created(0) })
          .where("id", "=", mat)
          .execute();
        const archived = await searchProducts(db, q("category=sports"));
        expect(archived.total).toBe(1);
        expect(asRecord(archived.facets.categories).sports).toBe(1);
        expect(asRecord(archived.facets.brands)).toMatchObject({ velo: 1 });
      } finally {
        await db
          .updateTable("products")
          .set({ brand: "Stride", archivedAt: null })
          .where("id", "=", mat)
          .execute();
      }
      expect((await searchProducts(db, q("category=sports&brand=stride"))).total).toBe(1);
    });
  });

  describe("listBrands", () => {
    it("lists every live brand once, sorted by value, with a display name", async () => {
      const brands = await listBrands(db);
      const values = brands.map((b) => b.value);
      expect(new Set(values).size).toBe(values.length);
      expect(values).toEqual([...values].sort());
      expect(values).not.toContain("phantom");
      const liveBrands = new Map<string, Set<string>>();
      for (const p of live()) {
        const key = p.brand.toLowerCase();
        if (!liveBrands.has(key)) liveBrands.set(key, new Set());
        liveBrands.get(key)!.add(p.brand);
      }
      expect(brands).toHaveLength(liveBrands.size);
      for (const brand of brands) {
        const spellings = [...(liveBrands.get(brand.value) ?? [])];
        // the label is one of the ways the shop spells the brand
        expect(spellings, brand.value).toContain(brand.label);
        expect(brand.value).toBe(brand.value.toLowerCase());
      }
      expect(brands.find((b) => b.value === "optik")?.label).toBe("Optik");
      expect(brands.find((b) => b.value === "nordhaus")?.label).toBe("Nordhaus");
    });

    it("a brand whose only products are archived disappears, and comes back", async () => {
      const ghost = id("ghost");
      expect((await listBrands(db)).map((b) => b.value)).not.toContain("phantom");
      try {
        await db.updateTable("products").set({ archivedAt: null }).where("id", "=", ghost).execute();
        expect(await listBrands(db)).toContainEqual({ value: "phantom", label: "Phantom" });
        expect((await searchProducts(db, q("brand=phantom"))).total).toBe(1);
      } finally {
        await db
          .updateTable("products")
          .set({ archivedAt: created(0) })
          .where("id", "=", ghost)
          .execute();
      }
      expect((await listBrands(db)).map((b) => b.value)).not.toContain("phantom");
    });

    it("a brand with a non-ASCII capital (Élan) can be filtered by its facet value and by the URL", async () => {
      const { facets } = await searchProducts(db, q());
      const elan = facets.brands.find((b) => b.label === "Élan");
      expect(elan).toBeDefined();
      expect(elan!.count).toBe(1);
      // ticking its checkbox sends its value
      const ticked = q(`brand=${encodeURIComponent(elan!.value)}`);
      expect(ticked.brands).toContain(elan!.value);
      expect((await searchProducts(db, ticked)).products.map((p) => keyOf(p.id))).toEqual(["jacket"]);
      // a hand-typed URL in any case works too
      for (const typed of ["Élan", "élan", "ÉLAN"]) {
        const result = await searchProducts(db, q(`brand=${encodeURIComponent(typed)}`));
        expect(result.total, typed).toBe(1);
      }
    });
  });

  describe("archived products", () => {
    it("never appear in any listing, sort, search or flag list, and never count", async () => {
      for (const params of [
        "",
        "sort=newest",
        "sort=rating",
        "featured=true",
        "new=true",
        "bestseller=true",
        "brand=kestrel",
        "category=toys",
        "search=archived",
        "search=phantom",
        "search=smartphone",
        "rating=4&minPrice=1",
      ]) {
        const { keys: got, first } = await all(q(params));
        expect(got, params).not.toContain("gone");
        expect(got, params).not.toContain("ghost");
        expect(first.total, params).toBe(got.length);
      }
      const deals = await all(q("", { deals: true }));
      expect(deals.keys).not.toContain("gone");
      const { facets } = await searchProducts(db, q("category=toys"));
      expect(asRecordOf(facets.categories).toys).toBe(2);
      expect(facets.brands.map((b) => b.value)).not.toContain("phantom");
    });
  });
  const asRecordOf = (facets: Array<{ value: string; count: number }>) =>
    Object.fromEntries(facets.map((f) => [f.value, f.count]));

  describe("search", () => {
    it.each([
      ["name", "lounge", ["chair"]],
      ["description", "sapphire", ["watch"]],
      ["brand", "pixelon", ["tab", "case"]],
      ["category id", "toys", ["puzzle", "board"]],
      ["subcategory id", "cycling", ["helmet"]],
      ["description, mixed case", "SaPPhiRE", ["watch"]],
      ["brand, upper case", "PIXELON", ["tab", "case"]],
    ])("matches the %s: %j", async (_, term, expectedKeys) => {
      expect((await keys(`search=${encodeURIComponent(term)}`)).sort()).toEqual([...expectedKeys].sort());
    });

    it("matches substrings: 'phon' finds the Smartphone", async () => {
      const got = await keys("search=phon");
      expect(got).toEqual(expect.arrayContaining(["x12", "mini", "stand"]));
      expect(got).toEqual(expected(q("search=phon")));
      expect(await keys("search=martphon")).toEqual(expect.arrayContaining(["x12", "mini"]));
    });

    it("needs every word, each anywhere (AND across fields)", async () => {
      expect(await keys("search=kestrel+security")).toEqual(["seccam"]);
      expect(await keys("search=lumen+furniture")).toEqual(["lamp"]);
      expect((await keys("search=aurora+audio+wireless")).sort()).toEqual(["anc", "buds"]);
      expect(await keys("search=kestrel+laptop")).toEqual([]);
      expect(await keys("search=wireless+kestrel")).toEqual([]);
    });

    it.each(["x", "2k", "oa", "z", "k", "7-", "10", "g", "ir"])(
      "1- and 2-character terms: %j",
      async (term) => {
        const query = q(`search=${encodeURIComponent(term)}`);
        const got = await keys(`search=${encodeURIComponent(term)}`);
        expect(got).toEqual(expected(query));
        expect(got.length).toBeGreaterThan(0);
      },
    );

    it("short and long words combine", async () => {
      expect(await keys("search=2k+camera")).toEqual(["seccam"]);
      expect(await keys("search=z+shutter")).toEqual(["cam"]);
      expect(await keys(`search=${encodeURIComponent("oak 2")}`)).toEqual(expected(q("search=oak+2")));
    });

    it("ranks products whose name matches first when sorting by featured", async () => {
      // X12 (featured) and Shutter Cam (best rated) mention a camera in their descriptions only;
      // the product named "… Camera" (neither featured nor best rated) comes first
      const got = await keys("search=camera");
      expect(got).toEqual(["seccam", "x12", "cam"]);
      expect(await keys("search=laptop")).toEqual(["book", "air"]);
      // other orders ignore the name rank
      expect(await keys("search=camera&sort=price-asc")).toEqual(["seccam", "x12", "cam"]);
      expect(await keys("search=camera&sort=price-desc")).toEqual(["cam", "x12", "seccam"]);
    });

    it("finds non-ASCII text in any case", async () => {
      expect(await keys(`search=${encodeURIComponent("élan")}`)).toEqual(["jacket"]);
      expect(await keys(`search=${encodeURIComponent("ÉLAN")}`)).toEqual(["jacket"]);
      for (const short of ["él", "ÉL", "Él", "É"]) {
        expect(await keys(`search=${encodeURIComponent(short)}`), short).toEqual(["jacket"]);
      }
      expect(await keys(`search=${encodeURIComponent("🔊")}`)).toEqual(["speaker"]);
      expect(await keys(`search=${encodeURIComponent("🎉")}`)).toEqual(["speaker"]);
    });

    const hostile: Array<[string, string[] | null]> = [
      ['"', ["hose", "lamp"]],
      ["'", ["shirt", "lamp"]],
      ["\"'", []],
      ["'; drop table products; --", []],
      ['" OR 1=1 --', []],
      ["a OR b", null],
      ["NEAR(x y)", []],
      ["NEAR", []],
      ["*", []],
      ["^", []],
      ["-x", []],
      ["lounge*", []],
      ["^lounge", []],
      ["name:lounge", []],
      ["{name}: oak", []],
      ["(oak)", []],
      ["oak AND NOT chair", []],
      ["😀", []],
      ["🔊 party", ["speaker"]],
      ["%", ["shirt"]],
      ["%%", []],
      ["100%", ["shirt"]],
      ["0%", ["shirt"]],
      ["_", ["jacket"]],
      ["f_shell", ["jacket"]],
      ["proof_", ["jacket"]],
      ["o_k", []],
      ["%oak%", []],
      ["\\", ["hose"]],
      ["gh\\30", ["hose"]],
      ["\\%", []],
      ["\\_", []],
      ['1/2"', ["hose"]],
      ["o'neill's", ["lamp"]],
      ['"special"', ["lamp"]],
      ["\u0000", null], // a control character is a space: no words, every product
      ["oak\u0000lounge", ["chair"]],
      ["\u0001\u001f\u007f", null],
      ["2k\u0000", ["seccam"]],
      ["x".repeat(10_000), []],
      ["oak ".repeat(2_500), ["chair"]],
      ["😀".repeat(5_000), []],
    ];

    it.each(hostile)(
      "hostile input %j returns results or nothing, never throws",
      async (term, expectedKeys) => {
        const viaUrl = q(`search=${encodeURIComponent(term)}`);
        const raw: ListingQuery = { ...q(), search: term }; // as a caller that skipped parsing would pass it
        for (const query of [
          viaUrl,
          raw,
          { ...viaUrl, sort: "price-asc" as const },
          { ...viaUrl, minPrice: 1 },
        ]) {
          const result = await searchProducts(db, query);
          const got = result.products.map((p) => keyOf(p.id));
          if (query.search === null || query.search.length <= 100) {
            expect(got, JSON.stringify(term)).toEqual(expected(query).slice(0, PAGE_SIZE));
            expect(result.total).toBe(expected(query).length);
          }
          expect(got.length).toBe(Math.min(result.total, PAGE_SIZE));
        }
        if (expectedKeys)
          expect((await all(viaUrl)).keys.sort(), JSON.stringify(term)).toEqual([...expectedKeys].sort());
        // and nothing happened to the table
        expect(await countProducts(db, q())).toBe(28);
      },
    );

    it("control characters in a brand or search never reach the database as such", async () => {
      for (const params of [
        "brand=%00",
        "brand=kestrel%00",
        "brand=%00,kestrel",
        "search=%00",
        "search=%00%00",
        "brand=%C3%A9%00",
      ]) {
        const result = await searchProducts(db, q(params));
        expect(result.total, params).toBeGreaterThan(0);
      }
      expect((await searchProducts(db, q("brand=%00,kestrel"))).total).toBe(3);
      // called without parsing, a NUL is no word at all rather than an error or a wildcard
      const raw = await searchProducts(db, { ...q(), search: "\u0000" });
      expect(raw.total).toBe(28);
    });

    it("'%' and '_' are literal characters, not wildcards", async () => {
      expect(await keys("search=%25")).toEqual(["shirt"]);
      expect(await keys("search=_")).toEqual(["jacket"]);
      expect(await keys("search=%25%25%25")).toEqual([]);
      expect(await keys("search=___")).toEqual([]);
    });

    it("search combines with filters, facets and the total", async () => {
      const result = await searchProducts(db, q("search=kestrel&category=home"));
      expect(result.total).toBe(1);
      expect(asRecordOf(result.facets.categories)).toMatchObject({ electronics: 2, home: 1, clothing: 0 });
      expect(asRecordOf(result.facets.brands)).toMatchObject({ kestrel: 1, nordhaus: 0 });
    });

    it("the FTS index follows renamed products (SQLite) and the search text follows on both engines", async () => {
      const duvet = id("duvet");
      try {
        await db.updateTable("products").set({ name: "Quilted Eiderdown" }).where("id", "=", duvet).execute();
        expect(await keys("search=eiderdown")).toEqual(["duvet"]);
        expect(await keys("search=duvet")).toEqual([]);
      } finally {
        await db.updateTable("products").set({ name: "Duvet Set" }).where("id", "=", duvet).execute();
      }
      expect(await keys("search=duvet")).toEqual(["duvet"]);
    });
  });

  it("the database is intact after all of the above", async () => {
    const { count } = await db
      .selectFrom("products")
      .select(sql<number>`count(*)`.as("count"))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(30);
  });
});
