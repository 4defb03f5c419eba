import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { createDatabase, type Database } from "../../app/db/database.server.ts";
import { type ShopServer, startShop } from "../../bench/lib/shop.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { type StripeServer, startStripeServer } from "../support/stripe-server/index.ts";
import { FAKE_STRIPE_JS } from "../support/stripe-server/stripe-js.ts";
import { test as base, expect, expectNoA11yViolations, visit, waitForHydration } from "./fixtures.ts";
import { E2E_BUILD_DIR, E2E_DATA_ROOT, ROOT } from "./shop-env.ts";

/**
 * Checkout with PAYMENT_GATEWAY=stripe (issue 19) in the browser: a shop of this file's own, its
 * Stripe API the Stripe-compatible test server (tests/support/stripe-server), whose webhooks go to
 * the shop. js.stripe.com cannot be reached from here: the browser is answered with a stand-in for
 * Stripe.js (stripe-js.ts beside the test server) at Stripe's own address, so the shop loads it
 * exactly as it loads the real one, under the same Content-Security-Policy. The test server's own
 * pages play Stripe's 3-D Secure and hosted Checkout pages.
 */
interface StripeShop {
  stripe: StripeServer;
  shop: ShopServer;
  db: Database;
}

/** The worker's Stripe test server and the shop that pays through it (started once per worker). */
const test = base.extend<{ stripeShop: StripeShop }, { stripeWorker: StripeShop }>({
  stripeWorker: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern here
    async ({}, use, workerInfo) => {
      const stripe = await startStripeServer({ webhookRetryDelaysMs: [50, 200] });
      const dataDir = join(E2E_DATA_ROOT, `stripe-worker-${workerInfo.workerIndex}`);
      rmSync(dataDir, { recursive: true, force: true });
      const shop = await startShop(ROOT, E2E_BUILD_DIR, dataDir, [], {
        PAYMENT_GATEWAY: "stripe",
        STRIPE_SECRET_KEY: "sk_test_cartwheel_e2e",
        STRIPE_PUBLISHABLE_KEY: "pk_test_cartwheel_e2e",
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
        STRIPE_API_URL: stripe.url,
        PAYMENT_DELAY_MS: "0",
      });
      stripe.webhooks.setUrl(`${shop.url}/webhooks/stripe`);
      const db = createDatabase(`file:${join(dataDir, "cartwheel.db")}`);
      try {
        await use({ stripe, shop, db });
      } finally {
        await db.destroy();
        await shop.stop();
        await stripe.close();
      }
    },
    { scope: "worker", timeout: 180_000 },
  ],
  stripeShop: async ({ stripeWorker }, use) => {
    await use(stripeWorker);
  },
  baseURL: async ({ stripeWorker }, use) => {
    await use(stripeWorker.shop.url);
  },
});

/** Stripe.js's address answered with the stand-in (for this page's context). */
async function withStripeJs(page: Page) {
  await page
    .context()
    .route("https://js.stripe.com/**", (route) =>
      route.fulfill({ contentType: "application/javascript", body: FAKE_STRIPE_JS }),
    );
}

