import type { Page } from "@playwright/test";
import { createDatabase, type Database } from "../../app/db/database.server.ts";
import { deleteProducts, insertProduct } from "../helpers/catalog.ts";
import { readOutbox } from "../helpers/outbox.ts";
import {
  expect,
  expectNoA11yViolations,
  expectNoA11yViolationsWithoutJs,
  test,
  visit,
  waitForHydration,
} from "./fixtures.ts";
import { shopDatabaseUrl, shopMailDir } from "./shop-env.ts";

/**
 * The four-step guest checkout (shipping, payment, review, confirmation) from a product page to
 * the confirmation e-mail and order tracking — with JavaScript and as plain form posts without it.
 * Every test buys products of its own, inserted into the e2e database and removed afterwards.
 */

// The database and outbox the e2e server uses (playwright.config.ts gives it the same data directory).
let shopDb: Database | undefined;
function db(): Database {
  shopDb ??= createDatabase(shopDatabaseUrl());
  return shopDb;
}
test.afterAll(async () => {
  await shopDb?.destroy();
  shopDb = undefined;
});

const uniqueTag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

interface TestProduct {
  id: number;
  slug: string;
  name: string;
}

/** A product of the test's own ($25.00 unless told), removed again by `removeProducts`. */
async function createProduct(tag: string, { priceCents = 2_500, stock = 50, label = "Lamp" } = {}) {
  const name = `E2E Checkout ${label} ${tag}`;
  const slug = `e2e-checkout-${label.toLowerCase()}-${tag}`;
  const id = await insertProduct(db(), { name, slug, priceCents, stock });
  return { id, slug, name } satisfies TestProduct;
}

async function removeProducts(...products: TestProduct[]) {
  // Order items keep their snapshot (product_id is set to null); cart lines go with the product.
  await deleteProducts(
    db(),
    products.map((p) => p.id),
  );
}

