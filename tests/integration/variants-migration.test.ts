import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { sql } from "kysely";
import { type Migration, Migrator } from "kysely/migration";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../../app/db/database.server.ts";
import { searchProducts } from "../../app/domain/catalog/listing.server.ts";
import { parseListingQuery } from "../../app/lib/listing-query.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";

/**
 * Migration 1200 (products in sizes and colours) on a database filled before it: every product
 * becomes a product with one default variant carrying its price, original price and stock; cart
 * lines move onto that variant; order lines gain it with its SKU; and down gives the old shape back.
 */
const MIGRATIONS_DIR = join(import.meta.dirname, "../../app/db/migrations");
const VARIANTS = "2026-11-25T1200-product-variants";
const names = readdirSync(MIGRATIONS_DIR)
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.replace(/\.ts$/, ""))
  .sort();
const BEFORE = names[names.indexOf(VARIANTS) - 1]!;

async function migrator(db: Database) {
  const migrations = Object.fromEntries(
    await Promise.all(
      names.map(async (name) => [
        name,
        (await import(pathToFileURL(join(MIGRATIONS_DIR, `${name}.ts`)).href)) as Migration,
      ]),
    ),
  );
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

describe.each(ENGINES)("variants migration on %s", (engine) => {
  let t: TestDatabase;
  let db: Database;
  const now = "2026-11-01T00:00:00.000Z";

  beforeAll(async () => {
    t = await createTestDatabase(engine, { checkStockLedger: false }); // a migration's test builds the older schema's rows by hand
    db = t.db;
    // back to the schema before variants, then a shop's data in it (raw SQL: today's types differ)
    const down = await (await migrator(db)).migrateTo(BEFORE);
    expect(down.error).toBeUndefined();
    await sql`insert into categories (id, name, parent_id, position) values ('electronics', 'Electronics', null, 0)`.execute(
      db,
    );
    for (const [slug, price, original, stock] of [
      ["old-lamp", 2500, 3000, 7],
      ["old-chair", 9900, null, 0],
    ] as const) {
      await sql`insert into products (slug, name, description, brand, category_id, subcategory_id, price_cents,
          original_price_cents, discount_percentage, rating, review_count, stock, specifications, featured,
          new_arrival, best_seller, created_at, updated_at, archived_at)
        values (${slug}, ${slug}, 'd', 'Brand', 'electronics', null, ${price}, ${original}, null, 4, 0, ${stock},
          '{}', 0, 0, 0, ${now}, ${now}, null)`.execute(db);
    }
    await sql`insert into carts (id, user_id, created_at, updated_at) values ('cart-1', null, ${now}, ${now})`.execute(
      db,
    );
    await sql`insert into cart_items (cart_id, product_id, quantity, added_at)
      select 'cart-1', id, 2, ${now} from products where slug = 'old-lamp'`.execute(db);
    await sql`insert into orders (number, idempotency_key, user_id, email, first_name, last_name, phone, address,
        city, state, zip_code, country, shipping_method, subtotal_cents, discount_cents, shipping_cents, tax_cents,
        total_cents, coupon_code, status, payment_brand, payment_last4, payment_reference, estimated_delivery,
        created_at, updated_at)
      values ('CW-OLD', 'key-1', null, 'a@example.com', 'A', 'B', '1', 'x', 'y', 'z', '1', 'US', 'standard',
        2500, 0, 0, 175, 2675, null, 'paid', 'Visa', '4242', 'ref', '2026-11-05', ${now}, ${now})`.execute(
      db,
    );
    await sql`insert into order_items (order_id, product_id, product_slug, name, brand, image_key, unit_price_cents,
        quantity, line_total_cents)
      select o.id, p.id, p.slug, p.name, p.brand, null, 2500, 1, 2500 from orders o, products p
      where o.number = 'CW-OLD' and p.slug = 'old-lamp'`.execute(db);

    const up = await (await migrator(db)).migrateToLatest();
    expect(up.error).toBeUndefined();
  });

  afterAll(async () => {
    await t?.destroy();
  });

  it("gives every product one default variant with its price, original price and stock", async () => {
    const rows = await db
      .selectFrom("productVariants")
      .innerJoin("products", "products.id", "productVariants.productId")
      .select([
        "products.id as productId",
        "products.slug",
        "productVariants.sku",
        "productVariants.option1",
        "productVariants.option2",
        "productVariants.option3",
        "productVariants.priceCents",
        "productVariants.originalPriceCents",
        "productVariants.stock",
        "productVariants.archivedAt",
      ])
      .orderBy("products.slug")
      .execute();
    expect(rows.map(({ productId, ...row }) => ({ ...row, sku: row.sku === `CW-${productId}` }))).toEqual([
      {
        slug: "old-chair",
        sku: true,
        option1: null,
        option2: null,
        option3: null,
        priceCents: 9900,
        originalPriceCents: null,
        stock: 0,
        archivedAt: null,
      },
      {
        slug: "old-lamp",
        sku: true,
        option1: null,
        option2: null,
        option3: null,
        priceCents: 2500,
        originalPriceCents: 3000,
        stock: 7,
        archivedAt: null,
      },
    ]);
    expect(await db.selectFrom("productOptions").selectAll().execute()).toEqual([]);
  });

  it("keeps the cart line, now on the product's variant", async () => {
    const line = await db
      .selectFrom("cartItems")
      .innerJoin("productVariants", "productVariants.id", "cartItems.variantId")
      .innerJoin("products", "products.id", "cartItems.productId")
      .select([
        "products.slug",
        "cartItems.quantity",
        "productVariants.productId as variantProduct",
        "products.id",
      ])
      .execute();
    expect(line).toHaveLength(1);
    expect(line[0]).toMatchObject({ slug: "old-lamp", quantity: 2 });
    expect(line[0]!.variantProduct).toBe(line[0]!.id);
  });

  it("keeps the order line, with its variant and SKU", async () => {
    const item = await db
      .selectFrom("orderItems")
      .innerJoin("productVariants", "productVariants.id", "orderItems.variantId")
      .select([
        "orderItems.name",
        "orderItems.sku",
        "orderItems.variantTitle",
        "productVariants.sku as variantSku",
      ])
      .executeTakeFirstOrThrow();
    expect(item).toMatchObject({ name: "old-lamp", variantTitle: "" });
    expect(item.sku).toBe(item.variantSku);
  });

  it("refuses a second variant with a SKU already taken, and negative variant stock", async () => {
    const [lamp] = await db.selectFrom("products").select("id").where("slug", "=", "old-lamp").execute();
    const values = {
      productId: lamp!.id,
      sku: `CW-${lamp!.id}`,
      priceCents: 100,
      originalPriceCents: null,
      stock: 1,
      position: 1,
    };
    await expect(db.insertInto("productVariants").values(values).execute()).rejects.toThrow(/unique/i);
    await expect(
      db
        .insertInto("productVariants")
        .values({ ...values, sku: "FRESH-1", stock: -1 })
        .execute(),
    ).rejects.toThrow(/check/i);
  });

  it("never gives a deleted variant's id to a new one (an old order line keeps naming what it sold)", async () => {
    const [lamp] = await db.selectFrom("products").select("id").where("slug", "=", "old-lamp").execute();
    const insert = (sku: string) =>
      db
        .insertInto("productVariants")
        .values({
          productId: lamp!.id,
          sku,
          priceCents: 100,
          originalPriceCents: null,
          stock: 1,
          position: 5,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
    const first = await insert("REUSE-1");
    await db.deleteFrom("productVariants").where("id", "=", first.id).execute();
    const second = await insert("REUSE-2");
    expect(second.id).toBeGreaterThan(first.id);
    await db.deleteFrom("productVariants").where("id", "=", second.id).execute();
  });

  it("goes down to one line per product again, and up", async () => {
    const m = await migrator(db);
    expect((await m.migrateTo(BEFORE)).error).toBeUndefined();
    const lines = await sql<{ quantity: number }>`select quantity from cart_items`.execute(db);
    expect(lines.rows.map((r) => Number(r.quantity))).toEqual([2]);
    expect((await m.migrateToLatest()).error).toBeUndefined();
    // reopened, the database has its variants again
    const again = createDatabase(t.url);
    try {
      expect(await again.selectFrom("productVariants").select("id").execute()).toHaveLength(2);
    } finally {
      await again.destroy();
    }
  });

  it("migration 1300 fills the option facets and search text of products that had options before it", async () => {
    const m = await migrator(db);
    expect((await m.migrateTo(VARIANTS)).error).toBeUndefined();
    const [{ id: productId }] = (
      await sql<{ id: number }>`select id from products order by id limit 1`.execute(db)
    ).rows as [{ id: number }];
    await sql`insert into product_options (product_id, position, name, option_values)
      values (${productId}, 1, 'Colour', '["Ochre","Teal"]')`.execute(db);
    await sql`update product_variants set option1 = 'Ochre', stock = 3 where product_id = ${productId}`.execute(
      db,
    );
    await sql`insert into product_variants (product_id, sku, option1, price_cents, stock, position)
      values (${productId}, 'MIG-TEAL', 'Teal', 4321, 0, 1)`.execute(db);
    expect((await m.migrateToLatest()).error).toBeUndefined();

    const again = createDatabase(t.url);
    try {
      const product = await again
        .selectFrom("products")
        .select(["optionText", "variantFacets"])
        .where("id", "=", productId)
        .executeTakeFirstOrThrow();
      expect(product.optionText.split(" ").sort()).toEqual(["Ochre", "Teal"]);
      // every live variant, "!" before the price of the one out of stock
      const [ochre, teal] = product.variantFacets.split("\n");
      expect(ochre?.split("\t").slice(1)).toEqual(["Colour\u001fOchre"]);
      expect(ochre?.startsWith("!")).toBe(false);
      expect(teal).toBe("!4321\tColour\u001fTeal");
      const rows = await again
        .selectFrom("variantOptionValues")
        .select(["optionKey", "valueKey", "optionValue"])
        .where("productId", "=", productId)
        .orderBy("valueKey")
        .execute();
      expect(rows).toEqual([
        { optionKey: "colour", valueKey: "ochre", optionValue: "Ochre" },
        { optionKey: "colour", valueKey: "teal", optionValue: "Teal" },
      ]);
      // the search looks in the option values (FTS5 rebuilt / pg_trgm expression)
      const found = await searchProducts(again, parseListingQuery(new URLSearchParams("search=ochre")));
      expect(found.products.map((p) => p.id)).toEqual([productId]);
      // and down again to 1200, and up
      expect((await m.migrateTo(VARIANTS)).error).toBeUndefined();
      expect((await m.migrateToLatest()).error).toBeUndefined();
    } finally {
      await again.destroy();
    }
  });
});
