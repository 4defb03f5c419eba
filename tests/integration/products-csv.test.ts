import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalFileStore } from "../../app/adapters/files/file-store.server.ts";
import type { Database } from "../../app/db/database.server.ts";
import { seedDemoCatalog } from "../../app/db/seed/seed.server.ts";
import { exportProductsCsv, importProductsCsv } from "../../app/domain/catalog/admin/products-csv.server.ts";
import { PRODUCT_CSV_COLUMNS, PRODUCT_FIELD_COLUMNS } from "../../app/domain/catalog/admin/products-csv.ts";
import { searchProducts } from "../../app/domain/catalog/listing.server.ts";
import { getProductDetail } from "../../app/domain/catalog/product-detail.server.ts";
import { parseListingQuery } from "../../app/lib/listing-query.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";

async function exportText(db: Database): Promise<string> {
  let text = "";
  for await (const chunk of exportProductsCsv(db, "USD")) text += chunk;
  return text;
}

const products = (db: Database) => db.selectFrom("products").selectAll().orderBy("id").execute();
/** The products without options, by id. */
const singleVariantProducts = async (db: Database) => {
  const withOptions = new Set(
    (await db.selectFrom("productOptions").select("productId").execute()).map((r) => r.productId),
  );
  return (await products(db)).filter((p) => !withOptions.has(p.id));
};

/** The old layout (product columns only): still imported, a product's price and stock its one variant's. */
type Cells = Partial<Record<(typeof PRODUCT_FIELD_COLUMNS)[number], string>>;
const NEW_PRODUCT: Cells = {
  slug: "zephyr-desk-fan",
  name: "Zephyr Quietbreeze Desk Fan",
  description: "A whisper-quiet desk fan with three speeds.",
  brand: "Zephyrco",
  category: "home",
  subcategory: "appliances",
  price: "39.50",
  originalPrice: "49.00",
  stock: "12",
  featured: "false",
  newArrival: "true",
  bestSeller: "false",
  specifications: '{"Speeds":"3","Noise":"22 dB"}',
};
function csv(rows: Cells[]): string {
  const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  const lines = rows.map((r) => PRODUCT_FIELD_COLUMNS.map((c) => quote(r[c] ?? "")).join(","));
  return `${PRODUCT_FIELD_COLUMNS.join(",")}\n${lines.join("\n")}\n`;
}

/** catalog_facets rows against a GROUP BY over live products (what the triggers must keep). */
async function facetsMatchProducts(db: Database) {
  const facets = await db
    .selectFrom("catalogFacets")
    .select(["categoryId", "subcategoryId", "brandKey", "productCount"])
    .where("productCount", ">", 0)
    .execute();
  const live = await db
    .selectFrom("products")
    .select(["categoryId", "subcategoryId", "brand"])
    .where("archivedAt", "is", null)
    .execute();
  const truth = new Map<string, number>();
  for (const p of live) {
    const key = `${p.categoryId}|${p.subcategoryId ?? ""}|${p.brand.toLowerCase()}`;
    truth.set(key, (truth.get(key) ?? 0) + 1);
  }
  const table = new Map(
    facets.map((f) => [`${f.categoryId}|${f.subcategoryId}|${f.brandKey}`, Number(f.productCount)]),
  );
  expect(table).toEqual(truth);
}

/** Everything an import may write, and the catalogue's version (bumped by any listed change). */
async function catalogue(db: Database) {
  return {
    products: await products(db),
    variants: await db.selectFrom("productVariants").selectAll().orderBy("id").execute(),
    options: await db
      .selectFrom("productOptions")
      .selectAll()
      .orderBy("productId")
      .orderBy("position")
      .execute(),
    version: (await db.selectFrom("catalogVersion").select("version").executeTakeFirstOrThrow()).version,
  };
}

const search = (db: Database, params: Record<string, string>) =>
  searchProducts(db, parseListingQuery(new URLSearchParams(params)));