/** Adds through the cart's form endpoint with the page's cookies, as a product page would post. */
async function addByPost(page: Page, id: number, quantity = 1) {
  const response = await page.request.post("/cart", {
    form: { intent: "add", productId: String(id), quantity: String(quantity), redirectTo: "/cart" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
}

const notifications = (page: Page) => page.getByRole("region", { name: "Notifications" });
const toast = (page: Page, text: string) => notifications(page).getByText(text, { exact: true });
const badge = (page: Page) => page.getByRole("banner").getByTestId("cart-badge");
const step = (page: Page) =>
  page.getByRole("navigation", { name: "Checkout progress" }).locator('[aria-current="step"]');

const REQUIRED_ALL =
  "Please fill in all required fields: firstName, lastName, email, phone, address, city, state, zipCode, country";
const REQUIRED_WITHOUT_COUNTRY =
  "Please fill in all required fields: firstName, lastName, email, phone, address, city, state, zipCode";
const REQUIRED_PAYMENT = "Please fill in all required fields: cardNumber, cardName, expiryDate, cvv";
const DECLINED = "Your card was declined. Please use a different card.";
const INSUFFICIENT = "Your card has insufficient funds. Please use a different card.";
const NOT_FOUND =
  "We couldn't find an order with that order number and e-mail address. Please check both and try again.";

const SHIPPING_LABELS = {
  firstName: "First Name",
  lastName: "Last Name",
  email: "Email",
  phone: "Phone",
  address: "Address",
  city: "City",
  state: "State / Province",
  zipCode: "ZIP / Postal Code",
} as const;
type ShippingText = Record<keyof typeof SHIPPING_LABELS, string>;

const shopper = (tag: string): ShippingText => ({
  firstName: "Ada",
  lastName: "Lovelace",
  email: `ada.${tag}@example.com`,
  phone: "+1 (555) 010-2030",
  address: "12 Analytical Way",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
});

/** A form field by its label; the label's required marker ("*", hidden from assistive tech) aside. */
const field = (page: Page, label: string) =>
  page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\s*\\*?$`));

async function fillShipping(page: Page, values: ShippingText) {
  for (const [name, label] of Object.entries(SHIPPING_LABELS)) {
    await field(page, label).fill(values[name as keyof ShippingText]);
  }
}

/** Without JavaScript nothing formats the fields: the server takes both shapes. */
async function fillPayment(
  page: Page,
  card: { number: string; name?: string; expiry?: string; cvv?: string },
) {
  await field(page, "Card Number").fill(card.number);
  await field(page, "Cardholder Name").fill(card.name ?? "Ada Lovelace");
  await field(page, "Expiry Date").fill(card.expiry ?? "12/30");
  await field(page, "CVV").fill(card.cvv ?? "123");
}

/** "Friday, November 27, 2026": today (UTC) + days, formatted as the shop does. */
function deliveryText(days: number, now = new Date()): string {
  return new Intl.DateTimeFormat("en-US", {
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  }).format(new Date(now.getTime() + days * 86_400_000));
}

/** The same rule before and after placing: a test running across midnight UTC accepts either day. */
function deliveryPattern(days: number, before: Date): RegExp {
  const options = new Set([deliveryText(days, before), deliveryText(days)]);
  return new RegExp(`^(${[...options].join("|")})$`);
}

async function expectInOutbox(email: string, orderNumber: string) {
  await expect
    .poll(async () =>
      (await readOutbox(shopMailDir())).filter((m) => m.to.includes(email)).map((m) => m.subject),
    )
    .toEqual([expect.stringContaining(orderNumber)]);
  const [message] = (await readOutbox(shopMailDir())).filter((m) => m.to.includes(email));
  expect(message?.text).toContain(`Order number: ${orderNumber}`);
}

/** The review step's Place Order, its pending state seen (the POST is held for a moment). */
async function placeOrder(page: Page) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname.startsWith("/checkout"),
    async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    },
  );
  const button = page.getByRole("button", { name: "Place Order" });
  await button.click();
  const pending = page.getByRole("button", { name: "Placing Order..." });
  await expect(pending).toBeVisible();
  await expect(pending).toBeDisabled();
  await expect(page.getByRole("status").filter({ hasText: "Placing your order" })).toBeVisible();
  release();
  await page.unrouteAll({ behavior: "wait" });
  await expect(page).toHaveURL("/checkout?step=confirmation");
}

/** Cart → shipping → payment → review → confirmation with JavaScript; the order number. */
async function checkoutWithJs(
  page: Page,
  { values, method = "standard" }: { values: ShippingText; method?: "standard" | "express" },
): Promise<string> {
  await visit(page, "/checkout");
  await fillShipping(page, values);
  if (method === "express") await page.getByRole("radio", { name: /Express Shipping/ }).check();
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page).toHaveURL("/checkout?step=payment");
  await fillPayment(page, { number: "4242424242424242", expiry: "1230" });
  await page.getByRole("button", { name: "Review Order" }).click();
  await expect(page).toHaveURL("/checkout?step=review");
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page).toHaveURL("/checkout?step=confirmation");
  return (await page.getByTestId("order-number").textContent()) ?? "";
}

test.describe("checkout", () => {
  test("guest journey from a product page to the confirmation, e-mail and an empty cart", async ({
    page,
  }) => {
    // Every step, both declines, Edit/Back round trips and axe on each page: slow on a loaded machine.
    test.setTimeout(180_000);
    const tag = uniqueTag();
    const lamp = await createProduct(tag);
    const values = shopper(tag);
    try {
      // Product page → Buy Now → shipping step
      await visit(page, `/products/${lamp.slug}`);
      await page.getByRole("button", { name: "Buy Now" }).click();
      await expect(page).toHaveURL("/checkout");
      await waitForHydration(page);
      await expect(page).toHaveTitle(/^Checkout/);
      await expect(step(page)).toContainText("Shipping");
      await expect(page.getByRole("heading", { name: "Shipping Information" })).toBeVisible();
      await expect(badge(page)).toHaveText("1 items");
      await expectNoA11yViolations(page, "shipping step");

      // The form's shape: e-mail and tel inputs, the US chosen, standard shipping
      await expect(field(page, "Email")).toHaveAttribute("type", "email");
      await expect(field(page, "Phone")).toHaveAttribute("type", "tel");
      await expect(field(page, "Country")).toHaveValue("US");
      await expect(page.getByRole("radio", { name: /Standard Shipping/ })).toBeChecked();

      // Submitting the empty form: the toast names every empty field, each is marked. The
      // country select has no empty choice, so it is sent as "US" and is not among them.
      await page.getByRole("button", { name: "Continue to Payment" }).click();
      await expect(toast(page, REQUIRED_WITHOUT_COUNTRY)).toBeVisible();
      await expect(page).toHaveURL("/checkout");
      for (const label of Object.values(SHIPPING_LABELS)) {
        await expect(field(page, label), label).toHaveAttribute("aria-invalid", "true");
      }
      await expect(field(page, "Country")).not.toHaveAttribute("aria-invalid", "true");
      await expect(field(page, "First Name")).toHaveAccessibleDescription("First Name is required.");
      await expectNoA11yViolations(page, "shipping step with errors");

      // A truly empty form (country too), as any client may post it: all nine named and marked.
      const empty = await page.request.post("/checkout", { form: { intent: "shipping" }, maxRedirects: 0 });
      expect(empty.status()).toBe(302);
      await page.goto("/checkout");
      await expect(toast(page, REQUIRED_ALL)).toBeVisible();
      await waitForHydration(page);
      for (const label of [...Object.values(SHIPPING_LABELS), "Country"]) {
        await expect(field(page, label), label).toHaveAttribute("aria-invalid", "true");
      }
      await expectNoA11yViolations(page, "shipping step, every field missing");

      // Shipping filled → payment
      await fillShipping(page, values);
      await field(page, "Country").selectOption("US");
      await page.getByRole("button", { name: "Continue to Payment" }).click();
      await expect(page).toHaveURL("/checkout?step=payment");
      await expect(step(page)).toContainText("Payment");
      await expect(page.getByRole("heading", { name: "Payment Information" })).toBeVisible();
      await expectNoA11yViolations(page, "payment step");

      // Empty payment form
      await page.getByRole("button", { name: "Review Order" }).click();
      await expect(toast(page, REQUIRED_PAYMENT)).toBeVisible();
      await expect(page).toHaveURL("/checkout?step=payment");
      for (const label of ["Card Number", "Cardholder Name", "Expiry Date", "CVV"]) {
        await expect(field(page, label), label).toHaveAttribute("aria-invalid", "true");
      }
      await expectNoA11yViolations(page, "payment step with errors");

      // Formatting while typing; the CVV is masked and at most 4 digits
      const cardNumber = field(page, "Card Number");
      await cardNumber.pressSequentially("4242424242424242");
      await expect(cardNumber).toHaveValue("4242 4242 4242 4242");
      await cardNumber.pressSequentially("99");
      await expect(cardNumber).toHaveValue("4242 4242 4242 4242");
      const expiry = field(page, "Expiry Date");
      await expiry.pressSequentially("1230");
      await expect(expiry).toHaveValue("12/30");
      const cvv = field(page, "CVV");
      await expect(cvv).toHaveAttribute("type", "password");
      await expect(cvv).toHaveAttribute("maxlength", "4");
      await cvv.pressSequentially("12a345");
      await expect(cvv).toHaveValue("1234");

      // A declined card keeps the shopper on the payment step
      await fillPayment(page, { number: "4000 0000 0000 0002", expiry: "1230" });
      await page.getByRole("button", { name: "Review Order" }).click();
      await expect(toast(page, DECLINED)).toBeVisible();
      await expect(page).toHaveURL("/checkout?step=payment");
      await expect(cardNumber).toHaveAttribute("aria-invalid", "true");
      await expect(cardNumber).toHaveAccessibleDescription(DECLINED);
      await expect(field(page, "Cardholder Name")).toHaveValue("Ada Lovelace");
      await expectNoA11yViolations(page, "payment step, card declined");

      // Insufficient funds
      await fillPayment(page, { number: "4000000000009995", expiry: "1230" });
      await page.getByRole("button", { name: "Review Order" }).click();
      await expect(toast(page, INSUFFICIENT)).toBeVisible();
      await expect(page).toHaveURL("/checkout?step=payment");

      // A good card → review
      await fillPayment(page, { number: "4242424242424242", expiry: "1230" });
      await page.getByRole("button", { name: "Review Order" }).click();
      await expect(page).toHaveURL("/checkout?step=review");
      await expect(step(page)).toContainText("Review");
      const review = page.getByRole("region", { name: "Review Your Order" });
      await expect(review.getByRole("listitem").filter({ hasText: lamp.name })).toContainText("× 1");
      await expect(review.getByRole("listitem").filter({ hasText: lamp.name })).toContainText("$25.00");
      const address = review.locator("address");
      for (const text of [
        "Ada Lovelace",
        values.address,
        "Springfield, IL 62701",
        "United States",
        values.email,
        values.phone,
      ]) {
        await expect(address).toContainText(text);
      }
      await expect(review).toContainText("Standard Shipping (4-6 business days)");
      await expect(review).toContainText("Visa ending in 4242");
      await expect(review).toContainText("Expires 12/30");
      // $25.00 + $4.99 shipping (below $50) + 7 % tax $1.75
      await expect(review.getByTestId("checkout-subtotal")).toHaveText("$25.00");
      await expect(review.getByTestId("checkout-shipping")).toHaveText("$4.99");
      await expect(review.getByText("Including VAT")).toBeVisible();
      await expect(review.getByTestId("checkout-tax")).toHaveText("$1.75");
      await expect(review.getByTestId("checkout-discount")).toHaveCount(0);
      await expect(review.getByTestId("checkout-total")).toHaveText("$31.74");
      await expectNoA11yViolations(page, "review step");

      // Edit shipping: the values are kept; continuing lands on payment with the card entered
      await page.getByRole("link", { name: "Edit shipping address" }).click();
      await expect(page).toHaveURL("/checkout");
      await expect(field(page, "Email")).toHaveValue(values.email);
      await expect(field(page, "ZIP / Postal Code")).toHaveValue(values.zipCode);
      await expect(field(page, "Country")).toHaveValue("US");
      await field(page, "City").fill("Shelbyville");
      await page.getByRole("button", { name: "Continue to Payment" }).click();
      await expect(page).toHaveURL("/checkout?step=payment");
      await expect(page.getByText("Card entered: Visa ending in 4242 (expires 12/30).")).toBeVisible();
      await page.getByRole("button", { name: "Continue with this card" }).click();
      await expect(page).toHaveURL("/checkout?step=review");
      await expect(address).toContainText("Shelbyville, IL 62701");

      // Edit payment: name and expiry kept (never the number); Back on review goes to payment too
      await page.getByRole("link", { name: "Edit payment method" }).click();
      await expect(page).toHaveURL("/checkout?step=payment");
      await expect(field(page, "Cardholder Name")).toHaveValue("Ada Lovelace");
      await expect(field(page, "Expiry Date")).toHaveValue("12/30");
      await expect(field(page, "Card Number")).toHaveValue("");
      // Back on the payment step → shipping, values kept
      await page.getByRole("button", { name: "Back", exact: true }).click();
      await expect(page).toHaveURL("/checkout");
      await expect(field(page, "First Name")).toHaveValue("Ada");
      await expect(field(page, "City")).toHaveValue("Shelbyville");
      await page.getByRole("button", { name: "Continue to Payment" }).click();
      await page.getByRole("button", { name: "Continue with this card" }).click();
      await expect(page).toHaveURL("/checkout?step=review");
      await page.getByRole("button", { name: "Back", exact: true }).click();
      await expect(page).toHaveURL("/checkout?step=payment");
      await page.getByRole("button", { name: "Continue with this card" }).click();
      await expect(page).toHaveURL("/checkout?step=review");
      await expectNoA11yViolations(page, "review step again");

      // Place Order: pending, then the confirmation
      const before = new Date();
      await placeOrder(page);
      await expect(step(page)).toContainText("Confirmation");
      await expect(page.getByRole("heading", { name: "Thank you for your order!" })).toBeVisible();
      const orderNumber = page.getByTestId("order-number");
      await expect(orderNumber).toHaveText(/^CW-[0-9A-Z]{10}$/);
      const number = (await orderNumber.textContent()) ?? "";
      await expect(page.getByText(`We've sent a confirmation email to ${values.email}.`)).toBeVisible();
      await expect(page.getByTestId("estimated-delivery")).toHaveText(deliveryPattern(5, before));
      await expect(page.getByTestId("estimated-delivery").locator("..")).toContainText("(Standard Shipping)");
      const confirmation = page.getByRole("region", { name: "Your Order", exact: true });
      await expect(confirmation).toContainText(`1 x ${lamp.name}`);
      await expect(confirmation.getByTestId("checkout-total")).toHaveText("$31.74");
      await expect(page.getByRole("link", { name: "Track your order", exact: true })).toHaveAttribute(
        "href",
        "/orders/track",
      );
      await expect(badge(page)).toHaveCount(0);
      await expectNoA11yViolations(page, "confirmation");

      // The confirmation e-mail
      await expectInOutbox(values.email, number);

      // The cart is empty, and so checkout sends the shopper back to it
      await visit(page, "/cart");
      await expect(page.getByRole("heading", { name: "Your cart is empty" })).toBeVisible();
      await page.goto("/checkout");
      await expect(page).toHaveURL("/cart");
    } finally {
      await removeProducts(lamp);
    }
  });

  test("coupons: SUMMER2025 has expired, WELCOME10 is taken off in review and confirmation (express)", async ({
    page,
  }) => {
    const tag = uniqueTag();
    const lamp = await createProduct(tag);
    const values = shopper(tag);
    try {
      await visit(page, "/");
      await addByPost(page, lamp.id, 2);
      await visit(page, "/cart");
      const summary = page.getByRole("region", { name: "Order Summary" });
      const code = summary.getByRole("textbox", { name: "Coupon code" });

      await code.fill("SUMMER2025");
      await summary.getByRole("button", { name: "Apply" }).click();
      await expect(toast(page, "This coupon has expired.")).toBeVisible();
      await expect(summary.getByTestId("summary-discount")).toHaveCount(0);

      await code.fill("WELCOME10");
      await summary.getByRole("button", { name: "Apply" }).click();
      await expect(summary.getByTestId("applied-coupon")).toHaveText("Coupon WELCOME10 applied.");
      // $50.00 − $5.00; free shipping (the threshold looks at the subtotal before the discount); tax $3.15
      await expect(summary.getByText("Discount (WELCOME10 (10% off))")).toBeVisible();
      await expect(summary.getByTestId("summary-discount")).toHaveText("−$5.00");
      await expect(summary.getByTestId("summary-total")).toHaveText("$48.15");
      await expectNoA11yViolations(page, "cart with a coupon");

      await visit(page, "/checkout");
      await expect(page.getByTestId("checkout-discount")).toHaveText("−$5.00");
      await fillShipping(page, values);
      await page.getByRole("radio", { name: /Express Shipping/ }).check();
      await page.getByRole("button", { name: "Continue to Payment" }).click();
      await expect(page).toHaveURL("/checkout?step=payment");
      await fillPayment(page, { number: "4242424242424242", expiry: "1230" });
      await page.getByRole("button", { name: "Review Order" }).click();
      await expect(page).toHaveURL("/checkout?step=review");

      const review = page.getByRole("region", { name: "Review Your Order" });
      await expect(review).toContainText("Express Shipping (1-3 business days)");
      await expect(review.getByTestId("checkout-subtotal")).toHaveText("$50.00");
      await expect(review.getByTestId("checkout-discount")).toHaveText("−$5.00");
      await expect(review.getByText(/^Discount \(WELCOME10/)).toBeVisible();
      await expect(review.getByTestId("checkout-shipping")).toHaveText("$9.99");
      await expect(review.getByTestId("checkout-tax")).toHaveText("$3.15");
      await expect(review.getByTestId("checkout-total")).toHaveText("$58.14");
      await expectNoA11yViolations(page, "review with a coupon");

      // Edit shipping method: the express choice is kept
      await page.getByRole("link", { name: "Edit shipping method" }).click();
      await expect(page).toHaveURL("/checkout");
      await expect(page.getByRole("radio", { name: /Express Shipping/ })).toBeChecked();
      await expect(field(page, "Last Name")).toHaveValue("Lovelace");
      await page.getByRole("button", { name: "Continue to Payment" }).click();
      await page.getByRole("button", { name: "Continue with this card" }).click();
      await expect(page).toHaveURL("/checkout?step=review");

      const before = new Date();
      await placeOrder(page);
      await expect(page.getByTestId("order-number")).toHaveText(/^CW-[0-9A-Z]{10}$/);
      await expect(page.getByTestId("estimated-delivery")).toHaveText(deliveryPattern(2, before));
      await expect(page.getByTestId("estimated-delivery").locator("..")).toContainText("(Express Shipping)");
      const confirmation = page.getByRole("region", { name: "Your Order", exact: true });
      await expect(confirmation).toContainText(`2 x ${lamp.name}`);
      await expect(confirmation.getByTestId("checkout-discount")).toHaveText("−$5.00");
      await expect(confirmation.getByTestId("checkout-shipping")).toHaveText("$9.99");
      await expect(confirmation.getByTestId("checkout-total")).toHaveText("$58.14");
      await expect(badge(page)).toHaveCount(0);
      await expectNoA11yViolations(page, "confirmation with a coupon");
      await expectInOutbox(values.email, (await page.getByTestId("order-number").textContent()) ?? "");
    } finally {
      await removeProducts(lamp);
    }
  });

  test("/checkout with an empty cart redirects to /cart", async ({ page }) => {
    for (const path of [
      "/checkout",
      "/checkout?step=payment",
      "/checkout?step=review",
      "/checkout?step=confirmation",
    ]) {
      await page.goto(path);
      await expect(page, path).toHaveURL("/cart");
    }
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "Your cart is empty" })).toBeVisible();
  });

  test("ordering the last units makes the product page say Out of Stock", async ({ page }) => {
    const tag = uniqueTag();
    const vase = await createProduct(tag, { stock: 2, priceCents: 3_000, label: "Vase" });
    try {
      await visit(page, `/products/${vase.slug}`);
      await expect(page.getByTestId("stock-message")).toHaveText("Only 2 left in stock - order soon");
      await page.getByRole("spinbutton", { name: "Quantity" }).fill("2");
      await page.getByRole("button", { name: "Buy Now" }).click();
      await expect(page).toHaveURL("/checkout");
      await waitForHydration(page);
      await expect(page.getByRole("region", { name: "Order Summary" })).toContainText(`2 x ${vase.name}`);

      await fillShipping(page, shopper(tag));
      await page.getByRole("button", { name: "Continue to Payment" }).click();
      await fillPayment(page, { number: "4242424242424242", expiry: "1230" });
      await page.getByRole("button", { name: "Review Order" }).click();
      await expect(page).toHaveURL("/checkout?step=review");
      await page.getByRole("button", { name: "Place Order" }).click();
      await expect(page).toHaveURL("/checkout?step=confirmation");
      await expect(page.getByTestId("order-number")).toHaveText(/^CW-[0-9A-Z]{10}$/);

      await visit(page, `/products/${vase.slug}`);
      await expect(page.getByTestId("stock-message")).toHaveText("Out of Stock");
      await expect(page.getByRole("button", { name: "Add to Cart", exact: true })).toBeDisabled();
      await expect(page.getByRole("button", { name: "Buy Now" })).toBeDisabled();
      const row = await db()
        .selectFrom("products")
        .select("stock")
        .where("id", "=", vase.id)
        .executeTakeFirstOrThrow();
      expect(row.stock).toBe(0);
    } finally {
      await removeProducts(vase);
    }
  });

  test("the shipping form can be completed and submitted with the keyboard alone", async ({ page }) => {
    const tag = uniqueTag();
    const lamp = await createProduct(tag);
    const values = shopper(tag);
    try {
      await visit(page, "/");
      await addByPost(page, lamp.id);
      await visit(page, "/checkout");

      // Tab from the top of the page to the first field
      const first = field(page, "First Name");
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press("Tab");
        if (await first.evaluate((el) => el === document.activeElement)) break;
      }
      await expect(first).toBeFocused();

      for (const [name, label] of Object.entries(SHIPPING_LABELS)) {
        await expect(field(page, label)).toBeFocused();
        await page.keyboard.type(values[name as keyof ShippingText]);
        await page.keyboard.press("Tab");
      }
      const country = field(page, "Country");
      await expect(country).toBeFocused();
      await page.keyboard.press("ArrowDown");
      await expect(country).toHaveValue("CA");
      await page.keyboard.press("Tab");
      await expect(page.getByRole("radio", { name: /Standard Shipping/ })).toBeFocused();
      await page.keyboard.press("ArrowDown");
      await expect(page.getByRole("radio", { name: /Express Shipping/ })).toBeChecked();
      await page.keyboard.press("Tab");
      await expect(page.getByRole("button", { name: "Continue to Payment" })).toBeFocused();
      await page.keyboard.press("Enter");

      await expect(page).toHaveURL("/checkout?step=payment");
      await expect(page.getByRole("heading", { name: "Payment Information" })).toBeVisible();
      // What was typed arrived: back to shipping shows it
      await page.getByRole("button", { name: "Back", exact: true }).click();
      await expect(page).toHaveURL("/checkout");
      await expect(field(page, "Email")).toHaveValue(values.email);
      await expect(field(page, "Country")).toHaveValue("CA");
      await expect(page.getByRole("radio", { name: /Express Shipping/ })).toBeChecked();
    } finally {
      await removeProducts(lamp);
    }
  });
  test("the Order Summary follows the shipping method as it is picked", async ({ page }) => {
    const tag = uniqueTag();
    // $60.00: standard shipping is free, express $9.99; 7 % tax $4.20
    const lamp = await createProduct(tag, { priceCents: 6_000 });
    try {
      await visit(page, "/");
      await addByPost(page, lamp.id);
      await visit(page, "/checkout");
      const summary = page.getByRole("region", { name: "Order Summary" });
      await expect(summary.getByTestId("checkout-shipping")).toHaveText("Free");
      await expect(summary.getByTestId("checkout-total")).toHaveText("$64.20");

      await page.getByRole("radio", { name: /Express Shipping/ }).check();
      await expect(summary.getByTestId("checkout-shipping")).toHaveText("$9.99");
      await expect(summary.getByTestId("checkout-total")).toHaveText("$74.19");
      await page.getByRole("radio", { name: /Standard Shipping/ }).check();
      await expect(summary.getByTestId("checkout-shipping")).toHaveText("Free");
      await expect(summary.getByTestId("checkout-total")).toHaveText("$64.20");
      // the page was not sent: the shopper is still on the shipping step
      await expect(page).toHaveURL("/checkout");
    } finally {
      await removeProducts(lamp);
    }
  });
});

