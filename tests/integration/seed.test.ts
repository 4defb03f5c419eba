import { readdirSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalFileStore } from "../../app/adapters/files/file-store.server.ts";
import type { FileStore } from "../../app/adapters/files/file-store.ts";
import { createDatabase, type Database } from "../../app/db/database.server.ts";
import { isCatalogEmpty, seedDemoCatalog, withSeedLock } from "../../app/db/seed/seed.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";

/** The spec's category list (§ Data, mega menu) — written out here, not read from the app's constant. */
const SPEC_CATEGORIES: Record<string, string[]> = {
  electronics: ["smartphones", "laptops", "tablets", "cameras", "audio"],
  clothing: ["men", "women", "kids", "shoes", "accessories"],
  home: ["furniture", "kitchen", "bedding", "appliances", "garden", "security"],
  beauty: ["skincare"],
  toys: [],
  sports: [],
  books: [],
  health: [],
};

/** Sample categories/subcategories the demo products use. */
const SAMPLE_PAIRS = [
  ["electronics", "smartphones"],
  ["electronics", "laptops"],
  ["electronics", "audio"],
  ["clothing", "accessories"],
  ["home", "furniture"],
  ["home", "kitchen"],
  ["home", "security"],
  ["beauty", "skincare"],
  // the apparel sold in sizes × colours (issue 18)
  ["clothing", "men"],
  ["clothing", "shoes"],
];

