import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Unique promotion codes (issue 31, decision 033): a promotion with `unique_codes` = 1 applies only
 * with one of its codes in `promotion_codes`, each good for one order — `order_id` and `used_at` are
 * set in the transaction that places it (guarded: only while unset) and cleared when the order is
 * cancelled or its payment fails. A code is unique shop-wide (the index the cart looks it up by).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const serial = engineOf(db) === "postgres" ? "serial" : "integer";
  await db.schema
    .alterTable("promotions")
    .addColumn("unique_codes", "integer", (c) => c.notNull().defaultTo(0).check(sql`unique_codes in (0, 1)`))
    .execute();
  await db.schema
    .createTable("promotion_codes")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("promotion_id", "integer", (c) => c.notNull().references("promotions.id"))
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("order_id", "integer", (c) => c.references("orders.id"))
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addCheckConstraint("promotion_codes_used_by_an_order", sql`(order_id is null) = (used_at is null)`)
    .execute();
  await db.schema
    .createIndex("promotion_codes_promotion")
    .on("promotion_codes")
    .columns(["promotion_id", "id"])
    .execute();
  await db.schema.createIndex("promotion_codes_order").on("promotion_codes").column("order_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("promotion_codes").execute();
  await db.schema.alterTable("promotions").dropColumn("unique_codes").execute();
}
