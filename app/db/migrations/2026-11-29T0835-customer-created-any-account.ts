import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * `customer.created` for every account created as a customer (decision 039): the trigger of
 * migration 0830 also looked for a pending staff invitation of the address, which tied every insert
 * into `users` to the invitations table's shape; an account that joins the staff is made a customer
 * first (then promoted) and gets the event too, like one the CLI makes.
 */
const ISO_NOW_SQLITE = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
const ISO_NOW_PG = `to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

async function replaceTrigger(db: Kysely<unknown>, condition: string): Promise<void> {
  if (engineOf(db) === "postgres") {
    await sql
      .raw(`create or replace function webhook_customer_created() returns trigger language plpgsql as $$
        begin
          if ${condition} then
            insert into webhook_events (type, subject_id, data, created_at)
            values ('customer.created', 0, json_build_object('id', new.id, 'email', new.email)::text, ${ISO_NOW_PG});
          end if;
          return null;
        end $$`)
      .execute(db);
    return;
  }
  await sql`drop trigger if exists users_webhook_customer_created`.execute(db);
  await sql
    .raw(`create trigger users_webhook_customer_created after insert on users
      when ${condition}
      begin
        insert into webhook_events (type, subject_id, data, created_at)
        values ('customer.created', 0, json_object('id', new.id, 'email', new.email), ${ISO_NOW_SQLITE});
      end`)
    .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await replaceTrigger(db, "coalesce(new.role, 'customer') = 'customer'");
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await replaceTrigger(
    db,
    "coalesce(new.role, 'customer') = 'customer' and not exists (select 1 from staff_invitations where staff_invitations.email = lower(new.email))",
  );
}