const uniqueTag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/** A product of the test's own in the cart (through the cart's form, with the page's cookies). */
async function cartWithProduct(page: Page, shopDb: Database) {
  const tag = uniqueTag();
  const name = `E2E Stripe Lamp ${tag}`;
  const id = await insertProduct(shopDb, {
    name,
    slug: `e2e-stripe-lamp-${tag}`,
    priceCents: 3_000,
    stock: 20,
  });
  const response = await page.request.post("/cart", {
    form: { intent: "add", productId: String(id), quantity: "1", redirectTo: "/cart" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  return { id, name, email: `grace.${tag}@example.com` };
}

const SHIPPING: Record<string, string> = {
  "First Name": "Grace",
  "Last Name": "Hopper",
  Phone: "+1 555 0100",
  Address: "1 Compiler Court",
  City: "Arlington",
  "State / Province": "VA",
  "ZIP / Postal Code": "22201",
};

const field = (page: Page, label: string) =>
  page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\s*\\*?$`));

async function fillShipping(page: Page, email: string) {
  for (const [label, value] of Object.entries(SHIPPING)) await field(page, label).fill(value);
  await field(page, "Email").fill(email);
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page.getByRole("heading", { name: "Payment Information" })).toBeVisible();
}

/** The stand-in Payment Element, once mounted: the card goes into its fields. */
async function enterCard(page: Page, number: string) {
  await expect(page.getByLabel("Card number")).toBeVisible();
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiration date (MM / YY)").fill("12 / 34");
  await page.getByLabel("Security code").fill("123");
}

const notifications = (page: Page) => page.getByRole("region", { name: "Notifications" });

async function orderByEmail(shopDb: Database, email: string) {
  return shopDb
    .selectFrom("orders")
    .select(["number", "status", "paymentReference", "paymentBrand", "paymentLast4", "totalCents"])
    .where("email", "=", email)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
}

test("Payment Element: the card goes to Stripe, the order is placed and e-mailed", async ({
  page,
  stripeShop: { stripe, shop, db },
}) => {
  await withStripeJs(page);
  const { email, name } = await cartWithProduct(page, db);
  // from the cart, as a shopper goes: the checkout is a document of its own (its policy opens
  // Stripe's origins), not a client-side navigation inside the cart's
  await visit(page, "/cart");
  await page.getByRole("link", { name: "Proceed to Checkout" }).click();
  await page.waitForURL(`${shop.url}/checkout`);
  await waitForHydration(page);
  await fillShipping(page, email);
  await waitForHydration(page);
  await enterCard(page, "4242 4242 4242 4242");
  await expectNoA11yViolations(page, "the payment step with the Payment Element");
  await page.getByRole("button", { name: "Review Order" }).click();

  const review = page.getByRole("region", { name: "Review Your Order" });
  await expect(review).toContainText("Visa ending in 4242");
  await expect(review.getByRole("listitem").filter({ hasText: name })).toBeVisible();
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(page.getByRole("heading", { name: "Thank you for your order!" })).toBeVisible();

  const order = await orderByEmail(db, email);
  expect(order).toMatchObject({ status: "paid", paymentBrand: "Visa", paymentLast4: "4242" });
  expect(stripe.state.paymentIntents.get(order.paymentReference)).toMatchObject({
    status: "succeeded",
    amount: order.totalCents,
  });
  await expect
    .poll(
      async () => (await readOutbox(join(shop.dataDir, "mail"))).filter((m) => m.to.includes(email)).length,
    )
    .toBe(1);
});

test("3-D Secure: Place Order goes to the bank's page and back to the confirmation", async ({
  page,
  stripeShop: { stripe, shop, db },
}) => {
  await withStripeJs(page);
  const { email } = await cartWithProduct(page, db);
  await visit(page, "/checkout");
  await fillShipping(page, email);
  await waitForHydration(page);
  await enterCard(page, "4000 0000 0000 3220");
  await page.getByRole("button", { name: "Review Order" }).click();
  await page.getByRole("button", { name: "Place Order" }).click();

  await page.waitForURL(`${stripe.url}/3ds/**`);
  await page.getByRole("button", { name: "Complete authentication" }).click();
  await page.waitForURL(`${shop.url}/checkout?step=confirmation`);
  await expect(page.getByRole("heading", { name: "Thank you for your order!" })).toBeVisible();
  expect((await orderByEmail(db, email)).status).toBe("paid");
});

test("a declined card goes back to the payment step with the reason", async ({
  page,
  stripeShop: { db },
}) => {
  await withStripeJs(page);
  const { email } = await cartWithProduct(page, db);
  await visit(page, "/checkout");
  await fillShipping(page, email);
  await waitForHydration(page);
  await enterCard(page, "4000 0000 0000 0002");
  await page.getByRole("button", { name: "Review Order" }).click();
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(
    notifications(page).getByText("Your card was declined. Please use a different card.", { exact: true }),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Payment Information" })).toBeVisible();
  expect((await orderByEmail(db, email)).status).toBe("payment_failed");
});

test("without JavaScript: the order is paid on Stripe's hosted Checkout page", async ({
  noJsPage: page,
  stripeShop: { stripe, shop, db },
}) => {
  const { email } = await cartWithProduct(page, db);
  await visit(page, "/checkout", { javaScript: false });
  await fillShipping(page, email);
  await expect(page.getByText("You will enter your card on Stripe's secure payment page")).toBeVisible();
  await page.getByRole("button", { name: "Review Order" }).click();
  await expect(page.getByRole("region", { name: "Review Your Order" })).toContainText(
    "entered on Stripe's secure payment page",
  );
  await page.getByRole("button", { name: "Place Order" }).click();

  await page.waitForURL(`${stripe.url}/checkout/**`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/Name on card/i).fill("Grace Hopper");
  await page.getByLabel(/Card number/i).fill("4242 4242 4242 4242");
  await page.getByLabel(/Expir/i).fill("12 / 34");
  await page.getByLabel(/CVC/i).fill("123");
  await page.getByRole("button", { name: /^Pay / }).click();

  await page.waitForURL(`${shop.url}/checkout?step=confirmation`);
  await expect(page.getByRole("heading", { name: "Thank you for your order!" })).toBeVisible();
  expect(await orderByEmail(db, email)).toMatchObject({
    status: "paid",
    paymentBrand: "Visa",
    paymentLast4: "4242",
  });
});
