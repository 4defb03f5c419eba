import type { PdfLayout } from "../../adapters/pdf/pdf-layout.ts";
import type { IssuedDocument } from "./invoice-document.ts";
import { invoiceView } from "./invoice-view.ts";

/**
 * An issued document as the PDF lays it out: the same view, so the same strings, as the printable
 * page (components/invoice/invoice-sheet.tsx). Pure; the mailer (or a test) renders it.
 */
export function invoicePdfLayout(issued: IssuedDocument): PdfLayout {
  const view = invoiceView(issued);
  return {
    title: view.heading,
    author: issued.document.seller.name,
    createdAt: issued.issuedAt,
    blocks: [
      { type: "heading", text: view.heading },
      { type: "facts", rows: view.facts },
      { type: "parties", parties: [view.seller, view.buyer] },
      {
        type: "table",
        columns: [
          { label: "Item", align: "left", weight: 3.2 },
          ...view.lines.columns.map((column) => ({
            ...column,
            weight: column.label === "Qty" ? 0.6 : column.label === "Tax rate" ? 0.9 : 1.15,
          })),
        ],
        rows: view.lines.rows.map((row) => ({
          cells: [row.description, ...row.cells],
          ...(row.detail ? { detail: row.detail } : {}),
        })),
      },
      ...(view.taxes.rows.length > 0
        ? [
            {
              type: "table" as const,
              heading: "Tax per rate",
              columns: [
                { label: "Tax", align: "left" as const, weight: 3 },
                ...view.taxes.columns.map((column) => ({ ...column, weight: 1.2 })),
              ],
              rows: view.taxes.rows.map((row) => ({ cells: [row.description, ...row.cells] })),
            },
          ]
        : []),
      { type: "totals", rows: view.totals },
      { type: "notes", lines: view.notes },
    ],
  };
}

/** The attachment's file name: "INV-000001.pdf". */
export function invoicePdfName(issued: Pick<IssuedDocument, "number">): string {
  return `${issued.number}.pdf`;
}
