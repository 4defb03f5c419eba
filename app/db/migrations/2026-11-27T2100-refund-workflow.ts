import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Refunds as a recoverable workflow (issue 28, decision 025): a refund is recorded as `pending`
 * before the gateway is asked, and marked `succeeded` (or `failed`) after; a job settles the
 * pending ones a dead process left from the gateway's answer.
 *
 * - `order_refunds.status` (pending | succeeded | failed; the refunds before this all went
 *   through), `kind` (refund | cancel | return | provider | lapsed: a payment that went through
 *   for an order given up), `payment_id` (the provider's payment it is drawn on), `return_id` (a
 *   return's refund), `failure` (why the gateway refused), `settled_at`;
 * - `orders.refund_pending_cents`: money promised by pending refunds, so a guard never lets
 *   refunded + pending pass what was paid;
 * - `order_refund_items`: the lines and units a refund pays back (one row per line);
 * - `order_items.restocked_quantity`: units of a line put back into stock (a refund's restock or a
 *   return received), so cancelling gives back only what was not given back already;
 * - `return_items` gets a unique (return, line): a line appears once per return (rows of one line
 *   are merged first, their quantities summed).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const serial = engineOf(db) === "postgres" ? "serial" : "integer";
  const refunds = () => db.schema.alterTable("order_refunds");
  await refunds()
    .addColumn("status", "text", (c) =>
      c.notNull().defaultTo("succeeded").check(sql`status in ('pending', 'succeeded', 'failed')`),
    )
    .execute();
  await refunds()
    .addColumn("kind", "text", (c) =>
      c
        .notNull()
        .defaultTo("refund")
        .check(sql`kind in ('refund', 'cancel', 'return', 'provider', 'lapsed')`),
    )
    .execute();
  // no foreign key (SQLite could not drop the column again): a return is never deleted but with its order
  await refunds().addColumn("return_id", "integer").execute();
  await refunds()
    .addColumn("payment_id", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await sql`update order_refunds set payment_id = (
      select orders.payment_reference from orders where orders.id = order_refunds.order_id)`.execute(db);
  await refunds().addColumn("failure", "text").execute();
  await refunds().addColumn("settled_at", "text").execute();
  await sql`update order_refunds set settled_at = created_at`.execute(db);
  await sql`update order_refunds set kind = 'provider' where idempotency_key like 'provider:%'`.execute(db);
  await sql`update order_refunds set kind = 'return',
      return_id = (select returns.id from returns where 'return:' || returns.number = order_refunds.idempotency_key)
    where idempotency_key like 'return:%'`.execute(db);
  await sql`create index order_refunds_pending on order_refunds (created_at) where status = 'pending'`.execute(
    db,
  );

  await db.schema
    .alterTable("orders")
    .addColumn("refund_pending_cents", "integer", (c) =>
      c.notNull().defaultTo(0).check(sql`refund_pending_cents >= 0`),
    )
    .execute();
  await db.schema
    .alterTable("order_items")
    .addColumn("restocked_quantity", "integer", (c) =>
      c.notNull().defaultTo(0).check(sql`restocked_quantity >= 0`),
    )
    .execute();
  // lines refunded with their stock restored before this: their units went back into stock
  await sql`update order_items set restocked_quantity = refunded_quantity
    where refunded_quantity > 0 and exists (
      select 1 from order_refunds where order_refunds.order_id = order_items.order_id and order_refunds.restocked = 1)`.execute(
    db,
  );
  // and the lines of returns received
  await sql`update order_items set restocked_quantity = received.quantity
    from (select return_items.order_item_id as id,
                 sum(return_items.quantity) as quantity
          from return_items join returns on returns.id = return_items.return_id
          where returns.status in ('received', 'refunded')
          group by return_items.order_item_id) as received
    where order_items.id = received.id and order_items.restocked_quantity < received.quantity`.execute(db);

  await db.schema
    .createTable("order_refund_items")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("refund_id", "integer", (c) => c.notNull().references("order_refunds.id").onDelete("cascade"))
    .addColumn("order_item_id", "integer", (c) =>
      c.notNull().references("order_items.id").onDelete("cascade"),
    )
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .addUniqueConstraint("order_refund_items_line", ["refund_id", "order_item_id"])
    .execute();

  // one row per (return, line): rows naming the same line are summed into the first
  await sql`update return_items set quantity = (
      select sum(other.quantity) from return_items other
      where other.return_id = return_items.return_id and other.order_item_id = return_items.order_item_id)
    where id = (select min(first.id) from return_items first
                where first.return_id = return_items.return_id and first.order_item_id = return_items.order_item_id)`.execute(
    db,
  );
  await sql`delete from return_items where id <> (
      select min(first.id) from return_items first
      where first.return_id = return_items.return_id and first.order_item_id = return_items.order_item_id)`.execute(
    db,
  );
  await sql`create unique index return_items_line on return_items (return_id, order_item_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists return_items_line`.execute(db);
  await db.schema.dropTable("order_refund_items").execute();
  await db.schema.alterTable("order_items").dropColumn("restocked_quantity").execute();
  await db.schema.alterTable("orders").dropColumn("refund_pending_cents").execute();
  await sql`drop index if exists order_refunds_pending`.execute(db);
  await sql`delete from order_refunds where status <> 'succeeded'`.execute(db);
  for (const column of ["settled_at", "failure", "payment_id", "return_id", "kind", "status"]) {
    await db.schema.alterTable("order_refunds").dropColumn(column).execute();
  }
}
