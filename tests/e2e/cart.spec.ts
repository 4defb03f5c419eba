import type { Locator, Page } from "@playwright/test";
import { createDatabase, type Database } from "../../app/db/database.server.ts";
import { deleteProducts, insertProduct } from "../helpers/catalog.ts";
import { expect, test, visit, waitForHydration } from "./fixtures.ts";
import { shopDatabaseUrl } from "./shop-env.ts";

/**
 * The server-side cart: adding from cards and the product page, the cart page's steppers,
 * totals, removal, clearing and the empty state — with JavaScript and without it.
 */

// The demo catalogue (app/db/seed/demo-catalog.ts).
// sold in two colours: added from its page, with the colour chosen there
const HEADPHONES = { name: "Aurora ANC Wireless Headphones", slug: "aurora-anc-headphones" };
// products sold as one variant, added from cards and by posting their id
const CAMERA = { name: "Kestrel 2K Home Security Camera", slug: "kestrel-home-security-camera" };
const SKINCARE = { name: "Solace Radiance Skincare Set", slug: "solace-radiance-skincare-set" };
// on the home page among the Featured Products
const CHAIR = { name: "Nordhaus Oak Lounge Chair", slug: "nordhaus-oak-lounge-chair", stock: 3 };

// The database the e2e server uses (playwright.config.ts gives it the same data directory).
let shopDb: Database | undefined;
function db(): Database {
  shopDb ??= createDatabase(shopDatabaseUrl());
  return shopDb;
}
test.afterAll(async () => {
  await shopDb?.destroy();
  shopDb = undefined;
});

async function productId(slug: string): Promise<number> {
  const row = await db()
    .selectFrom("products")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  return row.id;
}

const notifications = (page: Page) => page.getByRole("region", { name: "Notifications" });
const toast = (page: Page, text: string) => notifications(page).getByText(text, { exact: true });
const badge = (page: Page) => page.getByRole("banner").getByTestId("cart-badge");
const cartLine = (page: Page, name: string) =>
  page
    .getByRole("region", { name: "Items in your cart" })
    .getByRole("listitem")
    .filter({
      has: page.getByRole("heading", { name, exact: true }),
    });
const quantityInput = (line: Locator, name: string) =>
  line.getByRole("spinbutton", { name: `Quantity of ${name}` });
const summary = (page: Page) => page.getByRole("region", { name: "Order Summary" });

/**
 * Opens a page that should greet the shopper with a toast and checks it at once (a toast closes
 * itself after 5 s with JavaScript; axe runs on the final page of every test anyway).
 */
async function visitExpectingToast(page: Page, path: string, text: string) {
  const response = await page.goto(path);
  expect(response?.status(), `HTTP status of ${path}`).toBe(200);
  await expect(toast(page, text)).toBeVisible();
  await waitForHydration(page);
}

/**
 * Adds through the cart's form endpoint with the page's cookies, as a product page would post.
 * The redirect is not followed, so its toast shows on the next page the browser loads.
 */
