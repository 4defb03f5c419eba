import type { Page } from "@playwright/test";
import { expect, expectNoA11yViolations, expectNoA11yViolationsWithoutJs, test, visit } from "./fixtures.ts";
import {
  closeShopDatabase,
  createTestProduct,
  removeTestProducts,
  shopDatabase,
  signIn,
  type TestProduct,
  toast,
} from "./shop-helpers.ts";

/**
 * Promotions in the browser, with JavaScript and without (issue 31): the owner creates an automatic
 * buy 2 get 1 free on a product of the test's own (the form's messages first), a shopper's cart
 * explains what is within reach and then applies it, the simulator shows it applied and another
 * one refused with its reason, and the owner disables it; free shipping from a subtotal is within
 * reach in the cart, then free. axe runs on each new page. Each
 * promotion names only the test's own product, so no other test's cart is touched.
 */
const ADMIN = { email: "admin@cartwheel.example", password: "cartwheel-admin" };

const products: TestProduct[] = [];
test.afterAll(async () => {
  // kept (their codes and uses point at them), but no longer live for the worker's other tests
  await shopDatabase().updateTable("promotions").set({ active: 0 }).where("name", "like", "E2E %").execute();
  await removeTestProducts(...products);
  await closeShopDatabase();
});

async function signInAsAdmin(page: Page, path: string) {
  await page.goto(`/account?redirectTo=${encodeURIComponent(path)}`);
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.waitForURL((url) => url.pathname === path);
}

async function skuOf(product: TestProduct): Promise<string> {
  const variant = await shopDatabase()
    .selectFrom("productVariants")
    .select("sku")
    .where("productId", "=", product.id)
    .executeTakeFirstOrThrow();
  return variant.sku;
}

