import { delimiter, isAbsolute, resolve } from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./scripts/chromium.ts";

// E2E_PORT / E2E_DATA_DIR / BUILD_DIR let several runs share a machine without clashing.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE_URL = `http://127.0.0.1:${PORT}`;
const DATA_DIR = process.env.E2E_DATA_DIR ?? "test-results/e2e-data";
// A build directory of its own (react-router.config.ts and the server both read BUILD_DIR), so a
// rebuild of build/ by someone else during the run cannot swap the assets under the server.
const BUILD_DIR = process.env.BUILD_DIR ?? "test-results/e2e-build";
const fileUrl = (sub: string) => `file:${isAbsolute(DATA_DIR) ? "" : "./"}${DATA_DIR}/${sub}`;

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "*.spec.ts",
  // Per port: a run wipes its output directory when it starts, and must not wipe another run's
  // (nor the data directory below, which lives next to it).
  outputDir: `test-results/playwright-${PORT}`,
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: "list",
  // Generous for a loaded 2-core machine; a test here takes a few seconds when it is quiet.
  timeout: 90_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL: BASE_URL,
    // Traces cost time on every test; record one when CI retries a failure (locally: --trace on).
    trace: "on-first-retry",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: CHROMIUM_PATH,
          args: CHROMIUM_ARGS,
        },
      },
    },
  ],
  webServer: {
    // A fresh data directory every run: the server migrates and seeds the demo catalogue on start.
    // The server's log goes to a file the tests read (e.g. to prove no card number is ever logged).
    command: `rm -rf ${DATA_DIR} ${BUILD_DIR} && npm run build --silent && mkdir -p ${DATA_DIR} && node server/main.ts >> ${DATA_DIR}/server.log`,
    url: `${BASE_URL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      // The project's pinned Node 24 (node_modules/.bin/node) first, however Playwright was started.
      PATH: `${resolve(import.meta.dirname, "node_modules/.bin")}${delimiter}${process.env.PATH ?? ""}`,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      MALLOC_ARENA_MAX: "2",
      CARTWHEEL_LOCAL: "true",
      DATA_DIR,
      BUILD_DIR,
      DATABASE_URL: fileUrl("cartwheel.db"),
      FILE_STORE_URL: fileUrl("uploads"),
      MAIL_URL: fileUrl("mail"),
      PUBLIC_URL: BASE_URL,
      LOG_LEVEL: "info",
      // Short but visible: the checkout e2e sees Place Order's pending state.
      PAYMENT_DELAY_MS: "300",
    },
  },
});
