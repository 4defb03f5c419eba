import type { Kysely } from "kysely";

/**
 * Job leases (issue 29, decision 027): a background job that must run in one process at a time —
 * across every process on the database — holds a lease while it works. On PostgreSQL that is an
 * advisory lock (released by the server when its session ends, a crash included); on SQLite, where
 * the CLI and the server may share the file, a row here until it expires or is given back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("job_leases")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("holder", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("job_leases").execute();
}
