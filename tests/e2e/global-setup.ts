import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { E2E_BUILD_DIR, ROOT } from "./shop-env.ts";

/**
 * Builds the app once for the whole run (every worker's shop serves this build), unless
 * E2E_REUSE_BUILD=true names a build that already exists (CI builds once, before all suites).
 */
export default function globalSetup() {
  if (process.env.E2E_REUSE_BUILD === "true") {
    if (!existsSync(join(E2E_BUILD_DIR, "server/index.js"))) {
      throw new Error(`E2E_REUSE_BUILD=true but ${E2E_BUILD_DIR} has no build: run npm run build first`);
    }
    return;
  }
  const started = performance.now();
  const result = spawnSync("npm", ["run", "build", "--silent"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, BUILD_DIR: E2E_BUILD_DIR },
  });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
  console.log(`e2e: built ${E2E_BUILD_DIR} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
