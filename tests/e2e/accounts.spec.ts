import type { Page } from "@playwright/test";
import { readOutbox } from "../helpers/outbox.ts";
import { expect, expectNoA11yViolations, test, visit } from "./fixtures.ts";
import { closeShopDatabase, createTestProduct, removeTestProducts, shopMailDir } from "./shop-helpers.ts";

/**
 * Accounts in the browser: register, the header's name, sign out, sign in (wrong password
 * first), forgot/reset password with the link from the outbox, the guest cart joining the
 * account, and the same sign-in without JavaScript.
 */
const uniqueEmail = (label: string) =>
  `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

/** A wrong password answers 401, which Chromium logs as a failed resource. */
const WRONG_PASSWORD_STATUS = /status of 401 \(Unauthorized\)/;

const toast = (page: Page, message: string) =>
  page.getByRole("region", { name: "Notifications" }).getByText(message, { exact: true });

async function register(
  page: Page,
  { name, email, password }: { name: string; email: string; password: string },
) {
  await visit(page, "/account");
  await page.getByRole("link", { name: "Register" }).click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
}

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

test.describe("accounts", () => {
  test("register, see the name in the header, sign out, fail then succeed to sign in", async ({
    page,
    browserErrors,
  }) => {
    browserErrors.allow(WRONG_PASSWORD_STATUS);
    const email = uniqueEmail("ada");
    await register(page, { name: "Ada Lovelace", email, password: "correct horse" });
    await expect(toast(page, "Account created successfully!")).toBeVisible();
    const header = page.getByRole("navigation", { name: "Account and cart" });
    await expect(header.getByRole("link", { name: "Ada Lovelace" })).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Orders" }),
    ).toBeVisible();
    await expectNoA11yViolations(page, "account overview");

    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(toast(page, "Successfully logged out!")).toBeVisible();
    await expect(header.getByRole("link", { name: "Account" })).toBeVisible();

    await visit(page, "/account");
    await signIn(page, email, "wrong horse");
    await expect(
      page.getByRole("main").getByRole("alert").getByText("Failed to login. Please check your credentials."),
    ).toBeVisible();
    await signIn(page, email, "correct horse");
    await expect(toast(page, "Successfully logged in!")).toBeVisible();
    await expect(header.getByRole("link", { name: "Ada Lovelace" })).toBeVisible();
  });

  test("a short password is refused with the hint; the register form says the rule", async ({
    page,
    browserErrors,
  }) => {
    browserErrors.allow(/status of 400 \(Bad Request\)/);
    await visit(page, "/account?mode=register");
    await expect(page.getByText("Password must be at least 8 characters.")).toBeVisible();
    // The browser's own minlength check is bypassed to see the server's answer.
    await page
      .locator("form")
      .filter({ has: page.getByLabel("Name", { exact: true }) })
      .evaluate((form) => {
        (form as HTMLFormElement).noValidate = true;
      });
    await page.getByLabel("Name", { exact: true }).fill("Shorty");
    await page.getByLabel("Email", { exact: true }).fill(uniqueEmail("short"));
    await page.getByLabel("Password", { exact: true }).fill("1234567");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(
      page.getByRole("main").getByRole("alert").getByText("Failed to create account. Please try again."),
    ).toBeVisible();
    await expectNoA11yViolations(page, "register refused");
  });

  test("forgot password: the e-mailed link sets a new password once", async ({ page, browserErrors }) => {
    // the second use of the link is refused with 400
    browserErrors.allow(/status of 400 \(Bad Request\)/);
    const email = uniqueEmail("reset");
    await register(page, { name: "Reset Me", email, password: "old password" });
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(toast(page, "Successfully logged out!")).toBeVisible();

    await visit(page, "/account");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
    await page.getByRole("textbox", { name: "Email", exact: true }).fill(email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect(
      page.getByRole("status").getByText(/If an account exists for that e-mail address/),
    ).toBeVisible();
    await expectNoA11yViolations(page, "reset requested");

    let link = "";
    await expect(async () => {
      const mail = (await readOutbox(shopMailDir())).filter((m) => m.to.toLowerCase().includes(email));
      link = mail.at(-1)?.text.match(/https?:\/\/\S+\/reset-password\?token=\S+/)?.[0] ?? "";
      expect(link).not.toBe("");
    }).toPass();
    const path = new URL(link).pathname + new URL(link).search;
    await visit(page, path);
    await page.getByLabel(/^New Password/).fill("new password 1");
    await page.getByLabel(/^Confirm New Password/).fill("new password 1");
    await page.getByRole("button", { name: "Change Password" }).click();
    await expect(
      toast(page, "Your password has been changed. Please sign in with the new password."),
    ).toBeVisible();
    await signIn(page, email, "new password 1");
    await expect(toast(page, "Successfully logged in!")).toBeVisible();

    // the link works once
    await page.getByRole("button", { name: "Sign Out" }).click();
    await visit(page, path);
    await page.getByLabel(/^New Password/).fill("another password");
    await page.getByLabel(/^Confirm New Password/).fill("another password");
    await page.getByRole("button", { name: "Change Password" }).click();
    await expect(
      page
        .getByRole("main")
        .getByRole("alert")
        .getByText(/This reset link is invalid or has expired/),
    ).toBeVisible();
  });

  test("the guest cart joins the account on sign-in", async ({ page }) => {
    const email = uniqueEmail("cart");
    await register(page, { name: "Cart Owner", email, password: "cart password" });
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(toast(page, "Successfully logged out!")).toBeVisible();

    // as a guest, add the first product of the listing
    await visit(page, "/products");
    await page
      .getByRole("button", { name: /^Add to Cart/ })
      .first()
      .click();
    await expect(page.getByTestId("cart-badge")).toContainText("1");

    await visit(page, "/account");
    await signIn(page, email, "cart password");
    await expect(toast(page, "Successfully logged in!")).toBeVisible();
    await expect(page.getByTestId("cart-badge")).toContainText("1");
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page.getByTestId("cart-badge")).toHaveCount(0);
  });

  test("changing the e-mail: the same answer for a taken address, the link to the new one makes the change", async ({
    page,
  }) => {
    const email = uniqueEmail("mover");
    const newEmail = uniqueEmail("moved");
    await register(page, { name: "Mo Ver", email, password: "moving house" });
    await expect(toast(page, "Account created successfully!")).toBeVisible();
    await visit(page, "/account/settings");
    const emailForm = page.getByRole("region", { name: "Email Address" });
    const ask = async (address: string) => {
      await emailForm.getByLabel(/^New Email/).fill(address);
      await emailForm.getByLabel(/^Current Password/).fill("moving house");
      await emailForm.getByRole("button", { name: "Change Email" }).click();
      await expect(emailForm.getByRole("status")).toHaveText(
        `Check your inbox at ${address} and open the link we sent within an hour to confirm the change. Until then, your e-mail address stays as it is.`,
      );
    };
    // the demo administrator's address exists on every local shop
    await ask("admin@cartwheel.example");
    await expectNoA11yViolations(page, "e-mail change asked");
    await ask(newEmail);
    await expect(emailForm.getByText(`Current e-mail address: ${email}`)).toBeVisible();

    let link = "";
    await expect(async () => {
      const mail = (await readOutbox(shopMailDir())).filter((m) => m.to.toLowerCase().includes(newEmail));
      link = mail.at(-1)?.text.match(/https?:\/\/\S+\/account\/confirm-email\?token=\S+/)?.[0] ?? "";
      expect(link).not.toBe("");
    }).toPass();
    await visit(page, new URL(link).pathname + new URL(link).search);
    await page.getByRole("button", { name: "Confirm E-mail Address" }).click();
    await expect(toast(page, "Your e-mail address has been updated.")).toBeVisible();
    await expect(page).toHaveURL("/account/settings");
    await expect(emailForm.getByText(`Current e-mail address: ${newEmail}`)).toBeVisible();
  });

  test("a cart filled while signed in stays with the account, on every device", async ({
    page,
    browser,
    baseURL,
    browserErrors,
  }) => {
    // two browsers, ten pages each checked by axe: slow on a loaded machine
    test.setTimeout(180_000);
    const lamp = await createTestProduct("Account Cart Lamp", { stock: 5 });
    const email = uniqueEmail("owner");
    const cartLine = (p: Page) =>
      p.getByRole("listitem").filter({ has: p.getByRole("heading", { name: lamp.name, exact: true }) });
    const quantity = (p: Page) => cartLine(p).getByRole("spinbutton", { name: `Quantity of ${lamp.name}` });
    const addLamp = async (p: Page) => {
      await visit(p, `/products/${lamp.slug}`);
      await p.getByRole("button", { name: "Add to Cart", exact: true }).click();
      await expect(toast(p, `${lamp.name} added to cart!`)).toBeVisible();
    };
    const phoneContext = await browser.newContext({ baseURL });
    browserErrors.watchContext(phoneContext);
    try {
      await register(page, { name: "Cart Owner", email, password: "cart password" });
      await expect(toast(page, "Account created successfully!")).toBeVisible();
      await addLamp(page);

      await visit(page, "/account");
      await page.getByRole("button", { name: "Sign Out" }).click();
      await expect(toast(page, "Successfully logged out!")).toBeVisible();
      await visit(page, "/cart");
      await expect(page.getByRole("heading", { name: "Your cart is empty" })).toBeVisible();

      await visit(page, "/account");
      await signIn(page, email, "cart password");
      await expect(toast(page, "Successfully logged in!")).toBeVisible();
      await visit(page, "/cart");
      await expect(quantity(page)).toHaveValue("1");

      // another device: a guest cart there joins the account's at sign-in (quantities added)
      const phone = await phoneContext.newPage();
      await addLamp(phone);
      await visit(phone, "/account");
      await signIn(phone, email, "cart password");
      await expect(toast(phone, "Successfully logged in!")).toBeVisible();
      await visit(phone, "/cart");
      await expect(quantity(phone)).toHaveValue("2");
      await visit(page, "/cart");
      await expect(quantity(page)).toHaveValue("2");
    } finally {
      await phoneContext.close();
      await removeTestProducts(lamp);
      await closeShopDatabase();
    }
  });

  test("without JavaScript, a password-reset link sets a new password (the page keeps its token from other sites, not from itself)", async ({
    noJsPage: page,
  }) => {
    const email = uniqueEmail("nojs-reset");
    await visit(page, "/account?mode=register", { javaScript: false });
    await page.getByLabel("Name", { exact: true }).fill("No Script Reset");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("old password");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Account created successfully!")).toBeVisible();
    await page.getByRole("button", { name: "Sign Out" }).click();
    await visit(page, "/forgot-password", { javaScript: false });
    await page.getByRole("textbox", { name: "Email", exact: true }).fill(email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    let link = "";
    await expect(async () => {
      const mail = (await readOutbox(shopMailDir())).filter((m) => m.to.toLowerCase().includes(email));
      link = mail.at(-1)?.text.match(/https?:\/\/\S+\/reset-password\?token=\S+/)?.[0] ?? "";
      expect(link).not.toBe("");
    }).toPass();
    await visit(page, new URL(link).pathname + new URL(link).search, { javaScript: false });
    await page.getByLabel(/^New Password/).fill("new password 2");
    await page.getByLabel(/^Confirm New Password/).fill("new password 2");
    await page.getByRole("button", { name: "Change Password" }).click();
    await expect(
      page.getByText("Your password has been changed. Please sign in with the new password."),
    ).toBeVisible();
    await signIn(page, email, "new password 2");
    await expect(page.getByText("Successfully logged in!")).toBeVisible();
  });

  test("sign in and out without JavaScript", async ({ noJsPage: page, browserErrors }) => {
    browserErrors.allow(WRONG_PASSWORD_STATUS);
    const email = uniqueEmail("nojs");
    await visit(page, "/account?mode=register", { javaScript: false });
    await page.getByLabel("Name", { exact: true }).fill("No Script");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("plain forms");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Account created successfully!")).toBeVisible();
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page.getByText("Successfully logged out!")).toBeVisible();
    await visit(page, "/account", { javaScript: false });
    await signIn(page, email, "wrong password");
    await expect(page.getByText("Failed to login. Please check your credentials.")).toBeVisible();
    await signIn(page, email, "plain forms");
    await expect(page.getByText("Successfully logged in!")).toBeVisible();
  });
});
