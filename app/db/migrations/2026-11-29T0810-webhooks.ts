import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Webhooks (issue 32, decision 039):
 * - `webhook_endpoints`: where the owner wants events sent — a URL, the event types (JSON array), the
 *   signing secret (and the one it replaced, valid until `previous_secret_until`), enabled or not;
 * - `webhook_events`: the outbox — one row per event, written in the transaction of the change it
 *   tells of, so a committed change always has its event and a rolled-back one never;
 * - `webhook_deliveries`: one per (event, endpoint), made by the delivery job from the outbox
 *   (`webhook_state.fanned_out_to`: the last event it has made deliveries for), with its attempts,
 *   when the next is due and how it ended;
 * - `webhook_attempts`: each try's answer (status, time, a response excerpt) for the delivery log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const serial = engineOf(db) === "postgres" ? "serial" : "integer";
  await db.schema
    .createTable("webhook_endpoints")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("previous_secret", "text")
    .addColumn("previous_secret_until", "text")
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1).check(sql`enabled in (0, 1)`))
    .addColumn("created_by_email", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("webhook_events")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("subject_id", "integer", (c) => c.notNull())
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("webhook_state")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("fanned_out_to", "integer", (c) => c.notNull())
    .execute();
  await db
    .insertInto("webhook_state" as never)
    .values({ id: 1, fanned_out_to: 0 } as never)
    .execute();
  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("event_id", "integer", (c) => c.notNull().references("webhook_events.id").onDelete("cascade"))
    .addColumn("endpoint_id", "integer", (c) =>
      c.notNull().references("webhook_endpoints.id").onDelete("cascade"),
    )
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'delivered', 'failed')`))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("delivered_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("webhook_deliveries_once", ["event_id", "endpoint_id"])
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_due")
    .on("webhook_deliveries")
    .columns(["status", "next_attempt_at"])
    .execute();
  await db.schema
    .createTable("webhook_attempts")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("delivery_id", "integer", (c) =>
      c.notNull().references("webhook_deliveries.id").onDelete("cascade"),
    )
    .addColumn("attempted_at", "text", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .addColumn("response_excerpt", "text")
    .addColumn("error", "text")
    .execute();
  await db.schema
    .createIndex("webhook_attempts_delivery")
    .on("webhook_attempts")
    .column("delivery_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "webhook_attempts",
    "webhook_deliveries",
    "webhook_state",
    "webhook_events",
    "webhook_endpoints",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
