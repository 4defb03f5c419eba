import type { Page } from "@playwright/test";
import { readOutbox } from "../helpers/outbox.ts";
import { pdfText } from "../helpers/pdf-text.ts";
import {
  expect,
  expectNoA11yViolations,
  expectNoA11yViolationsWithoutJs,
  test,
  visit,
  waitForHydration,
} from "./fixtures.ts";
import {
  closeShopDatabase,
  createTestProduct,
  register,
  removeTestProducts,
  shopMailDir,
  signIn,
  type TestProduct,
  uniqueEmail,
} from "./shop-helpers.ts";

/**
 * Invoices (issue 30, decision 031): an order bought in the shop gets an invoice, attached to the
 * confirmation e-mail as a PDF and printable from the account's order page, the guest's tracking
 * (without JavaScript) and the admin's order page — the same total everywhere; axe on each, no
 * sideways scrolling at 390 px, the site's frame not printed.
 */
const ADMIN = { email: "admin@cartwheel.example", password: "cartwheel-admin" };
const INVOICE = /^Invoice INV-\d{6}$/;

const products: TestProduct[] = [];
test.afterAll(async () => {
  await removeTestProducts(...products);
  await closeShopDatabase();
});

const field = (page: Page, label: string) =>
  page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\s*\\*?$`));

/** Cart → shipping → payment → review → confirmation, signed in; the order's number and total. */
async function buy(page: Page, product: TestProduct) {
  await visit(page, `/products/${product.slug}`);
  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  await expect(page.getByRole("banner").getByTestId("cart-badge")).toBeVisible();
  await visit(page, "/checkout");
  for (const [label, value] of [
    ["First Name", "Ina"],
    ["Last Name", "Voice"],
    ["Phone", "+1 555 0100"],
    ["Address", "1 Ledger Lane"],
    ["City", "Springfield"],
    ["State / Province", "IL"],
    ["ZIP / Postal Code", "62701"],
  ] as const) {
    await field(page, label).fill(value);
  }
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page).toHaveURL("/checkout?step=payment");
  await field(page, "Card Number").fill("4242424242424242");
  await field(page, "Cardholder Name").fill("Ina Voice");
  await field(page, "Expiry Date").fill("12/30");
  await field(page, "CVV").fill("123");
  await page.getByRole("button", { name: "Review Order" }).click();
  await expect(page).toHaveURL("/checkout?step=review");
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page).toHaveURL("/checkout?step=confirmation");
  return (await page.getByTestId("order-number").textContent()) ?? "";
}

/** The printed document: its heading, its total, the site's frame hidden when printed, no sideways scrolling. */
async function expectInvoicePage(page: Page, { orderNumber, total }: { orderNumber: string; total: string }) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(INVOICE);
  const sheet = page.getByRole("article");
  await expect(sheet).toContainText(orderNumber);
  await expect(page.getByTestId("document-totals")).toContainText(`Total${total}`);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("banner")).toBeHidden();
  await expect(sheet).toBeVisible();
  await page.emulateMedia({ media: "screen" });
}

test("an order's invoice: attached as a PDF, and printable from the account, the tracking and the admin", async ({
  page,
  noJsPage,
  browser,
  baseURL,
  browserErrors,
}) => {
  test.setTimeout(240_000);
  browserErrors.allow(/status of 404/);
  const product = await createTestProduct("Invoice Lamp", { priceCents: 4_999, stock: 10 });
  products.push(product);
  const email = uniqueEmail("invoice.buyer");
  await register(page, { name: "Ina Voice", email, password: "invoice password" });
  const orderNumber = await buy(page, product);

  // the confirmation e-mail carries the invoice as a PDF, its total the order's
  let pdf: Buffer | undefined;
  await expect
    .poll(async () => {
      const mail = (await readOutbox(shopMailDir())).find((message) => message.to.includes(email));
      pdf = mail?.attachments?.find((file) => file.contentType === "application/pdf")?.content;
      return Boolean(pdf);
    })
    .toBe(true);
  const pdfLines = pdfText(pdf!);
  const invoiceNumber = pdfLines.find((line) => INVOICE.test(line))!.replace("Invoice ", "");
  const total = pdfLines[pdfLines.indexOf("Total") + 1]!;
  expect(total).toMatch(/^\$\d/);

  // the account's order page links it; only its owner opens it
  await visit(page, `/account/orders/${orderNumber}`);
  await page.getByRole("link", { name: `Invoice ${invoiceNumber}` }).click();
  await expect(page).toHaveURL(`/account/invoices/${invoiceNumber}`);
  await waitForHydration(page);
  await expectNoA11yViolations(page, "the account's invoice");
  await expectInvoicePage(page, { orderNumber, total });
  await visit(page, "/account/invoices/INV-999999", { status: 404 });

  // the guest's tracking, without JavaScript: the same proof opens it
  await visit(noJsPage, "/orders/track", { javaScript: false });
  await noJsPage.getByRole("textbox", { name: "Order Number" }).fill(orderNumber);
  await noJsPage.getByRole("textbox", { name: "Email", exact: true }).fill(email);
  await noJsPage.getByRole("button", { name: /Track/i }).click();
  await expect(noJsPage.getByRole("heading", { name: "Invoice", exact: true })).toBeVisible();
  await expectNoA11yViolationsWithoutJs(noJsPage, "the tracking result with its invoice");
  await noJsPage.getByRole("button", { name: `Invoice ${invoiceNumber}` }).click();
  await expect(noJsPage).toHaveURL("/orders/documents");
  await expectNoA11yViolationsWithoutJs(noJsPage, "the guest's invoice");
  await expectInvoicePage(noJsPage, { orderNumber, total });

  // the admin's order page
  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  try {
    await admin.goto("/account?redirectTo=%2Fadmin");
    await signIn(admin, ADMIN.email, ADMIN.password);
    await admin.waitForURL((url) => url.pathname === "/admin");
    await visit(admin, `/admin/orders/${orderNumber}`);
    await admin.getByRole("link", { name: `Invoice ${invoiceNumber}` }).click();
    await expect(admin).toHaveURL(`/admin/orders/invoices/${invoiceNumber}`);
    await waitForHydration(admin);
    await expectNoA11yViolations(admin, "the admin's invoice");
    await expectInvoicePage(admin, { orderNumber, total });
  } finally {
    await adminContext.close();
  }
});
