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
 * The admin's coupon and reported-review sections in the browser: an admin creates a coupon (the
 * form's messages first), a shopper uses it at the cart, the admin disables it and the cart
 * refuses it; a shopper reports two reviews, the admin keeps one and removes the other, and the
 * product's rating and count follow. axe runs on each new page.
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
  test("create a coupon, use it at the cart, disable it and the cart refuses it", async ({
    page,
    browser,
    browserErrors,
  }) => {
    // a refused form answers 400, a code that exists 409
    browserErrors.allow(/status of (400 \(Bad Request\)|409 \(Conflict\))/);
    const code = `E2E${uniqueTag().toUpperCase()}`.slice(0, 20);
    const lamp = await createTestProduct("Coupon Lamp", { priceCents: 4_000, stock: 20 });
    products.push(lamp);

    await signInAsAdmin(page, "/admin/coupons");
    await visit(page, "/admin/coupons");
    await expect(page.getByRole("heading", { name: "Coupons", level: 1 })).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Discounts" }),
    ).toHaveAttribute("aria-current", "page");
    // the seed's coupons are listed with their usage and state
    await expect(page.getByRole("row").filter({ hasText: "SUMMER2025" })).toContainText("Expired");
    await expect(page.getByRole("row").filter({ hasText: "WELCOME10" })).toContainText("Active");

    await page.getByRole("link", { name: "New coupon" }).click();
    await page.waitForURL("**/admin/coupons/new");
    await expectNoA11yViolations(page, "new coupon form");

    // refused: messages beside the fields, what was typed kept
    await page.getByRole("textbox", { name: "Code" }).fill("welcome10");
    await page.getByRole("spinbutton", { name: "Value (percent or $)" }).fill("150");
    await page.getByRole("spinbutton", { name: "Usage limit (optional)" }).fill("0");
    await page.getByRole("button", { name: "Create coupon" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toContainText(
      "Please correct the highlighted fields.",
    );
    await expect(page.getByRole("spinbutton", { name: "Value (percent or $)" })).toHaveAccessibleDescription(
      "Enter a whole percentage from 1 to 100.",
    );
    await expect(
      page.getByRole("spinbutton", { name: "Usage limit (optional)" }),
    ).toHaveAccessibleDescription("Enter a whole number of 1 or more, or leave it empty for no limit.");
    await expectNoA11yViolations(page, "new coupon form with errors");

    // an existing code in another case is refused once the rest is right
    await page.getByRole("spinbutton", { name: "Value (percent or $)" }).fill("25");
    await page.getByRole("spinbutton", { name: "Usage limit (optional)" }).fill("10");
    await page.getByRole("button", { name: "Create coupon" }).click();
    await expect(page.getByRole("textbox", { name: "Code" })).toHaveAccessibleDescription(
      "A coupon with this code already exists.",
    );

    await page.getByRole("textbox", { name: "Code" }).fill(code.toLowerCase());
    await page.getByRole("combobox", { name: "Kind" }).selectOption("fixed");
    await page.getByRole("spinbutton", { name: "Value (percent or $)" }).fill("7.50");
    await page.getByRole("spinbutton", { name: "Minimum subtotal ($)" }).fill("20");
    await page.getByLabel("Valid through (optional)").fill("2099-12-31");
    await page.getByRole("button", { name: "Create coupon" }).click();
    await expect(toast(page, `Coupon ${code} created`)).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/coupons$/);
    const row = page.getByRole("row").filter({ hasText: code });
    await expect(row).toContainText("Fixed amount");
    await expect(row).toContainText("$7.50 off");
    await expect(row).toContainText("Dec 31, 2099");
    await expect(row).toContainText("$20.00");
    await expect(row).toContainText("0 / 10");
    await expect(row).toContainText("Active");
    await expectNoA11yViolations(page, "coupon list");

    // edit page
    await row.getByRole("link", { name: `Edit ${code}` }).click();
    await page.waitForURL(/\/admin\/coupons\/\d+$/);
    await expect(page.getByRole("heading", { name: `Edit coupon ${code}` })).toBeVisible();
    await expect(page.getByRole("spinbutton", { name: "Value (percent or $)" })).toHaveValue("7.50");
    await expect(page.getByLabel("Valid through (optional)")).toHaveValue("2099-12-31");
    await expectNoA11yViolations(page, "coupon edit page");
    await page.getByRole("spinbutton", { name: "Value (percent or $)" }).fill("8");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(toast(page, `Coupon ${code} updated`)).toBeVisible();
    await expect(page.getByRole("spinbutton", { name: "Value (percent or $)" })).toHaveValue("8.00");

    // a shopper uses it at the cart
    const shopper = await shopperPage(browser);
    try {
      const cart = shopper.page;
      await visit(cart, "/");
      const added = await cart.request.post("/cart", {
        form: { intent: "add", productId: String(lamp.id), quantity: "1", redirectTo: "/cart" },
        maxRedirects: 0,
      });
      expect(added.status()).toBe(302);
      await visit(cart, "/cart");
      const summary = cart.getByRole("region", { name: "Order Summary" });
      await summary.getByRole("textbox", { name: "Coupon code" }).fill(code.toLowerCase());
      await summary.getByRole("button", { name: "Apply" }).click();
      await expect(summary.getByTestId("applied-coupon")).toHaveText(`Coupon ${code} applied.`);
      await expect(summary.getByTestId("summary-discount")).toHaveText("−$8.00");

      // the admin disables it: the cart that carries it loses the discount, and it is refused
      // one click only asks; "Keep it active" leaves it as it is
      await page.locator("summary", { hasText: "Disable coupon" }).click();
      await expect(
        page.getByText(`Disable coupon ${code}? Carts that carry it lose the discount`),
      ).toBeVisible();
      await page.getByRole("link", { name: "Keep it active" }).click();
      await expect(page.getByRole("button", { name: "Yes, disable coupon" })).toBeHidden();
      await page.locator("summary", { hasText: "Disable coupon" }).click();
      await page.getByRole("button", { name: "Yes, disable coupon" }).click();
      await expect(toast(page, `Coupon ${code} disabled`)).toBeVisible();
      await visit(page, "/admin/coupons");
      await expect(page.getByRole("row").filter({ hasText: code })).toContainText("Disabled");
      await expect(page.getByRole("button", { name: `Enable ${code}` })).toBeVisible();

      await visit(cart, "/cart");
      await expect(summary.getByTestId("summary-discount")).toHaveCount(0);
      await expect(summary).toContainText(`${code}: This coupon code is not valid.`);
      await summary.getByRole("textbox", { name: "Coupon code" }).fill(code);
      await summary.getByRole("button", { name: "Apply" }).click();
      await expect(toast(cart, "This coupon code is not valid.")).toBeVisible();
      await expect(summary.getByTestId("summary-discount")).toHaveCount(0);
    } finally {
      await shopper.context.close();
    }

    // the audit log has each change
    await visit(page, "/admin/audit");
    await expect(page.getByText(`Created coupon ${code}`)).toBeVisible();
    await expect(page.getByText(`Edited coupon ${code}`)).toBeVisible();
    await expect(page.getByText(`Disabled coupon ${code}`)).toBeVisible();
  });
});

