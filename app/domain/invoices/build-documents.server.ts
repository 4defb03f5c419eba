import type { Kysely } from "kysely";
import type { DB } from "../../db/schema.ts";
import { countryName } from "../../lib/countries.ts";
import { allocate, divideRounded } from "../../lib/order-calculator.ts";
import { DEFAULT_SHOP_SETTINGS, type ShopSettings } from "../../lib/shop-settings.ts";
import type { DocumentLine, DocumentShipping, DocumentTax, InvoiceDocument } from "./invoice-document.ts";

/**
 * What an invoice or credit note says, read from the order (and the refund) as stored and the
 * settings as they are now (decision 031): the seller's legal details, the buyer's address, each
 * line with its rate, tax per rate, totals. issue-documents.server.ts freezes it at issue.
 */

type Reader = Kysely<DB>;

/**
 * The seller named when the owner has not saved settings (there is no settings row yet): the
 * environment's shop name and contact address, which the app's assembly registers at start
 * (`setInvoiceSellerDefaults`). Kept on `globalThis`, as the server and the app's bundle each load
 * a copy of this module.
 */
const SELLER_DEFAULTS = Symbol.for("cartwheel.invoices.sellerDefaults");
type SellerDefaults = { shopName: string; contactAddress: string };

export function setInvoiceSellerDefaults(defaults: SellerDefaults): void {
  (globalThis as Record<symbol, unknown>)[SELLER_DEFAULTS] = {
    shopName: defaults.shopName,
    contactAddress: defaults.contactAddress,
  };
}

function sellerDefaults(): SellerDefaults {
  return (
    ((globalThis as Record<symbol, unknown>)[SELLER_DEFAULTS] as SellerDefaults | undefined) ??
    DEFAULT_SHOP_SETTINGS
  );
}

/** "a, b\nc" → ["a", "b", "c"]-ish: an address typed on one line or several, as lines. */
function addressLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** What the seller's block is made of: the shop's settings (as saved, or their defaults). */
export type SellerSettings = Pick<
  ShopSettings,
  "shopName" | "contactAddress" | "legalName" | "legalAddress" | "taxId"
>;

/** The seller as invoices name it: the legal name and address, else the shop's name and contact address. */
export function sellerOf(settings: SellerSettings): InvoiceDocument["seller"] {
  return {
    name: settings.legalName.trim() || settings.shopName,
    address: addressLines(settings.legalAddress.trim() || settings.contactAddress),
    taxId: settings.taxId.trim(),
  };
}

async function readSeller(db: Reader): Promise<InvoiceDocument["seller"]> {
  const row = await db
    .selectFrom("shopSettings")
    .select(["shopName", "contactAddress", "legalName", "legalAddress", "taxId"])
    .where("id", "=", 1)
    .executeTakeFirst();
  return sellerOf(row ?? { ...sellerDefaults(), legalName: "", legalAddress: "", taxId: "" });
}

/** What an invoice is made of, read from the order as stored. */
async function readOrder(db: Reader, orderId: number) {
  const order = await db
    .selectFrom("orders")
    .select([
      "id",
      "number",
      "email",
      "firstName",
      "lastName",
      "address",
      "city",
      "state",
      "zipCode",
      "country",
      "createdAt",
      "paidAt",
      "currency",
      "taxMode",
      "shippingMethodName",
      "subtotalCents",
      "discountCents",
      "shippingCents",
      "shippingTaxCents",
      "taxCents",
      "totalCents",
    ])
    .where("id", "=", orderId)
    .executeTakeFirst();
  return order ?? null;
}

type OrderRow = NonNullable<Awaited<ReturnType<typeof readOrder>>>;
/** The order's columns an invoice is made of (as stored, or as Place Order is storing them). */
export type InvoiceOrder = Omit<OrderRow, "id">;

