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
 * Customer groups in the browser (issue 31, decision 034): the owner creates a group, an unknown
 * e-mail is refused beside the field, a registered customer is added by e-mail; a promotion for
 * the group (20 % off, the group ticked in its conditions) applies in that customer's cart and not
 * in another customer's. axe runs on the group pages and the carts. The promotion is disabled after
 * the test, so no other test's member could ever see it.
 */
const ADMIN = { email: "admin@cartwheel.example", password: "cartwheel-admin" };
const PASSWORD = "correct horse battery";

const products: TestProduct[] = [];
const promotionNames: string[] = [];
test.afterAll(async () => {
  for (const name of promotionNames) {
    await shopDatabase().updateTable("promotions").set({ active: 0 }).where("name", "=", name).execute();
  }
  await removeTestProducts(...products);
  await closeShopDatabase();
});

/** A customer of their own, registered and signed in, in a context of their own. */
async function customer(browser: Browser, baseURL: string | undefined, label: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const email = uniqueEmail(label);
  await register(page, { name: `E2E ${label}`, email, password: PASSWORD });
  return { context, page, email };
}

async function addAndOpenCart(page: Page, product: TestProduct) {
  await visit(page, `/products/${product.slug}`);
  await page.getByRole("spinbutton", { name: "Quantity" }).fill("1");
  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  await expect(toast(page, `${product.name} added to cart!`)).toBeVisible();
  await visit(page, "/cart");
}

test("a group made, a customer added, a promotion for the group applies in that customer's cart only", async ({
  page,
  browser,
  baseURL,
  browserErrors,
}) => {
  // a refused form answers 400
  browserErrors.allow(/status of 400 \(Bad Request\)/);
  const product = await createTestProduct("Group Mug", { priceCents: 2_500, stock: 40 });
  products.push(product);
  const member = await customer(browser, baseURL, "group-member");
  const outsider = await customer(browser, baseURL, "group-outsider");
  try {
    const group = `E2E Group ${uniqueTag()}`;
    await page.goto(`/account?redirectTo=${encodeURIComponent("/admin/customer-groups")}`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL((url) => url.pathname === "/admin/customer-groups");
    await expect(page.getByRole("heading", { name: "Customer groups", level: 1 })).toBeVisible();
    await expectNoA11yViolations(page, "customer groups");

    await page.getByRole("textbox", { name: "Group name" }).fill(group);
    await page.getByRole("button", { name: "Create group" }).click();
    await expect(page.getByRole("heading", { name: `Customer group ${group}`, level: 1 })).toBeVisible();
    await expect(toast(page, `Group ${group} created`)).toBeVisible();

    const emails = page.getByRole("textbox", { name: "E-mail addresses" });
    await emails.fill("nobody-at-all@example.com");
    await page.getByRole("button", { name: "Add to group" }).click();
    await expect(emails).toHaveAccessibleDescription("No customer has the e-mail nobody-at-all@example.com.");
    await emails.fill(member.email);
    await page.getByRole("button", { name: "Add to group" }).click();
    await expect(toast(page, "1 customer added")).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: member.email })).toContainText("Added by hand");
    await expectNoA11yViolations(page, "a customer group");

    // a CSV: the member again (already in), and a line that names no customer
    await page.getByLabel("CSV file of e-mail addresses").setInputFiles({
      name: "customers.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`email\n${member.email}\nnot-a-customer@example.com\n`),
    });
    await page.getByRole("button", { name: "Import CSV" }).click();
    await expect(
      page.getByRole("heading", { name: `Import customers into ${group}`, level: 1 }),
    ).toBeVisible();
    await expect(page.getByRole("list", { name: "Lines that named no customer" })).toHaveText(
      "Line 3: no customer has the e-mail not-a-customer@example.com",
    );
    await expectNoA11yViolations(page, "a CSV import with a line naming no customer");

    // a promotion for the group
    const name = `E2E ${group} 20%`;
    promotionNames.push(name);
    await visit(page, "/admin/promotions/new?type=order-percent");
    await page.getByRole("textbox", { name: "Name" }).fill(name);
    await page.getByRole("textbox", { name: "Percentage off (%)" }).fill("20");
    await page
      .getByRole("group", { name: "Only for signed-in members of these customer groups" })
      .getByRole("checkbox", { name: group })
      .check();
    await page.getByRole("button", { name: "Create promotion" }).click();
    await expect(toast(page, `Promotion ${name} created`)).toBeVisible();

    await addAndOpenCart(member.page, product);
    await expect(member.page.getByTestId("order-summary").getByText(name)).toBeVisible();
    await expect(member.page.getByTestId("summary-promotion")).toHaveText("−$5.00");
    await expectNoA11yViolations(member.page, "a member's cart");

    await addAndOpenCart(outsider.page, product);
    await expect(outsider.page.getByTestId("summary-subtotal")).toHaveText("$25.00");
    await expect(outsider.page.getByTestId("summary-promotion")).toHaveCount(0);
    await expect(outsider.page.getByTestId("order-summary").getByText(name)).toHaveCount(0);
  } finally {
    await member.context.close();
    await outsider.context.close();
  }
});

