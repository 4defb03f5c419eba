import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Promotions (issue 31, decision 033):
 * - `promotion_campaigns`: a budget several promotions spend together; `spent_cents` never passes
 *   `budget_cents` (a CHECK, and the guarded update that spends it);
 * - `promotions`: a promotion's conditions and action (JSON, app/lib/promotions/engine.ts), its
 *   window, priority, whether it combines, its code (none: automatic), its campaign, and its limits:
 *   `used_count` never passes `usage_limit` (CHECK), `per_customer_limit` is counted on the
 *   redemptions, behind the promotion row's lock;
 * - `promotion_redemptions`: one row per promotion an order used — the customer it counts against
 *   ("user:<id>", or "email:<address>" for a guest) and what it took — given back with the order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const serial = engineOf(db) === "postgres" ? "serial" : "integer";
  await db.schema
    .createTable("promotion_campaigns")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("budget_cents", "integer", (c) => c.check(sql`budget_cents >= 0`))
    .addColumn("spent_cents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addCheckConstraint(
      "promotion_campaigns_within_budget",
      sql`spent_cents >= 0 and (budget_cents is null or spent_cents <= budget_cents)`,
    )
    .execute();
  await db.schema
    .createTable("promotions")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("code", "text", (c) => c.unique())
    .addColumn("conditions", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("starts_at", "text")
    .addColumn("ends_at", "text")
    .addColumn("priority", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("combines", "integer", (c) => c.notNull().defaultTo(1).check(sql`combines in (0, 1)`))
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1).check(sql`active in (0, 1)`))
    .addColumn("campaign_id", "integer", (c) => c.references("promotion_campaigns.id"))
    .addColumn("usage_limit", "integer", (c) => c.check(sql`usage_limit >= 1`))
    .addColumn("used_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("per_customer_limit", "integer", (c) => c.check(sql`per_customer_limit >= 1`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addCheckConstraint(
      "promotions_within_limit",
      sql`used_count >= 0 and (usage_limit is null or used_count <= usage_limit)`,
    )
    .addCheckConstraint("promotions_window", sql`starts_at is null or ends_at is null or starts_at < ends_at`)
    .execute();
  await db.schema
    .createTable("promotion_redemptions")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("promotion_id", "integer", (c) => c.notNull().references("promotions.id"))
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id"))
    .addColumn("customer_key", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("promotion_redemptions_once_per_order", ["promotion_id", "order_id"])
    .execute();
  await db.schema
    .createIndex("promotion_redemptions_customer")
    .on("promotion_redemptions")
    .columns(["promotion_id", "customer_key"])
    .execute();
  await db.schema
    .createIndex("promotion_redemptions_order")
    .on("promotion_redemptions")
    .column("order_id")
    .execute();
  // the live ones, read for every cart
  await db.schema.createIndex("promotions_active").on("promotions").columns(["active", "ends_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("promotion_redemptions").execute();
  await db.schema.dropTable("promotions").execute();
  await db.schema.dropTable("promotion_campaigns").execute();
}
