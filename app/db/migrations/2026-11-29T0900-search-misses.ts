import type { Kysely } from "kysely";

/**
 * The searches that found nothing (issue 33): per UTC day and search (normalized: trimmed, lower
 * case, single spaces), how often a shopper searched it in vain — what Admin → Searches shows, so
 * the merchant can add products or synonyms.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("search_misses")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("term", "text", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("search_misses_pk", ["day", "term"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("search_misses").execute();
}
