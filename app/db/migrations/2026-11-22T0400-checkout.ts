import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Checkout: coupons, orders with item snapshots, the coupon a cart carries, and a shared
 * fixed-window rate-limit table (every app process sees the same counts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const serial = engineOf(db) === "postgres" ? "serial" : "integer";

  await db.schema
    .createTable("coupons")
    .addColumn("id", serial, (c) => c.primaryKey())
    /** stored upper-case; codes are matched case-insensitively by upper-casing the input */
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('percent', 'fixed')`))
    /** percent: 1..100; fixed: cents */
    .addColumn("amount", "integer", (c) => c.notNull().check(sql`amount > 0`))
    .addColumn("min_subtotal_cents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", "text")
    .addColumn("usage_limit", "integer")
    .addColumn("used_count", "integer", (c) => c.notNull().defaultTo(0).check(sql`used_count >= 0`))
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema.alterTable("carts").addColumn("coupon_code", "text").execute();

  await db.schema
    .createTable("orders")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("number", "text", (c) => c.notNull().unique())
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "text")
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("first_name", "text", (c) => c.notNull())
    .addColumn("last_name", "text", (c) => c.notNull())
    .addColumn("phone", "text", (c) => c.notNull())
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("city", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("zip_code", "text", (c) => c.notNull())
    .addColumn("country", "text", (c) => c.notNull())
    .addColumn("shipping_method", "text", (c) =>
      c.notNull().check(sql`shipping_method in ('standard', 'express')`),
    )
    .addColumn("subtotal_cents", "integer", (c) => c.notNull())
    .addColumn("discount_cents", "integer", (c) => c.notNull())
    .addColumn("shipping_cents", "integer", (c) => c.notNull())
    .addColumn("tax_cents", "integer", (c) => c.notNull())
    .addColumn("total_cents", "integer", (c) => c.notNull().check(sql`total_cents >= 0`))
    .addColumn("coupon_code", "text")
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('paid', 'shipped', 'delivered', 'cancelled')`),
    )
    .addColumn("payment_brand", "text", (c) => c.notNull())
    .addColumn("payment_last4", "text", (c) => c.notNull())
    .addColumn("payment_reference", "text", (c) => c.notNull())
    .addColumn("estimated_delivery", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("orders_user").on("orders").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("orders_status").on("orders").columns(["status", "created_at"]).execute();
  await db.schema.createIndex("orders_email").on("orders").column("email").execute();

  await db.schema
    .createTable("order_items")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    /** kept for stock restoration and links; the snapshot below is what the order shows */
    .addColumn("product_id", "integer", (c) => c.references("products.id").onDelete("set null"))
    .addColumn("product_slug", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("brand", "text", (c) => c.notNull())
    .addColumn("image_key", "text")
    .addColumn("unit_price_cents", "integer", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn("line_total_cents", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("order_items_order").on("order_items").column("order_id").execute();
  await db.schema.createIndex("order_items_product").on("order_items").column("product_id").execute();

  await db.schema
    .createTable("order_events")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("from_status", "text")
    .addColumn("to_status", "text", (c) => c.notNull())
    .addColumn("actor", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("order_events_order").on("order_events").column("order_id").execute();

  await db.schema
    .createTable("rate_limits")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("window_start", "bigint", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["rate_limits", "order_events", "order_items", "orders", "coupons"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.alterTable("carts").dropColumn("coupon_code").execute();
}
