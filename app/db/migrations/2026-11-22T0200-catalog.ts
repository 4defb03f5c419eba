import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/** First schema: categories, products with their images and search index, newsletter. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = engineOf(db) === "postgres";
  const serial = postgres ? "serial" : "integer";

  await db.schema
    .createTable("categories")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("parent_id", "text", (c) => c.references("categories.id"))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("products")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("brand", "text", (c) => c.notNull())
    .addColumn("category_id", "text", (c) => c.notNull().references("categories.id"))
    .addColumn("subcategory_id", "text", (c) => c.references("categories.id"))
    .addColumn("price_cents", "integer", (c) => c.notNull().check(sql`price_cents >= 0`))
    .addColumn("original_price_cents", "integer", (c) => c.check(sql`original_price_cents >= 0`))
    .addColumn("discount_percentage", "integer", (c) => c.check(sql`discount_percentage between 1 and 99`))
    .addColumn("rating", "real", (c) => c.notNull().defaultTo(0).check(sql`rating between 0 and 5`))
    .addColumn("review_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("stock", "integer", (c) => c.notNull().defaultTo(0).check(sql`stock >= 0`))
    .addColumn("specifications", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("featured", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("new_arrival", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("best_seller", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("archived_at", "text")
    .execute();

  // Listing access paths. Partial indexes over live (not archived) products: every storefront
  // query says `archived_at is null`, so counts and sorted pages are answered from the index.
  const live = "where archived_at is null";
  const indexes: Array<[string, string]> = [
    ["products_live_category_price", "category_id, price_cents, id"],
    ["products_live_category_rating", "category_id, rating, id"],
    ["products_live_category_created", "category_id, created_at, id"],
    ["products_live_category_featured", "category_id, featured, rating, id"],
    ["products_live_subcategory_price", "subcategory_id, price_cents, id"],
    ["products_live_brand_price", "lower(brand), price_cents, id"],
    ["products_live_price", "price_cents, id"],
    ["products_live_rating", "rating, id"],
    ["products_live_created", "created_at, id"],
    ["products_live_featured", "featured, rating, id"],
    ["products_live_new_arrival", "new_arrival, created_at, id"],
    ["products_live_best_seller", "best_seller, created_at, id"],
    ["products_live_deals", "discount_percentage, id"],
  ];
  for (const [name, columns] of indexes) {
    await sql`create index ${sql.id(name)} on products (${sql.raw(columns)}) ${sql.raw(live)}`.execute(db);
  }

  await db.schema
    .createTable("product_images")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("alt", "text", (c) => c.notNull())
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("widths", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("product_images_product")
    .on("product_images")
    .columns(["product_id", "position"])
    .execute();

  await db.schema
    .createTable("newsletter_subscribers")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  if (postgres) {
    // Substring search over name, description, brand, category and subcategory (ILIKE).
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index products_search_trgm on products using gin (
      (lower(name || ' ' || brand || ' ' || category_id || ' ' || coalesce(subcategory_id, '') || ' ' || description)) gin_trgm_ops
    )`.execute(db);
    await sql`create index products_name_trgm on products using gin (lower(name) gin_trgm_ops)`.execute(db);
  } else {
    // FTS5 trigram: case-insensitive substring MATCH for terms of 3+ characters.
    await sql`create virtual table products_fts using fts5(
      name, description, brand, category_id, subcategory_id,
      content='products', content_rowid='id', tokenize='trigram'
    )`.execute(db);
    await sql`create trigger products_fts_insert after insert on products begin
      insert into products_fts(rowid, name, description, brand, category_id, subcategory_id)
      values (new.id, new.name, new.description, new.brand, new.category_id, new.subcategory_id);
    end`.execute(db);
    await sql`create trigger products_fts_delete after delete on products begin
      insert into products_fts(products_fts, rowid, name, description, brand, category_id, subcategory_id)
      values ('delete', old.id, old.name, old.description, old.brand, old.category_id, old.subcategory_id);
    end`.execute(db);
    await sql`create trigger products_fts_update after update of name, description, brand, category_id, subcategory_id on products begin
      insert into products_fts(products_fts, rowid, name, description, brand, category_id, subcategory_id)
      values ('delete', old.id, old.name, old.description, old.brand, old.category_id, old.subcategory_id);
      insert into products_fts(rowid, name, description, brand, category_id, subcategory_id)
      values (new.id, new.name, new.description, new.brand, new.category_id, new.subcategory_id);
    end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === "sqlite") await sql`drop table if exists products_fts`.execute(db);
  for (const table of ["newsletter_subscribers", "product_images", "products", "categories"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
