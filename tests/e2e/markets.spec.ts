import type { Locator, Page } from "@playwright/test";
import { createDatabase, type Database } from "../../app/db/database.server.ts";
import { deleteProducts, insertProduct } from "../helpers/catalog.ts";
import {
  addRegionalRate,
  addZone,
  type MarketsSnapshot,
  restoreMarkets,
  setPricesIncludeTax,
  snapshotMarkets,
  takeCountries,
} from "../helpers/markets.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { expect, expectNoA11yViolations, expectNoA11yViolationsWithoutJs, test, visit } from "./fixtures.ts";
import { shopDatabaseUrl, shopMailDir } from "./shop-env.ts";
import { signIn } from "./shop-helpers.ts";

/**
 * Where the shop sells (issue 30), in the browser: the shop enters its prices with tax, Germany is
 * a zone of its own (19 % and 7 % VAT, shipping taxed, DHL by weight), and California has its own
 * 7.25 % in the default zone. A German and a Californian shopper each buy a 2.5 kg lamp ($120.00,
 * standard rate) and two books ($20.00, reduced rate), with and without JavaScript: the cart's
 * estimate, the review, the confirmation, the e-mail, the admin's order page and the invoice agree
 * to the cent.
 *
 * Worked by hand (prices include tax; the tax is extracted per rate, rounded once per rate):
 * - Germany: 3.3 kg → DHL $14.90; 19 % on 120.00 + 14.90 = 134.90 → 21.54; 7 % on 40.00 → 2.62;
 *   total 174.90.
 * - California: shipping free from $50; 7.25 % on 120.00 → 8.11; 7 % on 40.00 → 2.62; total 160.00.
 */

let shopDb: Database | undefined;
const db = () => {
  shopDb ??= createDatabase(shopDatabaseUrl());
  return shopDb;
};
let before: MarketsSnapshot;
const products: number[] = [];
let lampId = 0;
let bookId = 0;

test.beforeAll(async () => {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  lampId = await insertProduct(db(), {
    name: `E2E Markets Lamp ${tag}`,
    slug: `e2e-markets-lamp-${tag}`,
    priceCents: 12_000,
    stock: 50,
  });
  bookId = await insertProduct(db(), {
    name: `E2E Markets Book ${tag}`,
    slug: `e2e-markets-book-${tag}`,
    priceCents: 2_000,
    stock: 50,
    taxClass: "reduced",
  });
  products.push(lampId, bookId);
  await db()
    .updateTable("productVariants")
    .set({ weightGrams: 2_500 })
    .where("productId", "=", lampId)
    .execute();
  await db()
    .updateTable("productVariants")
    .set({ weightGrams: 400 })
    .where("productId", "=", bookId)
    .execute();

  before = await snapshotMarkets(db());
  await setPricesIncludeTax(db(), true);
  await takeCountries(db(), ["DE"]);
  const [home] = before.zoneIds;
  await addRegionalRate(db(), home!, { region: "CA", taxClass: "standard", basisPoints: 725 });
  await addZone(db(), {
    name: "Germany",
    countries: ["DE"],
    taxLabel: "VAT",
    taxShipping: true,
    rates: [
      { taxClass: "standard", basisPoints: 1_900 },
      { taxClass: "reduced", basisPoints: 700 },
    ],
    methods: [
      {
        code: "dhl",
        name: "DHL Parcel",
        rule: "weight",
        bands: [
          { upTo: 2_000, priceCents: 590 },
          { upTo: 31_500, priceCents: 1_490 },
        ],
        daysMin: 2,
        daysMax: 4,
      },
    ],
  });
});

test.afterAll(async () => {
  await restoreMarkets(db(), before);
  await deleteProducts(db(), products);
  await shopDb?.destroy();
  shopDb = undefined;
});

interface Shopper {
  country: string;
  state: string;
  city: string;
  zipCode: string;
  address: string;
  method: RegExp;
  /** what every page shows */
  figures: { shipping: string; taxes: [RegExp, string][]; total: string };
}

