import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "app/**/*.test.{ts,tsx}",
      "scripts/**/*.test.ts",
      "server/**/*.test.ts",
      "cli/**/*.test.ts",
      "tests/integration/**/*.test.ts",
      "tests/support/**/*.test.ts",
      "clients/**/*.test.ts",
    ],
    exclude: ["tests/e2e/**", "node_modules/**", "build/**"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The process's configuration for every test: the cookie signers read SESSION_SECRET and
    // PUBLIC_URL; a test's own shop (tests/helpers/test-shop.ts) is handed to routes in their context.
    env: {
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      PAYMENT_DELAY_MS: "0",
      SESSION_SECRET: "cartwheel-vitest-secret-0123456789abcdef0123",
      PUBLIC_URL: "http://shop.test",
      SEED_ON_EMPTY: "false",
    },
  },
});
