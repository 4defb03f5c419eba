import type { Locator, Page } from "@playwright/test";
import { expect, expectNoA11yViolations, test, visit } from "./fixtures.ts";

/**
 * The listing (/products, /products/deals, /products/new-arrivals) over the demo catalogue of
 * 8 products (app/db/seed/demo-catalog.ts), with JavaScript and without it.
 *
 * Other specs (the cart) insert products of their own for a moment (electronics/audio, brand
 * "Testbrand", under $50, no discount, no flags): exact counts here are taken where those can't
 * appear (a category other than electronics, a demo brand, the deals listing, new arrivals).
 */

const DEMO = {
  smartphone: "Kestrel X12 Smartphone",
  laptop: "Lumen Book Pro 14 Laptop",
  headphones: "Aurora ANC Wireless Headphones",
  watch: "Veltro Classic Leather Watch",
  chair: "Nordhaus Oak Lounge Chair",
  mixer: "Nordhaus Pro Stand Mixer",
  camera: "Kestrel 2K Home Security Camera",
  skincare: "Solace Radiance Skincare Set",
};

const results = (page: Page) => page.getByRole("region", { name: "Results" });
const cards = (page: Page) => results(page).getByRole("article");
const cardNames = (page: Page) => cards(page).getByRole("heading", { level: 3 });
const showing = (page: Page) => page.getByText(/^Showing [\d,]+ results$/);
const filters = (page: Page) => page.getByRole("form", { name: "Filters" });
const chips = (page: Page) => page.getByRole("link", { name: /^Remove filter / });

async function expectNames(page: Page, names: string[]) {
  await expect(cardNames(page)).toHaveText(names, { useInnerText: true });
}

async function expectFirstPrice(page: Page, price: string) {
  // the card's current price (an original price may follow, struck through)
  await expect(
    cards(page).first().locator("p").filter({ hasText: "$" }).first().locator("span").first(),
  ).toHaveText(new RegExp(`^(Sale price )?\\${price}$`));
}

