import type { Page } from "@playwright/test";
import { expect, expectNoA11yViolations, test, visit } from "./fixtures.ts";
import {
  closeShopDatabase,
  createTestProduct,
  register,
  removeTestProducts,
  shopDatabase,
  type TestProduct,
  toast,
  uniqueEmail,
} from "./shop-helpers.ts";

/**
 * Reviews on the product page: sign in to write one, write / edit / delete it with the product's
 * rating and count following, refused fields answered beside them, Helpful once, Report, and
 * markup in a review shown as text (never run). Each test reviews a product of its own.
 */
const main = (page: Page) => page.getByRole("main");
const panel = (page: Page) => page.getByRole("tabpanel", { name: "Reviews" });
const summary = (page: Page) => main(page).locator("a[href='#reviews']");

const products: TestProduct[] = [];
test.afterAll(async () => {
  await removeTestProducts(...products);
  await closeShopDatabase();
});
/** Rated 4.0 from one (historical) review. */
async function product(label: string) {
  const created = await createTestProduct(label, { rating: 4, reviewCount: 1 });
  products.push(created);
  return created;
}

async function openReviews(page: Page, slug: string) {
  await visit(page, `/products/${slug}`);
  await page.getByRole("tab", { name: "Reviews" }).click();
  await expect(panel(page)).toBeVisible();
}

async function fillReview(
  page: Page,
  { stars, title, body }: { stars: number; title: string; body: string },
) {
  const form = panel(page);
  await form.getByRole("radio", { name: stars === 1 ? "1 star" : `${stars} stars`, exact: true }).check();
  await form.getByLabel("Title", { exact: true }).fill(title);
  await form.getByLabel("Review", { exact: true }).fill(body);
}

