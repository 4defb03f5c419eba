import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * A promotion's uses are its rows in `promotion_redemptions` (issue 31, decision 033): an order
 * inserts one per promotion it used and a cancellation deletes it. `used_count` is from now on only
 * the counter a use limit is guarded by: the count of those rows while the promotion has a limit,
 * 0 while it has none — so an order using a promotion without a limit writes nothing on the
 * promotion's row (every concurrent checkout once waited on that one hot row).
 *
 * The database keeps `used_count` so when a limit comes or goes, whoever writes it (the admin, a
 * CLI, a test's own update), as migration 0700 moves the revision: a limit set on a promotion that
 * had none counts its redemptions (the CHECK of migration 0500 then refuses a limit below the uses),
 * a limit removed sets it to 0. On PostgreSQL the count waits for the orders writing redemptions
 * at that moment (a SHARE lock on the table, to the end of that transaction), and an order inserts
 * an unlimited promotion's redemption only while the promotion has no limit (one statement, after
 * that lock): no use is taken uncounted while a limit is set.
 */
const RECOUNT_PG = `create function promotion_used_count_on_limit() returns trigger language plpgsql as $$
  begin
    if new.usage_limit is null then
      new.used_count := 0;
    elsif old.usage_limit is null then
      lock table promotion_redemptions in share mode;
      new.used_count := (select count(*) from promotion_redemptions where promotion_id = new.id);
    end if;
    return new;
  end $$`;

const RECOUNT_SQLITE = `create trigger promotions_used_count_on_limit
  after update of usage_limit on promotions
  when (old.usage_limit is null) <> (new.usage_limit is null)
  begin
    update promotions
      set used_count = case when new.usage_limit is null then 0
        else (select count(*) from promotion_redemptions where promotion_id = new.id) end
      where id = new.id;
  end`;

export async function up(db: Kysely<unknown>): Promise<void> {
  // uses without a limit are no longer counted on the row (an update of used_count alone moves no revision)
  await sql`update promotions set used_count = 0 where usage_limit is null and used_count <> 0`.execute(db);
  if (engineOf(db) === "postgres") {
    await sql.raw(RECOUNT_PG).execute(db);
    await sql
      .raw(`create trigger promotions_used_count_on_limit
        before update of usage_limit on promotions
        for each row when ((old.usage_limit is null) <> (new.usage_limit is null))
        execute function promotion_used_count_on_limit()`)
      .execute(db);
  } else {
    await sql.raw(RECOUNT_SQLITE).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === "postgres") {
    await sql`drop trigger if exists promotions_used_count_on_limit on promotions`.execute(db);
    await sql`drop function if exists promotion_used_count_on_limit()`.execute(db);
  } else {
    await sql`drop trigger if exists promotions_used_count_on_limit`.execute(db);
  }
  // every use counted on the row again, as the code before this counted it
  await sql`update promotions set used_count = (select count(*) from promotion_redemptions
    where promotion_id = promotions.id) where usage_limit is null`.execute(db);
}