test("without JavaScript: a group made, an unknown e-mail refused beside the field, a customer added, a rule saved, a CSV imported, the group deleted", async ({
  noJsPage: page,
  browser,
  baseURL,
  browserErrors,
}) => {
  // refused forms answer 400 and 409
  browserErrors.allow(/status of 40\d/);
  const member = await customer(browser, baseURL, "group-nojs");
  await member.context.close();
  const group = `E2E No-JS Group ${uniqueTag()}`;
  await page.goto(`/account?redirectTo=${encodeURIComponent("/admin/customer-groups")}`);
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.waitForURL((url) => url.pathname === "/admin/customer-groups");
  await page.getByRole("textbox", { name: "Group name" }).fill(group);
  await page.getByRole("button", { name: "Create group" }).click();
  await expect(page.getByRole("heading", { name: `Customer group ${group}`, level: 1 })).toBeVisible();
  await expectNoA11yViolationsWithoutJs(page, "a customer group, without JavaScript");

  const emails = page.getByRole("textbox", { name: "E-mail addresses" });
  await emails.fill("nobody-nojs@example.com");
  await page.getByRole("button", { name: "Add to group" }).click();
  await expect(emails).toHaveAccessibleDescription("No customer has the e-mail nobody-nojs@example.com.");
  await expect(emails).toHaveValue("nobody-nojs@example.com");
  await emails.fill(member.email);
  await page.getByRole("button", { name: "Add to group" }).click();
  await expect(page.getByRole("row").filter({ hasText: member.email })).toContainText("Added by hand");

  const rule = page.getByRole("textbox", { name: /^Rule: spent over/ });
  await rule.fill("lots");
  await page.getByRole("button", { name: "Save group" }).click();
  await expect(rule).toHaveAccessibleDescription(
    "Enter an amount like 500 or 499.99, or leave it empty for no rule.",
  );
  await rule.fill("1000000");
  await page.getByRole("button", { name: "Save group" }).click();
  await expect(page.getByText("Customers who spent over $1,000,000.00")).toBeVisible();
  await page.getByRole("button", { name: "Refresh members" }).click();
  await expect(page.getByRole("row").filter({ hasText: member.email })).toContainText("Added by hand");

  await page.getByLabel("CSV file of e-mail addresses").setInputFiles({
    name: "more.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("someone-else-nojs@example.com\n"),
  });
  await page.getByRole("button", { name: "Import CSV" }).click();
  await expect(page.getByRole("list", { name: "Lines that named no customer" })).toHaveText(
    "Line 1: no customer has the e-mail someone-else-nojs@example.com",
  );
  await page.getByRole("link", { name: `← Back to ${group}` }).click();

  await page.locator("summary", { hasText: "Delete group" }).click();
  await page.getByRole("button", { name: "Yes, delete group" }).click();
  await expect(page).toHaveURL(/\/admin\/customer-groups$/);
  await expect(page.getByRole("row").filter({ hasText: group })).toHaveCount(0);
});
