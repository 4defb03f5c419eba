import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMailer } from "../../app/adapters/mail/mailer.server.ts";
import type { PaymentGateway } from "../../app/adapters/payments/payment-gateway.ts";
import { createTestGateway } from "../../app/adapters/payments/test-gateway.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { priceCart } from "../../app/domain/cart/cart-pricing.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { buildInvoiceDocument } from "../../app/domain/invoices/build-documents.server.ts";
import type { InvoiceDocument } from "../../app/domain/invoices/invoice-document.ts";
import {
  issueInvoice,
  issueMissingDocuments,
  setInvoiceSellerDefaults,
} from "../../app/domain/invoices/issue-documents.server.ts";
import { getOrderByNumber } from "../../app/domain/orders/orders.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { markPaid } from "../../app/domain/payments/charges.server.ts";
import { refundOrder } from "../../app/domain/payments/refunds.server.ts";
import { readShopSettings, saveShopSettings } from "../../app/domain/settings/shop-settings.server.ts";
import { DEFAULT_SHOP_SETTINGS } from "../../app/lib/shop-settings.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { insertPendingOrder, VAT_7, VAT_19 } from "../helpers/invoice-orders.ts";
import { addZone, setPricesIncludeTax, takeCountries } from "../helpers/markets.ts";

const SECRET = "invoices-test-secret-0123456789abcdef0123";
const OWNER = { id: "owner-invoices", email: "owner@example.com", role: "owner" as const };
const SHOP = { shopName: "Cartwheel", publicUrl: "http://shop.test" };
const { markets: _markets, ...STORED_DEFAULTS } = DEFAULT_SHOP_SETTINGS;

async function documentsOf(t: TestDatabase) {
  const rows = await t.db
    .selectFrom("invoices")
    .select(["kind", "sequence", "number", "orderId", "refundId", "issuedAt", "document"])
    .orderBy("kind")
    .orderBy("sequence")
    .execute();
  return rows.map((row) => ({ ...row, document: JSON.parse(row.document) as InvoiceDocument }));
}

async function saveLegalDetails(
  t: TestDatabase,
  legal: { legalName: string; legalAddress: string; taxId: string },
) {
  await saveShopSettings(t.db, {
    settings: { ...STORED_DEFAULTS, shopName: "Laden am Eck", ...legal },
    defaults: STORED_DEFAULTS,
    actor: OWNER,
  });
}

