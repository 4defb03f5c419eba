import type { FileStore } from "../../adapters/files/file-store.ts";
import { logger } from "../../adapters/logger.server.ts";
import { createOrUpdateUser, DEMO_ADMIN } from "../../domain/accounts/users.server.ts";
import type { Env } from "../../env.server.ts";
import { type DemoHistoryServices, seedDemoHistory } from "./demo-history.ts";
import { isCatalogEmpty, seedDemoCatalog, withSeedLock } from "./seed.server.ts";

export interface FirstStartServices extends DemoHistoryServices {
  config: Pick<
    Env,
    "SEED_ON_EMPTY" | "SEED_DEMO_HISTORY" | "LOCAL" | "PAYMENT_GATEWAY" | "SESSION_SECRET" | "PUBLIC_URL"
  >;
  files: FileStore;
}

/**
 * What a start finds to seed (unless SEED_ON_EMPTY=false), under the seed's lock so processes
 * started together on one PostgreSQL take turns: an empty catalogue gets the demo catalogue; on a
 * local machine (never a deployment: `config.LOCAL`) a shop without users gets the demo owner, and
 * one without orders the demo history (demo-history.ts) — unless SEED_DEMO_HISTORY=false, or
 * payments go to Stripe, which never saw the history's payments.
 */
export async function seedOnFirstStart(services: FirstStartServices, now: Date = new Date()): Promise<void> {
  const { config, db, files, auth } = services;
  if (config.SEED_ON_EMPTY !== "true") return;
  await withSeedLock(db, async () => {
    if (await isCatalogEmpty(db)) {
      const { created } = await seedDemoCatalog(db, files, now);
      logger.info({ products: created }, "empty catalogue: demo data seeded");
    }
    if (!config.LOCAL) return;
    if (!(await db.selectFrom("users").select("id").executeTakeFirst())) {
      // Local use only (README): never on a deployment, which creates its admin with the CLI.
      await createOrUpdateUser({ auth, db }, { ...DEMO_ADMIN, role: "owner" });
      logger.info({ email: DEMO_ADMIN.email }, "no users yet: demo admin created (local use only)");
    }
    if (config.SEED_DEMO_HISTORY !== "true" || config.PAYMENT_GATEWAY !== "test") return;
    const started = performance.now();
    const history = await seedDemoHistory(services, { now });
    if (history) {
      logger.info(
        { ...history, ms: Math.round(performance.now() - started) },
        "no orders yet: 90 days of demo history seeded (local use only)",
      );
    }
  });
}
