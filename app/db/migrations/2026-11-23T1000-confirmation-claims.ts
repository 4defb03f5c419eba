import { type Kysely, sql } from "kysely";

/**
 * Order confirmations become at-least-once (app/domain/orders/order-confirmation.server.ts): an
 * order is marked sent only after its e-mail went out, and each attempt records when it was
 * claimed, so an attempt that never finished (the process died between the order's commit and
 * the send) is taken up again by the resend job once its grace time has passed. Orders still
 * waiting for a resend count as claimed when they were created.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("confirmation_claimed_at", "text").execute();
  await sql`update orders set confirmation_claimed_at = created_at where confirmation_sent_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("confirmation_claimed_at").execute();
}
