import type { Page } from "@playwright/test";
import { expect, expectNoA11yViolations, expectNoA11yViolationsWithoutJs, test } from "./fixtures.ts";
import {
  closeShopDatabase,
  createTestProduct,
  removeTestProducts,
  signIn,
  uniqueTag,
} from "./shop-helpers.ts";

/**
 * Admin → Searches (issue 33): a shopper's search that finds nothing is counted, and the merchant
 * sees it with how often, over the period chosen; a synonym the merchant adds makes the same search
 * find the product at once — with and without JavaScript, axe in each.
 */
const ADMIN = { email: "admin@cartwheel.example", password: "cartwheel-admin" };

async function openSearches(page: Page) {
  await page.goto(`/account?redirectTo=${encodeURIComponent("/admin/searches")}`);
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.waitForURL((url) => url.pathname === "/admin/searches");
  await expect(page.getByRole("heading", { name: "Searches that found nothing", level: 1 })).toBeVisible();
}

test("a search that found nothing is shown to the merchant, twice counted twice, by period", async ({
  page,
  noJsPage,
}) => {
  const term = `zzqx${uniqueTag()}`;
  // a shopper searches twice, without JavaScript, and finds nothing
  for (let i = 0; i < 2; i++) {
    await noJsPage.goto(`/products?search=${term}`);
    await expect(noJsPage.getByRole("heading", { level: 1 })).toBeVisible();
  }
  await openSearches(page);
  // counted just after the answer: the page shows it on a reload
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("listitem").filter({ hasText: term })).toContainText("2 times");
  }).toPass({ timeout: 10_000 });
  await expectNoA11yViolations(page, "Searches that found nothing");
  await page.getByRole("combobox", { name: "Period" }).selectOption("7");
  await page.getByRole("button", { name: "Show" }).click();
  await page.waitForURL((url) => url.searchParams.get("days") === "7");
  await expect(page.getByRole("listitem").filter({ hasText: term })).toBeVisible();

  // without JavaScript: the same page, the period by a plain GET form
  await openSearches(noJsPage);
  await expectNoA11yViolationsWithoutJs(noJsPage, "Searches without JavaScript");
  await noJsPage.getByRole("combobox", { name: "Period" }).selectOption("90");
  await noJsPage.getByRole("button", { name: "Show" }).click();
  await expect(noJsPage).toHaveURL(/days=90/);
  await expect(noJsPage.getByRole("listitem").filter({ hasText: term })).toContainText("2 times");
});

test("a synonym added in the admin makes a search find the product at once, and removed, no more", async ({
  page,
  noJsPage,
  browserErrors,
}) => {
  // a refused form answers 400
  browserErrors.allow(/status of 400 \(Bad Request\)/);
  const tag = uniqueTag();
  const lamp = await createTestProduct("Synonym Lamp");
  // the word only this product's name holds (its tag)
  const own = (lamp.name.split(" ").at(-1) ?? "").toLowerCase();
  const word = `glowy${tag}`;
  try {
    await noJsPage.goto(`/products?search=${word}`);
    await expect(noJsPage.getByRole("link", { name: lamp.name }).first()).toBeHidden();
    await openSearches(page);
    // one word is not a group of synonyms: said beside the field
    await page.getByRole("textbox", { name: "Words that mean the same" }).fill(word);
    await page.getByRole("button", { name: "Add synonyms" }).click();
    await expect(page.getByRole("textbox", { name: "Words that mean the same" })).toHaveAccessibleDescription(
      /Enter 2 to 10 words that mean the same/,
    );
    await expectNoA11yViolations(page, "Searches, a refused synonym");
    await page.getByRole("textbox", { name: "Words that mean the same" }).fill(`${word}, ${own}`);
    await page.getByRole("button", { name: "Add synonyms" }).click();
    await expect(page.getByRole("listitem").filter({ hasText: `${word} · ${own}` })).toBeVisible();
    await expectNoA11yViolations(page, "Searches with synonyms");

    // the shopper's same search now finds it (no JavaScript, no rebuild waited for)
    await noJsPage.goto(`/products?search=${word}`);
    await expect(noJsPage.getByRole("link", { name: lamp.name }).first()).toBeVisible();

    // removed without JavaScript (the page again: the sign-in's toast, which stays without
    // JavaScript, would lie over the button at the window's corner)
    await openSearches(noJsPage);
    await noJsPage.goto("/admin/searches");
    await noJsPage.getByRole("button", { name: `Remove synonyms ${word}, ${own}` }).click();
    await expect(noJsPage.getByRole("listitem").filter({ hasText: `${word} · ` })).toHaveCount(0);
    await expectNoA11yViolationsWithoutJs(noJsPage, "Searches, a synonym removed");
    await noJsPage.goto(`/products?search=${word}`);
    await expect(noJsPage.getByRole("link", { name: lamp.name })).toHaveCount(0);
  } finally {
    await removeTestProducts(lamp).catch(() => undefined);
    await closeShopDatabase();
  }
});
