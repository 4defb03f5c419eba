import type { Kysely } from "kysely";

/**
 * The shop's time zone (issue 31): an IANA name the owner sets in Admin → Settings, in which the
 * admin enters and reads a promotion's start and end. Instants stay stored in UTC; a shop that
 * never set it is in UTC, as every schedule entered before was.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("shop_settings")
    .addColumn("time_zone", "text", (c) => c.notNull().defaultTo("UTC"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("shop_settings").dropColumn("time_zone").execute();
}
