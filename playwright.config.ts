import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH, HEADLESS_SHELL_PATH } from "./scripts/chromium.ts";

/**
 * The app is built once (tests/e2e/global-setup.ts, into BUILD_DIR, default test-results/e2e-build;
 * E2E_REUSE_BUILD=true serves an existing build instead), and every worker starts a shop of its own
 * from it on a free port with a fresh data directory under E2E_DATA_DIR (tests/e2e/fixtures.ts),
 * so tests in different workers cannot see each other's products, carts and orders. E2E_RUN names
 * a run's output directory, so several runs can share a machine.
 */
const RUN = process.env.E2E_RUN ?? "default";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "*.spec.ts",
  outputDir: `test-results/playwright-${RUN}`,
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  workers: 2,
  // CI retries a failure once to tell a flaky test (a bug, counted apart and failing the run) from a broken one
  retries: process.env.CI ? 1 : 0,
  reporter: "list",
  // Generous for a loaded 2-core machine; a test here takes a few seconds when it is quiet.
  timeout: 90_000,
  expect: { timeout: 5_000 },
  use: {
    // Traces cost time on every test; record one when CI retries a failure (locally: --trace on).
    trace: "on-first-retry",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : CHROMIUM_PATH,
          args: CHROMIUM_ARGS,
        },
      },
    },
  ],
});
