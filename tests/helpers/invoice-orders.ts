import { randomUUID } from "node:crypto";
import type { Database } from "../../app/db/database.server.ts";
import { calculateOrder, type TaxMode } from "../../app/lib/order-calculator.ts";

/**
 * Orders for the invoice tests, written as Place Order writes them since issue 30 (every figure as
 * charged: each line's discount, net, tax, gross and rate, the shipping's tax, a row per tax rate,
 * the tax mode), `pending_payment` with its payment captured in the test gateway's ledger — so
 * `markPaid` makes it paid (and invoices it) and the refund workflow can pay it back.
 *
 * The default is a German shop's order (prices include tax): 2 × a jacket at 119,00 € (19 %),
 * 1 × a book at 21,40 € (7 %), shipping 5,95 € taxed at 19 %, a 10,00 € discount spread over the lines.
 */
export interface InvoiceOrderInput {
  email?: string;
  userId?: string | null;
  mode?: TaxMode;
  currency?: string;
  lines?: {
    name: string;
    variantTitle?: string;
    sku?: string;
    unitPriceCents: number;
    quantity: number;
    rate: Rate;
  }[];
  shippingCents?: number;
  shippingRate?: Rate | null;
  discountCents?: number;
  createdAt?: Date;
}

interface Rate {
  id: string;
  label: string;
  basisPoints: number;
}

export const VAT_19: Rate = { id: "de:standard", label: "VAT 19%", basisPoints: 1900 };
export const VAT_7: Rate = { id: "de:reduced", label: "VAT 7%", basisPoints: 700 };

let sequence = 0;

export interface InsertedOrder {
  id: number;
  number: string;
  idempotencyKey: string;
  paymentReference: string;
  totalCents: number;
  items: { id: number; name: string }[];
}

export async function insertPendingOrder(
  db: Database,
  input: InvoiceOrderInput = {},
): Promise<InsertedOrder> {
  sequence++;
  const mode = input.mode ?? "inclusive";
  const lines = input.lines ?? [
    {
      name: "Müller Jacke — Größe M",
      variantTitle: "Size: M · Colour: Black",
      sku: "JACKE-M",
      unitPriceCents: 11_900,
      quantity: 2,
      rate: VAT_19,
    },
    { name: "Das Buch über Straßen", sku: "BUCH-1", unitPriceCents: 2_140, quantity: 1, rate: VAT_7 },
  ];
  const calculation = calculateOrder({
    mode,
    rounding: "per-order",
    lines: lines.map((line, i) => ({
      key: String(i),
      unitPriceCents: line.unitPriceCents,
      quantity: line.quantity,
      rate: line.rate,
    })),
    orderDiscountCents: input.discountCents ?? 1_000,
    shipping: {
      priceCents: input.shippingCents ?? 595,
      rate: input.shippingRate === undefined ? VAT_19 : input.shippingRate,
    },
  });
  const created = (input.createdAt ?? new Date()).toISOString();
  const tag = `${process.pid}${String(sequence).padStart(4, "0")}${randomUUID().slice(0, 4)}`.toUpperCase();
  const number = `CW-${tag
    .replace(/[^0-9A-Z]/g, "")
    .slice(-10)
    .padStart(10, "0")}`;
  const idempotencyKey = `invoice-test-${randomUUID()}`;
  const paymentReference = `auth_${idempotencyKey}`;
  const order = await db
    .insertInto("orders")
    .values({
      number,
      idempotencyKey,
      userId: input.userId ?? null,
      email: input.email ?? "kundin@example.de",
      firstName: "Jürgen",
      lastName: "Weiß",
      phone: "+49 30 1234567",
      address: "Große Straße 5",
      city: "Berlin",
      state: "BE",
      zipCode: "10115",
      country: "DE",
      shippingMethod: "standard",
      shippingMethodName: "DHL Paket",
      taxMode: mode,
      subtotalCents: calculation.subtotalCents,
      discountCents: calculation.discountCents,
      shippingCents: calculation.shippingCents,
      shippingTaxCents: calculation.shipping?.taxCents ?? 0,
      taxCents: calculation.taxCents,
      totalCents: calculation.totalCents,
      currency: input.currency ?? "EUR",
      couponCode: null,
      status: "pending_payment",
      paymentBrand: "Visa",
      paymentLast4: "4242",
      paymentReference: "",
      estimatedDelivery: created.slice(0, 10),
      createdAt: created,
      updatedAt: created,
      reservedUntil: new Date(Date.parse(created) + 15 * 60_000).toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const items: InsertedOrder["items"] = [];
  for (const [i, line] of lines.entries()) {
    const figures = calculation.lines[i]!;
    const row = await db
      .insertInto("orderItems")
      .values({
        orderId: order.id,
        productId: null,
        variantId: null,
        variantTitle: line.variantTitle ?? "",
        sku: line.sku ?? null,
        productSlug: `invoice-test-${i}`,
        name: line.name,
        brand: "Testmarke",
        imageKey: null,
        unitPriceCents: line.unitPriceCents,
        quantity: line.quantity,
        lineTotalCents: line.unitPriceCents * line.quantity,
        discountCents: figures.discountCents,
        netCents: figures.netCents,
        taxCents: figures.taxCents,
        grossCents: figures.grossCents,
        taxBasisPoints: figures.rate.basisPoints,
        taxRateId: figures.rate.id,
        taxLabel: figures.rate.label,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    items.push({ id: row.id, name: line.name });
  }
  if (calculation.taxLines.length > 0) {
    await db
      .insertInto("orderTaxLines")
      .values(calculation.taxLines.map((line) => ({ orderId: order.id, ...line })))
      .execute();
  }
  await db
    .insertInto("testGatewayPayments")
    .values({
      idempotencyKey,
      authorizationId: paymentReference,
      amountCents: calculation.totalCents,
      status: "captured",
      declineCode: null,
      createdAt: created,
    })
    .execute();
  return {
    id: order.id,
    number,
    idempotencyKey,
    paymentReference,
    totalCents: calculation.totalCents,
    items,
  };
}
