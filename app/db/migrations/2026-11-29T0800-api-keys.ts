import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * API keys (issue 32, decision 038): the keys the owner makes for integrations. A key's secret is
 * shown once and kept only as its SHA-256 (`secret_hash`, unique: a request's key is found by the
 * hash of what it sent); `prefix` is the secret's first characters, shown in the list so the owner
 * can tell keys apart. `kind` 'secret' reaches the Admin API within its `scopes` (a JSON array such
 * as ["orders:read","products:write"]); 'publishable' only the Store API. A revoked key keeps its
 * row (the audit log names it); `last_used_at` is written at most once a minute per key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const serial = engineOf(db) === "postgres" ? "serial" : "integer";
  await db.schema
    .createTable("api_keys")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('secret', 'publishable')`))
    .addColumn("prefix", "text", (c) => c.notNull())
    .addColumn("secret_hash", "text", (c) => c.notNull().unique())
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("expires_at", "text")
    .addColumn("revoked_at", "text")
    .addColumn("last_used_at", "text")
    .addColumn("created_by_email", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("api_keys").execute();
}
