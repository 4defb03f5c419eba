import type { Locator, Page, Request, Route } from "@playwright/test";
import { expect, expectNoA11yViolations, test, visit } from "./fixtures.ts";
import {
  closeShopDatabase,
  createTestProduct,
  removeTestProducts,
  type TestProduct,
  uniqueTag,
} from "./shop-helpers.ts";

/**
 * Search suggestions as you type (the header's search box, an APG combobox with a listbox popup):
 * from two characters the box suggests products and categories; the arrows move the highlight
 * (aria-activedescendant), Enter follows it or else submits the form, Escape closes the list and
 * then clears the box, a click follows a suggestion or closes the list; a polite live region says
 * how many there are; at 390 px the mobile box does the same. Without JavaScript the form is the
 * plain GET form to /products?search= it always was.
 */

interface SuggestionsBody {
  query: string;
  products: { id: number; name: string; href: string; category: string }[];
  categories: { label: string; href: string }[];
}

const banner = (page: Page) => page.getByRole("banner");
const searchBox = (page: Page) => banner(page).getByRole("combobox", { name: "Search" });
const suggestions = (page: Page) => banner(page).getByRole("listbox", { name: "Search suggestions" });
const status = (page: Page) => banner(page).getByRole("status");
const isSuggestions = (url: string, q?: string) => {
  const u = new URL(url);
  return u.pathname === "/search/suggestions" && (q === undefined || u.searchParams.get("q") === q);
};

const created: TestProduct[] = [];
test.afterEach(async () => {
  await removeTestProducts(...created.splice(0));
});
test.afterAll(async () => {
  await closeShopDatabase();
});

/**
 * Products of the test's own (one per label) whose names start with a word no other product
 * holds, once the suggestions know them (a product written to the database straight away may
 * reach them a moment later, as the search index catches up).
 */
async function suggestibleProducts(
  page: Page,
  ...labels: string[]
): Promise<{ products: TestProduct[]; word: string }> {
  const word = `Qv${uniqueTag()}`;
  const products: TestProduct[] = [];
  for (const label of labels) {
    const name = `${word} ${label}`;
    // createTestProduct returns the name it would have given; the product holds this one
    const product = { ...(await createTestProduct(label, { name })), name };
    created.push(product);
    products.push(product);
  }
  await expect
    .poll(async () => {
      const response = await page.request.get(`/search/suggestions?${new URLSearchParams({ q: word })}`);
      const body = (await response.json()) as SuggestionsBody;
      return body.products.map((p) => p.name).sort();
    })
    .toEqual(products.map((p) => p.name).sort());
  return { products, word };
}

async function suggestibleProduct(
  page: Page,
  label: string,
): Promise<{ product: TestProduct; word: string }> {
  const { products, word } = await suggestibleProducts(page, label);
  return { product: products[0] as TestProduct, word };
}

/** Types `text` into the box and returns the suggestions' answer for it (after the debounce). */
async function typeAndWait(page: Page, box: Locator, text: string, full: string): Promise<SuggestionsBody> {
  const answered = page.waitForResponse((r) => isSuggestions(r.url(), full.trim()));
  await box.pressSequentially(text);
  return (await (await answered).json()) as SuggestionsBody;
}

/** "3 suggestions", "1 suggestion", "No suggestions". */
const countText = (body: SuggestionsBody) => {
  const n = body.products.length + body.categories.length;
  return n === 0 ? "No suggestions" : `${n} ${n === 1 ? "suggestion" : "suggestions"}`;
};

/** Presses ArrowDown until `option` is the box's active descendant. */
async function highlight(box: Locator, option: Locator, max: number) {
  const id = await option.getAttribute("id");
  for (let i = 0; i < max; i++) {
    if ((await box.getAttribute("aria-activedescendant")) === id) break;
    await box.press("ArrowDown");
  }
  await expect(box).toHaveAttribute("aria-activedescendant", id ?? "");
  await expect(option).toHaveAttribute("aria-selected", "true");
}

