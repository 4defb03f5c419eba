import type { Page } from "@playwright/test";
import { expect, expectNoA11yViolations, expectNoA11yViolationsWithoutJs, test, visit } from "./fixtures.ts";
import {
  closeShopDatabase,
  createTestProduct,
  deliverTestOrder,
  insertTestOrder,
  register,
  removeTestProducts,
  signIn,
  type TestProduct,
  toast,
  userIdOf,
} from "./shop-helpers.ts";

/**
 * Returns within 30 days (issue 19): a guest asks from the tracking page, with and without
 * JavaScript; a signed-in customer from the account's order page; staff approve, receive and
 * refund it. axe on every new screen.
 */
const ADMIN = { email: "admin@cartwheel.example", password: "cartwheel-admin" };
const products: TestProduct[] = [];

test.afterAll(async () => {
  await removeTestProducts(...products);
  await closeShopDatabase();
});

async function askFromTracking(page: Page, number: string, email: string) {
  const main = page.getByRole("main");
  await main.getByLabel(/^Order Number\s*\*?$/).fill(number);
  await main.getByLabel(/^Email\s*\*?$/).fill(email);
  await page.getByRole("button", { name: "Track Order" }).click();
  const form = page.getByRole("region", { name: "Request a return" });
  await expect(form).toBeVisible();
  return form;
}

test("a guest asks for a return from the tracking page; staff approve, receive and refund it", async ({
  page,
}) => {
  const lamp = await createTestProduct("Return Lamp", { stock: 4 });
  products.push(lamp);
  const email = "return.guest@example.com";
  const number = await insertTestOrder(lamp, { quantity: 2, unitPriceCents: 2_000, email, trackable: true });
  await deliverTestOrder(number);

  await visit(page, "/orders/track");
  const form = await askFromTracking(page, number, email);
  await expectNoA11yViolations(page, "return request form");
  await form.getByLabel(/quantity to return/).fill("1");
  await form.getByLabel("Reason for the return").selectOption("Arrived damaged or faulty");
  await form.getByRole("button", { name: "Request return" }).click();
  const requested = page
    .getByRole("region", { name: "Notifications" })
    .getByText(/^Return RT-[0-9A-Z]{10} requested\./);
  await expect(requested).toBeVisible();
  const returnNumber = (await requested.textContent())!.match(/RT-[0-9A-Z]{10}/)![0];

  await page.goto(`/account?redirectTo=${encodeURIComponent("/admin/returns")}`);
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.waitForURL((url) => url.pathname === "/admin/returns");
  await expectNoA11yViolations(page, "returns list");
  await page.getByRole("link", { name: returnNumber }).click();
  await expect(page.getByRole("heading", { name: `Return ${returnNumber}` })).toBeVisible();
  await expectNoA11yViolations(page, "return detail");
  for (const [button, status] of [
    ["Approve return", "Approved — send the items back"],
    ["Mark as received (restock)", "Received — refund on its way"],
    ["Refund the returned items", "Refunded"],
  ] as const) {
    await page.getByRole("button", { name: button }).click();
    await expect(toast(page, `Return ${returnNumber}: ${status}`)).toBeVisible();
  }
  // the order: $20 of $40 refunded (no shipping on this order)
  await page.getByRole("link", { name: number }).click();
  await expect(page.getByText("Partially refunded", { exact: true })).toBeVisible();
  await expect(page.getByText("$20.00 can still be refunded")).toBeVisible();
});

test("without JavaScript, a guest asks for a return the same way", async ({ noJsPage: page }) => {
  const lamp = await createTestProduct("Return Lamp NoJS", { stock: 4 });
  products.push(lamp);
  const email = "return.nojs@example.com";
  const number = await insertTestOrder(lamp, { quantity: 1, unitPriceCents: 2_000, email, trackable: true });
  await deliverTestOrder(number);
  await page.goto("/orders/track");
  const form = await askFromTracking(page, number, email);
  await expectNoA11yViolationsWithoutJs(page, "return request form");
  await form.getByLabel(/quantity to return/).fill("1");
  await form.getByLabel("Reason for the return").selectOption("It doesn't fit");
  await form.getByRole("button", { name: "Request return" }).click();
  await expect(page.getByText(/Return RT-[0-9A-Z]{10} requested\./)).toBeVisible();
});

test("a signed-in customer asks from the account's order page", async ({ page }) => {
  const lamp = await createTestProduct("Return Lamp Account", { stock: 4 });
  products.push(lamp);
  const account = {
    name: "Rita Return",
    email: `rita.${Date.now()}@example.com`,
    password: "return-pass-123",
  };
  await register(page, account);
  const number = await insertTestOrder(lamp, {
    quantity: 1,
    email: account.email,
    userId: await userIdOf(account.email),
  });
  await deliverTestOrder(number);
  await visit(page, `/account/orders/${number}`);
  const form = page.getByRole("region", { name: "Request a return" });
  await expectNoA11yViolations(page, "account return form");
  await form.getByLabel(/quantity to return/).fill("1");
  await form.getByLabel("Reason for the return").selectOption("Changed my mind");
  await form.getByRole("button", { name: "Request return" }).click();
  await expect(
    page.getByRole("region", { name: "Notifications" }).getByText(/^Return RT-[0-9A-Z]{10} requested\./),
  ).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/account/orders/${number}$`));
  // nothing left to return: the form is gone
  await expect(page.getByRole("region", { name: "Request a return" })).toHaveCount(0);
});
