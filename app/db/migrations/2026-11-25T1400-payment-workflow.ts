import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Checkout as a workflow (decision 020): an order is written as `pending_payment` with its stock
 * reserved before the gateway is asked, and marked `paid` (or `payment_failed`, releasing the
 * stock) afterwards; refunds follow as `partially_refunded` / `refunded`.
 *
 * - `orders.status` takes the new states (SQLite cannot change a CHECK constraint: `orders` and
 *   the two tables referencing it are rebuilt, each under its own name, in one transaction);
 * - `payment_gateway`: which gateway took the payment ("test" for every order before this);
 * - `reserved_until`: when a pending order's stock reservation lapses (the reconciliation job);
 * - `paid_at`, `payment_error` (why a payment failed), `refunded_cents`, `disputed_at`;
 * - `orders_pending`: the reconciliation job's question, pending orders by reservation;
 * - `order_refunds` (each refund of an order: amount, reason, lines restocked, its key) and
 *   `order_items.refunded_quantity` (so a line is never refunded twice);
 * - `returns` / `return_items`: a shopper's request to send delivered items back within 30 days,
 *   with its own number and states (requested → approved | rejected, approved → received →
 *   refunded);
 * - `test_gateway_payments` / `test_gateway_refunds`: the built-in test gateway's ledger (what a
 *   provider keeps: each payment by idempotency key, its state and what was refunded), so that
 *   "what became of this payment?" has an answer after the shop process died.
 */
const OLD_STATES = ["paid", "shipped", "delivered", "cancelled"];
const NEW_STATES = [
  "pending_payment",
  "payment_failed",
  "paid",
  "shipped",
  "delivered",
  "cancelled",
  "partially_refunded",
  "refunded",
];
const checkOf = (states: string[]) => `status in (${states.map((s) => `'${s}'`).join(", ")})`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await changeStates(db, OLD_STATES, NEW_STATES);
  const orders = () => db.schema.alterTable("orders");
  await orders()
    .addColumn("payment_gateway", "text", (c) => c.notNull().defaultTo("test"))
    .execute();
  await orders().addColumn("reserved_until", "text").execute();
  await orders().addColumn("paid_at", "text").execute();
  await orders().addColumn("payment_error", "text").execute();
  await orders()
    .addColumn("refunded_cents", "integer", (c) => c.notNull().defaultTo(0).check(sql`refunded_cents >= 0`))
    .execute();
  await orders().addColumn("disputed_at", "text").execute();
  await sql`update orders set paid_at = created_at`.execute(db);
  await sql`create index orders_pending on orders (reserved_until) where status = 'pending_payment'`.execute(
    db,
  );
  await db.schema
    .alterTable("order_items")
    .addColumn("refunded_quantity", "integer", (c) =>
      c.notNull().defaultTo(0).check(sql`refunded_quantity >= 0`),
    )
    .execute();
  await db.schema
    .createTable("order_refunds")
    .addColumn("id", engineOf(db) === "postgres" ? "serial" : "integer", (c) => c.primaryKey())
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("restocked", "integer", (c) => c.notNull())
    .addColumn("includes_shipping", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("gateway_refund_id", "text", (c) => c.notNull())
    .addColumn("actor", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("order_refunds_order").on("order_refunds").column("order_id").execute();
  const serial = engineOf(db) === "postgres" ? "serial" : "integer";
  await db.schema
    .createTable("returns")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("number", "text", (c) => c.notNull().unique())
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('requested', 'approved', 'rejected', 'received', 'refunded')`),
    )
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("rejection_reason", "text")
    .addColumn("refund_cents", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("returns_order").on("returns").column("order_id").execute();
  await db.schema.createIndex("returns_status").on("returns").columns(["status", "created_at"]).execute();
  await db.schema
    .createTable("return_items")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("return_id", "integer", (c) => c.notNull().references("returns.id").onDelete("cascade"))
    .addColumn("order_item_id", "integer", (c) =>
      c.notNull().references("order_items.id").onDelete("cascade"),
    )
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
    .execute();
  await db.schema.createIndex("return_items_return").on("return_items").column("return_id").execute();
  await db.schema
    .createTable("test_gateway_payments")
    .addColumn("idempotency_key", "text", (c) => c.primaryKey())
    .addColumn("authorization_id", "text", (c) => c.notNull().unique())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('authorized', 'captured', 'voided', 'declined')`),
    )
    .addColumn("decline_code", "text")
    .addColumn("refunded_cents", "integer", (c) =>
      c.notNull().defaultTo(0).check(sql`refunded_cents >= 0 and refunded_cents <= amount_cents`),
    )
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("test_gateway_refunds")
    .addColumn("idempotency_key", "text", (c) => c.primaryKey())
    .addColumn("authorization_id", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const newer = await sql<{ count: number }>`select count(*) as count from orders
    where status not in ('paid', 'shipped', 'delivered', 'cancelled')`.execute(db);
  const count = Number(newer.rows[0]?.count ?? 0);
  if (count > 0) {
    throw new Error(
      `${count} orders are in states the older schema lacks (pending, failed or refunded payments)`,
    );
  }
  await db.schema.dropTable("return_items").execute();
  await db.schema.dropTable("returns").execute();
  await db.schema.dropTable("order_refunds").execute();
  await db.schema.alterTable("order_items").dropColumn("refunded_quantity").execute();
  await db.schema.dropTable("test_gateway_refunds").execute();
  await db.schema.dropTable("test_gateway_payments").execute();
  await sql`drop index if exists orders_pending`.execute(db);
  for (const column of [
    "disputed_at",
    "refunded_cents",
    "payment_error",
    "paid_at",
    "reserved_until",
    "payment_gateway",
  ]) {
    await db.schema.alterTable("orders").dropColumn(column).execute();
  }
  await changeStates(db, NEW_STATES, OLD_STATES);
}