test.describe("search suggestions with JavaScript", () => {
  test("from two characters the product is suggested, then a category; both groups listed, announced and axe-clean", async ({
    page,
  }) => {
    const { product, word } = await suggestibleProduct(page, "Suggest Lamp");
    const asked: string[] = [];
    page.on("request", (r) => {
      if (isSuggestions(r.url())) asked.push(new URL(r.url()).searchParams.get("q") ?? "");
    });
    await visit(page, "/");
    const box = searchBox(page);
    await expect(box).toHaveAttribute("id", "header-search");
    await expect(box).toHaveAttribute("type", "search");
    await expect(box).toHaveAttribute("placeholder", "Search products, brands and more");
    await expect(box).toHaveAttribute("aria-autocomplete", "list");
    await expect(box).toHaveAttribute("aria-expanded", "false");
    await expect(box).not.toHaveAttribute("aria-activedescendant");
    const listbox = suggestions(page);
    await expect(listbox).toBeHidden();

    // one character asks nothing; the second does, and the product (whose word alone holds them) is listed
    await box.pressSequentially(word.slice(0, 1));
    const two = await typeAndWait(page, box, word.slice(1, 2), word.slice(0, 2));
    expect(asked).toEqual([word.slice(0, 2)]);
    expect(two.products.map((p) => p.name)).toContain(product.name);
    await expect(listbox).toBeVisible();
    await expect(box).toHaveAttribute("aria-expanded", "true");
    await expect(box).toHaveAttribute("aria-controls", (await listbox.getAttribute("id")) ?? "");
    const option = listbox
      .getByRole("group", { name: "Products" })
      .getByRole("option", { name: product.name });
    await expect(option).toBeVisible();
    await expect(option).toHaveAttribute(
      "href",
      two.products.find((p) => p.name === product.name)?.href ?? "",
    );
    await expect(listbox.getByRole("option")).toHaveCount(two.products.length + two.categories.length);
    await expect(status(page)).toHaveText(countText(two));
    // no option is highlighted yet
    await expect(box).not.toHaveAttribute("aria-activedescendant");
    await expect(listbox.locator('[aria-selected="true"]')).toHaveCount(0);

    // a category's name: the Categories group (and whatever products hold the word)
    await box.fill("");
    await expect(listbox).toBeHidden();
    await expect(status(page)).toHaveText("");
    const audio = await typeAndWait(page, box, "audio", "audio");
    expect(audio.categories.map((c) => c.label)).toContain("Electronics › Audio");
    const categories = listbox.getByRole("group", { name: "Categories" }).getByRole("option");
    await expect(categories).toHaveCount(audio.categories.length);
    const category = categories.filter({ hasText: "Electronics › Audio" });
    await expect(category).toBeVisible();
    await expect(category).toHaveAttribute("href", "/products?category=electronics&subcategory=audio");
    await expect(listbox.getByRole("group", { name: "Products" }).getByRole("option")).toHaveCount(
      audio.products.length,
    );
    await expect(status(page)).toHaveText(countText(audio));
    await expectNoA11yViolations(page, "suggestions open");
    await box.press("ArrowDown");
    await expectNoA11yViolations(page, "a suggestion highlighted");
  });

  test("the arrows move the highlight (wrapping) and aria-activedescendant with it; Enter opens the product", async ({
    page,
  }) => {
    const { products, word } = await suggestibleProducts(page, "Arrow Lamp", "Arrow Desk", "Arrow Rug");
    const product = products[1] as TestProduct;
    await visit(page, "/");
    const box = searchBox(page);
    const body = await typeAndWait(page, box, word, word);
    const options = suggestions(page).getByRole("option");
    const count = body.products.length + body.categories.length;
    expect(count).toBe(3);
    await expect(options).toHaveCount(count);
    const ids = await options.evaluateAll((nodes) => nodes.map((node) => node.id));
    expect(new Set(ids).size).toBe(count);

    await box.press("ArrowDown");
    await expect(box).toHaveAttribute("aria-activedescendant", ids[0] ?? "");
    await expect(options.first()).toHaveAttribute("aria-selected", "true");
    await box.press("ArrowUp"); // wraps to the last
    await expect(box).toHaveAttribute("aria-activedescendant", ids.at(-1) ?? "");
    await expect(options.first()).toHaveAttribute("aria-selected", "false");
    await expect(options.last()).toHaveAttribute("aria-selected", "true");
    await box.press("ArrowDown"); // wraps to the first
    await expect(box).toHaveAttribute("aria-activedescendant", ids[0] ?? "");
    await box.press("ArrowDown");
    await expect(box).toHaveAttribute("aria-activedescendant", ids[1] ?? "");
    await box.press("ArrowUp");
    await expect(box).toHaveAttribute("aria-activedescendant", ids[0] ?? "");
    // typing again drops the highlight
    await box.press("End");
    await box.pressSequentially(" ");
    await expect(box).not.toHaveAttribute("aria-activedescendant");

    await highlight(box, suggestions(page).getByRole("option", { name: product.name }), count);
    await box.press("Enter");
    await expect(page).toHaveURL(`/products/${product.slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(product.name);
    await expect(suggestions(page)).toBeHidden();
    await expect(box).toHaveAttribute("aria-expanded", "false");
  });

  test("Escape closes the list, a second Escape clears the box; a click outside closes it, a click on a category follows it", async ({
    page,
  }) => {
    await visit(page, "/");
    const box = searchBox(page);
    const word = "audio";
    const body = await typeAndWait(page, box, word, word);
    await expect(suggestions(page)).toBeVisible();
    await box.press("ArrowDown");
    await box.press("Escape");
    await expect(suggestions(page)).toBeHidden();
    await expect(box).toHaveAttribute("aria-expanded", "false");
    await expect(box).not.toHaveAttribute("aria-activedescendant");
    await expect(box).toHaveValue(word);
    await expect(box).toBeFocused();
    // ArrowDown opens it again, on the first option
    await box.press("ArrowDown");
    await expect(suggestions(page)).toBeVisible();
    await expect(box).toHaveAttribute("aria-activedescendant", /./);
    await box.press("Escape");
    await expect(suggestions(page)).toBeHidden();
    await box.press("Escape");
    await expect(box).toHaveValue("");
    await expect(status(page)).toHaveText("");

    // a click elsewhere on the page closes the list
    await typeAndWait(page, box, word, word);
    await expect(suggestions(page)).toBeVisible();
    await page.getByRole("heading", { name: "Featured Products" }).click();
    await expect(suggestions(page)).toBeHidden();
    await expect(box).toHaveAttribute("aria-expanded", "false");

    // back in the box, ArrowDown shows the same suggestions; a click on a category follows it
    await box.focus();
    await box.press("ArrowDown");
    const category = suggestions(page).getByRole("group", { name: "Categories" }).getByRole("option").first();
    await expect(category).toBeVisible();
    const href = body.categories[0]?.href ?? "";
    await expect(category).toHaveAttribute("href", href);
    await category.click();
    await expect(page).toHaveURL(href);
    await expect(suggestions(page)).toBeHidden();
  });

  test("Enter with no highlight submits the form to /products?search= as before", async ({ page }) => {
    const { product, word } = await suggestibleProduct(page, "Submit Lamp");
    await visit(page, "/");
    const box = searchBox(page);
    await typeAndWait(page, box, word, word);
    await expect(suggestions(page)).toBeVisible();
    await box.press("Enter");
    await expect(page).toHaveURL(`/products?search=${word}`);
    await expect(page.getByRole("main").getByRole("link", { name: product.name }).first()).toBeVisible();
    await expect(suggestions(page)).toBeHidden();
    await expect(box).toHaveValue(word);
  });

  test("nothing found: no list, and the live region says so", async ({ page }) => {
    const text = `zzqx${uniqueTag()}`;
    await visit(page, "/");
    const box = searchBox(page);
    const body = await typeAndWait(page, box, text, text);
    expect(body).toEqual({ query: text, products: [], categories: [] });
    await expect(status(page)).toHaveText("No suggestions");
    await expect(suggestions(page)).toBeHidden();
    await expect(box).toHaveAttribute("aria-expanded", "false");
    await box.press("ArrowDown");
    await expect(box).not.toHaveAttribute("aria-activedescendant");
  });

  test("a newer text aborts the request for an older one, whose answer is never shown", async ({ page }) => {
    const { product, word } = await suggestibleProduct(page, "Stale Lamp");
    await visit(page, "/");
    const box = searchBox(page);
    // the answer for the first two characters is held back until the test lets it go
    let held: Route | undefined;
    const older = word.slice(0, 2);
    await page.route(
      (url) => isSuggestions(url.href, older),
      (route) => {
        held = route;
      },
    );
    const failed = page.waitForEvent("requestfailed", (r: Request) => isSuggestions(r.url(), older));
    const asked = page.waitForRequest((r) => isSuggestions(r.url(), older));
    await box.pressSequentially(older);
    await asked;
    const body = await typeAndWait(page, box, word.slice(2), word);
    expect((await failed).failure()?.errorText).toMatch(/ABORTED/);
    await held?.continue().catch(() => undefined);
    await expect(suggestions(page).getByRole("option")).toHaveCount(
      body.products.length + body.categories.length,
    );
    await expect(suggestions(page).getByRole("option", { name: product.name })).toBeVisible();
    await expect(status(page)).toHaveText(countText(body));
  });

  test("keyboard only: Tab to the box, type, arrows, Enter", async ({ page }) => {
    const { product, word } = await suggestibleProduct(page, "Keyboard Lamp");
    await visit(page, "/");
    const box = searchBox(page);
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press("Tab");
      if (await box.evaluate((node) => node === document.activeElement)) break;
    }
    await expect(box).toBeFocused();
    expect(await box.evaluate((node) => node.matches(":focus-visible"))).toBe(true);
    const answered = page.waitForResponse((r) => isSuggestions(r.url(), word));
    await page.keyboard.type(word);
    const body = (await (await answered).json()) as SuggestionsBody;
    await expect(suggestions(page).getByRole("option")).toHaveCount(
      body.products.length + body.categories.length,
    );
    const option = suggestions(page).getByRole("option", { name: product.name });
    const id = await option.getAttribute("id");
    for (let i = 0; i <= body.products.length; i++) {
      if ((await box.getAttribute("aria-activedescendant")) === id) break;
      await page.keyboard.press("ArrowDown");
    }
    await expect(box).toHaveAttribute("aria-activedescendant", id ?? "");
    // the highlight is drawn, not only coloured
    expect(await option.evaluate((node) => getComputedStyle(node).outlineStyle)).toBe("solid");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(`/products/${product.slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(product.name);
  });
});

test.describe("search suggestions at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the mobile search box suggests the same way; a tap follows a suggestion", async ({ page }) => {
    const { product, word } = await suggestibleProduct(page, "Mobile Lamp");
    await visit(page, "/");
    const box = searchBox(page);
    await expect(box).toHaveAttribute("id", "mobile-search");
    const body = await typeAndWait(page, box, word, word);
    const listbox = suggestions(page);
    await expect(listbox).toBeVisible();
    await expect(listbox.getByRole("option")).toHaveCount(body.products.length + body.categories.length);
    await expect(status(page)).toHaveText(countText(body));
    const bounds = await listbox.boundingBox();
    expect(bounds?.x).toBeGreaterThanOrEqual(0);
    expect((bounds?.x ?? 0) + (bounds?.width ?? 0)).toBeLessThanOrEqual(390);
    await box.press("ArrowDown");
    await expect(box).toHaveAttribute(
      "aria-activedescendant",
      (await listbox.getByRole("option").first().getAttribute("id")) ?? "",
    );
    await expectNoA11yViolations(page, "mobile suggestions open");
    await box.press("Escape");
    await expect(listbox).toBeHidden();
    await box.press("ArrowDown");
    await listbox.getByRole("option", { name: product.name }).click();
    await expect(page).toHaveURL(`/products/${product.slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(product.name);
  });
});

test.describe("search without JavaScript", () => {
  test("the box is the plain search form: typing and submitting lands on the results", async ({
    noJsPage: page,
  }) => {
    const word = `Qv${uniqueTag()}`;
    const name = `${word} NoJs Lamp`;
    const product = { ...(await createTestProduct("NoJs Lamp", { name })), name };
    created.push(product);
    await visit(page, "/", { javaScript: false });
    await expect(banner(page).getByRole("combobox")).toHaveCount(0);
    await expect(banner(page).getByRole("listbox")).toHaveCount(0);
    const box = banner(page).getByRole("searchbox", { name: "Search" });
    await expect(box).toHaveAttribute("placeholder", "Search products, brands and more");
    await box.fill(word);
    await box.press("Enter");
    await expect(page).toHaveURL(`/products?search=${word}`);
    await expect(page.getByRole("main").getByRole("link", { name: product.name }).first()).toBeVisible();
    await expect(banner(page).getByRole("searchbox", { name: "Search" })).toHaveValue(word);
  });
});

test.describe("misspelt searches", () => {
  /** A word of letters only (a word with a digit is taken as typed), 10 letters or more. */
  const letterWord = () =>
    `zorb${uniqueTag()
      .toLowerCase()
      .replace(/\d/g, (d) => String.fromCharCode(97 + Number(d)))}`;

  test("a word one letter off finds the product, says what it matched, and is suggested too", async ({
    page,
    noJsPage,
  }) => {
    const word = letterWord();
    const typo = word.slice(0, 5) + word.slice(6); // one letter dropped
    const name = `${word} Beamer`;
    const product = { ...(await createTestProduct("Beamer", { name })), name };
    created.push(product);
    // without JavaScript: the results page, once the search index holds the new word (the first
    // search after the change starts a build in the server's worker thread, builds a few seconds apart)
    await expect
      .poll(
        async () => {
          await visit(noJsPage, `/products?search=${typo}`, { javaScript: false });
          return noJsPage.getByRole("main").getByRole("link", { name: product.name }).count();
        },
        { timeout: 30_000, intervals: [500, 1_000] },
      )
      .toBeGreaterThan(0);
    await expect(noJsPage.getByTestId("search-corrected")).toHaveText(`Showing close matches: ${word}`);
    await expectNoA11yViolations(noJsPage);
    // with JavaScript: the box suggests it for the misspelt word
    await visit(page, "/");
    const box = searchBox(page);
    await box.click();
    const body = await typeAndWait(page, box, typo, typo);
    expect(body.products.map((p) => p.name)).toEqual([product.name]);
    await expect(suggestions(page).getByRole("option", { name: new RegExp(product.name) })).toBeVisible();
  });
});
