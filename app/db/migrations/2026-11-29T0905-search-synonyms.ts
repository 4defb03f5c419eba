import type { Kysely } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * The owner's synonyms (issue 33): groups of words that mean the same ("tee, t-shirt"), a JSON
 * array of lower-case words each; a search for one finds what holds any of them, at query time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const serial = engineOf(db) === "postgres" ? "serial" : "integer";
  await db.schema
    .createTable("search_synonyms")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("words", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("search_synonyms").execute();
}