async function changeStates(db: Kysely<unknown>, from: string[], to: string[]): Promise<void> {
  if (engineOf(db) === "postgres") {
    await sql`alter table orders drop constraint orders_status_check`.execute(db);
    await sql`alter table orders add constraint orders_status_check check (${sql.raw(checkOf(to))})`.execute(
      db,
    );
    return;
  }
  // SQLite: new tables beside the old ones (the children referencing the new parent), the rows
  // copied, the old tables dropped children first (so no cascade touches a row), the new ones
  // renamed into place (renaming the parent rewrites its children's references) and indexed
  await db.transaction().execute((trx) => rebuildOrders(trx, from, to));
}

async function rebuildOrders(db: Kysely<unknown>, from: string[], to: string[]): Promise<void> {
  const tables = ["orders", "order_items", "order_events"];
  const definitions = await sql<{ name: string; type: string; sql: string }>`
    select name, type, sql from sqlite_schema
    where tbl_name in ('orders', 'order_items', 'order_events') and sql is not null`.execute(db);
  const tableSql = (name: string) => definitions.rows.find((r) => r.type === "table" && r.name === name)!.sql;
  const ordersSql = tableSql("orders");
  if (!ordersSql.includes(checkOf(from))) throw new Error("orders.status has an unexpected CHECK constraint");
  const renamed = (name: string, text: string) =>
    text
      .replace(`CREATE TABLE "${name}"`, `CREATE TABLE "${name}_rebuilt"`)
      .replace(`references "orders"`, `references "orders_rebuilt"`);
  await sql.raw(renamed("orders", ordersSql).replace(checkOf(from), checkOf(to))).execute(db);
  for (const child of ["order_items", "order_events"])
    await sql.raw(renamed(child, tableSql(child))).execute(db);
  for (const table of tables) {
    await sql.raw(`insert into "${table}_rebuilt" select * from "${table}"`).execute(db);
  }
  for (const table of [...tables].reverse()) await sql.raw(`drop table "${table}"`).execute(db);
  for (const table of tables)
    await sql.raw(`alter table "${table}_rebuilt" rename to "${table}"`).execute(db);
  for (const index of definitions.rows.filter((r) => r.type === "index"))
    await sql.raw(index.sql).execute(db);
}
