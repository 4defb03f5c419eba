import type { Page } from "@playwright/test";
import { expect, expectNoA11yViolations, expectNoA11yViolationsWithoutJs, test } from "./fixtures.ts";
import { signIn, uniqueTag } from "./shop-helpers.ts";

/**
 * Admin → Searches (issue 33): a shopper's search that finds nothing is counted, and the merchant
 * sees it with how often, over the period chosen — with and without JavaScript, axe in each.
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
