import { type RawBuilder, sql, type Transaction } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import type { DocumentKind } from "../../db/schema-invoices.ts";
import { buildCreditNoteDocument, buildInvoiceDocument } from "./build-documents.server.ts";
import { documentNumber, type InvoiceDocument } from "./invoice-document.ts";

export { setInvoiceSellerDefaults } from "./build-documents.server.ts";

/**
 * Issuing invoices and credit notes (decision 031). A paid order gets an invoice in the very
 * transaction that marks it paid (payments/charges.server.ts), a succeeded refund of an invoiced
 * order a credit note in the transaction that records its success (refund-settlement.server.ts).
 * The number is taken from the series' counter row inside that transaction — PostgreSQL locks the
 * row until the commit, SQLite's one writer serialises every write transaction — so numbers are
 * distinct and gapless: a transaction that rolls back gives its number back. `issueMissingDocuments`
 * (the job) issues any a paid order or succeeded refund lacks.
 *
 * The document is frozen at issue (`invoices.document`): the seller's legal details as the settings
 * hold them then, the buyer's address, each line as the order stored it, tax per rate, totals.
 */

/** The statuses of an order whose payment was taken (cancelled and refunded ones were paid first). */
const PAID_STATUSES = [
  "paid",
  "shipped",
  "delivered",
  "cancelled",
  "partially_refunded",
  "refunded",
] as const;

/** The next number of a series, taken inside the caller's transaction (the row stays locked until it ends). */
async function takeNumber(trx: Transaction<DB>, series: DocumentKind) {
  const row = await trx
    .updateTable("invoiceCounters")
    .set((eb) => ({ nextSequence: eb("nextSequence", "+", 1) }))
    .where("series", "=", series)
    .returning(["nextSequence", "prefix"])
    .executeTakeFirstOrThrow();
  const sequence = row.nextSequence - 1;
  return { sequence, number: documentNumber(row.prefix, sequence) };
}

export interface IssuedNumber {
  kind: DocumentKind;
  number: string;
  sequence: number;
}

/**
 * The order's invoice, issued inside the caller's transaction unless it has one: the document read
 * and frozen, the number taken last (so the counter's row is held for as little as possible).
 */
export async function issueInvoice(
  trx: Transaction<DB>,
  orderId: number,
  now: Date = new Date(),
): Promise<IssuedNumber | null> {
  const existing = await trx
    .selectFrom("invoices")
    .select("id")
    .where("orderId", "=", orderId)
    .where("kind", "=", "invoice")
    .executeTakeFirst();
  if (existing) return null;
  const document = await buildInvoiceDocument(trx, orderId);
  return document && insertInvoice(trx, orderId, document, now);
}

/**
 * The invoice of an order being marked paid, in the transaction that moves it (the guarded status
 * change lets that happen once; `invoices_one_per_order` refuses a second invoice regardless): the
 * document was read before the transaction began (`buildInvoiceDocument` with the `paidAt` being
 * recorded: the order's lines and totals no longer change once it is reserved), so the transaction only
 * takes the number and writes the row.
 */
export async function insertInvoice(
  trx: Transaction<DB>,
  orderId: number,
  document: InvoiceDocument,
  now: Date,
): Promise<IssuedNumber> {
  const { sequence, number } = await takeNumber(trx, "invoice");
  await trx
    .insertInto("invoices")
    .values({
      kind: "invoice",
      sequence,
      number,
      orderId,
      refundId: null,
      issuedAt: now.toISOString(),
      document: JSON.stringify(document),
    })
    .execute();
  return { kind: "invoice", number, sequence };
}

/**
 * The refund's credit note, issued inside the caller's transaction (the one recording its success)
 * unless it has one; none for a refund that did not succeed or of an order without an invoice.
 */
