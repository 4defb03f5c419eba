import { readOutbox } from "../helpers/outbox.ts";
import { expect, expectNoA11yViolations, expectNoA11yViolationsWithoutJs, test, visit } from "./fixtures.ts";
import {
  closeShopDatabase,
  createTestProduct,
  removeTestProducts,
  shopMailDir,
  signIn,
  type TestProduct,
  toast,
} from "./shop-helpers.ts";

/**
 * Gift cards sold as a product (issue 31, decision 036), with JavaScript and without: the owner
 * marks a product "Sold as a gift card"; a shopper names the recipient on its page, checks out with
 * e-mail delivery (no shipping, no tax), pays, and the recipient's e-mail carries a code whose
 * balance is the card's amount.
 */
const ADMIN = { email: "admin@cartwheel.example", password: "cartwheel-admin" };
const products: TestProduct[] = [];

test.afterAll(async () => {
  await removeTestProducts(...products);
  await closeShopDatabase();
});

const label = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\s*\\*?$`);

for (const javaScript of [true, false]) {
  test(`a gift card bought as a product reaches its recipient by e-mail (${javaScript ? "with" : "without"} JavaScript)`, async ({
    page: jsPage,
    noJsPage,
    browser,
    baseURL,
  }) => {
    const page = javaScript ? jsPage : noJsPage;
    const axe = javaScript ? expectNoA11yViolations : expectNoA11yViolationsWithoutJs;
    const card = await createTestProduct("Gift Card", { stock: 100, priceCents: 5_000 });
    products.push(card);
    const recipient = `friend.${javaScript ? "js" : "nojs"}.${Date.now()}@example.com`;

    // the owner makes it a gift card
    const owner = await browser.newContext({ baseURL, javaScriptEnabled: javaScript });
    try {
      const admin = await owner.newPage();
      await admin.goto(`/account?redirectTo=${encodeURIComponent(`/admin/products/${card.id}`)}`);
      await signIn(admin, ADMIN.email, ADMIN.password);
      await admin.waitForURL((url) => url.pathname === `/admin/products/${card.id}`);
      await admin.getByRole("checkbox", { name: "Sold as a gift card" }).check();
      await admin.getByRole("button", { name: "Save changes" }).click();
      await expect(toast(admin, "Product updated")).toBeVisible();
      await expect(admin.getByRole("checkbox", { name: "Sold as a gift card" })).toBeChecked();
    } finally {
      await owner.close();
    }

    await visit(page, `/products/${card.slug}`, { javaScript });
    const who = page.getByRole("group", { name: "Who is it for?" });
    await who.getByLabel("Recipient's e-mail").fill(recipient);
    await who.getByLabel("Recipient's name").fill("Grace");
    await who.getByLabel("Message").fill("Happy birthday!");
    await axe(page, "a gift card's product page");
    await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    await expect(toast(page, `${card.name} added to cart!`)).toBeVisible();

    await visit(page, "/checkout", { javaScript });
    for (const [field, value] of [
      ["First Name", "Ada"],
      ["Last Name", "Lovelace"],
      ["Email", `ada.card.${javaScript ? "js" : "nojs"}@example.com`],
      ["Phone", "+1 (555) 010-2030"],
      ["Address", "12 Analytical Way"],
      ["City", "Springfield"],
      ["State / Province", "IL"],
      ["ZIP / Postal Code", "62701"],
    ] as const) {
      await page.getByLabel(label(field)).fill(value);
    }
    await expect(page.getByText("E-mail delivery")).toBeVisible();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page).toHaveURL("/checkout?step=payment");
    // no shipping, no tax: the card's amount is the total
    await expect(page.getByTestId("checkout-totals")).toContainText("$50.00");
    await page.getByLabel(label("Card Number")).fill("4242424242424242");
    await page.getByLabel(label("Cardholder Name")).fill("Ada Lovelace");
    await page.getByLabel(label("Expiry Date")).fill("12/30");
    await page.getByLabel(label("CVV")).fill("123");
    await page.getByRole("button", { name: "Review Order" }).click();
    await expect(page).toHaveURL("/checkout?step=review");
    await expect(page.getByText("E-mail delivery")).toBeVisible();
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page).toHaveURL("/checkout?step=confirmation");

    // the recipient's e-mail carries the code (sent right after the order)
    let code = "";
    await expect
      .poll(async () => {
        const mail = (await readOutbox(shopMailDir())).find((m) => m.to === recipient);
        code = mail?.text.match(/[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){3}/)?.[0] ?? "";
        return code;
      })
      .not.toBe("");
    await visit(page, "/gift-cards/balance", { javaScript });
    await page.getByRole("textbox", { name: "Gift card code" }).fill(code);
    await page.getByRole("button", { name: "Check balance" }).click();
    await expect(page.getByTestId("gift-card-balance")).toHaveText("$50.00");
  });
}
