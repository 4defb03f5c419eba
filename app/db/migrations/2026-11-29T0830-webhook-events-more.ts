import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Webhooks, second part (issue 32, decision 039):
 * - `webhook_endpoints.failing_since`: the first failed attempt since the endpoint's last success
 *   (null while it answers); `failure_mailed_at`: when the owners were told it has failed for a day;
 *   `disabled_at`: when the delivery job turned it off after three days of failures (null when it
 *   is on, or was turned off by hand);
 * - `customer.created` written by a trigger on `users`: accounts are inserted by Better Auth in its
 *   own transaction, and a trigger is the one way to write the event in it. Only for a customer —
 *   an address with a pending staff invitation is joining the staff. `subject_id` is 0 (the account's
 *   id is text; it is in the data).
 * - `webhook_events(created_at)` for the outbox's pruning.
 */
const ISO_NOW_SQLITE = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
const ISO_NOW_PG = `to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ["failing_since", "failure_mailed_at", "disabled_at"]) {
    await db.schema.alterTable("webhook_endpoints").addColumn(column, "text").execute();
  }
  await db.schema.createIndex("webhook_events_created").on("webhook_events").column("created_at").execute();
  const customer = (row: string) =>
    `coalesce(${row}.role, 'customer') = 'customer' and not exists (select 1 from staff_invitations where staff_invitations.email = lower(${row}.email))`;
  if (engineOf(db) === "postgres") {
    await sql
      .raw(`create function webhook_customer_created() returns trigger language plpgsql as $$
        begin
          if ${customer("new")} then
            insert into webhook_events (type, subject_id, data, created_at)
            values ('customer.created', 0, json_build_object('id', new.id, 'email', new.email)::text, ${ISO_NOW_PG});
          end if;
          return null;
        end $$`)
      .execute(db);
    await sql
      .raw(`create trigger users_webhook_customer_created after insert on users
        for each row execute function webhook_customer_created()`)
      .execute(db);
  } else {
    await sql
      .raw(`create trigger users_webhook_customer_created after insert on users
        when ${customer("new")}
        begin
          insert into webhook_events (type, subject_id, data, created_at)
          values ('customer.created', 0, json_object('id', new.id, 'email', new.email), ${ISO_NOW_SQLITE});
        end`)
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists users_webhook_customer_created${engineOf(db) === "postgres" ? sql` on users` : sql``}`.execute(
    db,
  );
  if (engineOf(db) === "postgres") await sql`drop function if exists webhook_customer_created()`.execute(db);
  await db.schema.dropIndex("webhook_events_created").execute();
  for (const column of ["failing_since", "failure_mailed_at", "disabled_at"]) {
    await db.schema.alterTable("webhook_endpoints").dropColumn(column).execute();
  }
}
