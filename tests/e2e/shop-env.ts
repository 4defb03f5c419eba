import { isAbsolute, join, resolve } from "node:path";

/**
 * Where the e2e suite's build and shops live. Every Playwright worker runs a shop of its own
 * (fixtures.ts: a server on a free port with its own data directory under E2E_DATA_DIR), so tests
 * in different workers never see each other's products, carts, orders or mail.
 */
export const ROOT = resolve(import.meta.dirname, "../..");
const fromRoot = (path: string) => (isAbsolute(path) ? path : resolve(ROOT, path));

/** The build every worker's shop serves (BUILD_DIR; CI passes its one build with E2E_REUSE_BUILD). */
export const E2E_BUILD_DIR = fromRoot(process.env.BUILD_DIR ?? "test-results/e2e-build");
/** Parent of the workers' data directories. */
export const E2E_DATA_ROOT = fromRoot(process.env.E2E_DATA_DIR ?? "test-results/e2e-data");

/** The data directory of worker `index`'s shop: its SQLite database, uploads, mail and log. */
export function workerDataDir(index: number): string {
  return join(E2E_DATA_ROOT, `worker-${index}`);
}

/** Set by the worker fixture for the helpers that read the shop's data (shop-helpers.ts). */
export const WORKER_DATA_DIR_ENV = "E2E_WORKER_DATA_DIR";

/** This worker's shop data directory (only inside a test or hook of this worker). */
export function shopDataDir(): string {
  const dir = process.env[WORKER_DATA_DIR_ENV];
  if (!dir) throw new Error("no shop for this worker yet: use the data directory inside a test or hook");
  return dir;
}

export const shopMailDir = () => join(shopDataDir(), "mail");
export const shopDatabaseUrl = () => `file:${join(shopDataDir(), "cartwheel.db")}`;
