import { type Currency, currencyOf, formatMoney } from "../../lib/money.ts";
import {
  DOCUMENT_TITLES,
  type DocumentLine,
  formatDocumentDate,
  formatRate,
  INCLUSIVE_NOTE,
  type IssuedDocument,
} from "./invoice-document.ts";

/**
 * An issued document as text, cell by cell: what the printable page (components/invoice) and the
 * PDF (invoice-pdf.ts) both lay out, so their figures are the same strings. Isomorphic and pure.
 */
export interface InvoiceView {
  /** "Invoice INV-000001" */
  heading: string;
  title: string;
  number: string;
  /** number, dates, order, the invoice a credit note corrects */
  facts: { label: string; value: string }[];
  seller: { heading: string; lines: string[] };
  buyer: { heading: string; lines: string[] };
  lines: {
    columns: ViewColumn[];
    /** one row per line (and the shipping), a cell per column */
    rows: ViewRow[];
  };
  taxes: { columns: ViewColumn[]; rows: ViewRow[] };
  totals: { label: string; value: string; strong?: boolean }[];
  notes: string[];
}

export interface ViewColumn {
  label: string;
  align: "left" | "right";
}

export interface ViewRow {
  /** the first cell: what it is, with its variant and SKU under it */
  description: string;
  detail: string;
  cells: string[];
}

const NONE = "—";

function rateText(basisPoints: number | null | undefined, taxCents: number | null): string {
  if (basisPoints === null || basisPoints === undefined) return taxCents === 0 ? formatRate(0) : NONE;
  return formatRate(basisPoints);
}

export function invoiceView(issued: IssuedDocument): InvoiceView {
  const { document } = issued;
  const currency: Currency = currencyOf(document.currency);
  const money = (cents: number | null) => (cents === null ? NONE : formatMoney(cents, currency));
  const title = DOCUMENT_TITLES[issued.kind];
  const credit = document.credit;

  const facts = [
    { label: `${title} number`, value: issued.number },
    { label: "Date of issue", value: formatDocumentDate(issued.issuedAt) },
    { label: "Order", value: document.order.number },
    { label: "Order date", value: formatDocumentDate(document.order.placedAt) },
  ];
  if (document.order.paidAt && !credit)
    facts.push({ label: "Paid on", value: formatDocumentDate(document.order.paidAt) });
  if (credit) {
    facts.push({
      label: "Corrects invoice",
      value: `${credit.invoiceNumber} of ${formatDocumentDate(credit.invoiceIssuedAt)}`,
    });
    if (credit.reason.trim()) facts.push({ label: "Reason", value: credit.reason.trim() });
  }

  const showDiscount = document.lines.some((line) => (line.discountCents ?? 0) > 0);
  const columns: ViewColumn[] = [
    { label: "Qty", align: "right" },
    { label: "Unit price", align: "right" },
    ...(showDiscount ? [{ label: "Discount", align: "right" } as const] : []),
    { label: "Net", align: "right" },
    { label: "Tax rate", align: "right" },
    { label: "Tax", align: "right" },
    { label: "Amount", align: "right" },
  ];
  const lineRow = (line: DocumentLine): ViewRow => {
    const charged = line.grossCents ?? line.amountCents - (line.discountCents ?? 0);
    return {
      description: line.description,
      detail: [line.detail, line.sku ? `SKU ${line.sku}` : ""].filter(Boolean).join(" · "),
      cells: [
        String(line.quantity),
        money(line.unitPriceCents),
        ...(showDiscount ? [line.discountCents ? `-${money(line.discountCents)}` : money(0)] : []),
        money(line.netCents),
        rateText(line.taxBasisPoints, line.taxCents),
        money(line.taxCents),
        money(charged),
      ],
    };
  };
  const rows = document.lines.map(lineRow);
  const shipping = document.shipping;
  if (shipping && (shipping.grossCents > 0 || !credit)) {
    const asEntered = document.taxMode === "inclusive" ? shipping.grossCents : shipping.netCents;
    rows.push({
      description: `Shipping${shipping.name ? ` — ${shipping.name}` : ""}`,
      detail: "",
      cells: [
        "1",
        money(asEntered),
        ...(showDiscount ? [money(0)] : []),
        money(shipping.netCents),
        rateText(shipping.taxBasisPoints, shipping.taxCents),
        money(shipping.taxCents),
        money(shipping.grossCents),
      ],
    });
  }

  const taxes = {
    columns: [
      { label: "Rate", align: "right" },
      { label: "Net", align: "right" },
      { label: "Tax", align: "right" },
    ] satisfies ViewColumn[],
    rows: document.taxes.map((tax) => ({
      description: tax.label,
      detail: "",
      cells: [formatRate(tax.basisPoints), money(tax.netCents), money(tax.taxCents)],
    })),
  };

  const { totals } = document;
  const totalRows: InvoiceView["totals"] = [];
  if (!credit) {
    totalRows.push({ label: "Subtotal", value: money(totals.subtotalCents) });
    if (totals.discountCents > 0)
      totalRows.push({ label: "Discount", value: `-${money(totals.discountCents)}` });
    totalRows.push({ label: "Shipping", value: money(totals.shippingCents) });
  }
  totalRows.push(
    { label: "Net total", value: money(totals.netCents) },
    { label: "Tax total", value: money(totals.taxCents) },
    { label: credit ? "Total credited" : "Total", value: money(totals.totalCents), strong: true },
  );

  const notes = [
    ...(document.taxMode === "inclusive" ? [INCLUSIVE_NOTE] : []),
    `Amounts in ${currency}.`,
    ...(credit ? [`This credit note corrects invoice ${credit.invoiceNumber}.`] : []),
  ];

  return {
    heading: `${title} ${issued.number}`,
    title,
    number: issued.number,
    facts,
    seller: {
      heading: "Seller",
      lines: [
        document.seller.name,
        ...document.seller.address,
        ...(document.seller.taxId ? [`Tax ID: ${document.seller.taxId}`] : []),
      ],
    },
    buyer: {
      heading: credit ? "Customer" : "Bill to",
      lines: [document.buyer.name, ...document.buyer.address, document.buyer.email],
    },
    lines: { columns, rows },
    taxes,
    totals: totalRows,
    notes,
  };
}
