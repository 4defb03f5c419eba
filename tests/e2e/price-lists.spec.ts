import type { Browser, Page } from "@playwright/test";
import { expect, expectNoA11yViolations, expectNoA11yViolationsWithoutJs, test, visit } from "./fixtures.ts";
import {
  closeShopDatabase,
  createTestProduct,
  register,
  removeTestProducts,
  shopDatabase,
  signIn,
  type TestProduct,
  toast,
  uniqueEmail,
  uniqueTag,
} from "./shop-helpers.ts";

/**
 * Price lists (issue 31, decision 037) in the browser: the owner makes a group, adds a registered
 * customer, and sets the group's price for a product by its SKU (an unknown SKU refused beside the
 * field); the signed-in member sees that price on the product page with the regular one struck
 * through, a visitor without an account the regular one, and the member checks out paying the member
 * price (the order's line and the gateway's amount). Without JavaScript: the price list's forms.
 */
const ADMIN = { email: "admin@cartwheel.example", password: "cartwheel-admin" };
const PASSWORD = "correct horse battery";
const products: TestProduct[] = [];

test.afterAll(async () => {
  await removeTestProducts(...products);
  await closeShopDatabase();
});

async function skuOf(product: TestProduct): Promise<string> {
  const row = await shopDatabase()
    .selectFrom("productVariants")
    .select("sku")
    .where("productId", "=", product.id)
    .executeTakeFirstOrThrow();
  return row.sku;
}

async function customer(browser: Browser, baseURL: string | undefined, label: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const email = uniqueEmail(label);
  await register(page, { name: `E2E ${label}`, email, password: PASSWORD });
  return { context, page, email };
}

/** Signs the owner in and makes a group holding `email`; ends on the group's price list. */
async function groupWithMember(page: Page, email: string): Promise<string> {
  const group = `E2E Price Group ${uniqueTag()}`;
  await page.goto(`/account?redirectTo=${encodeURIComponent("/admin/customer-groups")}`);
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.waitForURL((url) => url.pathname === "/admin/customer-groups");
  await page.getByRole("textbox", { name: "Group name" }).fill(group);
  await page.getByRole("button", { name: "Create group" }).click();
  await expect(page.getByRole("heading", { name: `Customer group ${group}`, level: 1 })).toBeVisible();
  await page.getByRole("textbox", { name: "E-mail addresses" }).fill(email);
  await page.getByRole("button", { name: "Add to group" }).click();
  await expect(page.getByRole("row").filter({ hasText: email })).toContainText("Added by hand");
  await page.getByRole("link", { name: `Open the price list of ${group}` }).click();
  await expect(page.getByRole("heading", { name: `Price list of ${group}`, level: 1 })).toBeVisible();
  return group;
}

const pagePrice = (page: Page) => page.getByTestId("product-price").locator("p").first();

