import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, ENGINES, type TestDatabase } from "../../../tests/db-utils.ts";
import { insertImage, insertProduct } from "../../../tests/helpers/catalog.ts";
import { createLocalFileStore } from "../../adapters/files/file-store.server.ts";
import { seedDemoCatalog } from "../../db/seed/seed.server.ts";
import {
  getProductDetail,
  getRelatedProducts,
  parseProductRef,
  parseSpecifications,
  RELATED_PRODUCTS_LIMIT,
} from "./product-detail.server.ts";

describe("parseProductRef", () => {
  it("reads numeric ids and slugs", () => {
    expect(parseProductRef("1")).toEqual({ kind: "id", id: 1 });
    expect(parseProductRef("2147483647")).toEqual({ kind: "id", id: 2147483647 });
    expect(parseProductRef("kestrel-x12-smartphone")).toEqual({
      kind: "slug",
      slug: "kestrel-x12-smartphone",
    });
    expect(parseProductRef("Kestrel-X12-Smartphone")).toEqual({
      kind: "slug",
      slug: "kestrel-x12-smartphone",
    });
    expect(parseProductRef("0abc")).toEqual({ kind: "slug", slug: "0abc" });
    expect(parseProductRef("1e3")).toEqual({ kind: "slug", slug: "1e3" });
  });

  it.each([
    undefined,
    "",
    "0",
    "-1",
    "01",
    "2147483648",
    "99999999999999999999",
    "1.5",
    "x".repeat(201),
    "' OR 1=1 --",
    "1; drop table products",
    "../etc/passwd",
    "..%2F..%2F",
    "📱",
    "kestrel x12",
    "-leading-dash",
    "under_score",
    "\u0000",
  ])("rejects %j", (value) => {
    expect(parseProductRef(value)).toBeNull();
  });
});

describe("parseSpecifications", () => {
  it("keeps the stored order and turns values into text", () => {
    expect(parseSpecifications('{"Display":"6.4\\" OLED","Weight":254,"Wireless":true}')).toEqual([
      { name: "Display", value: '6.4" OLED' },
      { name: "Weight", value: "254" },
      { name: "Wireless", value: "true" },
    ]);
  });

  it.each(["{}", "", "not json", "[]", '["a"]', "null", "42", '{"":"x","Empty":"","Nothing":null}'])(
    "treats %j as no specifications",
    (json) => {
      expect(parseSpecifications(json)).toEqual([]);
    },
  );
});

describe.each(ENGINES)("product detail on %s", (engine) => {
  let t: TestDatabase;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    await seedDemoCatalog(t.db, createLocalFileStore(join(t.dir, "uploads")));
    const rows = await t.db.selectFrom("products").select(["id", "slug"]).execute();
    for (const row of rows) ids[row.slug] = row.id;
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("finds a product by slug with its category names, prices, stock and rating", async () => {
    const product = await getProductDetail(t.db, "kestrel-x12-smartphone");
    expect(product).toMatchObject({
      id: ids["kestrel-x12-smartphone"],
      slug: "kestrel-x12-smartphone",
      name: "Kestrel X12 Smartphone",
      brand: "Kestrel",
      category: { id: "electronics", name: "Electronics" },
      subcategory: { id: "smartphones", name: "Smartphones" },
      priceCents: 89999,
      originalPriceCents: 109999,
      discountPercentage: 18,
      rating: 4.6,
      reviewCount: 1284,
      // the summary of its four variants (42 + 15 + 8 + 0)
      stock: 65,
    });
    expect(product!.description).toMatch(/^A 6\.4-inch OLED smartphone/);
    expect(product!.options).toEqual([
      { position: 1, name: "Storage", values: ["256 GB", "512 GB"] },
      { position: 2, name: "Colour", values: ["Graphite", "Silver"] },
    ]);
    expect(
      product!.variants.map((v) => ({
        sku: v.sku,
        values: v.values,
        priceCents: v.priceCents,
        stock: v.stock,
      })),
    ).toEqual([
      { sku: "KES-X12-256-GRA", values: ["256 GB", "Graphite", null], priceCents: 89_999, stock: 42 },
      { sku: "KES-X12-256-SIL", values: ["256 GB", "Silver", null], priceCents: 89_999, stock: 15 },
      { sku: "KES-X12-512-GRA", values: ["512 GB", "Graphite", null], priceCents: 99_999, stock: 8 },
      { sku: "KES-X12-512-SIL", values: ["512 GB", "Silver", null], priceCents: 99_999, stock: 0 },
    ]);
  });

  it("finds the same product by numeric id and by a differently cased slug", async () => {
    const id = ids["lumen-book-pro-14"]!;
    const byId = await getProductDetail(t.db, String(id));
    const bySlug = await getProductDetail(t.db, "lumen-book-pro-14");
    const byCase = await getProductDetail(t.db, "Lumen-Book-Pro-14");
    expect(byId).not.toBeNull();
    expect(byId).toEqual(bySlug);
    expect(byCase).toEqual(bySlug);
    expect(byId!.slug).toBe("lumen-book-pro-14");
  });

  it("returns null for unknown ids and slugs, and for garbage (never an error)", async () => {
    for (const value of [
      "no-such-product",
      "999999",
      "2147483647",
      "99999999999",
      "x".repeat(5000),
      "'; drop table products; --",
      "../../etc/passwd",
      "😀",
      "%00",
      "",
      undefined,
    ]) {
      expect(await getProductDetail(t.db, value), String(value).slice(0, 40)).toBeNull();
    }
  });

  it("returns null for an archived product, by slug and by id", async () => {
    const id = await insertProduct(t.db, { slug: "archived-thing", archivedAt: new Date().toISOString() });
    expect(await getProductDetail(t.db, "archived-thing")).toBeNull();
    expect(await getProductDetail(t.db, String(id))).toBeNull();
  });

  it("parses the specifications into ordered name/value pairs", async () => {
    const product = await getProductDetail(t.db, "kestrel-x12-smartphone");
    expect(product!.specifications).toEqual([
      { name: "Display", value: '6.4" OLED, 120 Hz' },
      { name: "Storage", value: "256 GB" },
      { name: "Camera", value: "50 MP wide, 12 MP ultra-wide, 10 MP telephoto" },
      { name: "Battery", value: "4,800 mAh" },
      { name: "Water resistance", value: "IP68" },
    ]);
    await insertProduct(t.db, { slug: "no-specs", specifications: "{}" });
    expect((await getProductDetail(t.db, "no-specs"))!.specifications).toEqual([]);
  });

  it("returns the images in gallery order (position), whatever order they were stored in", async () => {
    const demo = await getProductDetail(t.db, "aurora-anc-headphones");
    expect(demo!.images).toHaveLength(3);
    expect(demo!.images.map((i) => i.alt)).toEqual([
      "Aurora ANC Wireless Headphones, front view",
      "Aurora ANC Wireless Headphones, angled view",
      "Aurora ANC Wireless Headphones, detail view",
    ]);
    expect(demo!.images[0]).toMatchObject({ width: 960, widths: [320, 640, 960] });

    const id = await insertProduct(t.db, { slug: "shuffled-images" });
    await insertImage(t.db, id, 2);
    await insertImage(t.db, id, 0);
    await insertImage(t.db, id, 1);
    const product = await getProductDetail(t.db, "shuffled-images");
    expect(product!.images.map((i) => i.key)).toEqual([
      `products/p${id}-0`,
      `products/p${id}-1`,
      `products/p${id}-2`,
    ]);

    await insertProduct(t.db, { slug: "no-images" });
    expect((await getProductDetail(t.db, "no-images"))!.images).toEqual([]);
  });

  it("a product without subcategory has a null subcategory", async () => {
    await insertProduct(t.db, { slug: "no-subcategory", subcategoryId: null });
    const product = await getProductDetail(t.db, "no-subcategory");
    expect(product!.subcategory).toBeNull();
    expect(product!.category).toEqual({ id: "electronics", name: "Electronics" });
  });
});

