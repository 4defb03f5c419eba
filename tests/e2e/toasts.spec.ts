import type { Page } from "@playwright/test";
import { expect, test, visit } from "./fixtures.ts";

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
