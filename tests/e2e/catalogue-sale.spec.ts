import type { Page } from "@playwright/test";
import { expect, test, visit } from "./fixtures.ts";
import {
  closeShopDatabase,
  createTestProduct,
  removeTestProducts,
  shopDatabase,
  type TestProduct,
  toast,
} from "./shop-helpers.ts";

/**
 * Catalogue promotions shown as sale prices (issue 31, decision 035), in the browser with
 * JavaScript and without: an automatic 25 % off one product of the test's own shows on its card
 * (a search listing) and its page as a sale price with the regular one struck through, and the
 * cart charges exactly that; one that starts a few seconds later shows from its start on the same
 * address, a page kept by the page cache included, nothing else touched.
 */
const products: TestProduct[] = [];
const promotionIds: number[] = [];

test.afterAll(async () => {
  if (promotionIds.length > 0)
    await shopDatabase()
      .updateTable("promotions")
      .set({ active: 0 })
      .where("id", "in", promotionIds)
      .execute();
  await removeTestProducts(...products);
  await closeShopDatabase();
});

/** An automatic percentage off `product` alone, from `startsAt` (null: now). */
async function insertSale(product: TestProduct, basisPoints: number, startsAt: string | null = null) {
  const stamp = new Date().toISOString();
  const row = await shopDatabase()
    .insertInto("promotions")
    .values({
      name: `E2E Sale ${product.slug}`,
      action: JSON.stringify({
        type: "items-percent",
        target: { productIds: [product.id] },
        basisPoints,
        apply: "all",
      }),
      conditions: "[]",
      startsAt,
      createdAt: stamp,
      updatedAt: stamp,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  promotionIds.push(row.id);
}

/** The product page's price (the first line of its price block). */
const pagePrice = (page: Page) => page.getByTestId("product-price").locator("p").first();

for (const javaScript of [true, false]) {
  test(`a catalogue promotion shows on a card and the product page, and the cart charges it (${javaScript ? "with" : "without"} JavaScript)`, async ({
    page: jsPage,
    noJsPage,
  }) => {
    const page = javaScript ? jsPage : noJsPage;
    const product = await createTestProduct(`Sale Lamp ${javaScript ? "js" : "nojs"}`, {
      priceCents: 4_000,
      stock: 20,
    });
    products.push(product);
    await insertSale(product, 2_500);

    // the card: $30.00, $40.00 struck through
    await visit(page, `/products?search=${encodeURIComponent(product.name)}`, { javaScript });
    const card = page.getByRole("article").filter({ hasText: product.name });
    await expect(card).toContainText("Sale price $30.00");
    await expect(card.locator("s")).toHaveText("Original price $40.00");

    // the product page: the same, and what is saved
    await visit(page, `/products/${product.slug}`, { javaScript });
    await expect(pagePrice(page)).toHaveText("Sale price $30.00Original price $40.00");
    await expect(page.getByText("You save $10.00 (25%)")).toBeVisible();
    const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(jsonLd.join("\n")).toContain('"price":"30.00"');

    // the cart: $40.00 less $10.00 — the page's price, to the cent
    await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    await expect(toast(page, `${product.name} added to cart!`)).toBeVisible();
    await visit(page, "/cart", { javaScript });
    await expect(page.getByTestId("summary-subtotal")).toHaveText("$40.00");
    await expect(page.getByTestId("summary-promotion")).toHaveText("−$10.00");
  });
}

test("a sale that starts later shows from its start, a cached page included", async ({ page }) => {
  const product = await createTestProduct("Sale Kettle", { priceCents: 2_000, stock: 5 });
  products.push(product);
  const path = `/products/${product.slug}`;
  const startsAt = new Date(Date.now() + 8_000).toISOString();
  await insertSale(product, 1_000, startsAt);

  // before its start: the regular price, answered from memory on a visit again (no cookies)
  const first = await visit(page, path);
  expect(first.headers()["x-cache"]).not.toBe("HIT");
  await expect(pagePrice(page)).toHaveText("$20.00");
  let cached = false;
  for (let attempt = 0; attempt < 10 && !cached && Date.now() < Date.parse(startsAt) - 1_000; attempt++) {
    cached = (await visit(page, path)).headers()["x-cache"] === "HIT";
  }

  // from its start: the sale price, whatever the cache kept
  await page.waitForTimeout(Math.max(0, Date.parse(startsAt) - Date.now() + 200));
  const after = await visit(page, path);
  expect(after.headers()["x-cache"]).not.toBe("HIT");
  await expect(pagePrice(page)).toHaveText("Sale price $18.00Original price $20.00");
  test.info().annotations.push({ type: "cached before the start", description: String(cached) });
});
