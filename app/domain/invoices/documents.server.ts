import { z } from "zod";
import type { MailAttachment } from "../../adapters/mail/mail-message.ts";
import type { Database } from "../../db/database.server.ts";
import { findOrderForTracking } from "../orders/orders.server.ts";
import { trackOrderSchema } from "../orders/track-order.server.ts";
import {
  DOCUMENT_NUMBER,
  type DocumentKind,
  type InvoiceDocument,
  type IssuedDocument,
} from "./invoice-document.ts";
import { invoicePdfLayout, invoicePdfName } from "./invoice-pdf.ts";

/**
 * Reading issued invoices and credit notes (decision 031): the links an order page shows, and one
 * document for whoever may see it — the signed-in customer whose order it is, a guest with the
 * order's number and e-mail (the tracking page's proof), staff with the orders permission (the
 * route checks that). Anyone else gets null, as for a number that does not exist. The document is
 * returned as it was issued.
 */

/** An order page's link to a document. */
export interface DocumentLink {
  kind: DocumentKind;
  number: string;
  issuedAt: string;
}

/** The documents of an order, its invoice first, then its credit notes in the order they were issued. */
export async function listOrderDocuments(db: Database, orderNumber: string): Promise<DocumentLink[]> {
  const rows = await db
    .selectFrom("invoices")
    .innerJoin("orders", "orders.id", "invoices.orderId")
    .select(["invoices.kind", "invoices.number", "invoices.issuedAt"])
    .where("orders.number", "=", orderNumber)
    .orderBy("invoices.kind", "desc")
    .orderBy("invoices.sequence")
    .execute();
  return rows.map((row) => ({ kind: row.kind, number: row.number, issuedAt: row.issuedAt }));
}

function issued(row: {
  kind: DocumentKind;
  number: string;
  issuedAt: string;
  document: string;
}): IssuedDocument {
  return {
    kind: row.kind,
    number: row.number,
    issuedAt: row.issuedAt,
    document: JSON.parse(row.document) as InvoiceDocument,
  };
}

function documentQuery(db: Database, documentNumber: string) {
  return db
    .selectFrom("invoices")
    .innerJoin("orders", "orders.id", "invoices.orderId")
    .select([
      "invoices.kind",
      "invoices.number",
      "invoices.issuedAt",
      "invoices.document",
      "orders.number as orderNumber",
    ])
    .where("invoices.number", "=", documentNumber);
}

/** A document as staff see it (the route has checked the orders permission). */
export async function getDocumentForStaff(
  db: Database,
  documentNumber: string,
): Promise<IssuedDocument | null> {
  if (!DOCUMENT_NUMBER.test(documentNumber)) return null;
  const row = await documentQuery(db, documentNumber).executeTakeFirst();
  return row ? issued(row) : null;
}

/** A document of one of the signed-in customer's own orders; null for anyone else's. */
export async function getDocumentForCustomer(
  db: Database,
  userId: string,
  documentNumber: string,
): Promise<IssuedDocument | null> {
  if (!DOCUMENT_NUMBER.test(documentNumber)) return null;
  const row = await documentQuery(db, documentNumber).where("orders.userId", "=", userId).executeTakeFirst();
  return row ? issued(row) : null;
}

/** The tracking page's document button (/orders/documents): the order's proof and the document's number. */
export const guestDocumentSchema = trackOrderSchema.extend({
  document: z.string().trim().max(20).regex(DOCUMENT_NUMBER),
});

/**
 * A document for a guest who gave the order's number and its e-mail address, as the tracking page
 * asks (the route applies the tracking's rate limit); null when the pair does not match or the
 * document is not that order's.
 */
export async function getDocumentForGuest(
  db: Database,
  proof: { orderNumber: string; email: string; documentNumber: string },
): Promise<IssuedDocument | null> {
  if (!DOCUMENT_NUMBER.test(proof.documentNumber)) return null;
  const order = await findOrderForTracking(db, { number: proof.orderNumber, email: proof.email });
  if (!order) return null;
  const row = await documentQuery(db, proof.documentNumber)
    .where("orders.id", "=", order.id)
    .executeTakeFirst();
  return row ? issued(row) : null;
}

/**
 * The order's invoice as a PDF attachment for its confirmation e-mail (null before it has one): the
 * layout travels with the message, and the mailer renders it in the mail process.
 */
export async function invoiceAttachment(db: Database, orderNumber: string): Promise<MailAttachment | null> {
  const row = await db
    .selectFrom("invoices")
    .innerJoin("orders", "orders.id", "invoices.orderId")
    .select(["invoices.kind", "invoices.number", "invoices.issuedAt", "invoices.document"])
    .where("orders.number", "=", orderNumber)
    .where("invoices.kind", "=", "invoice")
    .executeTakeFirst();
  return row ? invoiceAttachmentOf(issued(row)) : null;
}

/** An issued invoice as the PDF the confirmation e-mail carries. */
export function invoiceAttachmentOf(document: IssuedDocument): MailAttachment {
  return {
    filename: invoicePdfName(document),
    contentType: "application/pdf",
    content: { pdf: invoicePdfLayout(document) },
  };
}