function readItems(db: Reader, orderId: number) {
  return db
    .selectFrom("orderItems")
    .select([
      "id",
      "name",
      "variantTitle",
      "sku",
      "quantity",
      "unitPriceCents",
      "lineTotalCents",
      "discountCents",
      "netCents",
      "taxCents",
      "grossCents",
      "taxBasisPoints",
      "taxLabel",
    ])
    .where("orderId", "=", orderId)
    .orderBy("id")
    .execute();
}

type ItemRow = Omit<Awaited<ReturnType<typeof readItems>>[number], "id">;

function readTaxLines(db: Reader, orderId: number) {
  return db
    .selectFrom("orderTaxLines")
    .select(["label", "basisPoints", "netCents", "taxCents"])
    .where("orderId", "=", orderId)
    .orderBy("id")
    .execute();
}

function buyerOf(order: InvoiceOrder): InvoiceDocument["buyer"] {
  const place = [order.city, [order.state, order.zipCode].filter(Boolean).join(" ")]
    .filter(Boolean)
    .join(", ");
  return {
    name: `${order.firstName} ${order.lastName}`.trim(),
    email: order.email,
    address: [order.address, place, countryName(order.country)].filter(Boolean),
  };
}

type RateRow = { label: string; basisPoints: number; netCents: number; taxCents: number };

/**
 * The rate shipping was taxed at: the order keeps its tax, not its rate, so the order's rate whose
 * share of the net comes nearest the tax (within a cent of rounding); null when untaxed or none fits.
 */
function shippingRate(netCents: number, taxCents: number, rates: RateRow[]): RateRow | null {
  if (taxCents === 0 || netCents <= 0) return null;
  let best: RateRow | null = null;
  let bestOff = Number.POSITIVE_INFINITY;
  for (const rate of rates) {
    const off = Math.abs((netCents * rate.basisPoints) / 10_000 - taxCents);
    if (off < bestOff) {
      best = rate;
      bestOff = off;
    }
  }
  return bestOff <= 1 ? best : null;
}

/** The shipping as charged: as entered, with the tax in it (inclusive) or on it (exclusive). */
function shippingOf(order: InvoiceOrder, rates: RateRow[]): DocumentShipping {
  const inclusive = order.taxMode === "inclusive";
  const net = inclusive ? order.shippingCents - order.shippingTaxCents : order.shippingCents;
  const rate = shippingRate(net, order.shippingTaxCents, rates);
  return {
    name: order.shippingMethodName,
    netCents: net,
    taxCents: order.shippingTaxCents,
    grossCents: net + order.shippingTaxCents,
    taxLabel: rate?.label ?? null,
    taxBasisPoints: rate?.basisPoints ?? null,
  };
}

function lineOf(item: ItemRow): DocumentLine {
  return {
    description: item.name,
    detail: item.variantTitle,
    sku: item.sku,
    quantity: item.quantity,
    unitPriceCents: item.unitPriceCents,
    amountCents: item.lineTotalCents,
    discountCents: item.discountCents,
    netCents: item.netCents,
    taxCents: item.taxCents,
    grossCents: item.grossCents,
    taxBasisPoints: item.taxBasisPoints,
    taxLabel: item.taxLabel,
  };
}

/** What an order's invoice is made of: the order, its lines and tax lines (in their order), the seller. */
export interface InvoiceFacts {
  order: InvoiceOrder;
  items: ItemRow[];
  taxLines: RateRow[];
  seller: InvoiceDocument["seller"];
}

/**
 * An order's invoice from its facts (pure): what is frozen when it is issued. `paidAt`: the moment
 * the payment is being recorded, for a document made just before (charges.server.ts `markPaid`).
 */