describe.each(ENGINES)("products CSV on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
    await seedDemoCatalog(t.db, createLocalFileStore(join(t.dir, "uploads")));
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("round trip: exporting and importing leaves the catalogue unchanged, variants and options included", async () => {
    const before = await catalogue(t.db);
    const exported = await exportText(t.db);
    expect(exported.split("\n")[0]).toBe(PRODUCT_CSV_COLUMNS.join(","));
    // one row per live variant: the phone's four, the headphones' two, one for a product without options
    const rows = parse(exported, { columns: true }) as Record<string, string>[];
    expect(rows.length).toBe(before.variants.length);
    expect(rows.filter((r) => r.slug === "kestrel-x12-smartphone").map((r) => r.sku)).toEqual([
      "KES-X12-256-GRA",
      "KES-X12-256-SIL",
      "KES-X12-512-GRA",
      "KES-X12-512-SIL",
    ]);
    const result = await importProductsCsv(t.db, { currency: "USD" }, exported);
    expect(result).toEqual({
      ok: true,
      value: { created: 0, updated: 0, unchanged: before.products.length },
    });
    expect(await catalogue(t.db)).toEqual(before);
    expect(await exportText(t.db)).toBe(exported);
  });

  it("the old layout (no variant columns) round-trips too", async () => {
    const before = await catalogue(t.db);
    const rows = parse(await exportText(t.db), { columns: true }) as Record<string, string>[];
    const seen = new Set<string>();
    const old = rows.filter((r) => !seen.has(r.id!) && seen.add(r.id!));
    const text = stringify(old, { header: true, columns: [...PRODUCT_FIELD_COLUMNS] });
    expect(await importProductsCsv(t.db, { currency: "USD" }, text)).toEqual({
      ok: true,
      value: { created: 0, updated: 0, unchanged: before.products.length },
    });
    expect(await catalogue(t.db)).toEqual(before);
  });

  it("creates a product without images that search, facets, listing and product page all show", async () => {
    const brandsBefore = (await search(t.db, { category: "home" })).facets.brands;
    expect(brandsBefore.some((b) => b.value === "zephyrco")).toBe(false);

    const now = new Date("2026-11-23T10:00:00.000Z");
    expect(await importProductsCsv(t.db, { currency: "USD" }, csv([NEW_PRODUCT]), now)).toEqual({
      ok: true,
      value: { created: 1, updated: 0, unchanged: 0 },
    });
    const created = await t.db
      .selectFrom("products")
      .selectAll()
      .where("slug", "=", "zephyr-desk-fan")
      .executeTakeFirstOrThrow();
    expect(created).toMatchObject({
      name: "Zephyr Quietbreeze Desk Fan",
      categoryId: "home",
      subcategoryId: "appliances",
      priceCents: 3950,
      originalPriceCents: 4900,
      discountPercentage: 19,
      stock: 12,
      newArrival: 1,
      featured: 0,
      rating: 0,
      reviewCount: 0,
      createdAt: now.toISOString(),
      archivedAt: null,
    });
    expect(JSON.parse(created.specifications)).toEqual({ Speeds: "3", Noise: "22 dB" });

    // search index (FTS5 / pg_trgm) and the trigger-kept facet and price-band counts
    const found = await search(t.db, { search: "quietbreeze" });
    expect(found.products.map((p) => p.slug)).toEqual(["zephyr-desk-fan"]);
    expect(found.products[0]!.image).toBeNull();
    expect((await search(t.db, { search: "whisper-quiet" })).total).toBe(1);
    const home = await search(t.db, { category: "home" });
    expect(home.facets.brands.find((b) => b.value === "zephyrco")?.count).toBe(1);
    expect(home.products.some((p) => p.slug === "zephyr-desk-fan")).toBe(true);
    // price bands: the listing counts "$0–$100 in home" from catalog_price_bands
    const cheapHome = await search(t.db, { category: "home", maxPrice: "100" });
    expect(cheapHome.products.map((p) => p.slug)).toContain("zephyr-desk-fan");
    expect(cheapHome.total).toBe(cheapHome.products.length);
    await facetsMatchProducts(t.db);

    const detail = await getProductDetail(t.db, "zephyr-desk-fan");
    expect(detail?.images).toEqual([]);
  });

  it("updates by id (slug and name included) and by slug", async () => {
    // products sold as one variant (the CSV's price and stock are that variant's)
    const [first, second] = await singleVariantProducts(t.db);
    const exported = await exportText(t.db);
    const rows = exported.trim().split("\n");
    expect(rows.length).toBeGreaterThan(3);

    const byId: Cells = {
      id: String(first!.id),
      slug: "kestrel-renamed",
      name: "Kestrel Nimbus Phone",
      description: first!.description,
      brand: "Kestrelworks",
      category: first!.categoryId,
      subcategory: first!.subcategoryId ?? "",
      price: "10.00",
      originalPrice: "",
      stock: "0",
      featured: "true",
      newArrival: "false",
      bestSeller: "false",
      specifications: "{}",
    };
    const bySlug: Cells = {
      slug: second!.slug,
      name: second!.name,
      description: second!.description,
      brand: second!.brand,
      category: "books",
      subcategory: "",
      price: "5",
      originalPrice: "",
      stock: "99",
      featured: "false",
      newArrival: "false",
      bestSeller: "false",
      specifications: "",
    };
    expect(await importProductsCsv(t.db, { currency: "USD" }, csv([byId, bySlug]))).toEqual({
      ok: true,
      value: { created: 0, updated: 2, unchanged: 0 },
    });
    const [a, b] = (await products(t.db)).filter((p) => p.id === first!.id || p.id === second!.id);
    expect(a).toMatchObject({
      id: first!.id,
      slug: "kestrel-renamed",
      name: "Kestrel Nimbus Phone",
      brand: "Kestrelworks",
      priceCents: 1000,
      originalPriceCents: null,
      discountPercentage: null,
      stock: 0,
      featured: 1,
      specifications: "{}",
      // kept: what the CSV does not describe
      rating: first!.rating,
      reviewCount: first!.reviewCount,
      createdAt: first!.createdAt,
    });
    expect(a!.updatedAt).not.toBe(first!.updatedAt);
    expect(b).toMatchObject({ id: second!.id, slug: second!.slug, categoryId: "books", subcategoryId: null });
    expect(b!.stock).toBe(99);

    expect((await search(t.db, { search: "nimbus" })).products.map((p) => p.id)).toEqual([first!.id]);
    // not under its old name any more
    expect((await search(t.db, { search: first!.name })).products.map((p) => p.id)).not.toContain(first!.id);
    expect((await search(t.db, { category: "books" })).products.map((p) => p.id)).toContain(second!.id);
    await facetsMatchProducts(t.db);
    expect(await getProductDetail(t.db, "kestrel-renamed")).not.toBeNull();
  });

  it("a CSV with several bad rows reports each with its line and imports nothing", async () => {
    const before = await products(t.db);
    const [first, second] = before;
    const text = csv([
      { ...NEW_PRODUCT, slug: "fine-new-product" }, // line 2: valid, but must not be created
      { ...NEW_PRODUCT, slug: "bad-price", price: "-3", stock: "" }, // line 3
      { ...NEW_PRODUCT, slug: "bad-category", category: "garden" }, // line 4
      { ...NEW_PRODUCT, id: "999999", slug: "" }, // line 5: unknown id
      { ...NEW_PRODUCT, id: String(first!.id), slug: second!.slug }, // line 6: someone else's slug
    ]);
    const result = await importProductsCsv(t.db, { currency: "USD" }, text);
    expect(result.ok).toBe(false);
    const lines = !result.ok ? result.error.problems.map((p) => `${p.line}: ${p.message}`) : [];
    // rows that fail on their own are reported first; the catalogue checks follow once they pass
    expect(lines).toEqual([
      '3: price must be an amount from 0 to 1000000 with at most 2 decimals (got "-3")',
      "3: stock is required",
      '4: unknown category "garden"',
    ]);
    const again = await importProductsCsv(
      t.db,
      { currency: "USD" },
      csv([
        { ...NEW_PRODUCT, slug: "fine-new-product" },
        { ...NEW_PRODUCT, id: "999999", slug: "" },
        { ...NEW_PRODUCT, id: String(first!.id), slug: second!.slug },
      ]),
    );
    expect(!again.ok && again.error.problems).toEqual([
      { line: 3, message: "no product has id 999999" },
      { line: 4, message: `slug "${second!.slug}" belongs to product ${second!.id}` },
    ]);
    expect(await products(t.db)).toEqual(before);
  });

  it("refuses to change the price or stock of a product sold in variants, naming its line", async () => {
    const before = await products(t.db);
    const phone = before.find((p) => p.slug === "kestrel-x12-smartphone")!;
    const text = csv([
      {
        id: String(phone.id),
        slug: phone.slug,
        name: phone.name,
        description: phone.description,
        brand: phone.brand,
        category: phone.categoryId,
        subcategory: phone.subcategoryId ?? "",
        price: "10.00",
        originalPrice: "",
        stock: "1",
        featured: "true",
        newArrival: "false",
        bestSeller: "true",
        specifications: "",
      },
    ]);
    const result = await importProductsCsv(t.db, { currency: "USD" }, text);
    expect(!result.ok && result.error.problems).toEqual([
      {
        line: 2,
        message: `product ${phone.id} ("kestrel-x12-smartphone") is sold in variants: change their prices and stock in the variant columns (variant_price, variant_stock), not the product's`,
      },
    ]);
    expect(await products(t.db)).toEqual(before);
  });

  it("an archived product is not updated by import", async () => {
    const [first] = await products(t.db);
    await t.db
      .updateTable("products")
      .set({ archivedAt: "2026-11-23T00:00:00.000Z" })
      .where("id", "=", first!.id)
      .execute();
    const result = await importProductsCsv(
      t.db,
      { currency: "USD" },
      csv([{ ...NEW_PRODUCT, id: String(first!.id) }]),
    );
    expect(!result.ok && result.error.problems[0]!.message).toMatch(/is archived/);
    expect((await exportText(t.db)).includes(`\n${first!.id},`)).toBe(false);
    await t.db.updateTable("products").set({ archivedAt: null }).where("id", "=", first!.id).execute();
  });

  it("a malformed CSV (unbalanced quote) gives a clear error and imports nothing", async () => {
    const before = await products(t.db);
    const text = `${csv([NEW_PRODUCT]).trimEnd()}\n5,"broken,row\n`;
    const result = await importProductsCsv(t.db, { currency: "USD" }, text);
    expect(result).toEqual({
      ok: false,
      error: {
        code: "invalid",
        problems: [
          { line: 3, message: "malformed CSV: a quoted field is never closed (unbalanced double quote)" },
        ],
      },
    });
    expect(await products(t.db)).toEqual(before);
  });

  it("rolls everything back when a write fails part-way", async () => {
    const before = await products(t.db);
    // the database refuses the third write (a trigger standing in for any write failure)
    if (engine === "postgres") {
      await sql`create function refuse_rollback_two() returns trigger language plpgsql as $$
        begin if new.slug = 'rollback-two' then raise exception 'refused'; end if; return new; end $$`.execute(
        t.db,
      );
      await sql`create trigger refuse_rollback_two before insert on products
        for each row execute function refuse_rollback_two()`.execute(t.db);
    } else {
      await sql`create trigger refuse_rollback_two before insert on products
        when new.slug = 'rollback-two' begin select raise(abort, 'refused'); end`.execute(t.db);
    }
    try {
      const [first] = await singleVariantProducts(t.db);
      const rows: Cells[] = [
        { ...NEW_PRODUCT, id: String(first!.id), slug: first!.slug, stock: "77" },
        { ...NEW_PRODUCT, slug: "rollback-one" },
        { ...NEW_PRODUCT, slug: "rollback-two" },
      ];
      await expect(importProductsCsv(t.db, { currency: "USD" }, csv(rows))).rejects.toThrow(/refused/);
      expect(await products(t.db)).toEqual(before);
      await facetsMatchProducts(t.db);
    } finally {
      await sql`drop trigger refuse_rollback_two${sql.raw(engine === "postgres" ? " on products" : "")}`.execute(
        t.db,
      );
    }
  });
});
