import type { Page } from "@playwright/test";
import { expect, expectNoA11yViolations, expectNoA11yViolationsWithoutJs, test, visit } from "./fixtures.ts";
import { closeShopDatabase, shopDatabase, signIn, toast } from "./shop-helpers.ts";

/**
 * Admin → Gift cards in the browser, with JavaScript and without (issue 31): the owner issues a
 * card (a refused amount first, said beside the field), sees its code once, opens the card's page
 * and disables it; a shopper checks its balance by the code. axe runs on each page. (Paying with a
 * card at checkout: gift-card-checkout.spec.ts.)
 */
const ADMIN = { email: "admin@cartwheel.example", password: "cartwheel-admin" };

test.afterAll(async () => {
  await closeShopDatabase();
});

async function signInAsAdmin(page: Page, path: string) {
  await page.goto(`/account?redirectTo=${encodeURIComponent(path)}`);
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.waitForURL((url) => url.pathname === path);
}

for (const javaScript of [true, false]) {
  test(`gift cards: issued with its code shown once, then disabled (${javaScript ? "with" : "without"} JavaScript)`, async ({
    page: jsPage,
    noJsPage,
    browser,
    baseURL,
    browserErrors,
  }) => {
    browserErrors.allow(/status of 400 \(Bad Request\)/);
    const page = javaScript ? jsPage : noJsPage;
    const axe = javaScript ? expectNoA11yViolations : expectNoA11yViolationsWithoutJs;
    const recipient = `gift-${javaScript ? "js" : "nojs"}-${Date.now()}@example.com`;

    await signInAsAdmin(page, "/admin/gift-cards");
    await visit(page, "/admin/gift-cards", { javaScript });
    await expect(page.getByRole("heading", { name: "Gift cards", level: 1 })).toBeVisible();
    await page.getByRole("link", { name: "Issue a gift card" }).click();
    await expect(page.getByRole("heading", { name: "Issue a gift card", level: 1 })).toBeVisible();
    await axe(page, "issue gift card form");

    await page.getByRole("textbox", { name: /^Amount/ }).fill("0.50");
    await page.getByRole("button", { name: "Issue gift card" }).click();
    await expect(page.getByRole("textbox", { name: /^Amount/ })).toHaveAccessibleDescription(
      "Enter an amount from 1.00 to 10000.00.",
    );
    await page.getByRole("textbox", { name: /^Amount/ }).fill("25");
    await page.getByRole("textbox", { name: "Recipient's e-mail" }).fill(recipient);
    await page.getByRole("textbox", { name: "Recipient's name" }).fill("Grace");
    await page.getByRole("textbox", { name: "Message" }).fill("Enjoy!");
    await page.getByRole("button", { name: "Issue gift card" }).click();

    await expect(page.getByRole("heading", { name: "Gift card issued: $25.00" })).toBeVisible();
    const code = (await page.getByTestId("gift-card-code").textContent())?.trim() ?? "";
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){3}$/);
    await expect(page.getByText(`The code was e-mailed to ${recipient}.`)).toBeVisible();
    await axe(page, "gift card issued");

    // a shopper checks what is on it, from another browser
    const shopperContext = await browser.newContext({ baseURL, javaScriptEnabled: javaScript });
    browserErrors.watchContext(shopperContext);
    const shopper = await shopperContext.newPage();
    try {
      await visit(shopper, "/gift-cards/balance", { javaScript });
      await expect(shopper.getByRole("heading", { name: "Gift card balance", level: 1 })).toBeVisible();
      await axe(shopper, "gift card balance form");
      await shopper.getByRole("textbox", { name: "Gift card code" }).fill("ABCD-EFGH-JKLM-NPQR");
      await shopper.getByRole("button", { name: "Check balance" }).click();
      await expect(shopper.getByRole("textbox", { name: "Gift card code" })).toHaveAccessibleDescription(
        "We don't know that gift card code. Please check it and try again.",
      );
      await shopper.getByRole("textbox", { name: "Gift card code" }).fill(code.toLowerCase());
      await shopper.getByRole("button", { name: "Check balance" }).click();
      await expect(shopper.getByTestId("gift-card-balance")).toHaveText("$25.00");
      await expect(shopper.getByText("It does not expire.")).toBeVisible();
      await axe(shopper, "gift card balance");
    } finally {
      await shopperContext.close();
    }

    await page.getByRole("link", { name: "View the card" }).click();
    const last4 = code.slice(-4);
    await expect(page.getByRole("heading", { name: `Gift card ending ${last4}`, level: 1 })).toBeVisible();
    await expect(page.getByTestId("gift-card-balance")).toHaveText("$25.00 of $25.00");
    await expect(page.getByText(code)).toHaveCount(0);
    await axe(page, "gift card page");
    await page.getByRole("button", { name: "Disable gift card" }).click();
    await expect(toast(page, `Gift card ending ${last4} disabled`)).toBeVisible();
    await expect(page.getByText("Disabled: it cannot pay")).toBeVisible();

    const row = await shopDatabase()
      .selectFrom("giftCards")
      .select(["balanceCents", "disabledAt"])
      .where("recipientEmail", "=", recipient)
      .executeTakeFirstOrThrow();
    expect(row.balanceCents).toBe(2_500);
    expect(row.disabledAt).not.toBeNull();
  });
}
