import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Backups (issue 29, decision 028): the owner's schedule (one row, id 1, written when the owner
 * saves Admin → Backups; until then backups are off) and a row per backup run — when it started
 * and finished, whether it worked, where it went, the archive's name and size, or the error.
 * Sizes are bigint: an archive may pass 2 GB.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const serial = engineOf(db) === "postgres" ? "serial" : "integer";
  await db.schema
    .createTable("backup_settings")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("enabled", "integer", (c) => c.notNull().check(sql`enabled in (0, 1)`))
    .addColumn("hour_utc", "integer", (c) => c.notNull().check(sql`hour_utc between 0 and 23`))
    .addColumn("keep_count", "integer", (c) => c.notNull().check(sql`keep_count between 1 and 1000`))
    /** a directory or s3://bucket/prefix; "" is the default, DATA_DIR/backups */
    .addColumn("destination", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addCheckConstraint("backup_settings_one_row", sql`id = 1`)
    .execute();
  await db.schema
    .createTable("backup_runs")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("started_at", "text", (c) => c.notNull())
    .addColumn("finished_at", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('ok', 'failed')`))
    .addColumn("origin", "text", (c) => c.notNull().check(sql`origin in ('schedule', 'manual', 'cli')`))
    /** who asked ("Back up now"), by e-mail; null for the schedule and the CLI */
    .addColumn("requested_by", "text")
    .addColumn("destination", "text", (c) => c.notNull())
    .addColumn("archive_name", "text")
    .addColumn("size_bytes", "bigint")
    .addColumn("error", "text")
    .execute();
  await db.schema.createIndex("backup_runs_started_at").on("backup_runs").column("started_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("backup_runs").execute();
  await db.schema.dropTable("backup_settings").execute();
}
