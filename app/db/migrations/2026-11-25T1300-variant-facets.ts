import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Option facets and option search (decision 019):
 * - `variant_option_values`: one row per live variant and option — the option's facet key
 *   ("Colour" → `colour`), the value's key (lower case), and both as the shop shows them. The
 *   listing filters on it (`size=m&colour=black`: a variant with those values in stock) and counts
 *   its option facets from it when SQL answers.
 * - `products.option_text`: the distinct option values of the live variants, space-separated — the
 *   search looks in it (FTS5 on SQLite, the pg_trgm expression on PostgreSQL, the search index).
 * - `products.variant_facets`: the live variants of a product with options as the search index reads
 *   them, one line each: price in cents ("!" before it when out of stock), then `name` U+001F
 *   `value` per option, tab-separated. A change of it or of option_text bumps `catalog_version`,
 *   so the index follows a variant selling out.
 * All three are written by the domain with the product's summary (syncProductSummary). Existing
 * products are filled here with the same rules (this file keeps its own copy of the key rule:
 * migrations never change).
 */
const LISTED_COLUMNS = [
  "name",
  "description",
  "brand",
  "category_id",
  "subcategory_id",
  "price_cents",
  "discount_percentage",
  "rating",
  "review_count",
  "featured",
  "new_arrival",
  "best_seller",
  "created_at",
  "archived_at",
];
const RESERVED = new Set([
  "category",
  "subcategory",
  "search",
  "brand",
  "minprice",
  "maxprice",
  "rating",
  "sort",
  "page",
  "featured",
  "new",
  "bestseller",
]);

/** No tab, line break or unit separator inside a variant_facets field. */
const clean = (text: string) => text.replaceAll("\t", " ").replaceAll("\n", " ").replaceAll("\u001f", " ");

