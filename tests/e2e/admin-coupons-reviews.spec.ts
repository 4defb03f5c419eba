import type { Browser, Page } from "@playwright/test";
import { saveReview } from "../../app/domain/reviews/write-review.server.ts";
import { insertUser } from "../helpers/account-fixtures.ts";
import { expect, expectNoA11yViolations, test, visit } from "./fixtures.ts";
import {
  closeShopDatabase,
  createTestProduct,
  register,
  removeTestProducts,
  shopDatabase,
  signIn,
  type TestProduct,
  toast,
  uniqueEmail,
  uniqueTag,
} from "./shop-helpers.ts";

/**
 * The admin's coupon and reported-review sections in the browser: Admin → Coupons leads to the
 * promotions with a code (coupons are promotions since migration 0780; creating, editing and
 * disabling one is promotions.spec.ts's); a shopper reports two reviews, the admin keeps one and
 * removes the other, and the product's rating and count follow. axe runs on each new page.
 */
const ADMIN = { email: "admin@cartwheel.example", password: "cartwheel-admin" };

const products: TestProduct[] = [];
test.afterAll(async () => {
  await removeTestProducts(...products);
  await closeShopDatabase();
});

async function signInAsAdmin(page: Page, path: string) {
  await page.goto(`/account?redirectTo=${encodeURIComponent(path)}`);
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.waitForURL((url) => url.pathname === path);
}

/** A shopper of their own (a fresh browser context, signed out). */
async function shopperPage(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

test.describe("admin coupons", () => {
  test("Admin → Coupons is the promotions with a code: the seed's coupons listed, a new one preset", async ({
    page,
  }) => {
    // coupons are promotions with a code (migration 0780): the old addresses lead there
    await signInAsAdmin(page, "/admin/promotions");
    await visit(page, "/admin/coupons");
    await expect(page).toHaveURL(/\/admin\/promotions\?with=code$/);
    await expect(page.getByRole("heading", { name: "Promotions", level: 1 })).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Promotions" }),
    ).toHaveAttribute("aria-current", "page");
    await expect(page.getByText("Showing promotions with a code (coupons).")).toBeVisible();
    // the seed's coupons are listed with their state
    await expect(page.getByRole("row").filter({ hasText: "SUMMER2025" })).toContainText("Ended");
    await expect(page.getByRole("row").filter({ hasText: "WELCOME10" })).toContainText("Active");
    await expectNoA11yViolations(page, "coupon list");

    await visit(page, "/admin/coupons/new");
    await expect(page).toHaveURL(/\/admin\/promotions\/new\?type=order-percent&coupon=1$/);
    await expect(page.getByText("A coupon is a promotion with a code")).toBeVisible();
    await expectNoA11yViolations(page, "new coupon form");
  });
});

test.describe("admin reported reviews", () => {
  test("a shopper reports two reviews; the admin keeps one and removes the other; the rating follows", async ({
    page,
    browser,
  }) => {
    // rated 4.0 from one historical review; two written reviews (1 and 5 stars) → 3.3 from 3
    const lamp = await createTestProduct("Moderated Lamp", { rating: 4, reviewCount: 1 });
    products.push(lamp);
    const tag = uniqueTag();
    const harsh = `Awful <b>lamp</b> ${tag}`;
    const glowing = `Lovely lamp ${tag}`;
    for (const [name, rating, title] of [
      ["Hana Harsh", 1, harsh],
      ["Gil Glowing", 5, glowing],
    ] as const) {
      const userId = await insertUser(shopDatabase(), uniqueEmail("author"), name);
      await saveReview(shopDatabase(), {
        productId: lamp.id,
        user: { id: userId, displayName: name },
        review: { rating, title, body: `<script>alert("${tag}")</script> Said ${name}.` },
      });
    }

    // a shopper reports both
    const shopper = await shopperPage(browser);
    try {
      const other = shopper.page;
      await register(other, {
        name: "Rita Reporter",
        email: uniqueEmail("reporter"),
        password: "report password",
      });
      await visit(other, `/products/${lamp.slug}`);
      await other.getByRole("tab", { name: "Reviews" }).click();
      const panel = other.getByRole("tabpanel", { name: "Reviews" });
      await expect(panel).toContainText("Based on 3 reviews");
      for (const title of [harsh, glowing]) {
        await panel
          .getByRole("article")
          .filter({ hasText: title })
          .getByRole("button", { name: /^Report/ })
          .click();
        await expect(
          toast(other, "Thank you. The review has been reported to our moderators."),
        ).toBeVisible();
        await expect(panel.getByRole("article").filter({ hasText: title })).toContainText("Reported");
      }
    } finally {
      await shopper.context.close();
    }

    await signInAsAdmin(page, "/admin/reviews");
    await visit(page, "/admin/reviews");
    await expect(page.getByRole("heading", { name: "Reported reviews", level: 1 })).toBeVisible();
    const harshCard = page.getByRole("article", { name: harsh });
    await expect(harshCard).toContainText(lamp.name);
    await expect(harshCard).toContainText("Hana Harsh");
    await expect(harshCard).toContainText("1 out of 5");
    await expect(harshCard).toContainText(`<script>alert("${tag}")</script> Said Hana Harsh.`);
    await expect(harshCard.locator("b, script")).toHaveCount(0);
    await expect(harshCard).toContainText("Reports:1");
    await expectNoA11yViolations(page, "reported reviews");

    await page.getByRole("article", { name: glowing }).getByRole("button", { name: /^Keep/ }).click();
    await expect(toast(page, "Review kept: the reports were cleared.")).toBeVisible();
    await expect(page.getByRole("article", { name: glowing })).toHaveCount(0);

    await harshCard.locator("summary", { hasText: "Remove" }).click();
    await expect(harshCard.getByText(`Remove the review “${harsh}” by Hana Harsh?`)).toBeVisible();
    await expectNoA11yViolations(page, "remove question open");
    await harshCard.getByRole("button", { name: "Yes, remove review" }).click();
    await expect(toast(page, "Review removed.")).toBeVisible();
    await expect(page.getByRole("article", { name: harsh })).toHaveCount(0);
    await expectNoA11yViolations(page, "reported reviews after moderation");

    // the product: the kept review stays, the removed one is gone, 4.5 from 2
    await visit(page, `/products/${lamp.slug}`);
    await page.getByRole("tab", { name: "Reviews" }).click();
    const panel = page.getByRole("tabpanel", { name: "Reviews" });
    await expect(panel).toContainText("Based on 2 reviews");
    await expect(panel).toContainText("4.5 out of 5");
    await expect(panel.getByRole("article").filter({ hasText: glowing })).toBeVisible();
    await expect(panel.getByRole("article").filter({ hasText: harsh })).toHaveCount(0);
    const row = await shopDatabase()
      .selectFrom("products")
      .select(["rating", "reviewCount"])
      .where("id", "=", lamp.id)
      .executeTakeFirstOrThrow();
    expect([Number(row.rating), Number(row.reviewCount)]).toEqual([4.5, 2]);

    await visit(page, "/admin/audit");
    await expect(page.getByText(`Kept reported review "${glowing}"`, { exact: false })).toBeVisible();
    await expect(
      page.getByText(`Removed reported review "${harsh}" by Hana Harsh`, { exact: false }),
    ).toBeVisible();
  });
});
