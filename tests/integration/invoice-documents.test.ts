import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProcessMailer } from "../../app/adapters/mail/mail-process.server.ts";
import { renderPdf, toWinAnsi } from "../../app/adapters/pdf/render-pdf.server.ts";
import { InvoiceSheet } from "../../app/components/invoice/invoice-sheet.tsx";
import { getDocumentForStaff, listOrderDocuments } from "../../app/domain/invoices/documents.server.ts";
import { invoicePdfLayout } from "../../app/domain/invoices/invoice-pdf.ts";
import { invoiceView } from "../../app/domain/invoices/invoice-view.ts";
import { sendPlacedOrderConfirmation } from "../../app/domain/orders/order-confirmation.server.ts";
import { markPaid } from "../../app/domain/payments/charges.server.ts";
import { refundOrder } from "../../app/domain/payments/refunds.server.ts";
import { formatMoney } from "../../app/lib/money.ts";
import * as accountOrder from "../../app/routes/account.orders.$number.tsx";
import * as accountInvoice from "../../app/routes/account_.invoices.$document.tsx";
import * as adminInvoice from "../../app/routes/admin.orders.invoices.$document.tsx";
import * as guestDocument from "../../app/routes/orders.documents.tsx";
import * as track from "../../app/routes/orders.track.tsx";
import { ENGINES } from "../db-utils.ts";
import { cookieHeader } from "../helpers/account-fixtures.ts";
import { ADMIN_COOKIE, adminContext } from "../helpers/admin-route.ts";
import { insertPendingOrder } from "../helpers/invoice-orders.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { pdfText } from "../helpers/pdf-text.ts";
import { callRoute, type RouteModule } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * The printable invoice and credit note (decision 031) through the real route modules — the
 * customer's own, the guest's with the tracking's proof, staff's — the same figures in the page and
 * in the PDF, and the PDF attached to the order confirmation e-mail.
 */
const OWNER = { id: "owner-documents", email: "owner@example.com", role: "owner" as const };

