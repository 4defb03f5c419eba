import type { Generated } from "kysely";
import type { Timestamp } from "./schema-types.ts";

/** Invoices and credit notes (migration 2026-11-28T0410, decision 031); part of `DB` in schema.ts. */

export type DocumentKind = "invoice" | "credit_note";

/** One row per series: the next number it gives, and where its documents begin. */
export interface InvoiceCountersTable {
  series: DocumentKind;
  /** "INV-", "CN-": the number is the prefix and the sequence, six digits at least */
  prefix: string;
  nextSequence: number;
  /** when invoicing began (the migration): orders paid, refunds settled before get no document */
  startedAt: Timestamp;
}

export interface InvoicesTable {
  id: Generated<number>;
  kind: DocumentKind;
  /** 1, 2, 3… per kind, without gaps */
  sequence: number;
  /** e.g. "INV-000123" */
  number: string;
  orderId: number;
  /** a credit note's refund (one note per refund); null on an invoice */
  refundId: number | null;
  issuedAt: Timestamp;
  /** JSON of the document as issued (domain/invoices/invoice-document.ts) */
  document: string;
}