export async function issueCreditNote(
  trx: Transaction<DB>,
  refundId: number,
  now: Date = new Date(),
): Promise<IssuedNumber | null> {
  const existing = await trx
    .selectFrom("invoices")
    .select("id")
    .where("refundId", "=", refundId)
    .executeTakeFirst();
  if (existing) return null;
  const document = await buildCreditNoteDocument(trx, refundId);
  if (!document) return null;
  const refund = await trx
    .selectFrom("orderRefunds")
    .select("orderId")
    .where("id", "=", refundId)
    .executeTakeFirstOrThrow();
  const { sequence, number } = await takeNumber(trx, "credit_note");
  await trx
    .insertInto("invoices")
    .values({
      kind: "credit_note",
      sequence,
      number,
      orderId: refund.orderId,
      refundId,
      issuedAt: now.toISOString(),
      document: JSON.stringify(document),
    })
    .execute();
  return { kind: "credit_note", number, sequence };
}

/**
 * PostgreSQL's Place Order marks an order paid in one statement (charges.server.ts `markPaid`, data-
 * modifying CTEs); this is the invoice's part of it, for the document read before it:
 * the statement takes the number and writes the invoice only when it moved the order (`moved`).
 * Appended after the statement's other CTEs.
 */
export function invoiceInPaidStatement(
  orderId: number,
  document: InvoiceDocument | null,
  at: string,
): RawBuilder<unknown> {
  if (!document) return sql``;
  return sql`, numbered as (
      update invoice_counters set next_sequence = next_sequence + 1
      where series = 'invoice' and exists (select 1 from moved)
      returning next_sequence - 1 as sequence, prefix),
    invoiced as (
      insert into invoices (kind, sequence, number, order_id, refund_id, issued_at, document)
      select 'invoice', sequence,
        prefix || case when sequence >= 1000000 then sequence::text else lpad(sequence::text, 6, '0') end,
        ${orderId}, null, ${at}, ${JSON.stringify(document)}
      from numbered
      returning number)`;
}

/** How far back the job looks for a paid order or a succeeded refund without its document. */
export const CATCH_UP_WINDOW_MS = 7 * 24 * 60 * 60_000;

/**
 * The job: every order paid (and every refund succeeded) since invoicing began — within the last
 * `CATCH_UP_WINDOW_MS` — that lacks its document gets it, invoices first (a credit note corrects
 * one), each in a short transaction of its own. Orders paid before invoicing began get none
 * (decision 031). Returns how many it issued.
 */
export async function issueMissingDocuments(
  db: Database,
  { now = new Date(), limit = 200 }: { now?: Date; limit?: number } = {},
): Promise<{ invoices: number; creditNotes: number }> {
  const counters = await db.selectFrom("invoiceCounters").select(["series", "startedAt"]).execute();
  const started = counters.find((row) => row.series === "invoice")?.startedAt ?? now.toISOString();
  const windowStart = new Date(now.getTime() - CATCH_UP_WINDOW_MS).toISOString();
  const since = started > windowStart ? started : windowStart;
  const orders = await db
    .selectFrom("orders")
    .select("id")
    .where("paidAt", ">=", since)
    .where("status", "in", PAID_STATUSES)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("invoices")
            .select("invoices.id")
            .whereRef("invoices.orderId", "=", "orders.id")
            .where("invoices.kind", "=", "invoice"),
        ),
      ),
    )
    .orderBy("paidAt")
    .orderBy("id")
    .limit(limit)
    .execute();
  let invoices = 0;
  for (const { id } of orders) {
    const issued = await db.transaction().execute((trx) => issueInvoice(trx, id, now));
    if (issued) invoices++;
  }
  const refunds = await db
    .selectFrom("orderRefunds")
    .innerJoin("invoices", (join) =>
      join.onRef("invoices.orderId", "=", "orderRefunds.orderId").on("invoices.kind", "=", "invoice"),
    )
    .select("orderRefunds.id")
    .where("orderRefunds.status", "=", "succeeded")
    .where("orderRefunds.settledAt", ">=", since)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("invoices as notes")
            .select("notes.id")
            .whereRef("notes.refundId", "=", "orderRefunds.id"),
        ),
      ),
    )
    .orderBy("orderRefunds.settledAt")
    .orderBy("orderRefunds.id")
    .limit(limit)
    .execute();
  let creditNotes = 0;
  for (const { id } of refunds) {
    const issued = await db.transaction().execute((trx) => issueCreditNote(trx, id, now));
    if (issued) creditNotes++;
  }
  return { invoices, creditNotes };
}