test.describe("order tracking", () => {
  test("the right number and e-mail show the status and items; a wrong one gets the same not-found", async ({
    page,
  }) => {
    const tag = uniqueTag();
    const lamp = await createProduct(tag);
    const values = shopper(tag);
    try {
      await visit(page, "/");
      await addByPost(page, lamp.id, 3);
      const number = await checkoutWithJs(page, { values });
      expect(number).toMatch(/^CW-[0-9A-Z]{10}$/);

      await page.getByRole("link", { name: "Track your order", exact: true }).click();
      await expect(page).toHaveURL("/orders/track");
      await waitForHydration(page);
      await expect(page.getByRole("heading", { name: "Track Your Order", level: 1 })).toBeVisible();
      await expectNoA11yViolations(page, "tracking form");

      const track = async (orderNumber: string, email: string) => {
        await field(page, "Order Number").fill(orderNumber);
        await field(page, "Email").fill(email);
        await page.getByRole("button", { name: "Track Order" }).click();
      };

      // The e-mail is compared without regard to case
      await track(number, values.email.toUpperCase());
      const found = page.getByRole("region", { name: `Order ${number}` });
      await expect(found.getByTestId("order-status")).toHaveText("Paid — preparing for shipment");
      await expect(found.getByRole("listitem").filter({ hasText: lamp.name })).toContainText(
        `3 x ${lamp.name}`,
      );
      await expect(found).toContainText("Ada Lovelace, Springfield, IL");
      await expectNoA11yViolations(page, "tracked order");

      await track(number, `someone.else.${tag}@example.com`);
      await expect(page.getByRole("alert")).toHaveText(NOT_FOUND);
      await expect(page.getByRole("region", { name: `Order ${number}` })).toHaveCount(0);
      await expectNoA11yViolations(page, "tracking, not found");

      const otherNumber = number.endsWith("0") ? `${number.slice(0, -1)}1` : `${number.slice(0, -1)}0`;
      await track(otherNumber, values.email);
      await expect(page.getByRole("alert")).toHaveText(NOT_FOUND);
      await expect(page.getByRole("region", { name: /^Order CW-/ })).toHaveCount(0);
    } finally {
      await removeProducts(lamp);
    }
  });
});

