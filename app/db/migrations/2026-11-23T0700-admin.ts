import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * The admin audit log: who changed what, when, with the record before and after (JSON text).
 * Portable columns (decision 002): ISO-8601 text timestamps, JSON as text, serial/integer ids.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const serial = engineOf(db) === "postgres" ? "serial" : "integer";
  await db.schema
    .createTable("audit_log")
    .addColumn("id", serial, (c) => c.primaryKey())
    // the acting user's id and e-mail at the time (kept even if the user is later removed)
    .addColumn("actor_id", "text", (c) => c.notNull())
    .addColumn("actor_email", "text", (c) => c.notNull())
    // e.g. product.create, product.update, product.stock, product.delete, product.archive, order.transition
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("entity_type", "text", (c) => c.notNull())
    .addColumn("entity_id", "text", (c) => c.notNull())
    .addColumn("summary", "text", (c) => c.notNull())
    .addColumn("before_json", "text")
    .addColumn("after_json", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await sql`create index audit_log_created on audit_log (created_at, id)`.execute(db);
  await sql`create index audit_log_entity on audit_log (entity_type, entity_id, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("audit_log").ifExists().execute();
}