export function invoiceDocumentOf(
  { order, items, taxLines, seller }: InvoiceFacts,
  { paidAt }: { paidAt?: string } = {},
): InvoiceDocument {
  return {
    version: 1,
    kind: "invoice",
    currency: order.currency,
    taxMode: order.taxMode,
    order: { number: order.number, placedAt: order.createdAt, paidAt: paidAt ?? order.paidAt },
    seller,
    buyer: buyerOf(order),
    lines: items.map(lineOf),
    shipping: shippingOf(order, taxLines),
    taxes: taxLines.map(({ label, basisPoints, netCents, taxCents }) => ({
      label,
      basisPoints,
      netCents,
      taxCents,
    })),
    totals: {
      subtotalCents: order.subtotalCents,
      discountCents: order.discountCents,
      shippingCents: order.shippingCents,
      netCents: order.totalCents - order.taxCents,
      taxCents: order.taxCents,
      totalCents: order.totalCents,
    },
    credit: null,
  };
}

/** An order's invoice as it stands now, read from the order as stored and the settings. */
export async function buildInvoiceDocument(
  db: Reader,
  orderId: number,
  { paidAt }: { paidAt?: string } = {},
): Promise<InvoiceDocument | null> {
  const [order, items, taxLines, seller] = await Promise.all([
    readOrder(db, orderId),
    readItems(db, orderId),
    readTaxLines(db, orderId),
    readSeller(db),
  ]);
  if (!order) return null;
  return invoiceDocumentOf({ order, items, taxLines, seller }, { paidAt });
}

/**
 * A refund's credit note as it stands now: each refunded line with what it paid back and the tax
 * in it (as the refund recorded them), the shipping when the refund included it, and any amount
 * not paid back by line (an amount typed in, a cancellation's rest, a refund recorded before lines
 * kept their amounts) spread over the order's tax rates in proportion to what each rate bore, each
 * share's tax by that rate's share of tax. Null without the order's invoice (nothing to correct).
 */
export async function buildCreditNoteDocument(db: Reader, refundId: number): Promise<InvoiceDocument | null> {
  const refund = await db
    .selectFrom("orderRefunds")
    .select(["id", "orderId", "amountCents", "includesShipping", "reason", "status", "settledAt", "kind"])
    .where("id", "=", refundId)
    .executeTakeFirst();
  if (refund?.status !== "succeeded") return null;
  const invoice = await db
    .selectFrom("invoices")
    .select(["number", "issuedAt"])
    .where("orderId", "=", refund.orderId)
    .where("kind", "=", "invoice")
    .executeTakeFirst();
  if (!invoice) return null;
  const [order, items, refundItems, taxLines, seller] = await Promise.all([
    readOrder(db, refund.orderId),
    readItems(db, refund.orderId),
    db
      .selectFrom("orderRefundItems")
      .select(["orderItemId", "quantity", "amountCents", "taxCents"])
      .where("refundId", "=", refund.id)
      .orderBy("orderItemId")
      .execute(),
    readTaxLines(db, refund.orderId),
    readSeller(db),
  ]);
  if (!order) return null;

  const lines: DocumentLine[] = [];
  let left = refund.amountCents;
  const byLine = refundItems.every((line) => line.amountCents !== null && line.taxCents !== null);
  if (byLine) {
    for (const refunded of refundItems) {
      const item = items.find((candidate) => candidate.id === refunded.orderItemId);
      const gross = Math.min(refunded.amountCents ?? 0, left);
      const tax = Math.min(refunded.taxCents ?? 0, gross);
      left -= gross;
      lines.push({
        description: item?.name ?? "Item",
        detail: item?.variantTitle ?? "",
        sku: item?.sku ?? null,
        quantity: refunded.quantity,
        unitPriceCents: item?.unitPriceCents ?? null,
        amountCents: order.taxMode === "inclusive" ? gross : gross - tax,
        discountCents: null,
        netCents: gross - tax,
        taxCents: tax,
        grossCents: gross,
        taxBasisPoints: item?.taxBasisPoints ?? null,
        taxLabel: item?.taxLabel ?? null,
      });
    }
  }
  let shipping: DocumentShipping | null = null;
  const shippingCharged = shippingOf(order, taxLines);
  if (refund.includesShipping === 1 && shippingCharged.grossCents > 0 && left > 0) {
    const gross = Math.min(shippingCharged.grossCents, left);
    const tax =
      gross === shippingCharged.grossCents
        ? shippingCharged.taxCents
        : divideRounded(gross * shippingCharged.taxCents, shippingCharged.grossCents);
    shipping = { ...shippingCharged, netCents: gross - tax, taxCents: tax, grossCents: gross };
    left -= gross;
  }
  if (left > 0) lines.push(...spreadOverRates(left, order, taxLines));

  const taxes = taxesOf(lines, shipping);
  const taxCents = lines.reduce((sum, line) => sum + (line.taxCents ?? 0), 0) + (shipping?.taxCents ?? 0);
  return {
    version: 1,
    kind: "credit_note",
    currency: order.currency,
    taxMode: order.taxMode,
    order: { number: order.number, placedAt: order.createdAt, paidAt: order.paidAt },
    seller,
    buyer: buyerOf(order),
    lines,
    shipping,
    taxes,
    totals: {
      subtotalCents: lines.reduce((sum, line) => sum + line.amountCents, 0),
      discountCents: 0,
      shippingCents: shipping ? (order.taxMode === "inclusive" ? shipping.grossCents : shipping.netCents) : 0,
      netCents: refund.amountCents - taxCents,
      taxCents,
      totalCents: refund.amountCents,
    },
    credit: { invoiceNumber: invoice.number, invoiceIssuedAt: invoice.issuedAt, reason: refund.reason },
  };
}

