import { join } from "node:path";
import type { RouterContextProvider } from "react-router";
import { createLocalFileStore } from "../../app/adapters/files/file-store.server.ts";
import { createMailer, mailFrom } from "../../app/adapters/mail/mailer.server.ts";
import { assembleServices } from "../../app/composition.server.ts";
import { type AppServices, servicesContext } from "../../app/context.ts";
import type { Database, Engine } from "../../app/db/database.server.ts";
import { parseEnv } from "../../app/env.server.ts";
import { createTestDatabase } from "../db-utils.ts";
import { requestContext } from "./route-harness.ts";

/**
 * A shop of a test's own, as route modules see it through their context: a fresh migrated
 * database on either engine, uploads and mail in its scratch directory, and the app's services
 * assembled over them (app/composition.server.ts `assembleServices`). Nothing global is changed:
 * route modules are imported statically, and each call hands them `shop.context()`.
 *
 * The cookie signers are the process's (SESSION_SECRET, PUBLIC_URL from vitest.config.ts), so the
 * shop's configuration carries the same values.
 */
export interface TestShop {
  services: AppServices;
  db: Database;
  engine: Engine;
  /** the database's URL (another connection to it: a worker thread, a second process) */
  url: string;
  /** the scratch directory: uploads/ and mail/ are under it */
  dir: string;
  mailDir: string;
  /** a request context carrying the shop's services, for a visitor at `clientIp` */
  context(clientIp?: string): RouterContextProvider;
  destroy(): Promise<void>;
}

export const TEST_ORIGIN = "http://shop.test";

export async function createTestShop(
  engine: Engine,
  settings: Record<string, string> = {},
): Promise<TestShop> {
  const test = await createTestDatabase(engine);
  const mailDir = join(test.dir, "mail");
  const config = parseEnv({
    NODE_ENV: "test",
    SESSION_SECRET: process.env.SESSION_SECRET,
    PUBLIC_URL: process.env.PUBLIC_URL ?? TEST_ORIGIN,
    DATA_DIR: test.dir,
    DATABASE_URL: test.url,
    FILE_STORE_URL: `file:${join(test.dir, "uploads")}`,
    MAIL_URL: `file:${mailDir}`,
    SEED_ON_EMPTY: "false",
    PAYMENT_DELAY_MS: "0",
    ...settings,
  });
  const services = assembleServices(config, {
    db: test.db,
    files: createLocalFileStore(join(test.dir, "uploads")),
    mail: createMailer(config.MAIL_URL, { from: mailFrom(config.SHOP_NAME, config.CONTACT_EMAIL) }),
  });
  return {
    services,
    db: test.db,
    engine,
    url: test.url,
    dir: test.dir,
    mailDir,
    context(clientIp) {
      const context = requestContext(clientIp);
      context.set(servicesContext, services);
      return context;
    },
    destroy: () => test.destroy(),
  };
}