/** The owner creates "buy 2 get 1 free" on `product` (a refused try first), and lands on the list. */
async function createBuyTwoGetOne(page: Page, product: TestProduct, name: string, javaScript: boolean) {
  await visit(page, "/admin/promotions", { javaScript });
  await expect(page.getByRole("heading", { name: "Promotions", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "New promotion" }).click();
  await expect(page.getByText("What should it do?")).toBeVisible();
  await (javaScript ? expectNoA11yViolations : expectNoA11yViolationsWithoutJs)(page, "promotion kinds");
  await page.getByRole("link", { name: /^Buy X get Y/ }).click();
  await expect(page).toHaveURL(/\/admin\/promotions\/new\?type=buy-x-get-y$/);
  await (javaScript ? expectNoA11yViolations : expectNoA11yViolationsWithoutJs)(page, "promotion form");

  const buy = page.getByRole("group", { name: "Items to buy" });
  await buy.getByRole("textbox", { name: "Products or SKUs" }).fill(`${product.slug}, no-such-thing`);
  await page.getByRole("button", { name: "Create promotion" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText(
    "Please correct the highlighted fields.",
  );
  await expect(page.getByRole("textbox", { name: "Name" })).toHaveAccessibleDescription(
    "Enter the promotion's name (at most 120 characters).",
  );

  await page.getByRole("textbox", { name: "Name" }).fill(name);
  await page.getByRole("button", { name: "Create promotion" }).click();
  await expect(buy.getByRole("textbox", { name: "Products or SKUs" })).toHaveAccessibleDescription(
    /^No product or SKU “no-such-thing”/,
  );
  await buy.getByRole("textbox", { name: "Products or SKUs" }).fill(product.slug);
  await page.getByRole("button", { name: "Create promotion" }).click();
  await expect(page).toHaveURL(/\/admin\/promotions$/);
  await expect(toast(page, `Promotion ${name} created`)).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("Buy 2 (1 product) get 1 free (1 product)");
  await expect(row).toContainText("Active");
}

/** A shopper adds `quantity` of the product from its page and opens the cart. */
async function addAndOpenCart(page: Page, product: TestProduct, quantity: number, javaScript: boolean) {
  await visit(page, `/products/${product.slug}`, { javaScript });
  await page.getByRole("spinbutton", { name: "Quantity" }).fill(String(quantity));
  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  const added = quantity > 1 ? `${quantity} x ${product.name}` : product.name;
  await expect(toast(page, `${added} added to cart!`)).toBeVisible();
  await visit(page, "/cart", { javaScript });
}

async function simulate(page: Page, sku: string, javaScript: boolean) {
  await visit(page, "/admin/promotions/simulate", { javaScript });
  await page.getByRole("textbox", { name: "SKU, line 1" }).fill(sku);
  await page.getByRole("textbox", { name: "Quantity, line 1" }).fill("3");
  await page.getByRole("button", { name: "Simulate", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Result", level: 2 })).toBeVisible();
  await (javaScript ? expectNoA11yViolations : expectNoA11yViolationsWithoutJs)(page, "simulator result");
}

for (const javaScript of [true, false]) {
  test(`buy 2 get 1 free: created, explained in the cart, applied, simulated, disabled (${javaScript ? "with" : "without"} JavaScript)`, async ({
    page: jsPage,
    noJsPage,
    browser,
    baseURL,
    browserErrors,
  }) => {
    // a refused form answers 400
    browserErrors.allow(/status of 400 \(Bad Request\)/);
    const page = javaScript ? jsPage : noJsPage;
    const product = await createTestProduct(`Promo Tee ${javaScript ? "js" : "nojs"}`, {
      priceCents: 2_500,
      stock: 40,
    });
    products.push(product);
    const name = `E2E Tees 3 for 2 ${javaScript ? "js" : "nojs"}`;

    await signInAsAdmin(page, "/admin/promotions");
    await createBuyTwoGetOne(page, product, name, javaScript);

    // a shopper of their own
    const shopperContext = await browser.newContext({ baseURL, javaScriptEnabled: javaScript });
    browserErrors.watchContext(shopperContext);
    const shopper = await shopperContext.newPage();
    try {
      await addAndOpenCart(shopper, product, 2, javaScript);
      await expect(shopper.getByTestId("promotion-hints")).toHaveText(
        `Add 1 more ${product.name} to get 1 free.`,
      );
      await expect(shopper.getByTestId("summary-promotion")).toHaveCount(0);
      await (javaScript ? expectNoA11yViolations : expectNoA11yViolationsWithoutJs)(
        shopper,
        "cart with a hint",
      );

      await addAndOpenCart(shopper, product, 1, javaScript);
      const summary = shopper.getByTestId("order-summary");
      await expect(summary.getByText(name)).toBeVisible();
      await expect(shopper.getByTestId("summary-promotion")).toHaveText("−$25.00");
      await expect(shopper.getByTestId("summary-subtotal")).toHaveText("$75.00");
      await expect(shopper.getByTestId("promotion-hints")).toHaveCount(0);
      await (javaScript ? expectNoA11yViolations : expectNoA11yViolationsWithoutJs)(
        shopper,
        "cart with a promotion",
      );
    } finally {
      await shopperContext.close();
    }

    // the simulator: applied, with what it took
    await simulate(page, await skuOf(product), javaScript);
    const applied = page.getByRole("heading", { name: "Applied", exact: true }).locator("..");
    await expect(applied.getByRole("listitem").filter({ hasText: name })).toContainText("−$25.00");

    // disabled: the simulator no longer considers it
    await visit(page, "/admin/promotions", { javaScript });
    await page.getByRole("row").filter({ hasText: name }).getByRole("link", { name: /^Edit/ }).click();
    await expect(page.getByRole("heading", { name: `Edit promotion ${name}`, level: 1 })).toBeVisible();
    await (javaScript ? expectNoA11yViolations : expectNoA11yViolationsWithoutJs)(
      page,
      "promotion edit form",
    );
    await page.getByRole("button", { name: "Disable promotion" }).click();
    await expect(toast(page, `Promotion ${name} disabled`)).toBeVisible();
    await simulate(page, await skuOf(product), javaScript);
    await expect(page.getByRole("heading", { name: "Applied", exact: true }).locator("..")).not.toContainText(
      name,
    );
  });
}

for (const javaScript of [true, false]) {
  test(`free shipping from a subtotal: created, within reach in the cart, then free (${javaScript ? "with" : "without"} JavaScript)`, async ({
    page: jsPage,
    noJsPage,
    browser,
    baseURL,
    browserErrors,
  }) => {
    const page = javaScript ? jsPage : noJsPage;
    // $12 a unit: under the zone's own free-shipping threshold ($50) at three units
    const product = await createTestProduct(`Ship Free Socks ${javaScript ? "js" : "nojs"}`, {
      priceCents: 1_200,
      stock: 40,
    });
    products.push(product);
    const name = `E2E Free shipping ${javaScript ? "js" : "nojs"}`;

    await signInAsAdmin(page, "/admin/promotions");
    await visit(page, "/admin/promotions/new?type=free-shipping", { javaScript });
    await expect(page.getByRole("group", { name: /^What it does: Free shipping/ })).toBeVisible();
    await page.getByRole("textbox", { name: "Name" }).fill(name);
    await page.getByRole("textbox", { name: /^Minimum subtotal/ }).fill("30");
    // only for carts holding the test's own product: no other test's cart ships free
    await page
      .getByRole("group", { name: "Items the cart must hold" })
      .getByRole("textbox", { name: "Products or SKUs" })
      .fill(product.slug);
    await page.getByRole("button", { name: "Create promotion" }).click();
    await expect(page).toHaveURL(/\/admin\/promotions$/);
    await expect(toast(page, `Promotion ${name} created`)).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Free shipping");

    const shopperContext = await browser.newContext({ baseURL, javaScriptEnabled: javaScript });
    browserErrors.watchContext(shopperContext);
    const shopper = await shopperContext.newPage();
    try {
      await addAndOpenCart(shopper, product, 1, javaScript);
      await expect(shopper.getByTestId("promotion-hints")).toHaveText(
        "Free shipping from $30.00: $18.00 to go.",
      );
      await expect(shopper.getByTestId("summary-shipping")).toHaveText("$4.99");

      await addAndOpenCart(shopper, product, 2, javaScript);
      const summary = shopper.getByTestId("order-summary");
      await expect(summary.getByText(`Shipping (${name})`)).toBeVisible();
      await expect(shopper.getByTestId("summary-shipping")).toHaveText("Free");
      await expect(shopper.getByTestId("summary-subtotal")).toHaveText("$36.00");
      await expect(shopper.getByTestId("promotion-hints")).toHaveCount(0);
      await (javaScript ? expectNoA11yViolations : expectNoA11yViolationsWithoutJs)(
        shopper,
        "cart with free shipping",
      );
    } finally {
      await shopperContext.close();
    }
  });
}

test("single-use codes: made in the admin, exported, one used at checkout and then refused (with and without JavaScript)", async ({
  page,
  noJsPage,
  browserErrors,
}) => {
  // a refused form answers 400
  browserErrors.allow(/status of 400 \(Bad Request\)/);
  test.setTimeout(180_000);
  const product = await createTestProduct("Promo Codes Lamp", { priceCents: 3_000, stock: 40 });
  products.push(product);
  const name = "E2E Five off with a code";

  await signInAsAdmin(page, "/admin/promotions");
  await visit(page, "/admin/promotions/new?type=order-fixed");
  await page.getByRole("textbox", { name: "Name" }).fill(name);
  await page.getByRole("textbox", { name: "Amount off ($)" }).fill("5");
  await page.getByRole("button", { name: "Create promotion" }).click();
  await expect(toast(page, `Promotion ${name} created`)).toBeVisible();
  await page.getByRole("row").filter({ hasText: name }).getByRole("link", { name: /^Edit/ }).click();
  await expect(page.getByRole("heading", { name: "Single-use codes" })).toBeVisible();
  await page.getByRole("textbox", { name: "How many codes" }).fill("0");
  await page.getByRole("button", { name: "Make codes" }).click();
  await expect(page.getByRole("textbox", { name: "How many codes" })).toHaveAccessibleDescription(
    "Enter how many codes to make, from 1 to 100,000.",
  );
  await page.getByRole("textbox", { name: "How many codes" }).fill("2");
  await page.getByRole("textbox", { name: "Prefix" }).fill("e2e");
  await page.getByRole("button", { name: "Make codes" }).click();
  await expect(toast(page, "2 codes made")).toBeVisible();
  await expect(page.getByText("2 codes, 0 used.")).toBeVisible();
  await expectNoA11yViolations(page, "promotion with single-use codes");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download codes (CSV)" }).click();
  const csv = await (await download).createReadStream().then(async (stream) => {
    let text = "";
    for await (const chunk of stream) text += chunk;
    return text;
  });
  const [header, first, second] = csv.trim().split("\n");
  expect(header).toBe("code,used_at,order_number");
  const [code1, code2] = [first!.split(",")[0]!, second!.split(",")[0]!];
  expect(code1).toMatch(/^E2E-[A-Z2-9]{10}$/);
  await visit(page, "/admin/promotions");
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Single-use codes");

  // a shopper with JavaScript uses the first code through the checkout
  const shopper = await page
    .context()
    .browser()!
    .newContext({ baseURL: new URL(page.url()).origin });
  browserErrors.watchContext(shopper);
  const buyer = await shopper.newPage();
  try {
    await addAndOpenCart(buyer, product, 1, true);
    await buyer.getByRole("textbox", { name: "Coupon code" }).fill(code1.toLowerCase());
    await buyer.getByRole("button", { name: "Apply" }).click();
    await expect(toast(buyer, `Coupon ${code1} applied.`)).toBeVisible();
    await expect(buyer.getByTestId("order-summary")).toContainText(`Discount (${code1} ($5.00 off))`);
    await expect(buyer.getByTestId("summary-discount")).toHaveText("−$5.00");
    await visit(buyer, "/checkout");
    for (const [label, value] of [
      ["First Name", "Ada"],
      ["Last Name", "Lovelace"],
      ["Email", "ada.codes@example.com"],
      ["Phone", "+1 (555) 010-2030"],
      ["Address", "12 Analytical Way"],
      ["City", "Springfield"],
      ["State / Province", "IL"],
      ["ZIP / Postal Code", "62701"],
    ] as const) {
      await buyer.getByLabel(new RegExp(`^${label.replace(/[/]/g, "\\/")}\\s*\\*?$`)).fill(value);
    }
    await buyer.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(buyer).toHaveURL("/checkout?step=payment");
    await buyer.getByLabel(/^Card Number\s*\*?$/).fill("4242424242424242");
    await buyer.getByLabel(/^Cardholder Name\s*\*?$/).fill("Ada Lovelace");
    await buyer.getByLabel(/^Expiry Date\s*\*?$/).fill("1230");
    await buyer.getByLabel(/^CVV\s*\*?$/).fill("123");
    await buyer.getByRole("button", { name: "Review Order" }).click();
    await expect(buyer).toHaveURL("/checkout?step=review");
    await buyer.getByRole("button", { name: "Place Order" }).click();
    await expect(buyer).toHaveURL("/checkout?step=confirmation");
  } finally {
    await shopper.close();
  }

  // another shopper without JavaScript: the used code is refused, the other one works
  await addAndOpenCart(noJsPage, product, 1, false);
  await noJsPage.getByRole("textbox", { name: "Coupon code" }).fill(code1);
  await noJsPage.getByRole("button", { name: "Apply" }).click();
  await expect(toast(noJsPage, "This coupon has reached its usage limit.")).toBeVisible();
  await noJsPage.getByRole("textbox", { name: "Coupon code" }).fill(code2);
  await noJsPage.getByRole("button", { name: "Apply" }).click();
  await expect(toast(noJsPage, `Coupon ${code2} applied.`)).toBeVisible();
  await expect(noJsPage.getByTestId("summary-discount")).toHaveText("−$5.00");
  await expectNoA11yViolationsWithoutJs(noJsPage, "cart with a single-use code");
});
