import type { Page } from "@playwright/test";
import { expect, test, visit } from "./fixtures.ts";
import { closeShopDatabase, createTestProduct, removeTestProducts, shopDatabase } from "./shop-helpers.ts";

/**
 * The page cache (decision 010) as a browser without cookies meets it: a page answered from memory
 * hydrates under the CSP (its scripts carry the response's own nonce; the fixture fails a test on
 * any CSP violation), and what another process writes to the database shows on the next request.
 */
test.afterAll(async () => {
  await closeShopDatabase();
});

/**
 * Visits `path` until the answer comes from the cache: tests running in parallel write to the
 * same database (carts, accounts), and any write makes the next request render afresh.
 */
async function visitUntilCached(page: Page, path: string) {
  for (let attempt = 1; ; attempt++) {
    const response = await visit(page, path);
    if (response.headers()["x-cache"] === "HIT" || attempt === 10) return response;
  }
}

test.describe("page cache", () => {
  test("a page answered from memory hydrates and works", async ({ page }) => {
    const again = await visitUntilCached(page, "/help");
    expect(again.headers()["x-cache"]).toBe("HIT");
    expect(again.headers()["cache-control"]).toBe("public, max-age=0, s-maxage=60");
    // client-side navigation needs the hydrated app
    await page.getByRole("link", { name: "Shipping Information" }).first().click();
    await expect(page).toHaveURL(/\/help\/shipping$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Shipping");
  });

  test("a product another process renames shows renamed on the next request", async ({ page }) => {
    const product = await createTestProduct("Lantern");
    try {
      const path = `/products/${product.slug}`;
      const cached = await visitUntilCached(page, path);
      expect(cached.headers()["x-cache"]).toBe("HIT");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(product.name);

      await shopDatabase()
        .updateTable("products")
        .set({ name: `${product.name} Deluxe` })
        .where("id", "=", product.id)
        .execute();
      const after = await visit(page, path);
      expect(after.headers()["x-cache"]).toBe("MISS");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${product.name} Deluxe`);
    } finally {
      await removeTestProducts(product);
    }
  });
});