async function addByPost(page: Page, id: number, quantity = 1) {
  const response = await page.request.post("/cart", {
    form: { intent: "add", productId: String(id), quantity: String(quantity), redirectTo: "/cart" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
}

test.describe("cart", () => {
  test("an empty cart for a new visitor, without a cart cookie", async ({ page, context }) => {
    await visit(page, "/cart");
    await expect(page).toHaveTitle("Shopping Cart | Cartwheel");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    await expect(page.getByRole("heading", { name: "Shopping Cart", level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Your cart is empty" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Start Shopping" })).toHaveAttribute("href", "/products");
    await expect(badge(page)).toHaveCount(0);
    expect((await context.cookies()).map((c) => c.name)).not.toContain("cw_cart");
  });

  test("adds from a home-page card: toast, header badge, and the shopper stays on the page", async ({
    page,
  }) => {
    await visit(page, "/");
    // The oldest of the Featured cards but the chair (whose stock other cart tests change): a
    // featured product another test adds meanwhile (the admin e2e does) takes the first place.
    const featured = page
      .getByRole("region", { name: "Featured Products", exact: true })
      .getByRole("article");
    const candidate = featured
      .filter({ hasNot: page.getByRole("heading", { name: CHAIR.name }) })
      .filter({ has: page.getByRole("button", { name: /^Add to Cart/ }) })
      .last();
    const name = (await candidate.getByRole("heading", { level: 3 }).textContent())?.trim() ?? "";
    expect(name).not.toBe("");
    // Pinned by name: adding to the cart revalidates the page, and the list may change meanwhile.
    const card = featured.filter({ has: page.getByRole("heading", { name, exact: true }) });
    const href = (await card.getByRole("link", { name }).first().getAttribute("href")) ?? "";
    expect(href).toMatch(/^\/products\/[a-z0-9-]+$/);
    await card.getByRole("button", { name: /^Add to Cart/ }).click();
    await expect(toast(page, `${name} added to cart!`)).toBeVisible();
    await expect(page).toHaveURL("/");
    await expect(badge(page)).toHaveText("1 items");

    await card.getByRole("button", { name: /^Add to Cart/ }).click();
    await expect(badge(page)).toHaveText("2 items");

    await page
      .getByRole("banner")
      .getByRole("link", { name: /^Cart\b/ })
      .click();
    await expect(page).toHaveURL("/cart");
    const line = cartLine(page, name);
    await expect(quantityInput(line, name)).toHaveValue("2");
    await expect(line.getByRole("link", { name })).toHaveAttribute("href", href);
    await expect(line.getByRole("img")).toHaveAttribute("alt", /\S/);
  });

  test("steppers on the cart page: + and −, bounded by 1 and the stock", async ({ page }) => {
    await visit(page, "/");
    await addByPost(page, await productId(CHAIR.slug));
    await visit(page, "/cart");
    const line = cartLine(page, CHAIR.name);
    const input = quantityInput(line, CHAIR.name);
    const minus = line.getByRole("button", { name: `Decrease quantity of ${CHAIR.name}` });
    const plus = line.getByRole("button", { name: `Increase quantity of ${CHAIR.name}` });
    await expect(input).toHaveValue("1");
    await expect(minus).toBeDisabled();

    await plus.click();
    await expect(input).toHaveValue("2");
    await expect(toast(page, `${CHAIR.name}: quantity updated to 2.`)).toBeVisible();
    await expect(badge(page)).toHaveText("2 items");
    await expect(minus).toBeEnabled();

    await plus.click();
    await expect(input).toHaveValue("3");
    await expect(plus).toBeDisabled();
    await expect(badge(page)).toHaveText("3 items");
    await expect(summary(page).getByTestId("summary-subtotal")).toHaveText("$1,649.97");

    await minus.click();
    await expect(input).toHaveValue("2");
    await expect(badge(page)).toHaveText("2 items");
    await expect(summary(page).getByTestId("summary-subtotal")).toHaveText("$1,099.98");

    // Typing a quantity and pressing Update
    await input.fill("1");
    await line.getByRole("button", { name: `Update quantity of ${CHAIR.name}` }).click();
    await expect(badge(page)).toHaveText("1 items");
    await expect(minus).toBeDisabled();
  });

  test("adding beyond the stock keeps the maximum and warns", async ({ page }) => {
    await visit(page, "/");
    const id = await productId(CHAIR.slug);
    await addByPost(page, id, 2);
    await visitExpectingToast(page, "/cart", `2 x ${CHAIR.name} added to cart!`);
    await addByPost(page, id, 2);
    await visitExpectingToast(
      page,
      "/cart",
      `Only ${CHAIR.stock} of ${CHAIR.name} available — your cart has the maximum.`,
    );
    await expect(quantityInput(cartLine(page, CHAIR.name), CHAIR.name)).toHaveValue("3");
  });

  test("order summary: totals around the $50 free-shipping threshold, VAT label, coupon, payment labels", async ({
    page,
  }) => {
    const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
    const below = await insertProduct(db(), { name: `E2E Cart Below ${tag}`, priceCents: 4_999, stock: 10 });
    const half = await insertProduct(db(), { name: `E2E Cart Half ${tag}`, priceCents: 2_500, stock: 10 });
    try {
      await visit(page, "/");
      await addByPost(page, below);
      await visit(page, "/cart");
      const totals = summary(page);
      await expect(totals.getByTestId("summary-subtotal")).toHaveText("$49.99");
      await expect(totals.getByTestId("summary-shipping")).toHaveText("$4.99");
      await expect(totals.getByText("Including VAT")).toBeVisible();
      await expect(totals.getByTestId("summary-tax")).toHaveText("$3.50");
      await expect(totals.getByTestId("summary-total")).toHaveText("$58.48");
      await expect(totals).toContainText("Add $0.01 more for free shipping");

      await cartLine(page, `E2E Cart Below ${tag}`)
        .getByRole("button", { name: /^Remove/ })
        .click();
      await expect(page.getByRole("heading", { name: "Your cart is empty" })).toBeVisible();

      await addByPost(page, half);
      await visit(page, "/cart");
      await expect(totals.getByTestId("summary-shipping")).toHaveText("$4.99");
      await cartLine(page, `E2E Cart Half ${tag}`)
        .getByRole("button", { name: `Increase quantity of E2E Cart Half ${tag}` })
        .click();
      await expect(totals.getByTestId("summary-subtotal")).toHaveText("$50.00");
      await expect(totals.getByTestId("summary-shipping")).toHaveText("Free");
      await expect(totals.getByTestId("summary-tax")).toHaveText("$3.50");
      await expect(totals.getByTestId("summary-total")).toHaveText("$53.50");
      await expect(totals).not.toContainText("more for free shipping");

      await expect(totals.getByRole("link", { name: "Proceed to Checkout" })).toHaveAttribute(
        "href",
        "/checkout",
      );
      await expect(page.getByRole("link", { name: "Continue Shopping" })).toHaveAttribute(
        "href",
        "/products",
      );
      await expect(totals.getByRole("list", { name: "We accept" }).getByRole("listitem")).toHaveText([
        "Visa",
        "MasterCard",
        "American Express",
        "PayPal",
      ]);

      await totals.getByRole("textbox", { name: "Coupon code" }).fill("NOSUCHCODE");
      await totals.getByRole("button", { name: "Apply" }).click();
      await expect(toast(page, "This coupon code is not valid.")).toBeVisible();
      await expect(totals.getByTestId("summary-total")).toHaveText("$53.50");
    } finally {
      // Leave the shared catalogue as the seed made it (cart lines go with the products).
      await deleteProducts(db(), [below, half]);
    }
  });

  test("remove one item, then clear the cart", async ({ page }) => {
    await visit(page, "/");
    await addByPost(page, await productId(CAMERA.slug));
    await addByPost(page, await productId(SKINCARE.slug), 2);
    await addByPost(page, await productId(CHAIR.slug));
    await visit(page, "/cart");
    await expect(badge(page)).toHaveText("4 items");

    await cartLine(page, SKINCARE.name)
      .getByRole("button", { name: `Remove ${SKINCARE.name}` })
      .click();
    await expect(toast(page, "Item removed from cart")).toBeVisible();
    await expect(cartLine(page, SKINCARE.name)).toHaveCount(0);
    await expect(badge(page)).toHaveText("2 items");

    await page.getByRole("button", { name: "Clear Cart" }).click();
    await expect(toast(page, "Cart cleared")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Your cart is empty" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Start Shopping" })).toHaveAttribute("href", "/products");
    await expect(badge(page)).toHaveCount(0);
  });

  test("the product page adds the chosen quantity", async ({ page }) => {
    await visit(page, `/products/${HEADPHONES.slug}`);
    const quantity = page.getByRole("spinbutton", { name: "Quantity" });
    await quantity.fill("3");
    await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    await expect(toast(page, `3 x ${HEADPHONES.name} added to cart!`)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/products/${HEADPHONES.slug}\\?variant=\\d+$`));
    await expect(badge(page)).toHaveText("3 items");
  });
});

test.describe("cart without JavaScript", () => {
  test("add from a card, then update, step and remove on the cart page", async ({ noJsPage: page }) => {
    await visit(page, "/products?category=home", { javaScript: false });
    await page
      .getByRole("article")
      .filter({ has: page.getByRole("heading", { name: CAMERA.name }) })
      .getByRole("button", { name: /^Add to Cart/ })
      .click();
    await expect(page).toHaveURL("/products?category=home");
    await expect(toast(page, `${CAMERA.name} added to cart!`)).toBeVisible();
    await expect(badge(page)).toHaveText("1 items");

    await visit(page, "/cart", { javaScript: false });
    const line = cartLine(page, CAMERA.name);
    await quantityInput(line, CAMERA.name).fill("4");
    await line.getByRole("button", { name: `Update quantity of ${CAMERA.name}` }).click();
    await expect(page).toHaveURL("/cart");
    await expect(toast(page, `${CAMERA.name}: quantity updated to 4.`)).toBeVisible();
    await expect(quantityInput(cartLine(page, CAMERA.name), CAMERA.name)).toHaveValue("4");
    await expect(badge(page)).toHaveText("4 items");

    await cartLine(page, CAMERA.name)
      .getByRole("button", { name: `Decrease quantity of ${CAMERA.name}` })
      .click();
    await expect(quantityInput(cartLine(page, CAMERA.name), CAMERA.name)).toHaveValue("3");
    await expect(badge(page)).toHaveText("3 items");

    await cartLine(page, CAMERA.name)
      .getByRole("button", { name: `Remove ${CAMERA.name}` })
      .click();
    await expect(toast(page, "Item removed from cart")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Your cart is empty" })).toBeVisible();
  });
});
