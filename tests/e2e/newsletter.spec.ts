import type { Locator, Page } from "@playwright/test";
import { expect, expectNoA11yViolations, test, visit } from "./fixtures.ts";

const SUBSCRIBED = "Thanks for subscribing! Watch your inbox for our best deals.";
const ALREADY_SUBSCRIBED = "You're already subscribed to our newsletter.";
const INVALID = "Please enter a valid e-mail address.";

let counter = 0;
/** An address no earlier test (or run) has used. */
function uniqueEmail(tag: string) {
  counter += 1;
  return `e2e-${tag}-${Date.now()}-${process.pid}-${counter}@example.com`;
}

const FORMS = {
  "home page section": (page: Page) => page.getByRole("region", { name: "Subscribe to our newsletter" }),
  footer: (page: Page) => page.getByRole("contentinfo"),
};

const notifications = (page: Page) => page.getByRole("region", { name: "Notifications" });

async function subscribe(scope: Locator, email: string) {
  await scope.getByRole("textbox", { name: "Email address" }).fill(email);
  await scope.getByRole("button", { name: "Subscribe" }).click();
}

for (const [where, formOf] of Object.entries(FORMS)) {
  test.describe(`newsletter in the ${where}`, () => {
    test("subscribes a new address, then reports it as already subscribed", async ({ page }) => {
      await visit(page, "/");
      const form = formOf(page);
      const email = uniqueEmail(where.split(" ")[0]!);

      await subscribe(form, email);
      const success = notifications(page).getByRole("status").filter({ hasText: SUBSCRIBED });
      await expect(success).toBeVisible();
      await expect(success).toHaveAttribute("data-toast-type", "success");
      await expect(page).toHaveURL("/");
      await expect(form.getByRole("textbox", { name: "Email address" })).toHaveValue("");
      await expectNoA11yViolations(page, "success toast shown");

      await subscribe(form, email.toUpperCase());
      const info = notifications(page).getByRole("status").filter({ hasText: ALREADY_SUBSCRIBED });
      await expect(info).toBeVisible();
      await expect(info).toHaveAttribute("data-toast-type", "info");
    });

    test("rejects an invalid address beside the field, without a toast", async ({ page, browserErrors }) => {
      // The action answers 400 with the message.
      browserErrors.allow(/Failed to load resource: the server responded with a status of 400/);
      await visit(page, "/");
      const form = formOf(page);
      const input = form.getByRole("textbox", { name: "Email address" });

      await subscribe(form, "not-an-email");
      await expect(form.getByRole("alert")).toHaveText(INVALID);
      await expect(input).toHaveAttribute("aria-invalid", "true");
      await expect(input).toHaveAccessibleDescription(INVALID);
      await expect(input).toHaveValue("not-an-email");
      await expect(page).toHaveURL("/");
      await expect(notifications(page).getByRole("status")).toHaveCount(0);
      await expect(notifications(page).getByRole("alert")).toHaveCount(0);
    });
  });
}

test.describe("newsletter without JavaScript", () => {
  test("a new address shows the success toast after the redirect, a repeat the info toast", async ({
    noJsPage: page,
  }) => {
    await visit(page, "/", { javaScript: false });
    const email = uniqueEmail("nojs");

    await subscribe(FORMS.footer(page), email);
    await expect(page).toHaveURL("/");
    await expect(notifications(page).getByRole("status")).toHaveText(SUBSCRIBED);
    await expect(FORMS.footer(page).getByRole("textbox", { name: "Email address" })).toHaveValue("");

    await subscribe(FORMS["home page section"](page), email);
    await expect(page).toHaveURL("/");
    await expect(notifications(page).getByRole("status")).toHaveText(ALREADY_SUBSCRIBED);

    // The toast was a one-off: the next page load has none.
    await page.reload();
    await expect(notifications(page).getByRole("status")).toHaveCount(0);
  });

  test("an invalid address shows the /newsletter page with the message", async ({
    noJsPage: page,
    browserErrors,
  }) => {
    browserErrors.allow(/status of 400/);
    await visit(page, "/", { javaScript: false });

    await subscribe(FORMS["home page section"](page), "not-an-email");
    await expect(page).toHaveURL("/newsletter");
    await expect(page.getByRole("heading", { level: 1, name: "Newsletter" })).toBeVisible();
    await expect(page.getByRole("main").getByRole("alert")).toHaveText(INVALID);
    await expect(notifications(page).getByRole("status")).toHaveCount(0);
    // The form there works too.
    const form = page.getByRole("main");
    await subscribe(form, uniqueEmail("nojs-retry"));
    await expect(notifications(page).getByRole("status")).toHaveText(SUBSCRIBED);
  });
});
