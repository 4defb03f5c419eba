import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * The promotions' revision (issue 31, decision 033): one row every change to a promotion's terms
 * moves, so each process keeps the active promotions it parsed while the revision stands and a cart
 * read asks only for the revision. The database moves it (triggers), so no writer can forget: any
 * insert or delete, and any update of a column but `used_count` (each order's use is not a change of
 * terms — its count is read live where a limit needs it).
 */
const TERMS = [
  "name",
  "code",
  "conditions",
  "action",
  "starts_at",
  "ends_at",
  "priority",
  "combines",
  "active",
  "campaign_id",
  "usage_limit",
  "per_customer_limit",
  "unique_codes",
].join(", ");

const BUMP = "update promotion_revision set revision = revision + 1 where id = 1;";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("promotion_revision")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("revision", "integer", (c) => c.notNull())
    .execute();
  await sql`insert into promotion_revision (id, revision) values (1, 1)`.execute(db);
  if (engineOf(db) === "postgres") {
    await sql
      .raw(`create function promotion_revision_bump() returns trigger language plpgsql as $$
        begin ${BUMP} return null; end $$`)
      .execute(db);
    await sql
      .raw(`create trigger promotions_revision
        after insert or delete or update of ${TERMS} on promotions
        for each statement execute function promotion_revision_bump()`)
      .execute(db);
  } else {
    const triggers = [
      `create trigger promotions_revision_insert after insert on promotions begin ${BUMP} end`,
      `create trigger promotions_revision_delete after delete on promotions begin ${BUMP} end`,
      `create trigger promotions_revision_update after update of ${TERMS} on promotions begin ${BUMP} end`,
    ];
    for (const trigger of triggers) await sql.raw(trigger).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === "postgres") {
    await sql`drop trigger if exists promotions_revision on promotions`.execute(db);
    await sql`drop function if exists promotion_revision_bump()`.execute(db);
  } else {
    for (const name of [
      "promotions_revision_insert",
      "promotions_revision_delete",
      "promotions_revision_update",
    ]) {
      await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
    }
  }
  await db.schema.dropTable("promotion_revision").execute();
}