/**
 * An amount paid back without lines, shared over the order's rates in proportion to what each bore
 * (net + tax; the untaxed rest as one more part), each share's tax by its rate's ratio of tax.
 */
function spreadOverRates(amountCents: number, order: OrderRow, taxLines: RateRow[]): DocumentLine[] {
  const parts = taxLines.map((line) => line.netCents + line.taxCents);
  const untaxed = Math.max(0, order.totalCents - parts.reduce((a, b) => a + b, 0));
  const weights = [...parts, untaxed];
  const shares = weights.some((w) => w > 0)
    ? allocate(amountCents, weights)
    : [...parts.map(() => 0), amountCents];
  const lines: DocumentLine[] = [];
  shares.forEach((share, i) => {
    if (share === 0) return;
    const rate = taxLines[i];
    const tax = rate && parts[i]! > 0 ? divideRounded(share * rate.taxCents, parts[i]!) : 0;
    lines.push({
      description: rate ? `Amount refunded at ${rate.label}` : "Amount refunded",
      detail: "",
      sku: null,
      quantity: 1,
      unitPriceCents: null,
      amountCents: order.taxMode === "inclusive" ? share : share - tax,
      discountCents: null,
      netCents: share - tax,
      taxCents: tax,
      grossCents: share,
      taxBasisPoints: rate?.basisPoints ?? null,
      taxLabel: rate?.label ?? null,
    });
  });
  return lines;
}

/** A credit note's tax per rate: its lines' and its shipping's. */
function taxesOf(lines: DocumentLine[], shipping: DocumentShipping | null): DocumentTax[] {
  const rates = new Map<string, DocumentTax>();
  const add = (label: string | null, basisPoints: number | null, net: number, tax: number) => {
    if (basisPoints === null || basisPoints === 0 || label === null) return;
    const key = `${label}\u0000${basisPoints}`;
    const rate = rates.get(key) ?? { label, basisPoints, netCents: 0, taxCents: 0 };
    rate.netCents += net;
    rate.taxCents += tax;
    rates.set(key, rate);
  };
  for (const line of lines) add(line.taxLabel, line.taxBasisPoints, line.netCents ?? 0, line.taxCents ?? 0);
  if (shipping) add(shipping.taxLabel, shipping.taxBasisPoints, shipping.netCents, shipping.taxCents);
  return [...rates.values()];
}
