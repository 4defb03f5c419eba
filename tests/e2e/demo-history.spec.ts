import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { type ShopServer, startShop } from "../../bench/lib/shop.ts";
import { test as base, expect, visit } from "./fixtures.ts";
import { E2E_BUILD_DIR, E2E_DATA_ROOT, ROOT } from "./shop-env.ts";
import { signIn } from "./shop-helpers.ts";

/**
 * A fresh local shop as `npm start` leaves it: the demo catalogue, the demo owner and 90 days of
 * demo history (app/db/seed/demo-history.ts). The suite's other shops leave the history out
 * (SEED_DEMO_HISTORY=false in fixtures.ts: they count the orders, returns and mail they make);
 * this file starts one with it.
 */
const OWNER = { email: "admin@cartwheel.example", password: "cartwheel-admin" };

const test = base.extend<object, { historyShop: ShopServer }>({
  historyShop: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern here
    async ({}, use, workerInfo) => {
      const dataDir = join(E2E_DATA_ROOT, `history-worker-${workerInfo.workerIndex}`);
      rmSync(dataDir, { recursive: true, force: true });
      const shop = await startShop(ROOT, E2E_BUILD_DIR, dataDir, [], {
        LOG_LEVEL: "info",
        PAYMENT_DELAY_MS: "0",
        SEED_DEMO_HISTORY: "true",
      });
      try {
        await use(shop);
      } finally {
        await shop.stop();
      }
    },
    { scope: "worker", timeout: 180_000 },
  ],
  baseURL: async ({ historyShop }, use) => {
    await use(historyShop.url);
  },
});

/** The dashboard's figure under this label, as a number (money without its symbol). */
async function figure(page: Page, label: string): Promise<number> {
  const value = page
    .locator("dl > div")
    .filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}`) }) })
    .locator("dd")
    .first();
  return Number((await value.textContent())?.replace(/[^0-9.]/g, ""));
}

test("a fresh local shop has sales: the dashboard shows the last 30 days", async ({ page }) => {
  await visit(page, `/account?redirectTo=${encodeURIComponent("/admin/dashboard")}`);
  await signIn(page, OWNER.email, OWNER.password);
  await page.waitForURL((url) => url.pathname === "/admin/dashboard");
  await visit(page, "/admin/dashboard");
  await expect(
    page.getByRole("navigation", { name: "Sales period" }).getByRole("link", { name: "Last 30 days" }),
  ).toHaveAttribute("aria-current", "page");
  expect(await figure(page, "Revenue")).toBeGreaterThan(0);
  expect(await figure(page, "Orders")).toBeGreaterThan(0);
  expect(await figure(page, "Units sold")).toBeGreaterThan(0);
  await expect(page.getByRole("img", { name: /Revenue per day, 30 days/ })).toBeVisible();
  const top = page.locator("section", { has: page.getByRole("heading", { name: "Top products" }) });
  await expect(top.getByRole("listitem").first()).toBeVisible();
  const recent = page.locator("section", { has: page.getByRole("heading", { name: "Recent orders" }) });
  await expect(recent.getByRole("listitem")).toHaveCount(5);
});