test.describe("admin coupons without JavaScript", () => {
  test("disable and enable are plain form posts; a refused form shows its messages", async ({
    noJsPage: page,
    browserErrors,
  }) => {
    // the refused form answers 400
    browserErrors.allow(/status of 400 \(Bad Request\)/);
    const code = `NOJS${uniqueTag().toUpperCase()}`.slice(0, 20);
    const at = new Date().toISOString();
    await shopDatabase()
      .insertInto("coupons")
      .values({
        code,
        kind: "percent",
        amount: 5,
        minSubtotalCents: 0,
        expiresAt: null,
        usageLimit: 3,
        usedCount: 1,
        active: 1,
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    await page.goto("/account?redirectTo=%2Fadmin%2Fcoupons");
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL("**/admin/coupons");
    const row = page.getByRole("row").filter({ hasText: code });
    await expect(row).toContainText("1 / 3");
    // the confirm step without JavaScript: the toggle opens the question, "Keep it active" reloads
    // the page with it closed, "Yes, disable coupon" posts
    await row.locator("summary", { hasText: `Disable ${code}` }).click();
    await expect(row.getByText(`Disable coupon ${code}?`)).toBeVisible();
    await row.getByRole("link", { name: "Keep it active" }).click();
    await expect(row.getByText(`Disable coupon ${code}?`)).toBeHidden();
    await expect(row).toContainText("Active");
    await row.locator("summary", { hasText: `Disable ${code}` }).click();
    await row.getByRole("button", { name: "Yes, disable coupon" }).click();
    await expect(page.getByText(`Coupon ${code} disabled`)).toBeVisible();
    await expect(row).toContainText("Disabled");
    await row.getByRole("button", { name: `Enable ${code}` }).click();
    await expect(page.getByText(`Coupon ${code} enabled`)).toBeVisible();
    await expect(row).toContainText("Active");

    await visit(page, "/admin/coupons/new", { javaScript: false });
    await page.getByRole("button", { name: "Create coupon" }).click();
    await expect(page.getByRole("textbox", { name: "Code" })).toHaveAccessibleDescription("Enter a code.");
    await expect(page.getByText("Please correct the highlighted fields.")).toBeVisible();
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
