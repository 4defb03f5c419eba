import { type Kysely, sql } from "kysely";

/**
 * The shop's settings in the database (issue 20): one row (id 1), written when the owner saves
 * Admin → Settings; until then the shop runs on the defaults (environment and spec constants).
 * An order keeps the currency it was placed in, so a later change of the shop's currency does not
 * relabel what customers paid.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("shop_settings")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("shop_name", "text", (c) => c.notNull())
    .addColumn("contact_email", "text", (c) => c.notNull())
    .addColumn("contact_phone", "text", (c) => c.notNull())
    .addColumn("contact_address", "text", (c) => c.notNull())
    .addColumn("facebook_url", "text", (c) => c.notNull())
    .addColumn("instagram_url", "text", (c) => c.notNull())
    .addColumn("x_url", "text", (c) => c.notNull())
    .addColumn("youtube_url", "text", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("tax_rate_basis_points", "integer", (c) => c.notNull())
    .addColumn("tax_label", "text", (c) => c.notNull())
    .addColumn("standard_shipping_cents", "integer", (c) => c.notNull())
    .addColumn("free_shipping_threshold_cents", "integer", (c) => c.notNull())
    .addColumn("express_shipping_cents", "integer", (c) => c.notNull())
    .addColumn("standard_days_min", "integer", (c) => c.notNull())
    .addColumn("standard_days_max", "integer", (c) => c.notNull())
    .addColumn("express_days_min", "integer", (c) => c.notNull())
    .addColumn("express_days_max", "integer", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addCheckConstraint("shop_settings_one_row", sql`id = 1`)
    .execute();
  await db.schema
    .alterTable("orders")
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("USD"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("currency").execute();
  await db.schema.dropTable("shop_settings").execute();
}
