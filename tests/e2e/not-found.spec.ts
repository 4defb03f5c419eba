import { expect, test, visit } from "./fixtures.ts";

test.describe("404 page", () => {
  test.beforeEach(({ browserErrors }) => {
    // Chromium logs the 404 of the document (and of client data requests) as a console error.
    browserErrors.allow(/Failed to load resource: the server responded with a status of 404/);
  });

  test("an unknown path answers 404 with the Page Not Found page", async ({ page }) => {
    await visit(page, "/does-not-exist", { status: 404 });
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Page Not Found");
    await expect(page).toHaveTitle("Page Not Found | Cartwheel");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    await expect(main.getByRole("link", { name: "Go Home" })).toHaveAttribute("href", "/");
    await expect(main.getByRole("link", { name: "Shop Products" })).toHaveAttribute("href", "/products");
    // The shared layout is there too.
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
  });

  test("its search box submits to /products?search=", async ({ page }) => {
    await visit(page, "/does-not-exist", { status: 404 });
    const search = page.getByRole("main").getByRole("combobox", { name: "Search" });
    await search.fill("wireless headphones");
    await search.press("Enter");
    await expect(page).toHaveURL("/products?search=wireless+headphones");
  });

  test("Go Home leads back to the home page", async ({ page }) => {
    await visit(page, "/no/such/page", { status: 404 });
    await page.getByRole("main").getByRole("link", { name: "Go Home" }).click();
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("heading", { name: "Featured Products" })).toBeVisible();
  });

  test("works without JavaScript", async ({ noJsPage: page }) => {
    await visit(page, "/does-not-exist", { status: 404, javaScript: false });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page Not Found");
    await page.getByRole("main").getByRole("searchbox", { name: "Search" }).fill("laptop");
    await page.getByRole("main").getByRole("button", { name: "Submit search" }).click();
    await expect(page).toHaveURL("/products?search=laptop");
  });
});