const GERMAN: Shopper = {
  country: "Germany",
  state: "Berlin",
  city: "Berlin",
  zipCode: "10115",
  address: "Invalidenstraße 1",
  method: /DHL Parcel/,
  figures: {
    shipping: "$14.90",
    taxes: [
      [/VAT 19%/, "$21.54"],
      [/VAT 7%/, "$2.62"],
    ],
    total: "$174.90",
  },
};

const CALIFORNIAN: Shopper = {
  country: "United States",
  state: "CA",
  city: "Sacramento",
  zipCode: "95814",
  address: "1315 10th Street",
  method: /Standard Shipping/,
  figures: {
    shipping: "Free",
    taxes: [
      [/7\.25%/, "$8.11"],
      [/7%/, "$2.62"],
    ],
    total: "$160.00",
  },
};

async function fillCart(page: Page) {
  for (const [productId, quantity] of [
    [lampId, 1],
    [bookId, 2],
  ] as const) {
    const response = await page.request.post("/cart", {
      form: { intent: "add", productId: String(productId), quantity: String(quantity), redirectTo: "/cart" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
  }
}

/** The figures of a totals list: shipping, each tax row by its label, and the total. */
async function expectFigures(totals: Locator, shopper: Shopper, prefix: "summary" | "checkout") {
  await expect(totals.getByTestId(`${prefix}-shipping`)).toHaveText(shopper.figures.shipping);
  await expect(totals.getByTestId(`${prefix}-total`)).toHaveText(shopper.figures.total);
  for (const [label, amount] of shopper.figures.taxes) {
    const row = totals.locator("div").filter({ hasText: label }).last();
    await expect(row.locator("dd")).toHaveText(amount);
  }
}

async function estimateFor(page: Page, shopper: Shopper) {
  await page.getByText("Change destination").click();
  await page.getByLabel("Country", { exact: true }).selectOption({ label: shopper.country });
  await page.getByLabel("State / Province (optional)").fill(shopper.state);
  await page.getByRole("button", { name: "Update estimate" }).click();
  await expect(page.getByTestId("cart-estimate")).toContainText(shopper.country);
}

async function shippingStep(page: Page, shopper: Shopper, email: string) {
  const labels: [RegExp, string][] = [
    [/^First Name/, "Erika"],
    [/^Last Name/, "Muster"],
    [/^Email/, email],
    [/^Phone/, "+49 30 1234567"],
    [/^Address/, shopper.address],
    [/^City/, shopper.city],
    [/^State \/ Province/, shopper.state],
    [/^ZIP \/ Postal Code/, shopper.zipCode],
  ];
  const main = page.getByRole("main");
  for (const [label, value] of labels) await main.getByLabel(label).fill(value);
  await main.getByLabel(/^Country/).selectOption({ label: shopper.country });
}

async function payAndReview(page: Page) {
  await page.getByLabel(/^Card Number/).fill("4242424242424242");
  await page.getByLabel(/^Cardholder Name/).fill("Erika Muster");
  await page.getByLabel(/^Expiry Date/).fill("12/30");
  await page.getByLabel(/^CVV/).fill("123");
  await page.getByRole("button", { name: "Review Order" }).click();
  await expect(page).toHaveURL("/checkout?step=review");
}

async function expectEmailAndAdmin(page: Page, shopper: Shopper, email: string, number: string) {
  await expect
    .poll(async () => (await readOutbox(shopMailDir())).filter((m) => m.to.includes(email)).length)
    .toBe(1);
  const [message] = (await readOutbox(shopMailDir())).filter((m) => m.to.includes(email));
  expect(message!.text).toContain(`Total: ${shopper.figures.total}`);
  for (const [label, amount] of shopper.figures.taxes) {
    expect(message!.text).toMatch(new RegExp(`${label.source}[^\\n]*: \\${amount}`));
  }

  await page.goto(`/account?redirectTo=${encodeURIComponent(`/admin/orders/${number}`)}`);
  await signIn(page, "admin@cartwheel.example", "cartwheel-admin");
  await page.waitForURL((url) => url.pathname === `/admin/orders/${number}`);
  await expectFigures(page.getByTestId("checkout-totals"), shopper, "checkout");

  // the invoice (numbered when the order was paid) says the same, tax per rate included
  await page.getByRole("link", { name: /^Invoice INV-/ }).click();
  const totals = page.getByTestId("document-totals");
  await expect(totals).toContainText(shopper.figures.total);
  for (const [, amount] of shopper.figures.taxes) await expect(page.getByRole("main")).toContainText(amount);
  await expectNoA11yViolations(page, `the invoice of an order to ${shopper.country}`);
}

for (const shopper of [GERMAN, CALIFORNIAN]) {
  const who = shopper === GERMAN ? "a German shopper" : "a Californian shopper";

  test(`${who} buys with JavaScript: cart, review, confirmation, e-mail and admin agree`, async ({
    page,
    browser,
    baseURL,
  }) => {
    const email = `markets.js.${shopper.zipCode}.${Date.now()}@example.com`;
    await visit(page, "/");
    await fillCart(page);
    await visit(page, "/cart");
    await estimateFor(page, shopper);
    await expectFigures(page.getByTestId("order-summary"), shopper, "summary");
    await expectNoA11yViolations(page, `the cart estimated for ${shopper.country}`);

    await visit(page, "/checkout");
    await shippingStep(page, shopper, email);
    await page.getByRole("radio", { name: shopper.method }).check();
    // the summary beside the form follows the address as it is typed
    await expectFigures(page.getByTestId("checkout-totals").first(), shopper, "checkout");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page).toHaveURL("/checkout?step=payment");
    await payAndReview(page);
    await expectFigures(page.getByTestId("checkout-totals").first(), shopper, "checkout");
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page).toHaveURL("/checkout?step=confirmation");
    await expectFigures(page.getByTestId("checkout-totals").first(), shopper, "checkout");
    await expectNoA11yViolations(page, `the confirmation for ${shopper.country}`);
    const number = (await page.getByTestId("order-number").textContent()) ?? "";

    const context = await browser.newContext({ baseURL });
    try {
      await expectEmailAndAdmin(await context.newPage(), shopper, email, number);
    } finally {
      await context.close();
    }
  });

  test(`${who} buys without JavaScript: the same figures as plain form posts`, async ({
    noJsPage,
    browser,
    baseURL,
  }) => {
    const page = noJsPage;
    const email = `markets.nojs.${shopper.zipCode}.${Date.now()}@example.com`;
    await page.goto("/");
    await fillCart(page);
    await page.goto("/cart");
    await estimateFor(page, shopper);
    await expectFigures(page.getByTestId("order-summary"), shopper, "summary");
    await expectNoA11yViolationsWithoutJs(
      page,
      `the cart estimated for ${shopper.country}, without JavaScript`,
    );

    await page.goto("/checkout");
    await shippingStep(page, shopper, email);
    // without JavaScript the methods offered are the page's destination's: the server answers with
    // the address's own when the one sent is not among them
    const offered = page.getByRole("radio", { name: shopper.method });
    if ((await offered.count()) === 0) {
      await page.getByRole("button", { name: "Continue to Payment" }).click();
      await expect(
        page.getByText(`Choose one of the shipping methods for ${shopper.country}.`),
      ).toBeVisible();
    }
    await offered.check();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page).toHaveURL("/checkout?step=payment");
    await payAndReview(page);
    await expectFigures(page.getByTestId("checkout-totals").first(), shopper, "checkout");
    await page.getByRole("button", { name: "Place Order" }).click();
    await expect(page).toHaveURL("/checkout?step=confirmation");
    await expectFigures(page.getByTestId("checkout-totals").first(), shopper, "checkout");
    const number = (await page.getByTestId("order-number").textContent()) ?? "";

    const context = await browser.newContext({ baseURL });
    try {
      await expectEmailAndAdmin(await context.newPage(), shopper, email, number);
    } finally {
      await context.close();
    }
  });
}