test("the owner sets a member price; the signed-in member sees it on the product page and pays it", async ({
  page,
  browser,
  baseURL,
  browserErrors,
}) => {
  test.setTimeout(120_000);
  // a refused form answers 400
  browserErrors.allow(/status of 400 \(Bad Request\)/);
  const product = await createTestProduct("Member Kettle", { priceCents: 2_500, stock: 40 });
  products.push(product);
  const sku = await skuOf(product);
  const member = await customer(browser, baseURL, "price-member");
  const visitor = await browser.newContext({ baseURL });
  try {
    await groupWithMember(page, member.email);
    const skuField = page.getByRole("textbox", { name: "Variant SKU" });
    const priceField = page.getByRole("textbox", { name: /^Member price/ });
    await skuField.fill("NO-SUCH-SKU-E2E");
    await priceField.fill("18");
    await page.getByRole("button", { name: "Set price" }).click();
    await expect(skuField).toHaveAccessibleDescription("No variant has the SKU NO-SUCH-SKU-E2E.");
    await skuField.fill(sku);
    await priceField.fill("18.00");
    await page.getByRole("button", { name: "Set price" }).click();
    await expect(toast(page, `${sku} is $18.00 for this group`)).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: sku });
    await expect(row).toContainText("$25.00");
    await expect(row).toContainText("$18.00");
    await expectNoA11yViolations(page, "a group's price list");

    // the member: their price, the regular one struck through
    await visit(member.page, `/products/${product.slug}`);
    await expect(pagePrice(member.page)).toContainText("Member price");
    await expect(pagePrice(member.page)).toContainText("$18.00");
    await expect(pagePrice(member.page).locator("s")).toHaveText("Original price $25.00");
    await expectNoA11yViolations(member.page, "a product page at a member price");

    // a visitor without an account: the regular price (the member's page was never shared)
    const anonymous = await visitor.newPage();
    await visit(anonymous, `/products/${product.slug}`);
    await expect(pagePrice(anonymous)).toHaveText("$25.00");

    // the member pays it
    await member.page.getByRole("spinbutton", { name: "Quantity" }).fill("2");
    await member.page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    await expect(toast(member.page, `2 x ${product.name} added to cart!`)).toBeVisible();
    await visit(member.page, "/cart");
    await expect(member.page.getByTestId("summary-subtotal")).toHaveText("$36.00");
    await visit(member.page, "/checkout");
    const fill = (label: string, value: string) =>
      member.page.getByLabel(new RegExp(`^${label.replace(/[/]/g, "\\/")}\\s*\\*?$`)).fill(value);
    await fill("First Name", "Ada");
    await fill("Last Name", "Lovelace");
    await fill("Email", member.email);
    await fill("Phone", "+1 (555) 010-2030");
    await fill("Address", "12 Analytical Way");
    await fill("City", "Springfield");
    await fill("State / Province", "IL");
    await fill("ZIP / Postal Code", "62701");
    await member.page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(member.page).toHaveURL("/checkout?step=payment");
    await fill("Card Number", "4242424242424242");
    await fill("Cardholder Name", "Ada Lovelace");
    await fill("Expiry Date", "1230");
    await fill("CVV", "123");
    await member.page.getByRole("button", { name: "Review Order" }).click();
    await expect(member.page).toHaveURL("/checkout?step=review");
    await member.page.getByRole("button", { name: "Place Order" }).click();
    await expect(member.page).toHaveURL("/checkout?step=confirmation");
    const number = (await member.page.getByTestId("order-number").textContent()) ?? "";
    const order = await shopDatabase()
      .selectFrom("orders")
      .select(["id", "totalCents", "paymentReference"])
      .where("number", "=", number.trim())
      .executeTakeFirstOrThrow();
    const items = await shopDatabase()
      .selectFrom("orderItems")
      .select(["unitPriceCents", "quantity"])
      .where("orderId", "=", order.id)
      .execute();
    expect(items).toEqual([{ unitPriceCents: 1_800, quantity: 2 }]);
    const charged = await shopDatabase()
      .selectFrom("testGatewayPayments")
      .select("amountCents")
      .where("authorizationId", "=", order.paymentReference ?? "")
      .executeTakeFirstOrThrow();
    expect(charged.amountCents).toBe(order.totalCents);
  } finally {
    await member.context.close();
    await visitor.close();
  }
});

test("without JavaScript: a price set (a bad price refused beside its field), a CSV refused whole with its lines, a price removed", async ({
  noJsPage: page,
  browser,
  baseURL,
  browserErrors,
}) => {
  browserErrors.allow(/status of 40\d/);
  const product = await createTestProduct("Member Teapot", { priceCents: 4_000, stock: 10 });
  products.push(product);
  const sku = await skuOf(product);
  const member = await customer(browser, baseURL, "price-nojs");
  await member.context.close();
  await groupWithMember(page, member.email);
  await expectNoA11yViolationsWithoutJs(page, "a group's price list, without JavaScript");

  const priceField = page.getByRole("textbox", { name: /^Member price/ });
  await page.getByRole("textbox", { name: "Variant SKU" }).fill(sku);
  await priceField.fill("0");
  await page.getByRole("button", { name: "Set price" }).click();
  await expect(priceField).toHaveAccessibleDescription("Enter a price above 0, like 19 or 18.50.");
  await priceField.fill("35");
  await page.getByRole("button", { name: "Set price" }).click();
  await expect(page.getByRole("row").filter({ hasText: sku })).toContainText("$35.00");

  await page.getByLabel("CSV file of SKUs and prices").setInputFiles({
    name: "prices.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`sku,price\n${sku},30\nNOT-A-SKU-E2E,20\n`),
  });
  await page.getByRole("button", { name: "Import CSV" }).click();
  await expect(page.getByRole("list", { name: "Lines to correct" })).toHaveText(
    "Line 3: no variant has the SKU NOT-A-SKU-E2E",
  );
  await page.getByRole("link", { name: /^← Back to the price list of/ }).click();
  // nothing was imported: still $35.00
  await expect(page.getByRole("row").filter({ hasText: sku })).toContainText("$35.00");
  await page.getByRole("button", { name: `Remove ${sku}` }).click();
  await expect(page.getByText("No prices yet: members pay the regular prices.")).toBeVisible();
});
