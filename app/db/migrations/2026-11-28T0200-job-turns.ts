import type { Kysely } from "kysely";

/**
 * Job turns (issue 29, decision 027): a scheduled job's turn (the minute, the day) runs once
 * across every process. The process holding the job's lease reads the last turn done here, runs
 * the job only when this one is not, and records it before giving the lease back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("job_turns")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("turn", "bigint", (c) => c.notNull())
    .addColumn("finished_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("job_turns").execute();
}
