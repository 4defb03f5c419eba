/**
 * An invoice or credit note as issued (decision 031): what the `invoices.document` column keeps,
 * frozen at issue, and what the printable page and the PDF render — never recomputed from the order,
 * the catalogue or the settings afterwards. Amounts are integer cents in `currency`; a credit note's
 * amounts are what it credits (positive numbers on a document titled "Credit note").
 *
 * Isomorphic: the page's component reads it too.
 */

export type DocumentKind = "invoice" | "credit_note";

export interface DocumentParty {
  name: string;
  /** the address as lines */
  address: string[];
}

export interface DocumentLine {
  description: string;
  /** the variant ("Size: M · Colour: Black"), or "" */
  detail: string;
  sku: string | null;
  quantity: number;
  /** in the order's tax mode (including tax when `taxMode` is inclusive); null where not one price */
  unitPriceCents: number | null;
  /** what the line was charged (or credited), in the order's tax mode, before tax is added */
  amountCents: number;
  /** the line's share of the discount; null when the order did not record it per line */
  discountCents: number | null;
  netCents: number | null;
  taxCents: number | null;
  grossCents: number | null;
  /** 1900 = 19 %; null on lines of orders placed before tax was kept per line */
  taxBasisPoints: number | null;
  taxLabel: string | null;
}

export interface DocumentShipping {
  name: string;
  netCents: number;
  taxCents: number;
  grossCents: number;
  /** the rate it was taxed at (the order's rate its tax matches); null when untaxed or not known */
  taxLabel: string | null;
  taxBasisPoints: number | null;
}

export interface DocumentTax {
  label: string;
  basisPoints: number;
  netCents: number;
  taxCents: number;
}

export interface InvoiceDocument {
  version: 1;
  kind: DocumentKind;
  currency: string;
  /** whether the order's prices included tax ("inclusive") or it was added ("exclusive") */
  taxMode: "exclusive" | "inclusive";
  order: { number: string; placedAt: string; paidAt: string | null };
  seller: DocumentParty & { taxId: string };
  buyer: DocumentParty & { email: string };
  lines: DocumentLine[];
  shipping: DocumentShipping | null;
  /** tax per rate */
  taxes: DocumentTax[];
  totals: {
    /** the lines as entered (invoice) or as credited (credit note) */
    subtotalCents: number;
    discountCents: number;
    shippingCents: number;
    netCents: number;
    taxCents: number;
    totalCents: number;
  };
  /** a credit note: the invoice it corrects, and the reason given for the refund */
  credit: { invoiceNumber: string; invoiceIssuedAt: string; reason: string } | null;
}

/** A document as the pages and the PDF show it: its number and date with what it says. */
export interface IssuedDocument {
  kind: DocumentKind;
  number: string;
  issuedAt: string;
  document: InvoiceDocument;
}

/** The number a document is known by: the series' prefix and its sequence, six digits at least. */
export function documentNumber(prefix: string, sequence: number): string {
  return `${prefix}${String(sequence).padStart(6, "0")}`;
}

/** "INV-000123", "CN-000045": what a document number looks like (routes check it before a query). */
export const DOCUMENT_NUMBER = /^(INV|CN)-\d{6,12}$/;

export const DOCUMENT_TITLES: Record<DocumentKind, string> = {
  invoice: "Invoice",
  credit_note: "Credit note",
};

/** "19 %" from 1900; "7.25 %" from 725. */
export function formatRate(basisPoints: number): string {
  const whole = Math.floor(basisPoints / 100);
  const fraction = basisPoints % 100;
  if (fraction === 0) return `${whole}\u00a0%`;
  return `${whole}.${String(fraction).padStart(2, "0").replace(/0$/, "")}\u00a0%`;
}

/** "2026-11-28T10:00:00.000Z" → "28 November 2026" (UTC; the same on the server and in the PDF). */
export function formatDocumentDate(iso: string): string {
  const [year, month, day] = iso.slice(0, 10).split("-").map(Number) as [number, number, number];
  return `${day} ${MONTHS[month - 1]} ${year}`;
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** The note printed under the totals when the shop's prices included tax. */
export const INCLUSIVE_NOTE = "Prices include tax.";
