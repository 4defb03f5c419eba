import type { Locator, Page } from "@playwright/test";
import { expect, expectNoA11yViolations, test, visit } from "./fixtures.ts";

const MEGA_MENU = {
  Electronics: ["electronics", ["smartphones", "laptops", "tablets", "cameras", "audio"]],
  "Clothing & Fashion": ["clothing", ["men", "women", "kids", "shoes", "accessories"]],
  "Home & Garden": ["home", ["furniture", "kitchen", "bedding", "appliances", "garden"]],
} as const;
const MORE_CATEGORIES = ["beauty", "toys", "sports", "books", "health"];
const FEATURED_BRANDS = ["Kestrel", "Lumen", "Aurora", "Veltro", "Nordhaus", "Solace"];

const capitalize = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** Tabs forward from the top of the page until the element has focus. */
async function tabTo(page: Page, target: Locator, maxTabs = 25) {
  for (let i = 0; i < maxTabs; i++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`not reached with ${maxTabs} presses of Tab`);
}

test.describe("mega menu", () => {
  test("opens with the keyboard, lists categories and brands, closes on Escape", async ({ page }) => {
    await visit(page, "/");
    const categoriesNav = page.getByRole("navigation", { name: "Categories" });
    const toggle = categoriesNav.locator("summary", { hasText: "All Categories" });
    const menu = categoriesNav.locator("details", {
      has: page.locator("summary", { hasText: "All Categories" }),
    });

    await tabTo(page, toggle);
    await expect(toggle).toBeFocused();
    await expect(menu).not.toHaveAttribute("open");

    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("open", "");
    const panel = page.getByTestId("mega-menu");
    await expect(panel).toBeVisible();

    for (const [title, [category, subcategories]] of Object.entries(MEGA_MENU)) {
      await expect(panel.getByText(title, { exact: true })).toBeVisible();
      for (const sub of subcategories) {
        await expect(panel.getByRole("link", { name: capitalize(sub), exact: true })).toHaveAttribute(
          "href",
          `/products?category=${category}&subcategory=${sub}`,
        );
      }
    }
    await expect(panel.getByText("More Categories", { exact: true })).toBeVisible();
    for (const category of MORE_CATEGORIES) {
      await expect(panel.getByRole("link", { name: capitalize(category), exact: true })).toHaveAttribute(
        "href",
        `/products?category=${category}`,
      );
    }

    await expect(menu.getByText("Featured Brands", { exact: true })).toBeVisible();
    const brandLinks = menu
      .getByRole("link")
      .filter({ hasText: new RegExp(`^(${FEATURED_BRANDS.join("|")})$`) });
    await expect(brandLinks).toHaveCount(6);
    for (const brand of FEATURED_BRANDS) {
      await expect(menu.getByRole("link", { name: brand, exact: true })).toHaveAttribute(
        "href",
        `/products?brand=${brand.toLowerCase()}`,
      );
    }
    await expectNoA11yViolations(page, "mega menu open");

    // Into the menu, then Escape: closed, focus back on the toggle.
    await page.keyboard.press("Tab");
    await expect(panel.getByRole("link", { name: "Smartphones" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).not.toHaveAttribute("open");
    await expect(panel).toBeHidden();
    await expect(toggle).toBeFocused();

    // Space toggles it as well.
    await page.keyboard.press("Space");
    await expect(menu).toHaveAttribute("open", "");
    await page.keyboard.press("Space");
    await expect(menu).not.toHaveAttribute("open");
  });

  test("closes on a click outside and after navigating", async ({ page }) => {
    await visit(page, "/");
    const categoriesNav = page.getByRole("navigation", { name: "Categories" });
    const toggle = categoriesNav.locator("summary", { hasText: "All Categories" });
    const menu = categoriesNav.locator("details", {
      has: page.locator("summary", { hasText: "All Categories" }),
    });

    await toggle.click();
    await expect(menu).toHaveAttribute("open", "");
    // The open panel covers the hero; click an empty spot at the bottom right of the viewport.
    const viewport = page.viewportSize()!;
    await page.mouse.click(viewport.width - 4, viewport.height - 4);
    await expect(menu).not.toHaveAttribute("open");

    await toggle.click();
    await menu.getByRole("link", { name: "Laptops" }).click();
    await expect(page).toHaveURL("/products?category=electronics&subcategory=laptops");
    await expect(menu).not.toHaveAttribute("open");
  });
});

test.describe("header search", () => {
  test("submits to /products?search=", async ({ page }) => {
    await visit(page, "/");
    const search = page.getByRole("banner").getByRole("combobox", { name: "Search" });
    await search.fill("laptop");
    await search.press("Enter");
    await expect(page).toHaveURL("/products?search=laptop");
    await expect(page.getByRole("banner").getByRole("combobox", { name: "Search" })).toHaveValue("laptop");
  });
});

test.describe("mobile viewport", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the menu toggle opens and closes the mobile menu", async ({ page }) => {
    await visit(page, "/");
    const toggle = page.getByRole("banner").locator("summary", { hasText: "Menu" });
    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAccessibleName("Menu");
    const menu = page
      .getByRole("banner")
      .locator("details", { has: page.locator("summary", { hasText: "Menu" }) });
    // The desktop category bar and mega menu are hidden on small screens.
    await expect(page.getByRole("navigation", { name: "Categories" })).toBeHidden();

    await toggle.click();
    await expect(menu).toHaveAttribute("open", "");
    await expect(menu.getByRole("link", { name: "Smartphones" })).toBeVisible();
    await expect(menu.getByRole("link", { name: "Smartphones" })).toHaveAttribute(
      "href",
      "/products?category=electronics&subcategory=smartphones",
    );
    await expect(menu.getByRole("link", { name: "Today's Deals" })).toBeVisible();
    await expectNoA11yViolations(page, "mobile menu open");

    await toggle.click();
    await expect(menu).not.toHaveAttribute("open");
    await expect(menu.getByRole("link", { name: "Smartphones" })).toBeHidden();

    // Keyboard: open, then Escape closes and focus returns to the toggle.
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("open", "");
    await page.keyboard.press("Escape");
    await expect(menu).not.toHaveAttribute("open");
    await expect(toggle).toBeFocused();
  });

  test("the mobile search submits to /products?search=", async ({ page }) => {
    await visit(page, "/");
    const search = page.getByRole("banner").getByRole("combobox", { name: "Search" });
    await expect(search).toHaveCount(1);
    await search.fill("headphones");
    await page.getByRole("banner").getByRole("button", { name: "Submit search" }).click();
    await expect(page).toHaveURL("/products?search=headphones");
  });
});
