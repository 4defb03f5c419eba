import { type Kysely, sql } from "kysely";

/**
 * Order confirmation e-mails that failed are sent again (app/domain/orders/order-confirmation.server.ts):
 * when the confirmation went out, and how many sending attempts were made (the counter is also
 * what lets one app process claim an attempt). Orders that exist already count as confirmed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("confirmation_sent_at", "text").execute();
  await db.schema
    .alterTable("orders")
    .addColumn("confirmation_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update orders set confirmation_sent_at = created_at`.execute(db);
  // the resend job's question: unconfirmed orders, oldest first
  await sql`create index orders_unconfirmed on orders (created_at) where confirmation_sent_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists orders_unconfirmed`.execute(db);
  await db.schema.alterTable("orders").dropColumn("confirmation_attempts").execute();
  await db.schema.alterTable("orders").dropColumn("confirmation_sent_at").execute();
}