/** The numbers of a series, in order: 1…n without a gap or a repeat. */
function expectGapless(sequences: number[], count: number) {
  expect([...sequences].sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
}

describe.each(ENGINES)("invoices and credit notes on %s", (engine) => {
  let t: TestDatabase;
  let gateway: PaymentGateway;
  const refundServices = () => ({
    db: t.db,
    gateway,
    mail: createMailer(`file:${join(t.dir, "mail")}`, { from: "shop@example.com" }),
    shop: SHOP,
  });

  beforeAll(async () => {
    setInvoiceSellerDefaults({
      shopName: "Cartwheel",
      contactAddress: "100 Market Street, Springfield, USA",
    });
  });
  beforeEach(async () => {
    t = await createTestDatabase(engine);
    gateway = createTestGateway({ processingDelayMs: 0, secret: SECRET, db: t.db });
    return async () => {
      await t.destroy();
    };
  });
  afterAll(() => {});

  it("invoices an order when it is paid, in the same transaction, with the document as charged", async () => {
    await saveLegalDetails(t, {
      legalName: "Laden am Eck GmbH",
      legalAddress: "Hauptstraße 1\n10115 Berlin\nGermany",
      taxId: "DE123456789",
    });
    const order = await insertPendingOrder(t.db);
    const paidAt = new Date();
    const settled = await markPaid(t.db, order.id, order.paymentReference, { now: paidAt });
    const [invoice, ...others] = await documentsOf(t);
    expect(others).toEqual([]);
    // the settlement names the invoice it issued, as stored (the confirmation attaches it)
    expect(settled).toEqual({
      status: "paid",
      replayed: false,
      invoice: {
        kind: "invoice",
        number: "INV-000001",
        issuedAt: paidAt.toISOString(),
        document: invoice?.document,
      },
    });
    expect(invoice).toMatchObject({
      kind: "invoice",
      sequence: 1,
      number: "INV-000001",
      orderId: order.id,
      refundId: null,
      issuedAt: paidAt.toISOString(),
    });
    const document = invoice!.document;
    // the document names the payment it was issued for (read before the write that numbers it)
    const placed = await t.db
      .selectFrom("orders")
      .select(["createdAt", "paidAt"])
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(placed.paidAt).toBe(paidAt.toISOString());
    expect(document.order).toEqual({
      number: order.number,
      placedAt: placed.createdAt,
      paidAt: paidAt.toISOString(),
    });
    expect(document.seller).toEqual({
      name: "Laden am Eck GmbH",
      address: ["Hauptstraße 1", "10115 Berlin", "Germany"],
      taxId: "DE123456789",
    });
    expect(document.buyer).toEqual({
      name: "Jürgen Weiß",
      email: "kundin@example.de",
      address: ["Große Straße 5", "Berlin, BE 10115", "Germany"],
    });
    expect(document.taxMode).toBe("inclusive");
    expect(document.currency).toBe("EUR");
    // the lines and the tax per rate exactly as the order stored them
    const stored = await t.db
      .selectFrom("orderItems")
      .select(["name", "quantity", "netCents", "taxCents", "grossCents", "taxBasisPoints", "taxLabel"])
      .where("orderId", "=", order.id)
      .orderBy("id")
      .execute();
    expect(
      document.lines.map((line) => ({
        name: line.description,
        quantity: line.quantity,
        netCents: line.netCents,
        taxCents: line.taxCents,
        grossCents: line.grossCents,
        taxBasisPoints: line.taxBasisPoints,
        taxLabel: line.taxLabel,
      })),
    ).toEqual(stored);
    const taxLines = await t.db
      .selectFrom("orderTaxLines")
      .select(["label", "basisPoints", "netCents", "taxCents"])
      .where("orderId", "=", order.id)
      .orderBy("id")
      .execute();
    expect(document.taxes).toEqual(taxLines);
    expect(document.taxes.map((tax) => tax.basisPoints)).toEqual([VAT_19.basisPoints, VAT_7.basisPoints]);
    const row = await t.db
      .selectFrom("orders")
      .select(["totalCents", "taxCents", "shippingCents", "shippingTaxCents"])
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(document.totals.totalCents).toBe(row.totalCents);
    expect(document.totals.taxCents).toBe(row.taxCents);
    expect(document.totals.netCents).toBe(row.totalCents - row.taxCents);
    // shipping included tax: gross 5,95 €, its tax in it
    expect(document.shipping).toEqual({
      name: "DHL Paket",
      netCents: row.shippingCents - row.shippingTaxCents,
      taxCents: row.shippingTaxCents,
      grossCents: row.shippingCents,
      taxLabel: "VAT 19%",
      taxBasisPoints: 1900,
    });
    // lines and shipping add up to the total, and so does the tax per rate
    const linesGross = document.lines.reduce((sum, line) => sum + line.grossCents!, 0);
    expect(linesGross + document.shipping!.grossCents).toBe(row.totalCents);
    expect(document.taxes.reduce((sum, tax) => sum + tax.taxCents, 0)).toBe(row.taxCents);

    // the same order paid again (the job and the request) is invoiced once
    expect((await markPaid(t.db, order.id, order.paymentReference)).status).toBe("paid");
    expect(await documentsOf(t)).toHaveLength(1);
  });

  it("Place Order freezes the invoice its stored order reads as, and hands the confirmation what it issued", async () => {
    // made from what Place Order wrote, not read back (decision 032): so it must be the very
    // document the stored rows make — mixed rates, taxed shipping, gross prices, legal details
    await saveLegalDetails(t, {
      legalName: "Laden am Eck GmbH",
      legalAddress: "Hauptstraße 1\n10115 Berlin",
      taxId: "DE123456789",
    });
    await takeCountries(t.db, ["DE"]);
    await addZone(t.db, {
      name: "Germany",
      countries: ["DE"],
      taxLabel: "MwSt.",
      taxShipping: true,
      rates: [
        { taxClass: "standard", basisPoints: 1900 },
        { taxClass: "reduced", basisPoints: 700 },
      ],
      methods: [{ code: "dhl", name: "DHL Paket", rule: "flat", flatCents: 490, daysMin: 1, daysMax: 3 }],
    });
    await setPricesIncludeTax(t.db, true);
    const book = await insertProduct(t.db, { priceCents: 1_999, stock: 5, taxClass: "reduced" });
    const lamp = await insertProduct(t.db, { priceCents: 4_550, stock: 5 });
    const shop = await readShopSettings(t.db, DEFAULT_SHOP_SETTINGS);
    const cartId = randomUUID();
    await addToCart(t.db, { cartId, productId: lamp, quantity: 1 });
    await addToCart(t.db, { cartId, productId: book, quantity: 2 });
    const cart = await getCart(t.db, cartId, shop);
    const destination = { country: "DE", region: "" };
    const priced = priceCart(shop.markets, {
      lines: cart.lines,
      destination,
      methodCode: "dhl",
    });
    if (!priced.ok) throw new Error("Germany has no zone");
    const card = await gateway.tokenize({
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2035,
      cvv: "123",
      name: "Erika Mustermann",
    });
    if (!card.ok) throw new Error("card");

    const placed = await placeOrder(t.db, gateway, {
      cartId,
      idempotencyKey: randomUUID(),
      shipping: {
        firstName: "Erika",
        lastName: "Mustermann",
        email: "erika@example.de",
        phone: "+49 30 1234567",
        address: "Unter den Linden 5",
        city: "Berlin",
        state: "",
        zipCode: "10117",
        country: "DE",
      },
      method: "dhl",
      shop,
      payment: { token: card.token, brand: card.brand, last4: card.last4 },
      expectedTotalCents: priced.calculation.totalCents,
    });
    if (!placed.ok) throw new Error(`not placed: ${placed.error.code}`);

    const [stored, ...others] = await documentsOf(t);
    expect(others).toEqual([]);
    expect(stored?.document).toEqual(await buildInvoiceDocument(t.db, stored?.orderId ?? 0));
    expect(stored?.document).toMatchObject({
      seller: { name: "Laden am Eck GmbH", address: ["Hauptstraße 1", "10115 Berlin"], taxId: "DE123456789" },
      taxMode: "inclusive",
      shipping: { name: "DHL Paket", grossCents: 490, taxBasisPoints: 1900 },
    });
    expect(stored?.document.taxes.map((rate) => rate.basisPoints).sort((a, b) => a - b)).toEqual([700, 1900]);
    expect(stored?.document.order.paidAt).toEqual(expect.any(String));
    // what the confirmation e-mail is made of, with nothing read back: as it was stored
    expect(placed.value.confirmation?.invoice).toEqual({
      kind: "invoice",
      number: stored?.number,
      issuedAt: stored?.issuedAt,
      document: stored?.document,
    });
    expect(placed.value.confirmation?.order).toEqual(await getOrderByNumber(t.db, placed.value.order.number));
  });

  it("gives concurrent payments distinct, gapless numbers", async () => {
    const orders = await Promise.all(Array.from({ length: 40 }, () => insertPendingOrder(t.db)));
    const settled = await Promise.all(
      orders.map((order) => markPaid(t.db, order.id, order.paymentReference)),
    );
    expect(settled.every((outcome) => outcome.status === "paid")).toBe(true);
    const invoices = await documentsOf(t);
    expect(invoices).toHaveLength(40);
    expectGapless(
      invoices.map((invoice) => invoice.sequence),
      40,
    );
    expect(new Set(invoices.map((invoice) => invoice.orderId)).size).toBe(40);
    expect(new Set(invoices.map((invoice) => invoice.number)).size).toBe(40);
    const counter = await t.db
      .selectFrom("invoiceCounters")
      .select("nextSequence")
      .where("series", "=", "invoice")
      .executeTakeFirstOrThrow();
    expect(counter.nextSequence).toBe(41);
  });

  it("gives a rolled-back transaction's number back", async () => {
    const first = await insertPendingOrder(t.db);
    await markPaid(t.db, first.id, first.paymentReference);
    const second = await insertPendingOrder(t.db);
    await t.db
      .updateTable("orders")
      .set({ status: "paid", paidAt: new Date().toISOString() })
      .where("id", "=", second.id)
      .execute();
    // issued, then the transaction fails after it: nothing stays, the number included
    await expect(
      t.db.transaction().execute(async (trx) => {
        const issued = await issueInvoice(trx, second.id);
        expect(issued?.number).toBe("INV-000002");
        throw new Error("the rest of the transaction failed");
      }),
    ).rejects.toThrow("the rest of the transaction failed");
    expect((await documentsOf(t)).map((row) => row.number)).toEqual(["INV-000001"]);
    // the next document takes that number
    const issued = await t.db.transaction().execute((trx) => issueInvoice(trx, second.id));
    expect(issued).toEqual({ kind: "invoice", number: "INV-000002", sequence: 2 });
  });

  it("issues a credit note per refund that succeeds, none for one that fails", async () => {
    const order = await insertPendingOrder(t.db);
    await markPaid(t.db, order.id, order.paymentReference);
    const jacket = order.items[0]!;

    const first = await refundOrder(refundServices(), {
      number: order.number,
      key: randomUUID(),
      lines: [{ itemId: jacket.id, quantity: 1 }],
      amountCents: null,
      restock: false,
      reason: "Zu groß",
      actor: OWNER,
    });
    expect(first.ok).toBe(true);
    // a refund the gateway refuses gets no credit note
    const refusing: PaymentGateway = {
      ...gateway,
      refund: async () => ({
        ok: false,
        code: "not_captured",
        message: "The card issuer refused the refund",
      }),
    };
    const refused = await refundOrder(
      { ...refundServices(), gateway: refusing },
      {
        number: order.number,
        key: randomUUID(),
        lines: [],
        amountCents: 500,
        restock: false,
        reason: "Goodwill",
        actor: OWNER,
      },
    );
    expect(refused).toMatchObject({ ok: false, error: { code: "gateway" } });
    const second = await refundOrder(refundServices(), {
      number: order.number,
      key: randomUUID(),
      lines: [],
      amountCents: 1_234,
      restock: false,
      reason: "Goodwill",
      actor: OWNER,
    });
    expect(second.ok).toBe(true);

    const refunds = await t.db
      .selectFrom("orderRefunds")
      .select(["id", "status", "amountCents"])
      .where("orderId", "=", order.id)
      .orderBy("id")
      .execute();
    expect(refunds.map((refund) => refund.status)).toEqual(["succeeded", "failed", "succeeded"]);
    const notes = (await documentsOf(t)).filter((row) => row.kind === "credit_note");
    expect(notes.map((note) => [note.number, note.refundId])).toEqual([
      ["CN-000001", refunds[0]!.id],
      ["CN-000002", refunds[2]!.id],
    ]);
    for (const [i, note] of notes.entries()) {
      const refund = refunds[i === 0 ? 0 : 2]!;
      const document = note.document;
      expect(document.kind).toBe("credit_note");
      expect(document.credit).toMatchObject({
        invoiceNumber: "INV-000001",
        reason: i === 0 ? "Zu groß" : "Goodwill",
      });
      // what it credits adds up to what was paid back, line by line and rate by rate
      expect(document.totals.totalCents).toBe(refund.amountCents);
      const gross = document.lines.reduce((sum, line) => sum + (line.grossCents ?? 0), 0);
      expect(gross + (document.shipping?.grossCents ?? 0)).toBe(refund.amountCents);
      const tax = document.lines.reduce((sum, line) => sum + (line.taxCents ?? 0), 0);
      expect(tax + (document.shipping?.taxCents ?? 0)).toBe(document.totals.taxCents);
      expect(document.taxes.reduce((sum, rate) => sum + rate.taxCents, 0)).toBe(document.totals.taxCents);
      expect(document.totals.netCents).toBe(refund.amountCents - document.totals.taxCents);
      expect(document.totals.taxCents).toBeGreaterThan(0);
    }
  });

  it("credits each refunded line's amount and tax as the refund recorded them (the catch-up job)", async () => {
    const order = await insertPendingOrder(t.db);
    await markPaid(t.db, order.id, order.paymentReference);
    const jacket = await t.db
      .selectFrom("orderItems")
      .select(["id", "grossCents", "taxCents", "quantity"])
      .where("id", "=", order.items[0]!.id)
      .executeTakeFirstOrThrow();
    const order_ = await t.db
      .selectFrom("orders")
      .select(["shippingCents", "shippingTaxCents"])
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    // one of two jackets, with the shipping: as the refund workflow records it since issue 30
    const lineGross = jacket.grossCents! / jacket.quantity;
    const lineTax = Math.round(jacket.taxCents! / jacket.quantity);
    const amount = lineGross + order_.shippingCents;
    const at = new Date().toISOString();
    const refund = await t.db
      .insertInto("orderRefunds")
      .values({
        orderId: order.id,
        idempotencyKey: randomUUID(),
        amountCents: amount,
        reason: "Return R-1",
        restocked: 0,
        includesShipping: 1,
        gatewayRefundId: "re_1",
        actor: OWNER.id,
        createdAt: at,
        status: "succeeded",
        kind: "refund",
        returnId: null,
        paymentId: order.paymentReference,
        settledAt: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto("orderRefundItems")
      .values({
        refundId: refund.id,
        orderItemId: jacket.id,
        quantity: 1,
        amountCents: lineGross,
        taxCents: lineTax,
      })
      .execute();
    expect(await issueMissingDocuments(t.db)).toEqual({ invoices: 0, creditNotes: 1 });
    expect(await issueMissingDocuments(t.db)).toEqual({ invoices: 0, creditNotes: 0 });
    const note = (await documentsOf(t)).find((row) => row.kind === "credit_note")!;
    expect(note.document.lines).toEqual([
      expect.objectContaining({
        description: "Müller Jacke — Größe M",
        quantity: 1,
        grossCents: lineGross,
        taxCents: lineTax,
        netCents: lineGross - lineTax,
        taxBasisPoints: 1900,
      }),
    ]);
    expect(note.document.shipping).toEqual({
      name: "DHL Paket",
      grossCents: order_.shippingCents,
      taxCents: order_.shippingTaxCents,
      netCents: order_.shippingCents - order_.shippingTaxCents,
      taxLabel: "VAT 19%",
      taxBasisPoints: 1900,
    });
    expect(note.document.taxes).toEqual([
      {
        label: "VAT 19%",
        basisPoints: 1900,
        netCents: lineGross - lineTax + order_.shippingCents - order_.shippingTaxCents,
        taxCents: lineTax + order_.shippingTaxCents,
      },
    ]);
    expect(note.document.totals.totalCents).toBe(amount);
  });

  it("keeps an issued document as it was when the settings change afterwards", async () => {
    await saveLegalDetails(t, {
      legalName: "Alte Firma GmbH",
      legalAddress: "Altweg 1, Köln",
      taxId: "DE111",
    });
    const order = await insertPendingOrder(t.db);
    await markPaid(t.db, order.id, order.paymentReference);
    const [before] = await documentsOf(t);
    await saveLegalDetails(t, {
      legalName: "Neue Firma AG",
      legalAddress: "Neuweg 2, München",
      taxId: "DE222",
    });
    // the catalogue's names and the order's lines changing later does not touch it either
    await t.db.updateTable("orderItems").set({ name: "Renamed" }).where("orderId", "=", order.id).execute();
    const [after] = await documentsOf(t);
    expect(after).toEqual(before);
    expect(after!.document.seller).toEqual({
      name: "Alte Firma GmbH",
      address: ["Altweg 1, Köln"],
      taxId: "DE111",
    });
    // the next invoice names the seller as the settings say now
    const next = await insertPendingOrder(t.db);
    await markPaid(t.db, next.id, next.paymentReference);
    const latest = (await documentsOf(t)).at(-1)!;
    expect(latest.number).toBe("INV-000002");
    expect(latest.document.seller).toEqual({
      name: "Neue Firma AG",
      address: ["Neuweg 2, München"],
      taxId: "DE222",
    });
  });

  it("names the shop and its contact address while the owner has saved no legal details", async () => {
    const order = await insertPendingOrder(t.db);
    await markPaid(t.db, order.id, order.paymentReference);
    const [invoice] = await documentsOf(t);
    expect(invoice!.document.seller).toEqual({
      name: "Cartwheel",
      address: ["100 Market Street, Springfield, USA"],
      taxId: "",
    });
  });

  it("issues what a paid order or a succeeded refund lacks, but nothing for orders paid before invoicing began", async () => {
    const { startedAt } = await t.db
      .selectFrom("invoiceCounters")
      .select("startedAt")
      .where("series", "=", "invoice")
      .executeTakeFirstOrThrow();
    const old = await insertPendingOrder(t.db);
    const missed = await insertPendingOrder(t.db);
    const before = new Date(Date.parse(startedAt) - 60_000).toISOString();
    const now = new Date().toISOString();
    await t.db
      .updateTable("orders")
      .set({ status: "delivered", paidAt: before, paymentReference: old.paymentReference })
      .where("id", "=", old.id)
      .execute();
    await t.db
      .updateTable("orders")
      .set({ status: "paid", paidAt: now })
      .where("id", "=", missed.id)
      .execute();
    expect(await issueMissingDocuments(t.db)).toEqual({ invoices: 1, creditNotes: 0 });
    const invoices = await documentsOf(t);
    expect(invoices.map((row) => [row.number, row.orderId])).toEqual([["INV-000001", missed.id]]);
    // a refund of the old order gets no credit note (there is no invoice to correct)
    const refunded = await refundOrder(refundServices(), {
      number: old.number,
      key: randomUUID(),
      lines: [],
      amountCents: 100,
      restock: false,
      reason: "Old order",
      actor: OWNER,
    });
    expect(refunded.ok).toBe(true);
    expect(await issueMissingDocuments(t.db)).toEqual({ invoices: 0, creditNotes: 0 });
    expect(await documentsOf(t)).toHaveLength(1);
  });

  it("keeps one invoice per order and one credit note per refund in the schema itself", async () => {
    const order = await insertPendingOrder(t.db);
    await markPaid(t.db, order.id, order.paymentReference);
    const insert = (values: { kind: "invoice" | "credit_note"; sequence: number; refundId: number | null }) =>
      t.db
        .insertInto("invoices")
        .values({
          ...values,
          number: `X-${values.sequence}`,
          orderId: order.id,
          issuedAt: new Date().toISOString(),
          document: "{}",
        })
        .execute();
    await expect(insert({ kind: "invoice", sequence: 99, refundId: null })).rejects.toThrow();
    await expect(insert({ kind: "invoice", sequence: 1, refundId: null })).rejects.toThrow();
    await expect(insert({ kind: "credit_note", sequence: 5, refundId: null })).rejects.toThrow();
    const count = await sql<{ n: number | string }>`select count(*) as n from invoices`.execute(t.db);
    expect(Number(count.rows[0]!.n)).toBe(1);
  });
});
