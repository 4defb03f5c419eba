import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Invoices and credit notes (issue 30, decision 031):
 * - `invoice_counters`: one row per series ('invoice', 'credit_note') holding the next number to
 *   give. A document takes its number from that row inside the transaction that records it (the
 *   row's lock on PostgreSQL, SQLite's one writer), so numbers are gapless: a transaction that
 *   rolls back gives its number back. `started_at` is when this migration ran: orders paid and
 *   refunds settled before it get no document from the catch-up job (decision 031 says why);
 * - `invoices`: every document issued — its kind, number and sequence in its series, the order (and
 *   for a credit note the refund, one note per refund), when it was issued, and `document`, the JSON
 *   of the document as issued (seller, buyer, lines, tax per rate, totals), so later changes to the
 *   settings or the catalogue never rewrite it. One invoice per order (a partial unique index).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const serial = engineOf(db) === "postgres" ? "serial" : "integer";
  await db.schema
    .createTable("invoice_counters")
    .addColumn("series", "text", (c) => c.primaryKey().check(sql`series in ('invoice', 'credit_note')`))
    .addColumn("prefix", "text", (c) => c.notNull())
    .addColumn("next_sequence", "integer", (c) => c.notNull().check(sql`next_sequence >= 1`))
    .addColumn("started_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("invoices")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('invoice', 'credit_note')`))
    .addColumn("sequence", "integer", (c) => c.notNull().check(sql`sequence >= 1`))
    .addColumn("number", "text", (c) => c.notNull().unique())
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id"))
    .addColumn("refund_id", "integer", (c) => c.unique().references("order_refunds.id"))
    .addColumn("issued_at", "text", (c) => c.notNull())
    /** JSON: the document as issued (app/domain/invoices/invoice-document.ts) */
    .addColumn("document", "text", (c) => c.notNull())
    .addUniqueConstraint("invoices_sequence", ["kind", "sequence"])
    .addCheckConstraint("invoices_credit_note_refund", sql`(kind = 'credit_note') = (refund_id is not null)`)
    .execute();
  await db.schema
    .createIndex("invoices_one_per_order")
    .on("invoices")
    .column("order_id")
    .unique()
    .where(sql.ref("kind"), "=", "invoice")
    .execute();
  await db.schema.createIndex("invoices_order").on("invoices").column("order_id").execute();

  // the catch-up job looks for paid orders without an invoice by when they were paid
  await db.schema.createIndex("orders_paid_at").on("orders").column("paid_at").execute();
  const startedAt = new Date().toISOString();
  await sql`insert into invoice_counters (series, prefix, next_sequence, started_at)
    values ('invoice', 'INV-', 1, ${startedAt}), ('credit_note', 'CN-', 1, ${startedAt})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("orders_paid_at").execute();
  await db.schema.dropTable("invoices").execute();
  await db.schema.dropTable("invoice_counters").execute();
}
