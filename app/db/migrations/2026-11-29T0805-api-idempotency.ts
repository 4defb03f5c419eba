import type { Kysely } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * The API's Idempotency-Key (issue 32, decision 038): one row per (key, Idempotency-Key) a POST
 * was sent with — the request's hash, and once answered its status and body, which a repeat gets
 * back for 24 hours. `status_code` null: still being answered.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const serial = engineOf(db) === "postgres" ? "serial" : "integer";
  await db.schema
    .createTable("api_idempotency")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("api_key_id", "integer", (c) => c.notNull().references("api_keys.id").onDelete("cascade"))
    .addColumn("idempotency_key", "text", (c) => c.notNull())
    .addColumn("request_hash", "text", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("response_body", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("api_idempotency_once", ["api_key_id", "idempotency_key"])
    .execute();
  await db.schema.createIndex("api_idempotency_created").on("api_idempotency").column("created_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("api_idempotency").execute();
}