test.describe("reviews", () => {
  test("write, edit and delete a review; the rating and count follow", async ({ page, browserErrors }) => {
    // the refused form answers 400
    browserErrors.allow(/status of 400 \(Bad Request\)/);
    const lamp = await product("Review Lamp");
    await openReviews(page, lamp.slug);
    await expect(panel(page)).toContainText("Based on 1 review");
    await panel(page).getByRole("link", { name: "Sign in to write a review" }).click();
    await expect(page).toHaveURL(/\/account\?redirectTo=/);
    await page.getByRole("link", { name: "Register" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Rae Viewer");
    await page.getByLabel("Email", { exact: true }).fill(uniqueEmail("review"));
    await page.getByLabel("Password", { exact: true }).fill("review password");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(`/products/${lamp.slug}#reviews`);
    await expect(page.getByRole("tab", { name: "Reviews" })).toHaveAttribute("aria-selected", "true");

    // a refused form: messages beside the fields, what was typed kept
    await panel(page).getByText("Write a Review").click();
    await panel(page)
      .locator("form")
      .first()
      .evaluate((form) => {
        (form as HTMLFormElement).noValidate = true;
      });
    await panel(page).getByLabel("Review", { exact: true }).fill("No stars, no title.");
    await panel(page).getByRole("button", { name: "Submit Review" }).click();
    await expect(panel(page).getByRole("alert")).toHaveText("Please correct the highlighted fields.");
    await expect(panel(page).getByLabel("Title", { exact: true })).toHaveAccessibleDescription(
      "Enter a title for your review.",
    );
    await expect(panel(page).getByText("Choose a rating from 1 to 5 stars.")).toBeVisible();
    await expect(panel(page).getByLabel("Review", { exact: true })).toHaveValue("No stars, no title.");
    await expectNoA11yViolations(page, "review refused");

    await fillReview(page, { stars: 5, title: "Bright and warm", body: "Lights the whole desk." });
    await panel(page).getByRole("button", { name: "Submit Review" }).click();
    await expect(toast(page, "Thank you! Your review has been posted.")).toBeVisible();
    await expect(summary(page)).toHaveText("2 reviews");
    await expect(panel(page)).toContainText("4.5 out of 5");
    const mine = panel(page).getByRole("article").filter({ hasText: "Bright and warm" });
    await expect(mine).toContainText("Rae Viewer");
    await expect(mine).toContainText("Your review");
    await expectNoA11yViolations(page, "review posted");

    // edit: the same review, the count stays
    await panel(page).getByText("Edit Your Review").click();
    await expect(panel(page).getByLabel("Title", { exact: true })).toHaveValue("Bright and warm");
    await fillReview(page, { stars: 1, title: "Flickers", body: "Started flickering after a week." });
    await panel(page).getByRole("button", { name: "Update Review" }).click();
    await expect(toast(page, "Your review has been updated.")).toBeVisible();
    await expect(summary(page)).toHaveText("2 reviews");
    await expect(panel(page)).toContainText("2.5 out of 5");
    await expect(panel(page).getByRole("article")).toHaveCount(1);
    await expect(panel(page).getByRole("article")).toContainText("Flickers");

    await panel(page).getByRole("button", { name: "Delete Review" }).click();
    await expect(toast(page, "Your review has been deleted.")).toBeVisible();
    await expect(summary(page)).toHaveText("1 review");
    await expect(panel(page)).toContainText("4.0 out of 5");
    await expect(panel(page).getByRole("article")).toHaveCount(0);
    await expect(panel(page).getByText("Write a Review")).toBeVisible();
  });

  test("markup in a review is shown as text; Helpful counts once; Report flags it", async ({
    page,
    browser,
  }) => {
    const lamp = await product("Markup Lamp");
    let dialogs = 0;
    page.on("dialog", async (dialog) => {
      dialogs++;
      await dialog.dismiss();
    });
    const title = "<script>alert(1)</script>";
    const body = '<img src=x onerror="alert(2)"> <b>not bold</b>';
    await register(page, {
      name: "<i>Mallory</i>",
      email: uniqueEmail("markup"),
      password: "markup password",
    });
    await openReviews(page, lamp.slug);
    await panel(page).getByText("Write a Review").click();
    await fillReview(page, { stars: 3, title, body });
    await panel(page).getByRole("button", { name: "Submit Review" }).click();
    await expect(toast(page, "Thank you! Your review has been posted.")).toBeVisible();
    const article = panel(page).getByRole("article");
    await expect(article.getByRole("heading", { level: 3 })).toHaveText(title);
    await expect(article).toContainText(body);
    await expect(article).toContainText("<i>Mallory</i>");
    await expect(article.locator("img, b, i, script")).toHaveCount(0);

    // another shopper (a browser of their own) finds it helpful — once — and reports it
    const context = await browser.newContext();
    const other = await context.newPage();
    other.on("dialog", async (dialog) => {
      dialogs++;
      await dialog.dismiss();
    });
    try {
      await register(other, { name: "Helpful Hal", email: uniqueEmail("hal"), password: "hal password" });
      await openReviews(other, lamp.slug);
      const review = panel(other).getByRole("article");
      await expect(review.locator("img, b, i, script")).toHaveCount(0);
      await review.getByRole("button", { name: /^Helpful/ }).click();
      await expect(toast(other, "Thanks for your feedback!")).toBeVisible();
      await expect(review).toContainText("1 person found this helpful.");
      await expect(review).toContainText("You found this helpful.");
      await expect(review.getByRole("button", { name: /^Helpful/ })).toHaveCount(0);
      // a second Helpful (an old page, a replayed post) changes nothing
      const replay = await other.request.post(`/products/${lamp.slug}`, {
        form: { intent: "helpful", reviewId: await reviewIdOf(other) },
        maxRedirects: 0,
      });
      expect(replay.status()).toBe(302);
      await openReviews(other, lamp.slug);
      await expect(panel(other).getByRole("article")).toContainText("1 person found this helpful.");

      await panel(other)
        .getByRole("article")
        .getByRole("button", { name: /^Report/ })
        .click();
      await expect(toast(other, "Thank you. The review has been reported to our moderators.")).toBeVisible();
      await expect(panel(other).getByRole("article")).toContainText("Reported");
      await expectNoA11yViolations(other, "voted and reported");
    } finally {
      await context.close();
    }
    const row = await shopDatabase()
      .selectFrom("reviews")
      .select(["helpfulCount", "reported"])
      .where("productId", "=", lamp.id)
      .executeTakeFirstOrThrow();
    expect([Number(row.helpfulCount), Number(row.reported)]).toEqual([1, 1]);
    expect(dialogs).toBe(0);
  });

  test("without JavaScript: a review is written as a plain form post", async ({ noJsPage: page }) => {
    const lamp = await product("NoJS Review Lamp");
    await visit(page, "/account?mode=register", { javaScript: false });
    await page.getByLabel("Name", { exact: true }).fill("Plain Writer");
    await page.getByLabel("Email", { exact: true }).fill(uniqueEmail("nojs-review"));
    await page.getByLabel("Password", { exact: true }).fill("plain forms");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Account created successfully!")).toBeVisible();

    await visit(page, `/products/${lamp.slug}`, { javaScript: false });
    const reviews = main(page).getByRole("region", { name: "Reviews" });
    await reviews.getByText("Write a Review").click();
    await reviews.getByRole("radio", { name: "4 stars", exact: true }).check();
    await reviews.getByLabel("Title", { exact: true }).fill("Works without scripts");
    await reviews.getByLabel("Review", { exact: true }).fill("Posted as a plain form.");
    await reviews.getByRole("button", { name: "Submit Review" }).click();
    await expect(page.getByText("Thank you! Your review has been posted.")).toBeVisible();
    await expect(reviews.getByRole("article")).toContainText("Works without scripts");
    await expect(main(page).locator("a[href='#reviews']")).toHaveText("2 reviews");
  });
});

/** The id of the (only) review on the page, from its Helpful form. */
async function reviewIdOf(page: Page): Promise<string> {
  return (await panel(page).locator("input[name=reviewId]").first().getAttribute("value")) ?? "";
}