test.describe("checkout without JavaScript", () => {
  test("every step is a plain form post: error toasts, a decline, review, order, e-mail and tracking", async ({
    noJsPage: page,
  }) => {
    // Every step as a full page load, each checked by axe in a scratch context: slow on a loaded machine.
    test.setTimeout(180_000);
    const tag = uniqueTag();
    const lamp = await createProduct(tag);
    const values = shopper(tag);
    try {
      await visit(page, `/products/${lamp.slug}`, { javaScript: false });
      await page.getByRole("button", { name: "Buy Now" }).click();
      await expect(page).toHaveURL("/checkout");
      await expect(page.getByRole("heading", { name: "Shipping Information" })).toBeVisible();
      await expect(field(page, "Email")).toHaveAttribute("type", "email");
      await expect(field(page, "Phone")).toHaveAttribute("type", "tel");
      await expect(field(page, "Country")).toHaveValue("US");
      await expectNoA11yViolationsWithoutJs(page, "shipping step");

      // The empty form, as the browser posts it (country "US") …
      await page.getByRole("button", { name: "Continue to Payment" }).click();
      await expect(page).toHaveURL("/checkout");
      await expect(toast(page, REQUIRED_WITHOUT_COUNTRY)).toBeVisible();
      for (const label of Object.values(SHIPPING_LABELS)) {
        await expect(field(page, label), label).toHaveAttribute("aria-invalid", "true");
      }
      await expectNoA11yViolationsWithoutJs(page, "shipping step with errors");
      // … and with nothing at all: all nine fields
      const empty = await page.request.post("/checkout", { form: { intent: "shipping" }, maxRedirects: 0 });
      expect(empty.status()).toBe(302);
      await page.goto("/checkout");
      await expect(toast(page, REQUIRED_ALL)).toBeVisible();
      await expect(field(page, "Country")).toHaveAttribute("aria-invalid", "true");

      await fillShipping(page, values);
      await page.getByRole("radio", { name: /Express Shipping/ }).check();
      await page.getByRole("button", { name: "Continue to Payment" }).click();
      await expect(page).toHaveURL("/checkout?step=payment");
      await expect(page.getByRole("heading", { name: "Payment Information" })).toBeVisible();
      await expect(field(page, "CVV")).toHaveAttribute("type", "password");
      await expect(field(page, "CVV")).toHaveAttribute("maxlength", "4");
      await expectNoA11yViolationsWithoutJs(page, "payment step");

      await page.getByRole("button", { name: "Review Order" }).click();
      await expect(page).toHaveURL("/checkout?step=payment");
      await expect(toast(page, REQUIRED_PAYMENT)).toBeVisible();
      await expectNoA11yViolationsWithoutJs(page, "payment step with errors");

      // Without JavaScript the number is sent as typed (spaced) and the expiry as MM/YY
      await fillPayment(page, { number: "4000 0000 0000 0002", expiry: "12/30" });
      await page.getByRole("button", { name: "Review Order" }).click();
      await expect(page).toHaveURL("/checkout?step=payment");
      await expect(toast(page, DECLINED)).toBeVisible();
      await expect(field(page, "Card Number")).toHaveAttribute("aria-invalid", "true");
      await expect(field(page, "Card Number")).toHaveValue("");
      await expect(field(page, "Cardholder Name")).toHaveValue("Ada Lovelace");
      await expectNoA11yViolationsWithoutJs(page, "payment step, card declined");

      await fillPayment(page, { number: "4000000000009995", expiry: "1230" });
      await page.getByRole("button", { name: "Review Order" }).click();
      await expect(toast(page, INSUFFICIENT)).toBeVisible();

      await fillPayment(page, { number: "4242 4242 4242 4242", expiry: "12/30" });
      await page.getByRole("button", { name: "Review Order" }).click();
      await expect(page).toHaveURL("/checkout?step=review");
      const review = page.getByRole("region", { name: "Review Your Order" });
      await expect(review).toContainText(lamp.name);
      await expect(review).toContainText("Express Shipping (1-3 business days)");
      await expect(review).toContainText("Visa ending in 4242");
      await expect(review.getByTestId("checkout-shipping")).toHaveText("$9.99");
      await expect(review.getByTestId("checkout-total")).toHaveText("$36.74");
      await expectNoA11yViolationsWithoutJs(page, "review step");

      // Back (a GET form) and Edit links work as plain navigation
      await page.getByRole("button", { name: "Back", exact: true }).click();
      await expect(page).toHaveURL("/checkout?step=payment");
      await page.getByRole("button", { name: "Continue with this card" }).click();
      await expect(page).toHaveURL("/checkout?step=review");
      await page.getByRole("link", { name: "Edit shipping address" }).click();
      await expect(page).toHaveURL("/checkout");
      await expect(field(page, "Email")).toHaveValue(values.email);
      await expect(page.getByRole("radio", { name: /Express Shipping/ })).toBeChecked();
      await page.getByRole("button", { name: "Continue to Payment" }).click();
      await page.getByRole("button", { name: "Continue with this card" }).click();
      await expect(page).toHaveURL("/checkout?step=review");

      const before = new Date();
      await page.getByRole("button", { name: "Place Order" }).click();
      await expect(page).toHaveURL("/checkout?step=confirmation");
      await expect(page.getByTestId("order-number")).toHaveText(/^CW-[0-9A-Z]{10}$/);
      const number = (await page.getByTestId("order-number").textContent()) ?? "";
      await expect(page.getByText(`We've sent a confirmation email to ${values.email}.`)).toBeVisible();
      await expect(page.getByTestId("estimated-delivery")).toHaveText(deliveryPattern(2, before));
      await expect(badge(page)).toHaveCount(0);
      await expectNoA11yViolationsWithoutJs(page, "confirmation");
      await expectInOutbox(values.email, number);

      // Tracking without JavaScript
      await page.getByRole("link", { name: "Track your order", exact: true }).click();
      await expect(page).toHaveURL("/orders/track");
      await expectNoA11yViolationsWithoutJs(page, "tracking form");
      await field(page, "Order Number").fill(number);
      await field(page, "Email").fill(values.email);
      await page.getByRole("button", { name: "Track Order" }).click();
      const found = page.getByRole("region", { name: `Order ${number}` });
      await expect(found.getByTestId("order-status")).toHaveText("Paid — preparing for shipment");
      await expect(found).toContainText(`1 x ${lamp.name}`);
      await expectNoA11yViolationsWithoutJs(page, "tracked order");

      // The cart is empty: checkout sends the shopper to it
      await page.goto("/checkout");
      await expect(page).toHaveURL("/cart");
      await expect(page.getByRole("heading", { name: "Your cart is empty" })).toBeVisible();
    } finally {
      await removeProducts(lamp);
    }
  });

  test("the chosen method is saved with the shipping step: the payment step's summary shows it", async ({
    noJsPage: page,
  }) => {
    const tag = uniqueTag();
    const lamp = await createProduct(tag, { priceCents: 6_000 });
    try {
      await visit(page, "/", { javaScript: false });
      await addByPost(page, lamp.id);
      await visit(page, "/checkout", { javaScript: false });
      const summary = page.getByRole("region", { name: "Order Summary" });
      await expect(summary.getByTestId("checkout-shipping")).toHaveText("Free");
      await fillShipping(page, shopper(tag));
      await page.getByRole("radio", { name: /Express Shipping/ }).check();
      await page.getByRole("button", { name: "Continue to Payment" }).click();
      await expect(page).toHaveURL("/checkout?step=payment");
      await expect(summary.getByTestId("checkout-shipping")).toHaveText("$9.99");
      await expect(summary.getByTestId("checkout-total")).toHaveText("$74.19");
    } finally {
      await removeProducts(lamp);
    }
  });

  test("over-long shipping fields come back with a message beside each field, no error page", async ({
    noJsPage: page,
  }) => {
    const tag = uniqueTag();
    const lamp = await createProduct(tag);
    try {
      await visit(page, "/", { javaScript: false });
      await addByPost(page, lamp.id);
      await visit(page, "/checkout", { javaScript: false });
      // what a browser would not send (the inputs have a maxlength), but any client can
      const long = (label: string) => `${label} ${"x".repeat(320)}`;
      const response = await page.request.post("/checkout", {
        form: {
          intent: "shipping",
          ...Object.fromEntries(Object.keys(SHIPPING_LABELS).map((name) => [name, long(name)])),
          country: long("country"),
          shippingMethod: "standard",
          notAField: "z".repeat(5_000),
        },
        maxRedirects: 0,
      });
      expect(response.status()).toBe(302);
      expect(response.headers().location).toBe("/checkout");
      await visit(page, "/checkout", { javaScript: false });
      await expect(field(page, "First Name")).toHaveAccessibleDescription(
        "First Name is too long (at most 100 characters).",
      );
      await expect(field(page, "Address")).toHaveAccessibleDescription(
        "Address is too long (at most 200 characters).",
      );
      await expect(field(page, "Country")).toHaveAttribute("aria-invalid", "true");
      // nothing of it in a cookie: the browser keeps the cart's id and the toast, no checkout cookie
      const cookies = await page.context().cookies();
      expect(cookies.map((c) => c.name).sort()).not.toContain("cw_checkout");
      for (const cookie of cookies) {
        const text = decodeURIComponent(cookie.value);
        const payload = Buffer.from(text.slice(0, Math.max(0, text.lastIndexOf("."))), "base64").toString(
          "utf8",
        );
        expect(`${text} ${payload}`).not.toContain("xxxxxxxxxx");
      }
    } finally {
      await removeProducts(lamp);
    }
  });
});