describe.each(ENGINES)("getRelatedProducts on %s", (engine) => {
  let t: TestDatabase;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    await seedDemoCatalog(t.db, createLocalFileStore(join(t.dir, "uploads")));
    for (const row of await t.db.selectFrom("products").select(["id", "slug"]).execute())
      ids[row.slug] = row.id;
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const related = async (slug: string) => getRelatedProducts(t.db, (await getProductDetail(t.db, slug))!);

  it("returns other live products of the same category, as cards with their first image", async () => {
    const cards = await related("kestrel-x12-smartphone");
    expect(cards.map((c) => c.slug).sort()).toEqual(["aurora-anc-headphones", "lumen-book-pro-14"]);
    for (const card of cards) {
      expect(card.image?.alt).toMatch(/, front view$/);
      expect(card.image?.widths).toEqual([320, 640, 960]);
    }
    // The watch (clothing, accessories): the other clothing is the demo T-shirt and sneakers.
    expect((await related("veltro-classic-leather-watch")).map((c) => c.slug).sort()).toEqual([
      "loomwell-organic-cotton-t-shirt",
      "stride-runner-sneakers",
    ]);
    // Only product of its category: nothing to suggest.
    expect(await related("solace-radiance-skincare-set")).toEqual([]);
  });

  it("returns at most 4, never the product itself nor archived ones, same subcategory first", async () => {
    await insertProduct(t.db, { slug: "e-archived", rating: 5, archivedAt: new Date().toISOString() });
    for (let i = 1; i <= 4; i++) await insertProduct(t.db, { slug: `e-audio-${i}`, rating: 3 });
    await insertProduct(t.db, {
      slug: "beauty-thing",
      categoryId: "beauty",
      subcategoryId: "skincare",
      rating: 5,
    });

    const cards = await related("aurora-anc-headphones");
    expect(RELATED_PRODUCTS_LIMIT).toBe(4);
    expect(cards).toHaveLength(4);
    const slugs = cards.map((c) => c.slug);
    expect(slugs).not.toContain("aurora-anc-headphones");
    expect(slugs).not.toContain("e-archived");
    expect(slugs).not.toContain("beauty-thing");
    // The four other audio products (same subcategory) beat the better-rated phone and laptop.
    expect(slugs.sort()).toEqual(["e-audio-1", "e-audio-2", "e-audio-3", "e-audio-4"]);

    const forPhone = await related("kestrel-x12-smartphone");
    expect(forPhone).toHaveLength(4);
    // No other smartphone: the best rated electronics come first (laptop 4.8, headphones 4.5).
    expect(forPhone.slice(0, 2).map((c) => c.slug)).toEqual(["lumen-book-pro-14", "aurora-anc-headphones"]);
    expect(forPhone.map((c) => c.slug)).not.toContain("kestrel-x12-smartphone");
  });
});