function facetKey(name: string): string | null {
  const key = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return key === "" || RESERVED.has(key) ? null : key;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table products add column option_text text not null default ''`.execute(db);
  await sql`alter table products add column variant_facets text not null default ''`.execute(db);
  await db.schema
    .createTable("variant_option_values")
    .addColumn("variant_id", "integer", (c) =>
      c.notNull().references("product_variants.id").onDelete("cascade"),
    )
    .addColumn("product_id", "integer", (c) => c.notNull())
    .addColumn("option_key", "text", (c) => c.notNull())
    .addColumn("value_key", "text", (c) => c.notNull())
    .addColumn("option_name", "text", (c) => c.notNull())
    .addColumn("option_value", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("variant_option_values_pk", ["option_key", "value_key", "variant_id"])
    .execute();
  await db.schema
    .createIndex("variant_option_values_variant")
    .on("variant_option_values")
    .column("variant_id")
    .execute();
  await db.schema
    .createIndex("variant_option_values_product")
    .on("variant_option_values")
    .column("product_id")
    .execute();

  await fill(db);

  await searchedColumns(db, true);
}

/**
 * What a search looks in and what bumps `catalog_version`, with the option columns or without
 * them (down): PostgreSQL's pg_trgm expression index, SQLite's FTS5 table, and the triggers.
 */
async function searchedColumns(db: Kysely<unknown>, withOptions: boolean) {
  const listed = [...LISTED_COLUMNS, ...(withOptions ? ["option_text", "variant_facets"] : [])].join(", ");
  if (engineOf(db) === "postgres") {
    const text = `name || ' ' || brand || ' ' || category_id || ' ' || coalesce(subcategory_id, '') || ' ' || description${withOptions ? " || ' ' || option_text" : ""}`;
    await sql`drop index products_search_trgm`.execute(db);
    await sql
      .raw(`create index products_search_trgm on products using gin ((lower(${text})) gin_trgm_ops)`)
      .execute(db);
    await sql`drop trigger products_catalog_version on products`.execute(db);
    await sql
      .raw(`create trigger products_catalog_version
        after insert or delete or update of ${listed} on products
        for each statement execute function catalog_version_bump()`)
      .execute(db);
  } else {
    await sql`drop trigger products_catalog_version_update`.execute(db);
    await sql
      .raw(`create trigger products_catalog_version_update after update of ${listed} on products
        begin update catalog_version set version = version + 1 where id = 1; end`)
      .execute(db);
    await createFts(db, withOptions);
  }
}

/** SQLite's FTS5 trigram table over the searched columns, with or without option_text. */
async function createFts(db: Kysely<unknown>, withOptions: boolean) {
  for (const trigger of ["products_fts_insert", "products_fts_delete", "products_fts_update"]) {
    await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  }
  await sql`drop table if exists products_fts`.execute(db);
  const columns = `name, description, brand, category_id, subcategory_id${withOptions ? ", option_text" : ""}`;
  const of = (row: string) => columns.replace(/(\w+)/g, `${row}.$1`);
  await sql
    .raw(`create virtual table products_fts using fts5(
      ${columns}, content='products', content_rowid='id', tokenize='trigram'
    )`)
    .execute(db);
  await sql
    .raw(`create trigger products_fts_insert after insert on products begin
      insert into products_fts(rowid, ${columns}) values (new.id, ${of("new")});
    end`)
    .execute(db);
  await sql
    .raw(`create trigger products_fts_delete after delete on products begin
      insert into products_fts(products_fts, rowid, ${columns}) values ('delete', old.id, ${of("old")});
    end`)
    .execute(db);
  await sql
    .raw(`create trigger products_fts_update after update of ${columns} on products begin
      insert into products_fts(products_fts, rowid, ${columns}) values ('delete', old.id, ${of("old")});
      insert into products_fts(rowid, ${columns}) values (new.id, ${of("new")});
    end`)
    .execute(db);
  await sql`insert into products_fts(products_fts) values ('rebuild')`.execute(db);
}

/** Every product with options: its option rows, option text and in-stock variant lines. */
async function fill(db: Kysely<unknown>) {
  // one-word aliases: the rows read the same with or without the app's camel-case plugin
  const options = await sql<{ product: number; position: number; name: string }>`
    select product_id as product, position, name from product_options order by product_id, position
  `.execute(db);
  const byProduct = new Map<number, { position: number; name: string }[]>();
  for (const o of options.rows) {
    const list = byProduct.get(Number(o.product)) ?? [];
    list.push({ position: Number(o.position), name: o.name });
    byProduct.set(Number(o.product), list);
  }
  for (const [productId, productOptions] of byProduct) {
    const variants = await sql<{
      id: number;
      cents: number;
      stock: number;
      option1: string | null;
      option2: string | null;
      option3: string | null;
    }>`select id, price_cents as cents, stock, option1, option2, option3 from product_variants
       where product_id = ${productId} and archived_at is null order by id`.execute(db);
    const words = new Set<string>();
    const lines: string[] = [];
    for (const v of variants.rows) {
      const pairs: string[] = [];
      for (const option of productOptions) {
        const value = [v.option1, v.option2, v.option3][option.position - 1];
        if (!value) continue;
        words.add(value);
        pairs.push(`${clean(option.name)}\u001f${clean(value)}`);
        const key = facetKey(option.name);
        if (key === null) continue;
        const valueKey = value.trim().toLowerCase();
        await sql`insert into variant_option_values (variant_id, product_id, option_key, value_key, option_name, option_value)
          values (${Number(v.id)}, ${productId}, ${key}, ${valueKey}, ${option.name}, ${value})`.execute(db);
      }
      lines.push([`${Number(v.stock) > 0 ? "" : "!"}${v.cents}`, ...pairs].join("\t"));
    }
    await sql`update products set option_text = ${[...words].join(" ")}, variant_facets = ${lines.join("\n")}
      where id = ${productId}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await searchedColumns(db, false);
  await db.schema.dropTable("variant_option_values").execute();
  await sql`alter table products drop column variant_facets`.execute(db);
  await sql`alter table products drop column option_text`.execute(db);
}
