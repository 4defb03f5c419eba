import { type Kysely, sql } from "kysely";

/**
 * Price lists (issue 31, decision 037): a customer group's own price for a variant. One row per
 * (group, variant), in integer cents above zero; deleting the group or the variant takes its rows
 * with it. The cart reads a shopper's list prices by group (the key's first column) for the
 * variants in the cart; a variant's rows are found by `variant_id` (its index: the cascade, the
 * storefront's per-product reads).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("customer_group_prices")
    .addColumn("group_id", "integer", (c) => c.notNull().references("customer_groups.id").onDelete("cascade"))
    .addColumn("variant_id", "integer", (c) =>
      c.notNull().references("product_variants.id").onDelete("cascade"),
    )
    .addColumn("price_cents", "integer", (c) => c.notNull().check(sql`price_cents > 0`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("customer_group_prices_pk", ["group_id", "variant_id"])
    .execute();
  await db.schema
    .createIndex("customer_group_prices_variant")
    .on("customer_group_prices")
    .columns(["variant_id", "group_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("customer_group_prices").execute();
}
