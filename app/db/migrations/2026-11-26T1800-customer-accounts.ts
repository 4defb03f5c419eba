import type { Kysely } from "kysely";

/** Staff can disable a customer's account (issue 20): it cannot sign in while this is set. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("disabled_at", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("disabled_at").execute();
}