function countFiles(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

describe.each(ENGINES)("seedDemoCatalog on %s", (engine) => {
  let t: TestDatabase;
  let files: FileStore;
  let uploads: string;
  let firstRun: { created: number };
  let secondRun: { created: number };

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    uploads = join(t.dir, "uploads");
    files = createLocalFileStore(uploads);
    expect(await isCatalogEmpty(t.db)).toBe(true);
    firstRun = await seedDemoCatalog(t.db, files);
    secondRun = await seedDemoCatalog(t.db, files);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const products = () => t.db.selectFrom("products").selectAll().orderBy("id").execute();

  it("creates the 8 sample products and 2 apparel products once (a second run creates nothing)", async () => {
    expect(firstRun).toEqual({ created: 10 });
    expect(secondRun).toEqual({ created: 0 });
    expect(await isCatalogEmpty(t.db)).toBe(false);
    expect(await products()).toHaveLength(10);
    const images = await t.db.selectFrom("productImages").select("id").execute();
    expect(images).toHaveLength(30);
    expect(countFiles(uploads)).toBe(30 * 3);
  });

  it("sells the apparel in sizes × colours, some combinations missing and some sold out", async () => {
    for (const slug of ["loomwell-organic-cotton-t-shirt", "stride-runner-sneakers"]) {
      const variants = await t.db
        .selectFrom("productVariants")
        .innerJoin("products", "products.id", "productVariants.productId")
        .select(["productVariants.option1", "productVariants.option2", "productVariants.stock"])
        .where("products.slug", "=", slug)
        .execute();
      const options = await t.db
        .selectFrom("productOptions")
        .innerJoin("products", "products.id", "productOptions.productId")
        .select(["productOptions.name", "productOptions.optionValues"])
        .where("products.slug", "=", slug)
        .orderBy("productOptions.position")
        .execute();
      expect(
        options.map((o) => o.name),
        slug,
      ).toEqual(["Size", "Colour"]);
      const combinations = options.reduce((n, o) => n * (JSON.parse(o.optionValues) as string[]).length, 1);
      expect(variants.length, slug).toBeLessThan(combinations);
      expect(
        variants.some((v) => v.stock === 0),
        slug,
      ).toBe(true);
      expect(variants.filter((v) => v.stock > 0).length, slug).toBeGreaterThan(variants.length / 2);
    }
  });

  it("prices between 129.99 and 1299.99 with 13–25 % discounts off a higher original price (the spec's 8)", async () => {
    const rows = (await products()).slice(0, 8);
    const prices = rows.map((p) => p.priceCents);
    expect(Math.min(...prices)).toBe(12999);
    expect(Math.max(...prices)).toBe(129999);
    for (const p of rows) {
      expect(p.originalPriceCents, p.slug).toBeGreaterThan(p.priceCents);
      expect(p.discountPercentage, p.slug).toBeGreaterThanOrEqual(13);
      expect(p.discountPercentage, p.slug).toBeLessThanOrEqual(25);
      const exact = ((p.originalPriceCents! - p.priceCents) / p.originalPriceCents!) * 100;
      expect(Math.abs(exact - p.discountPercentage!), p.slug).toBeLessThanOrEqual(0.5);
      expect(Number(p.rating)).toBeGreaterThan(0);
      expect(Number(p.rating)).toBeLessThanOrEqual(5);
      expect(p.reviewCount).toBeGreaterThan(0);
      expect(Object.keys(JSON.parse(p.specifications)).length).toBeGreaterThan(0);
      expect(p.archivedAt).toBeNull();
      expect(Number.isNaN(Date.parse(p.createdAt))).toBe(false);
    }
  });

  it("has stock levels for all three stock messages (more than 10, 1 to 10, none)", async () => {
    const stock = (await products()).map((p) => p.stock);
    expect(stock.some((s) => s > 10)).toBe(true);
    expect(stock.some((s) => s >= 1 && s <= 10)).toBe(true);
    expect(stock.some((s) => s === 0)).toBe(true);
  });

  it("flags at least 4 products for each home section", async () => {
    const rows = await products();
    expect(rows.filter((p) => p.featured === 1).length).toBeGreaterThanOrEqual(4);
    expect(rows.filter((p) => p.newArrival === 1).length).toBeGreaterThanOrEqual(4);
    expect(rows.filter((p) => p.bestSeller === 1).length).toBeGreaterThanOrEqual(4);
  });

  it("creates the spec's categories and subcategories, and products use the sample pairs", async () => {
    const categories = await t.db.selectFrom("categories").selectAll().execute();
    const byId = new Map(categories.map((c) => [c.id, c]));
    for (const [category, subs] of Object.entries(SPEC_CATEGORIES)) {
      expect(byId.get(category)?.parentId, category).toBeNull();
      for (const sub of subs) expect(byId.get(sub)?.parentId, sub).toBe(category);
    }
    const pairs = (await products()).map((p) => [p.categoryId, p.subcategoryId]);
    expect(pairs.sort()).toEqual([...SAMPLE_PAIRS].sort());
  });

  it("gives every product 3 images with WebP files at 320, 640 and 960 px", async () => {
    const rows = await products();
    const images = await t.db
      .selectFrom("productImages")
      .selectAll()
      .orderBy("productId")
      .orderBy("position")
      .execute();
    for (const product of rows) {
      const own = images.filter((i) => i.productId === product.id);
      expect(
        own.map((i) => i.position),
        product.slug,
      ).toEqual([0, 1, 2]);
      expect(new Set(own.map((i) => i.key)).size).toBe(3);
      for (const image of own) {
        expect(image.key).toMatch(/^products\/[a-z0-9/_.-]+$/);
        expect(image.alt).toContain(product.name);
        expect(JSON.parse(image.widths)).toEqual([320, 640, 960]);
        for (const width of [320, 640, 960]) {
          const bytes = await files.get(`${image.key}-${width}.webp`);
          expect(bytes, `${image.key}-${width}.webp`).not.toBeNull();
          const meta = await sharp(bytes!).metadata();
          expect(meta.format).toBe("webp");
          expect(meta.width).toBe(width);
          expect(meta.exif).toBeUndefined();
        }
        expect(image.width).toBe(960);
        expect(image.height).toBeGreaterThan(0);
      }
    }
  });

  it("leaves an edited product alone on a later run", async () => {
    await t.db
      .updateTable("products")
      .set({ name: "Renamed by an admin" })
      .where("slug", "=", "kestrel-x12-smartphone")
      .execute();
    expect(await seedDemoCatalog(t.db, files)).toEqual({ created: 0 });
    const row = await t.db
      .selectFrom("products")
      .select("name")
      .where("slug", "=", "kestrel-x12-smartphone")
      .executeTakeFirstOrThrow();
    expect(row.name).toBe("Renamed by an admin");
  });
});

describe.each(ENGINES)("seeding from processes started together on %s", (engine) => {
  let t: TestDatabase;
  let second: Database | undefined;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await second?.destroy();
    await t?.destroy();
  });

  it("seeds the demo catalogue once: the others wait for the lock, then find it seeded", async () => {
    // a second process = a second pool of its own (SQLite: one process owns the file)
    second = engine === "postgres" ? createDatabase(t.url) : undefined;
    const processes = [t.db, second ?? t.db, t.db];
    const files = createLocalFileStore(join(t.dir, "uploads"));
    const runs = await Promise.all(
      processes.map((db) =>
        withSeedLock(db, async () =>
          (await isCatalogEmpty(db)) ? seedDemoCatalog(db, files) : { created: 0 },
        ),
      ),
    );
    expect(runs.map((r) => r.created).sort()).toEqual([0, 0, 10]);
    const { n } = await t.db
      .selectFrom("products")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(10);
  });
});