describe.each(ENGINES)("invoice and credit note pages on %s", (engine) => {
  let shop: TestShop;
  const users: Record<"ada" | "bob", { id: string; cookie: string }> = {} as never;
  let order: Awaited<ReturnType<typeof insertPendingOrder>>;
  let other: Awaited<ReturnType<typeof insertPendingOrder>>;

  async function signUp(name: string, email: string) {
    const { headers, response } = await shop.services.auth.api.signUpEmail({
      body: { name, email, password: "correct horse" },
      returnHeaders: true,
    });
    return { id: response.user.id, cookie: cookieHeader(headers) };
  }

  const call = (
    module: RouteModule,
    kind: "loader" | "action",
    path: string,
    options: Omit<Parameters<typeof callRoute>[3], "context"> = {},
  ) => callRoute(module, kind, `${TEST_ORIGIN}${path}`, { ...options, context: shop.context(randomUUID()) });

  beforeAll(async () => {
    shop = await createTestShop(engine);
    users.ada = await signUp("Ada Lovelace", "ada@example.com");
    users.bob = await signUp("Bob Babbage", "bob@example.com");
    order = await insertPendingOrder(shop.db, { userId: users.ada.id, email: "ada@example.com" });
    other = await insertPendingOrder(shop.db, { userId: users.bob.id, email: "bob@example.com" });
    for (const paid of [order, other]) await markPaid(shop.db, paid.id, paid.paymentReference);
    const refunded = await refundOrder(
      {
        db: shop.db,
        gateway: shop.services.gateway,
        mail: shop.services.mail,
        shop: { shopName: "Cartwheel", publicUrl: TEST_ORIGIN },
      },
      {
        number: order.number,
        key: randomUUID(),
        lines: [{ itemId: order.items[1]!.id, quantity: 1 }],
        amountCents: null,
        restock: false,
        reason: "Damaged",
        actor: OWNER,
      },
    );
    expect(refunded.ok).toBe(true);
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  it("lists an order's invoice and credit notes on its pages, and opens them for its owner only", async () => {
    const documents = await listOrderDocuments(shop.db, order.number);
    expect(documents.map((document) => [document.kind, document.number])).toEqual([
      ["invoice", "INV-000001"],
      ["credit_note", "CN-000001"],
    ]);
    const page = await call(accountOrder, "loader", `/account/orders/${order.number}`, {
      cookie: users.ada.cookie,
      params: { number: order.number },
    });
    expect((page.data as unknown as { documents: unknown }).documents).toEqual(documents);

    for (const number of ["INV-000001", "CN-000001"]) {
      const own = await call(accountInvoice, "loader", `/account/invoices/${number}`, {
        cookie: users.ada.cookie,
        params: { document: number },
      });
      expect(own.status).toBe(200);
      const issued = (
        own.data as unknown as { issued: { number: string; document: { order: { number: string } } } }
      ).issued;
      expect(issued.number).toBe(number);
      expect(issued.document.order.number).toBe(order.number);
      // another customer's, a number that does not exist, a malformed one: 404
      const theirs = await call(accountInvoice, "loader", `/account/invoices/${number}`, {
        cookie: users.bob.cookie,
        params: { document: number },
      });
      expect(theirs.thrown).toBe(404);
    }
    for (const number of ["INV-000099", "INV-1", "../x"]) {
      const missing = await call(accountInvoice, "loader", `/account/invoices/${number}`, {
        cookie: users.ada.cookie,
        params: { document: number },
      });
      expect(missing.thrown).toBe(404);
    }
    // bob's own invoice is his
    const bobs = await call(accountInvoice, "loader", "/account/invoices/INV-000002", {
      cookie: users.bob.cookie,
      params: { document: "INV-000002" },
    });
    expect(bobs.status).toBe(200);
    // signed out: to sign in, and back
    const signedOut = await call(accountInvoice, "loader", "/account/invoices/INV-000001", {
      params: { document: "INV-000001" },
    });
    expect(signedOut.response?.status).toBe(302);
    expect(signedOut.response?.headers.get("Location")).toContain("/account?redirectTo=");
  });

  it("opens a guest's document with the order's number and e-mail, as the tracking does", async () => {
    const tracked = await call(track, "action", "/orders/track", {
      fields: { orderNumber: order.number, email: "ADA@example.com" },
    });
    expect(tracked.status).toBe(200);
    expect(
      (tracked.data as unknown as { documents: { list: { number: string }[] } }).documents.list.map(
        (d) => d.number,
      ),
    ).toEqual(["INV-000001", "CN-000001"]);

    const open = (fields: Record<string, string>) =>
      call(guestDocument, "action", "/orders/documents", { fields });
    const found = await open({ orderNumber: order.number, email: "ada@example.com", document: "CN-000001" });
    expect(found.status).toBe(200);
    expect(found.data).toMatchObject({
      status: "found",
      issued: { number: "CN-000001", kind: "credit_note" },
    });
    // the wrong e-mail, another order's document, a malformed number: 404, the same answer
    for (const fields of [
      { orderNumber: order.number, email: "bob@example.com", document: "INV-000001" },
      { orderNumber: order.number, email: "ada@example.com", document: "INV-000002" },
      { orderNumber: order.number, email: "ada@example.com", document: "INV-<script>" },
      { orderNumber: "", email: "", document: "" },
    ]) {
      const refused = await open(fields);
      expect(refused.status).toBe(404);
      expect(refused.data).toEqual({ status: "not-found" });
    }
  });

  it("opens any document for staff who may see orders", async () => {
    const context = adminContext(
      { db: shop.db, files: shop.services.files },
      { id: "admin-1", email: "admin@example.com" },
    );
    const staff = await callRoute(adminInvoice, "loader", `${TEST_ORIGIN}/admin/orders/invoices/INV-000002`, {
      cookie: ADMIN_COOKIE,
      params: { document: "INV-000002" },
      context,
    });
    expect(staff.status).toBe(200);
    const missing = await callRoute(
      adminInvoice,
      "loader",
      `${TEST_ORIGIN}/admin/orders/invoices/CN-000009`,
      {
        cookie: ADMIN_COOKIE,
        params: { document: "CN-000009" },
        context,
      },
    );
    expect(missing.thrown).toBe(404);
    // a customer is no staff member
    const customer = await call(adminInvoice, "loader", "/admin/orders/invoices/INV-000001", {
      cookie: users.ada.cookie,
      params: { document: "INV-000001" },
    });
    expect(customer.status).not.toBe(200);
  });

  it("prints the same figures on the page and in the PDF, the credit note naming the refunded line and its tax", async () => {
    for (const number of ["INV-000001", "CN-000001"]) {
      const issued = (await getDocumentForStaff(shop.db, number))!;
      const view = invoiceView(issued);
      const html = renderToStaticMarkup(createElement(InvoiceSheet, { issued }))
        .replace(/<[^>]+>/g, "\n")
        .replace(/&amp;/g, "&")
        .replace(/&#x27;/g, "'")
        .replace(/&quot;/g, '"');
      const pdf = pdfText(await renderPdf(invoicePdfLayout(issued)));
      const figures = [
        view.heading,
        ...view.facts.map((fact) => fact.value),
        ...view.lines.rows.flatMap((row) => row.cells),
        ...view.taxes.rows.flatMap((row) => [row.description, ...row.cells]),
        ...view.totals.map((row) => row.value),
        ...view.seller.lines,
        ...view.buyer.lines,
      ];
      for (const figure of figures) {
        expect(html, `${number}: the page shows ${figure}`).toContain(figure);
        expect(pdf, `${number}: the PDF shows ${figure}`).toContain(toWinAnsi(figure));
      }
      const total = formatMoney(issued.document.totals.totalCents, "EUR");
      expect(view.totals.at(-1)!.value).toBe(total);
      expect(pdf).toContain(total);
    }
    // the credit note: the refunded book (7 %), its tax, nothing else
    const note = (await getDocumentForStaff(shop.db, "CN-000001"))!;
    const view = invoiceView(note);
    expect(view.lines.rows.map((row) => row.description)).toEqual(["Das Buch über Straßen"]);
    const book = note.document.lines[0]!;
    expect(view.lines.rows[0]!.cells).toContain("7\u00a0%");
    expect(view.taxes.rows).toEqual([
      {
        description: "VAT 7%",
        detail: "",
        cells: ["7\u00a0%", formatMoney(book.netCents!, "EUR"), formatMoney(book.taxCents!, "EUR")],
      },
    ]);
    expect(view.facts).toContainEqual({
      label: "Corrects invoice",
      value: expect.stringMatching(/^INV-000001 of /),
    });
    expect(view.totals.at(-1)).toEqual({
      label: "Total credited",
      value: formatMoney(book.grossCents!, "EUR"),
      strong: true,
    });
  });

  it("attaches the invoice's PDF to the order confirmation e-mail", async () => {
    const before = (await readOutbox(shop.mailDir)).length;
    expect(
      await sendPlacedOrderConfirmation(
        shop.db,
        shop.services.mail,
        { shopName: "Cartwheel", publicUrl: TEST_ORIGIN },
        order.number,
      ),
    ).toBe("sent");
    const mail = (await readOutbox(shop.mailDir))
      .slice(before)
      .find((message) => message.to === "ada@example.com");
    expect(mail?.attachments?.map((file) => [file.filename, file.contentType])).toEqual([
      ["INV-000001.pdf", "application/pdf"],
    ]);
    const pdf = mail!.attachments![0]!.content;
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const text = pdfText(pdf);
    const issued = (await getDocumentForStaff(shop.db, "INV-000001"))!;
    expect(text).toContain("Invoice INV-000001");
    expect(text).toContain(formatMoney(issued.document.totals.totalCents, "EUR"));
    expect(text).toContain(toWinAnsi(issued.document.seller.name));
  });
});

describe("an invoice PDF sent by the mail worker", () => {
  it("is rendered on the mail thread from the layout the message carries", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cartwheel-invoice-mail-"));
    const mailer = createProcessMailer(new URL("../../app/adapters/mail/mail-worker.ts", import.meta.url), {
      url: `file:${dir}`,
      from: "shop@example.com",
    });
    try {
      await mailer.send({
        to: "buyer@example.com",
        subject: "Your invoice",
        text: "Attached.",
        attachments: [
          {
            filename: "INV-000007.pdf",
            contentType: "application/pdf",
            content: {
              pdf: {
                title: "Invoice INV-000007",
                author: "Laden am Eck GmbH",
                createdAt: "2026-11-28T10:00:00.000Z",
                blocks: [
                  { type: "heading", text: "Invoice INV-000007" },
                  { type: "totals", rows: [{ label: "Total", value: "1.234,56\u00a0€", strong: true }] },
                ],
              },
            },
          },
        ],
      });
      const [mail] = await readOutbox(dir);
      const file = mail!.attachments![0]!;
      expect([file.filename, file.contentType]).toEqual(["INV-000007.pdf", "application/pdf"]);
      expect(pdfText(file.content)).toEqual(["Invoice INV-000007", "Total", "1.234,56\u00a0€"]);
    } finally {
      await mailer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
