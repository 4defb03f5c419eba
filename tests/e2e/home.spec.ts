import type { Locator } from "@playwright/test";
import { expect, test, visit } from "./fixtures.ts";

const CATEGORY_TILES = [
  ["Electronics", "electronics"],
  ["Fashion", "clothing"],
  ["Home", "home"],
  ["Beauty", "beauty"],
  ["Toys", "toys"],
  ["Sports", "sports"],
] as const;

test.describe("home page", () => {
  test("hero, category tiles and sections render", async ({ page }) => {
    await visit(page, "/");
    const main = page.getByRole("main");

    await expect(main.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(main.getByRole("link", { name: "Shop Now", exact: true })).toHaveAttribute(
      "href",
      "/products",
    );
    await expect(main.getByRole("link", { name: "Today's Deals", exact: true })).toBeVisible();

    const categories = main.getByRole("region", { name: "Shop by Category" });
    for (const [label, category] of CATEGORY_TILES) {
      await expect(categories.getByRole("link", { name: label, exact: true })).toHaveAttribute(
        "href",
        `/products?category=${category}`,
      );
    }

    for (const title of ["Featured Products", "New Arrivals", "Best Sellers", "Why Shop With Us"]) {
      await expect(main.getByRole("heading", { name: title, exact: true, level: 2 })).toBeVisible();
    }
    await expect(main.getByRole("heading", { name: "Up to 50% off" })).toBeVisible();
    const why = main.getByRole("region", { name: "Why Shop With Us" });
    await expect(why).toContainText("Returns within 30 days for a full refund.");
  });

  test("every category tile and every category of the mega menu leads to products", async ({ page }) => {
    test.slow(); // eight listings, each checked by axe
    await visit(page, "/");
    const hrefs = async (links: Locator) =>
      links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute("href") ?? ""));
    const tiles = await hrefs(
      page.getByRole("main").getByRole("region", { name: "Shop by Category" }).getByRole("link"),
    );
    expect(tiles).toHaveLength(CATEGORY_TILES.length);
    // the mega menu (closed: its links are read, not shown) names categories and subcategories
    const menu = (await hrefs(page.getByTestId("mega-menu").locator("a"))).filter((href) =>
      /^\/products\?category=[a-z]+$/.test(href),
    );
    expect(menu.length).toBeGreaterThanOrEqual(5);
    for (const href of new Set([...tiles, ...menu])) {
      await visit(page, href);
      await expect(page.getByText(/^Showing [\d,]+ results$/), href).toHaveText(
        /^Showing [1-9][\d,]* results$/,
      );
      await expect(
        page.getByRole("region", { name: "Results" }).getByRole("article").first(),
        href,
      ).toBeVisible();
    }
  });

  test("product sections come from the seeded catalogue", async ({ page }) => {
    await visit(page, "/");
    const main = page.getByRole("main");

    for (const [title, badge] of [
      ["Featured Products", null],
      ["New Arrivals", "NEW"],
      ["Best Sellers", "BEST SELLER"],
    ] as const) {
      const section = main.getByRole("region", { name: title, exact: true });
      const cards = section.getByRole("article");
      await expect(cards).toHaveCount(4);
      for (const card of await cards.all()) {
        await expect(card.getByRole("heading", { level: 3 })).toBeVisible();
        // one variant: added from the card; several: chosen on the product page
        await expect(
          card
            .getByRole("button", { name: /^Add to Cart/ })
            .or(card.getByRole("link", { name: /^Choose Options/ })),
        ).toBeVisible();
        if (badge) await expect(card.getByRole("list", { name: "Badges" })).toContainText(badge);
      }
    }
  });

  test("a product card shows brand, name, price, original price and badges", async ({ page }) => {
    await visit(page, "/");
    for (const title of ["New Arrivals", "Best Sellers"]) {
      const card = page
        .getByRole("region", { name: title, exact: true })
        .getByRole("article")
        .filter({ has: page.getByRole("heading", { name: "Solace Radiance Skincare Set" }) });
      await expect(card).toHaveCount(1);
      await expect(card.getByText("Solace", { exact: true })).toBeVisible();
      await expect(card.getByRole("link", { name: "Solace Radiance Skincare Set" })).toHaveAttribute(
        "href",
        /^\/products\/.+/,
      );
      await expect(card.getByText("$149.99")).toBeVisible();
      // The original price is struck through (<s>) and announced as such.
      await expect(card.locator("s")).toHaveText(/\$199\.99/);
      await expect(card.locator("s")).toContainText("Original price");
      await expect(card.getByRole("list", { name: "Badges" }).getByRole("listitem")).toHaveText([
        "25% OFF",
        "NEW",
        "BEST SELLER",
      ]);
      await expect(card.getByText(/^Rated \d\.\d out of 5$/)).toBeAttached();
      await expect(card.getByRole("img")).toHaveAttribute("alt", /\S/);
    }
  });

  test("footer: columns, contact details and copyright year", async ({ page }) => {
    await visit(page, "/");
    const footer = page.getByRole("contentinfo");

    await expect(footer).toContainText(`© ${new Date().getFullYear()} Cartwheel. All rights reserved.`);
    const shop = footer.getByRole("navigation", { name: "Shop", exact: true });
    await expect(shop.getByRole("heading", { name: "Shop", exact: true })).toBeVisible();
    await expect(shop.getByRole("link", { name: "All Products" })).toHaveAttribute("href", "/products");
    const service = footer.getByRole("navigation", { name: "Customer Service" });
    await expect(service.getByRole("heading", { name: "Customer Service" })).toBeVisible();
    await expect(service.getByRole("link", { name: "Contact Us" })).toHaveAttribute("href", "/contact");

    await expect(footer.getByRole("link", { name: "hello@cartwheel.example" })).toHaveAttribute(
      "href",
      "mailto:hello@cartwheel.example",
    );
    await expect(footer.getByRole("link", { name: /^\+?[\d\s()-]{7,}$/ })).toHaveAttribute(
      "href",
      /^tel:\+?\d+$/,
    );
    await expect(footer).not.toContainText("{phone}");
    await expect(footer).not.toContainText("{email}");
    await expect(footer.getByRole("textbox", { name: "Email address" })).toBeVisible();
    await expect(footer.getByRole("navigation", { name: "Legal" }).getByRole("link")).toHaveCount(4);
  });

  test("head: title, meta description and canonical link", async ({ page, baseURL }) => {
    await visit(page, "/");
    await expect(page).toHaveTitle("Cartwheel");
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /\S{10,}/);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/`);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  });
});
