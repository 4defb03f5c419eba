import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Products in sizes and colours (decision 019). A product has up to three options (a name and its
 * ordered values) and one or more variants, one per combination that exists, each with its own
 * SKU, price, original price, stock, barcode and image. The variants are the truth for what is
 * sold; the product row keeps a summary of them for the listing, its facets and the search index
 * (price and original price of the cheapest live variant, their discount, the summed stock),
 * written by the domain in the transaction that changes a variant.
 *
 * Every existing product becomes a product with one default variant (no options) carrying its
 * price, original price and stock, SKU `CW-<id>`; cart lines move onto that variant (the cart's
 * key becomes cart + variant); order lines gain the variant, its title and SKU (the default
 * variant's title is empty).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = engineOf(db) === "postgres";
  const serial = postgres ? "serial" : "integer";

  await db.schema
    .createTable("product_options")
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull().check(sql`position between 1 and 3`))
    .addColumn("name", "text", (c) => c.notNull())
    /** JSON array of the values, in the order the shop shows them */
    .addColumn("option_values", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("product_options_pk", ["product_id", "position"])
    .execute();

  // ids are never reused (SQLite's AUTOINCREMENT; a PostgreSQL sequence never goes back): an order
  // line keeps naming the variant it sold after that variant is deleted, and must never come to
  // name another one (a cancellation gives the units back to the variant its line names)
  await db.schema
    .createTable("product_variants")
    .addColumn("id", serial, (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("sku", "text", (c) => c.notNull().unique())
    /** the value of option 1..3 (null where the product has fewer options) */
    .addColumn("option1", "text")
    .addColumn("option2", "text")
    .addColumn("option3", "text")
    .addColumn("price_cents", "integer", (c) => c.notNull().check(sql`price_cents >= 0`))
    .addColumn("original_price_cents", "integer", (c) => c.check(sql`original_price_cents >= 0`))
    .addColumn("stock", "integer", (c) => c.notNull().defaultTo(0).check(sql`stock >= 0`))
    .addColumn("barcode", "text")
    .addColumn("image_id", "integer", (c) => c.references("product_images.id").onDelete("set null"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("archived_at", "text")
    .execute();
  await db.schema
    .createIndex("product_variants_product")
    .on("product_variants")
    .columns(["product_id", "position"])
    .execute();

  await sql`insert into product_variants
      (product_id, sku, price_cents, original_price_cents, stock, position, archived_at)
    select id, 'CW-' || id, price_cents, original_price_cents, stock, 0, null from products`.execute(db);

  // Cart lines are a cart's variants now: the table is rebuilt with its new key (SQLite cannot
  // change a primary key in place), each line on its product's default variant.
  await db.schema
    .createTable("cart_lines")
    .addColumn("cart_id", "text", (c) => c.notNull().references("carts.id").onDelete("cascade"))
    .addColumn("variant_id", "integer", (c) =>
      c.notNull().references("product_variants.id").onDelete("cascade"),
    )
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn("added_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("cart_lines_pk", ["cart_id", "variant_id"])
    .execute();
  await sql`insert into cart_lines (cart_id, variant_id, product_id, quantity, added_at)
    select i.cart_id, v.id, i.product_id, i.quantity, i.added_at
    from cart_items i join product_variants v on v.product_id = i.product_id`.execute(db);
  await db.schema.dropTable("cart_items").execute();
  await sql`alter table cart_lines rename to cart_items`.execute(db);

  // like product_slug, a reference kept with the snapshot (no foreign key: a variant without open
  // orders may be deleted, and its old order lines keep showing what was bought)
  await db.schema.alterTable("order_items").addColumn("variant_id", "integer").execute();
  await db.schema
    .alterTable("order_items")
    .addColumn("variant_title", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema.alterTable("order_items").addColumn("sku", "text").execute();
  await sql`update order_items set
      variant_id = (select v.id from product_variants v where v.product_id = order_items.product_id),
      sku = (select v.sku from product_variants v where v.product_id = order_items.product_id)
    where product_id is not null`.execute(db);
  await db.schema.createIndex("order_items_variant").on("order_items").column("variant_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("order_items_variant").execute();
  for (const column of ["sku", "variant_title", "variant_id"]) {
    await db.schema.alterTable("order_items").dropColumn(column).execute();
  }
  await db.schema
    .createTable("cart_items_old")
    .addColumn("cart_id", "text", (c) => c.notNull().references("carts.id").onDelete("cascade"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn("added_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("cart_items_pk", ["cart_id", "product_id"])
    .execute();
  await sql`insert into cart_items_old select cart_id, product_id, sum(quantity), min(added_at)
    from cart_items group by cart_id, product_id`.execute(db);
  await db.schema.dropTable("cart_items").execute();
  await sql`alter table cart_items_old rename to cart_items`.execute(db);
  await db.schema.dropTable("product_variants").execute();
  await db.schema.dropTable("product_options").execute();
}
