import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/** Shopping: server-side carts, product reviews, contact messages. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const serial = engineOf(db) === "postgres" ? "serial" : "integer";

  await db.schema
    .createTable("carts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("carts_user").on("carts").column("user_id").execute();

  await db.schema
    .createTable("cart_items")
    .addColumn("cart_id", "text", (c) => c.notNull().references("carts.id").onDelete("cascade"))
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn("added_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("cart_items_pk", ["cart_id", "product_id"])
    .execute();

  await db.schema
    .createTable("reviews")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("product_id", "integer", (c) => c.notNull().references("products.id").onDelete("cascade"))
    .addColumn("user_id", "text")
    .addColumn("author_name", "text", (c) => c.notNull())
    .addColumn("rating", "integer", (c) => c.notNull().check(sql`rating between 1 and 5`))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("helpful_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("reported", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("reviews_product")
    .on("reviews")
    .columns(["product_id", "created_at"])
    .execute();

  await db.schema
    .createTable("contact_messages")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["contact_messages", "reviews", "cart_items", "carts"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