/** The radio/checkbox of a facet, whatever its count says. */
const facet = (scope: Page | Locator, role: "radio" | "checkbox", label: string) =>
  scope.getByRole(role, { name: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(\\d+\\)$`) });

// The fixture runs axe once more on the final page. Interactions leave the page scrolled, and a
// 13 px filter input that then sits just under the sticky header's lower edge is reported by
// axe's target-size rule (the header's links count as its neighbours), a finding of the scroll
// position rather than of the page: check the final page from the top, as every visit() does.
test.afterEach(async ({ page }) => {
  if (!page.isClosed()) await page.evaluate(() => window.scrollTo(0, 0)).catch(() => {});
});

test.describe("browsing", () => {
  test("the mega menu leads to Electronics › Smartphones", async ({ page }) => {
    await visit(page, "/");
    const nav = page.getByRole("navigation", { name: "Categories" });
    await nav.locator("summary", { hasText: "All Categories" }).click();
    await page.getByTestId("mega-menu").getByRole("link", { name: "Smartphones", exact: true }).click();
    await expect(page).toHaveURL("/products?category=electronics&subcategory=smartphones");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Smartphones");
    await expect(showing(page)).toHaveText("Showing 1 results");
    await expectNames(page, [DEMO.smartphone]);
    await expect(chips(page)).toHaveText(["Category: Electronics", "Subcategory: Smartphones"], {
      useInnerText: true,
    });
    await expect(facet(filters(page), "radio", "Electronics")).toBeChecked();
    await expectNoA11yViolations(page, "smartphones");
  });

  test("the header search finds the laptop", async ({ page }) => {
    await visit(page, "/");
    const search = page.getByRole("banner").getByRole("combobox", { name: "Search" });
    await search.fill("laptop");
    await search.press("Enter");
    await expect(page).toHaveURL("/products?search=laptop");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText('Search results for "laptop"');
    // the laptop by name first; the headphones mention "your laptop and phone" in their description
    await expectNames(page, [DEMO.laptop, DEMO.headphones]);
    await expect(showing(page)).toHaveText("Showing 2 results");
    await expect(chips(page)).toHaveText(["Search: laptop"], { useInnerText: true });
    // the search is kept when a filter is chosen
    await facet(filters(page), "radio", "Electronics").check();
    await expect(page).toHaveURL(/[?&]search=laptop(&|$)/);
    await expect(page).toHaveURL(/[?&]category=electronics(&|$)/);
    await expectNames(page, [DEMO.laptop, DEMO.headphones]);
    await page.getByRole("link", { name: "Remove filter Search: laptop" }).click();
    await expect(page).toHaveURL("/products?category=electronics");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Electronics");
  });

  test("search is case-insensitive and matches parts of words in every field", async ({ page }) => {
    // "Smartphone", "Headphones" (and the headphones' description: "… your laptop and phone …")
    await visit(page, "/products?search=PHON");
    await expectNames(page, [DEMO.smartphone, DEMO.headphones]);
    await visit(page, "/products?search=nordhaus+kitchen");
    await expectNames(page, [DEMO.mixer]);
    await visit(page, "/products?search=skincare");
    await expectNames(page, [DEMO.skincare]);
  });

  test("/products/deals and /products/new-arrivals are listings of their own", async ({ page }) => {
    await visit(page, "/products/deals");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Today's Deals");
    // every demo product is discounted (13 to 25 %)
    await expect(showing(page)).toHaveText("Showing 8 results");
    await expect(cards(page)).toHaveCount(8);
    for (const card of await cards(page).all()) await expect(card.getByText(/^\d+% OFF$/)).toBeVisible();

    await visit(page, "/products/new-arrivals");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("New Arrivals");
    await expect(showing(page)).toHaveText("Showing 4 results");
    await expect(cards(page)).toHaveCount(4);
    expect((await cardNames(page).allInnerTexts()).sort()).toEqual(
      [DEMO.laptop, DEMO.watch, DEMO.camera, DEMO.skincare].sort(),
    );
    for (const card of await cards(page).all())
      await expect(card.getByText("NEW", { exact: true })).toBeVisible();

    // filters on them stay on them
    await facet(filters(page), "radio", "Home & Garden").check();
    await expect(page).toHaveURL("/products/new-arrivals?category=home");
    await expectNames(page, [DEMO.camera]);
    // sorted newest first on the deals listing: the skincare set (1 day old) leads
    await visit(page, "/products/deals?sort=newest");
    await expect(cardNames(page).first()).toHaveText(DEMO.skincare);
  });

  test("invalid parameters are normalised, never an error", async ({ page }) => {
    test.slow(); // eight pages, each checked by axe
    await visit(page, "/products?page=0&minPrice=-5&sort=bogus&rating=9");
    await expect(page.getByLabel("Sort by")).toHaveValue("featured");
    await expect(filters(page).getByRole("radio", { name: "4 stars & up" })).toBeChecked();
    await expect(cards(page).first()).toBeVisible();
    for (const path of [
      "/products?category=nope&subcategory=nope&brand=&maxPrice=abc",
      "/products?page=999",
      "/products?search=%27%3B%20drop%20table%20products%3B%20--",
      "/products?search=NEAR(x%20y)%20OR%20*",
      "/products?search=%00",
      `/products?search=${"x".repeat(3000)}`,
      "/products/deals?page=-1&sort=price",
    ]) {
      await visit(page, path);
      await expect(showing(page)).toBeVisible();
    }
  });
});

test.describe("filters (with JavaScript)", () => {
  test("category radio applies at once; clicking it again clears it", async ({ page }) => {
    await visit(page, "/products");
    const home = facet(filters(page), "radio", "Home & Garden");
    await home.check();
    await expect(page).toHaveURL("/products?category=home");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Home & Garden");
    await expect(showing(page)).toHaveText("Showing 3 results");
    // featured first (the chair), then by rating
    await expectNames(page, [DEMO.chair, DEMO.mixer, DEMO.camera]);
    await expect(facet(filters(page), "radio", "Home & Garden")).toBeChecked();

    await facet(filters(page), "radio", "Home & Garden").click();
    await expect(page).toHaveURL("/products");
    await expect(filters(page).getByRole("radio", { name: "All categories" })).toBeChecked();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("All Products");
  });

  test("clicking the selected category again clears it when a subcategory came with it", async ({ page }) => {
    await visit(page, "/products?category=electronics&subcategory=smartphones");
    await expectNames(page, [DEMO.smartphone]);
    await facet(filters(page), "radio", "Electronics").click();
    await expect(page).toHaveURL("/products");
    await expect(filters(page).getByRole("radio", { name: "All categories" })).toBeChecked();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("All Products");
  });

  test("choosing another category drops a subcategory that does not belong to it", async ({ page }) => {
    await visit(page, "/products?category=electronics&subcategory=smartphones");
    await facet(filters(page), "radio", "Beauty").check();
    await expect(page).toHaveURL("/products?category=beauty");
    await expectNames(page, [DEMO.skincare]);
  });

  test("brand checkboxes: brand=kestrel, then a second brand, then a chip removes one", async ({ page }) => {
    await visit(page, "/products");
    await facet(filters(page), "checkbox", "Kestrel").check();
    await expect(page).toHaveURL("/products?brand=kestrel");
    await expect(showing(page)).toHaveText("Showing 2 results");
    await expect(cardNames(page)).toHaveText([DEMO.smartphone, DEMO.camera]);
    await expect(facet(filters(page), "checkbox", "Kestrel")).toBeChecked();

    await facet(filters(page), "checkbox", "Nordhaus").check();
    await expect(page).toHaveURL("/products?brand=kestrel&brand=nordhaus");
    await expect(showing(page)).toHaveText("Showing 4 results");
    // brand counts ignore the brand filter itself
    await expect(filters(page).getByRole("checkbox", { name: "Veltro (1)" })).not.toBeChecked();

    await page.getByRole("link", { name: "Remove filter Brand: kestrel" }).click();
    await expect(page).toHaveURL("/products?brand=nordhaus");
    await expectNames(page, [DEMO.chair, DEMO.mixer]);
    await expect(facet(filters(page), "checkbox", "Kestrel")).not.toBeChecked();
  });

  test("the price sliders work from the keyboard and apply", async ({ page }) => {
    await visit(page, "/products?category=home");
    const max = filters(page).getByRole("slider", { name: "Maximum price" });
    await expect(max).toHaveValue("2000");
    await max.focus();
    await page.keyboard.press("ArrowLeft");
    await expect(page).toHaveURL("/products?category=home&maxPrice=1900");
    await expect(filters(page).getByRole("slider", { name: "Maximum price" })).toHaveValue("1900");
    await expect(chips(page)).toContainText(["Price: $0 – $1,900"]);
    await expect(showing(page)).toHaveText("Showing 3 results");
    // focus stays on the slider, so the keyboard user can go on
    await expect(filters(page).getByRole("slider", { name: "Maximum price" })).toBeFocused();

    await page.keyboard.press("Home");
    await expect(page).toHaveURL("/products?category=home&maxPrice=0");
    await expect(page.getByText("No products found matching your criteria.")).toBeVisible();
    await expect(showing(page)).toHaveText("Showing 0 results");

    await filters(page).getByRole("slider", { name: "Maximum price" }).focus();
    await page.keyboard.press("End");
    await expect(page).toHaveURL("/products?category=home");
    await expect(showing(page)).toHaveText("Showing 3 results");

    // a minimum: $200 and up leaves the chair ($549.99) and the mixer ($329.99)
    const min = filters(page).getByRole("slider", { name: "Minimum price" });
    await min.fill("200");
    await expect(page).toHaveURL("/products?category=home&minPrice=200");
    await expectNames(page, [DEMO.chair, DEMO.mixer]);
    await page.getByRole("link", { name: "Remove filter Price: $200 – any" }).click();
    await expect(page).toHaveURL("/products?category=home");
  });

  test("rating radios filter to a minimum rating", async ({ page }) => {
    await visit(page, "/products/deals");
    await filters(page).getByRole("radio", { name: "4 stars & up" }).check();
    await expect(page).toHaveURL("/products/deals?rating=4");
    // every demo product is rated 4.2 or better
    await expect(showing(page)).toHaveText("Showing 8 results");
    await expect(page.getByRole("link", { name: "Remove filter Rating: 4+ stars" })).toBeVisible();
    await filters(page).getByRole("radio", { name: "Any rating" }).check();
    await expect(page).toHaveURL("/products/deals");
  });

  test("active filter chips each remove their filter; Clear All removes every one", async ({ page }) => {
    await visit(
      page,
      "/products?category=home&brand=nordhaus&brand=kestrel&maxPrice=500&rating=4&sort=price-desc",
    );
    await expect(chips(page)).toHaveText(
      [
        "Category: Home & Garden",
        "Brand: Kestrel",
        "Brand: Nordhaus",
        "Price: $0 – $500",
        "Rating: 4+ stars",
      ],
      { useInnerText: true },
    );
    await expectNames(page, [DEMO.mixer, DEMO.camera]);
    await page.getByRole("link", { name: "Remove filter Price: $0 – $500" }).click();
    await expect(page).toHaveURL(
      "/products?category=home&brand=kestrel&brand=nordhaus&rating=4&sort=price-desc",
    );
    await expectNames(page, [DEMO.chair, DEMO.mixer, DEMO.camera]);
    await page.getByRole("link", { name: "Remove filter Category: Home & Garden" }).click();
    await expect(page).toHaveURL("/products?brand=kestrel&brand=nordhaus&rating=4&sort=price-desc");
    await expect(showing(page)).toHaveText("Showing 4 results");
    await expect(page.getByLabel("Sort by")).toHaveValue("price-desc");
    await page.getByText("Active Filters").locator("..").getByRole("link", { name: "Clear All" }).click();
    await expect(page).toHaveURL("/products");
    await expect(chips(page)).toHaveCount(0);
  });

  test("the sort dropdown orders the results", async ({ page }) => {
    await visit(page, "/products/deals");
    const sort = page.getByLabel("Sort by");
    await expect(sort).toHaveValue("featured");
    await expect(sort.getByRole("option")).toHaveText([
      "Featured",
      "Price: Low to High",
      "Price: High to Low",
      "Top Rated",
      "Newest",
    ]);
    await sort.selectOption({ label: "Price: Low to High" });
    await expect(page).toHaveURL("/products/deals?sort=price-asc");
    await expectFirstPrice(page, "$129.99");
    await expect(cardNames(page).first()).toHaveText(DEMO.camera);

    await page.getByLabel("Sort by").selectOption({ label: "Price: High to Low" });
    await expect(page).toHaveURL("/products/deals?sort=price-desc");
    await expectFirstPrice(page, "$1,299.99");
    await expect(cardNames(page).first()).toHaveText(DEMO.laptop);

    await page.getByLabel("Sort by").selectOption({ label: "Top Rated" });
    await expect(page).toHaveURL("/products/deals?sort=rating");
    await expect(cardNames(page).first()).toHaveText(DEMO.laptop); // 4.8

    await page.getByLabel("Sort by").selectOption({ label: "Newest" });
    await expect(page).toHaveURL("/products/deals?sort=newest");
    await expect(cardNames(page).first()).toHaveText(DEMO.skincare);

    // the sort is kept when filtering, and the filters when sorting
    await facet(filters(page), "radio", "Home & Garden").check();
    await expect(page).toHaveURL("/products/deals?category=home&sort=newest");
    await expectNames(page, [DEMO.camera, DEMO.chair, DEMO.mixer]);
    await page.getByLabel("Sort by").selectOption({ label: "Price: High to Low" });
    await expect(page).toHaveURL("/products/deals?category=home&sort=price-desc");
    await expectFirstPrice(page, "$549.99");
  });

  test("the sort dropdown works from the keyboard and keeps the focus", async ({ page }) => {
    await visit(page, "/products/deals?category=home");
    const sort = page.getByLabel("Sort by");
    await sort.focus();
    await page.keyboard.press("ArrowDown");
    await expect(page).toHaveURL("/products/deals?category=home&sort=price-asc");
    await expectFirstPrice(page, "$129.99");
    await expect(page.getByLabel("Sort by")).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(page).toHaveURL("/products/deals?category=home&sort=price-desc");
    await expectFirstPrice(page, "$549.99");
    await expect(page.getByLabel("Sort by")).toBeFocused();
    // back to Featured: the default is left out of the URL
    await page.getByLabel("Sort by").selectOption({ label: "Featured" });
    await expect(page).toHaveURL("/products/deals?category=home");
  });

  test("a checkbox chosen from the keyboard keeps the focus", async ({ page }) => {
    await visit(page, "/products/deals");
    await facet(filters(page), "checkbox", "Kestrel").focus();
    await page.keyboard.press("Space");
    await expect(page).toHaveURL("/products/deals?brand=kestrel");
    // the chip shows once the page has re-rendered for the new URL
    await expect(page.getByRole("link", { name: "Remove filter Brand: kestrel" })).toBeVisible();
    await expect(facet(filters(page), "checkbox", "Kestrel")).toBeFocused();
    await expect(facet(filters(page), "checkbox", "Kestrel")).toBeChecked();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Space");
    // the next brand down the list (alphabetical: Loomwell, the demo T-shirt's)
    await expect(page).toHaveURL("/products/deals?brand=kestrel&brand=loomwell");
    await expect(page.getByRole("link", { name: "Remove filter Brand: Loomwell" })).toBeVisible();
    await expect(facet(filters(page), "checkbox", "Loomwell")).toBeFocused();
    await expect(facet(filters(page), "checkbox", "Loomwell")).toBeChecked();
  });

  test("on /products too: Price: Low to High starts at $129.99, High to Low at $1,299.99", async ({
    page,
  }) => {
    // the demo brands only (another spec may add a cheaper product of its own for a moment)
    await visit(page, "/products?brand=kestrel&brand=lumen&brand=aurora");
    await page.getByLabel("Sort by").selectOption({ label: "Price: Low to High" });
    await expect(page).toHaveURL(/[?&]sort=price-asc(&|$)/);
    await expectFirstPrice(page, "$129.99");
    await page.getByLabel("Sort by").selectOption({ label: "Price: High to Low" });
    await expect(page).toHaveURL(/[?&]sort=price-desc(&|$)/);
    await expectFirstPrice(page, "$1,299.99");
  });

  test("empty state with Clear Filters", async ({ page }) => {
    await visit(page, "/products?search=zzzz-no-such-thing&category=beauty");
    await expect(page.getByText("No products found matching your criteria.")).toBeVisible();
    await expect(showing(page)).toHaveText("Showing 0 results");
    await expect(cards(page)).toHaveCount(0);
    await page.getByRole("link", { name: "Clear Filters" }).click();
    await expect(page).toHaveURL("/products");
    await expect(cards(page).first()).toBeVisible();
    await expect(chips(page)).toHaveCount(0);
  });

  test("the back button returns to the previous filters", async ({ page }) => {
    await visit(page, "/products");
    await facet(filters(page), "radio", "Beauty").check();
    await expect(page).toHaveURL("/products?category=beauty");
    await facet(filters(page), "checkbox", "Solace").check();
    await expect(page).toHaveURL("/products?category=beauty&brand=solace");
    await page.goBack();
    await expect(page).toHaveURL("/products?category=beauty");
    await expect(facet(filters(page), "checkbox", "Solace")).not.toBeChecked();
    await expect(facet(filters(page), "radio", "Beauty")).toBeChecked();
  });
});

test.describe("without JavaScript", () => {
  test("filters submit with Apply Filters, sorting with the Sort button", async ({ noJsPage: page }) => {
    await visit(page, "/products", { javaScript: false });
    await facet(filters(page), "radio", "Home & Garden").check();
    await facet(filters(page), "checkbox", "Nordhaus").check();
    await filters(page).getByRole("button", { name: "Apply Filters" }).click();
    await expect(page).toHaveURL(/\/products\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get("category")).toBe("home");
    expect(url.searchParams.getAll("brand")).toEqual(["nordhaus"]);
    await expect(showing(page)).toHaveText("Showing 2 results");
    await expectNames(page, [DEMO.chair, DEMO.mixer]);
    await expect(facet(filters(page), "radio", "Home & Garden")).toBeChecked();
    await expect(facet(filters(page), "checkbox", "Nordhaus")).toBeChecked();

    // the sort form has its own submit button (in <noscript>)
    await page.getByLabel("Sort by").selectOption({ label: "Price: Low to High" });
    await page.getByRole("button", { name: "Sort", exact: true }).click();
    await expect(page).toHaveURL(/sort=price-asc/);
    const sorted = new URL(page.url());
    expect(sorted.searchParams.get("category")).toBe("home");
    expect(sorted.searchParams.getAll("brand")).toEqual(["nordhaus"]);
    await expectNames(page, [DEMO.mixer, DEMO.chair]);
    await expectFirstPrice(page, "$329.99");
    await expect(page.getByLabel("Sort by")).toHaveValue("price-asc");

    // a price bound and a rating through the same form; the sort is kept
    await filters(page).getByRole("slider", { name: "Minimum price" }).fill("400");
    await filters(page).getByRole("radio", { name: "4 stars & up" }).check();
    await filters(page).getByRole("button", { name: "Apply Filters" }).click();
    await expect(page).toHaveURL(/minPrice=400/);
    expect(new URL(page.url()).searchParams.get("sort")).toBe("price-asc");
    await expectNames(page, [DEMO.chair]);

    // chips are plain links
    await page.getByRole("link", { name: "Remove filter Brand: nordhaus" }).click();
    await expect(page).toHaveURL("/products?category=home&minPrice=400&rating=4&sort=price-asc");
    await expectNames(page, [DEMO.chair]);
    await page.getByRole("link", { name: "Remove filter Category: Home & Garden" }).click();
    await expect(page).toHaveURL("/products?minPrice=400&rating=4&sort=price-asc");
    await expect(cardNames(page)).toHaveText([DEMO.chair, DEMO.smartphone, DEMO.laptop]);
  });

  test("the empty state and header search work without JavaScript", async ({ noJsPage: page }) => {
    await visit(page, "/products?search=nothing-matches-this", { javaScript: false });
    await expect(page.getByText("No products found matching your criteria.")).toBeVisible();
    await page.getByRole("link", { name: "Clear Filters" }).click();
    await expect(page).toHaveURL("/products");
    const search = page.getByRole("banner").getByRole("searchbox", { name: "Search" });
    await search.fill("laptop");
    await search.press("Enter");
    await expect(page).toHaveURL("/products?search=laptop");
    await expect(cardNames(page).first()).toHaveText(DEMO.laptop);
  });
});

test.describe("mobile viewport", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("filters are collapsed; Show Filters expands them, Hide Filters collapses them", async ({ page }) => {
    await visit(page, "/products/deals");
    const show = page.getByText("Show Filters", { exact: true });
    const hide = page.getByText("Hide Filters", { exact: true });
    const apply = page.getByRole("button", { name: "Apply Filters" });
    await expect(show).toBeVisible();
    await expect(hide).toBeHidden();
    await expect(apply).toBeHidden();
    await expect(cards(page).first()).toBeVisible();

    await show.click();
    await expect(hide).toBeVisible();
    await expect(show).toBeHidden();
    await expect(apply).toBeVisible();
    await expect(facet(filters(page), "radio", "Beauty")).toBeVisible();
    await expectNoA11yViolations(page, "mobile filters open");

    await hide.click();
    await expect(show).toBeVisible();
    await expect(hide).toBeHidden();
    await expect(apply).toBeHidden();
    await expect(facet(filters(page), "radio", "Beauty")).toBeHidden();

    // a filter chosen on a phone applies
    await show.click();
    await facet(filters(page), "radio", "Beauty").check();
    await expect(page).toHaveURL("/products/deals?category=beauty");
    await expectNames(page, [DEMO.skincare]);
  });

  test("without JavaScript the filters open and Apply Filters submits", async ({ browser, baseURL }) => {
    const context = await browser.newContext({
      baseURL,
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    try {
      const page = await context.newPage();
      await visit(page, "/products/deals", { javaScript: false });
      // collapsed by CSS; the toggle is a checkbox, so it opens without JavaScript too
      await page.getByText("Show Filters", { exact: true }).click();
      await expect(page.getByText("Hide Filters", { exact: true })).toBeVisible();
      await facet(filters(page), "radio", "Beauty").check();
      await page.getByRole("button", { name: "Apply Filters" }).click();
      await expect(page).toHaveURL(/\/products\/deals\?category=beauty/);
      await expectNames(page, [DEMO.skincare]);
    } finally {
      await context.close();
    }
  });
});
