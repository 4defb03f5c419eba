import { rmSync } from "node:fs";
import { vi } from "vitest";
import type { Engine } from "../../app/db/database.server.ts";
import { createTestDatabase } from "../db-utils.ts";
import { stubShopEnv } from "./route-harness.ts";

/**
 * stubShopEnv on one database engine, for route tests that run on both (`describe.each(ENGINES)`):
 * SQLite in the temp directory, or a fresh PostgreSQL database of its own. The module registry is
 * reset, so the route modules imported afterwards read this configuration (env, database and
 * auth are module singletons). Call `destroy` after the app's closeServices.
 */
export async function stubShopEnvOn(
  engine: Engine,
  name: string,
  origin: string,
): Promise<{ dir: string; destroy: () => Promise<void> }> {
  const dir = stubShopEnv(`${name}-${engine}`, origin);
  vi.resetModules();
  if (engine === "sqlite") {
    return { dir, destroy: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const test = await createTestDatabase("postgres");
  vi.stubEnv("DATABASE_URL", test.url);
  return {
    dir,
    destroy: async () => {
      await test.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
