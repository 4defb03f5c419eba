import type { Page } from "@playwright/test";
import { expect, test, visit, waitForHydration } from "./fixtures.ts";
import {
  closeShopDatabase,
  createTestProduct,
  removeTestProducts,
  type TestProduct,
} from "./shop-helpers.ts";

const SUBSCRIBED = "Thanks for subscribing! Watch your inbox for our best deals.";

/** Shows a toast the way a shopper does: subscribing to the newsletter from the footer. */
async function showToast(page: Page, beforeSubmit?: () => Promise<unknown>) {
  await visit(page, "/");
  await beforeSubmit?.();
  const footer = page.getByRole("contentinfo");
  await footer
    .getByRole("textbox", { name: "Email address" })
    .fill(`e2e-toast-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`);
  await footer.getByRole("button", { name: "Subscribe" }).click();
  const toast = page
    .getByRole("region", { name: "Notifications" })
    .getByRole("status")
    .filter({ hasText: SUBSCRIBED });
  await expect(toast).toBeVisible();
  return toast;
}

async function expectBottomRight(page: Page) {
  const stack = page.getByRole("region", { name: "Notifications" });
  await expect(stack).toHaveCSS("position", "fixed");
  const toast = stack.getByRole("status").first();
  const box = await toast.boundingBox();
  const viewport = page.viewportSize();
  expect(box).not.toBeNull();
  expect(viewport).not.toBeNull();
  const { x, y, width, height } = box!;
  // Entirely inside the viewport, and in its bottom-right quadrant.
  expect(x).toBeGreaterThanOrEqual(0);
  expect(x + width).toBeLessThanOrEqual(viewport!.width);
  expect(y + height).toBeLessThanOrEqual(viewport!.height);
  expect(x + width).toBeGreaterThan(viewport!.width / 2);
  expect(x + width / 2).toBeGreaterThanOrEqual(viewport!.width / 2 - 1);
  expect(y).toBeGreaterThanOrEqual(viewport!.height / 2);
  // At most "sm" (24rem) wide.
  expect(width).toBeLessThanOrEqual(384);
}

test.describe("toasts", () => {
  test("appear at the bottom right and close with their close button", async ({ page }) => {
    const toast = await showToast(page);
    await expectBottomRight(page);
    // Fixed: scrolling the page does not move it out of view.
    await page.getByRole("contentinfo").scrollIntoViewIfNeeded();
    await expect(toast).toBeInViewport();

    await toast.getByRole("button", { name: "Close notification" }).click();
    await expect(toast).toBeHidden();
    await expect(page.getByRole("region", { name: "Notifications" }).getByRole("status")).toHaveCount(0);
  });

  test("disappear by themselves after 5 seconds", async ({ page }) => {
    // The page notes when the toast is added to and removed from the stack (its own clock, so a
    // slow test machine does not blur the measurement).
    const toast = await showToast(page, () =>
      page.evaluate(() => {
        const stack = document.querySelector('section[aria-label="Notifications"]');
        if (!stack) throw new Error("no toast stack");
        const times: { added?: number; removed?: number } = {};
        Object.assign(window, { __toastTimes: times });
        new MutationObserver((records) => {
          for (const record of records) {
            if (record.addedNodes.length) times.added ??= performance.now();
            if (record.removedNodes.length) times.removed ??= performance.now();
          }
        }).observe(stack, { childList: true });
      }),
    );
    await expect(toast).toBeHidden({ timeout: 8000 });
    const { added, removed } = await page.evaluate(
      () => (window as unknown as { __toastTimes: { added?: number; removed?: number } }).__toastTimes,
    );
    expect(added).toBeDefined();
    expect(removed).toBeDefined();
    // Its lifetime is 5 s: not (noticeably) earlier.
    expect(removed! - added!).toBeGreaterThanOrEqual(4900);
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test("stay inside the viewport at the bottom", async ({ page }) => {
      await showToast(page);
      await expectBottomRight(page);
    });
  });
});

test.describe("toasts and navigation", () => {
  const products: TestProduct[] = [];
  test.afterAll(async () => {
    await removeTestProducts(...products);
    await closeShopDatabase();
  });

  test("a declined card's toast does not follow the shopper to the review step", async ({ page }) => {
    const lamp = await createTestProduct("Toast Lamp", { stock: 20 });
    products.push(lamp);
    const added = await page.request.post("/cart", {
      form: { intent: "add", productId: String(lamp.id), quantity: "1", redirectTo: "/cart" },
      maxRedirects: 0,
    });
    expect(added.status()).toBe(302);
    await visit(page, "/checkout");
    for (const [label, value] of [
      ["First Name", "Tia"],
      ["Last Name", "Toast"],
      ["Email", "tia.toast@example.com"],
      ["Phone", "+1 555 0100"],
      ["Address", "1 Toast Street"],
      ["City", "Springfield"],
      ["State / Province", "IL"],
      ["ZIP / Postal Code", "62701"],
    ] as const) {
      await field(page, label).fill(value);
    }
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page).toHaveURL("/checkout?step=payment");
    await waitForHydration(page);

    // The page's clock stands still from here: no toast closes by its own 5 s, so what is left on
    // the next page is what the navigation left, however slow this machine is.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    await fillCard(page, "4000 0000 0000 0002");
    await page.getByRole("button", { name: "Review Order" }).click();
    const declined = page
      .getByRole("region", { name: "Notifications" })
      .getByText("Your card was declined. Please use a different card.", { exact: true });
    await expect(declined).toBeVisible();
    await expect(page).toHaveURL("/checkout?step=payment");

    await fillCard(page, "4242 4242 4242 4242");
    await expect(declined).toBeVisible();
    await page.getByRole("button", { name: "Review Order" }).click();
    await expect(page).toHaveURL("/checkout?step=review");
    await expect(page.getByRole("heading", { name: "Review Your Order" })).toBeVisible();
    // counted once, not waited for: the toast must be gone as the review step shows
    expect(await declined.count()).toBe(0);
    await page.clock.resume();

    // a toast of the page itself still shows there (the payment step's own error, shown again)
    await page.goto("/checkout?step=payment");
    await waitForHydration(page);
    await fillCard(page, "4000 0000 0000 0002");
    await page.getByRole("button", { name: "Review Order" }).click();
    await expect(declined).toBeVisible();
  });
});

/** A checkout form field by its label; the required marker ("*", hidden from assistive tech) aside. */
const field = (page: Page, label: string) =>
  page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\s*\\*?$`));

async function fillCard(page: Page, number: string) {
  await field(page, "Card Number").fill(number);
  await field(page, "Cardholder Name").fill("Tia Toast");
  await field(page, "Expiry Date").fill("12/30");
  await field(page, "CVV").fill("123");
}
