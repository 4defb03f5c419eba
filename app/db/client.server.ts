import { getEnv } from "../env.server.ts";
import { createFileStore, type FileStore } from "../services/file-store.server.ts";
import { logger } from "../services/logger.server.ts";
import { createDatabase, type Database } from "./database.server.ts";
import { migrateToLatest } from "./migrate.server.ts";
import { isCatalogEmpty, seedDemoCatalog } from "./seed/seed.server.ts";

/**
 * The application's one database and file store, opened on first use: migrations are applied
 * and, on an empty catalogue, the demo data is seeded (unless SEED_ON_EMPTY=false).
 */
interface AppServices {
  db: Database;
  files: FileStore;
}

let services: Promise<AppServices> | undefined;

export function getServices(): Promise<AppServices> {
  services ??= openServices().catch((error) => {
    services = undefined;
    throw error;
  });
  return services;
}

export async function getDb(): Promise<Database> {
  return (await getServices()).db;
}

async function openServices(): Promise<AppServices> {
  const env = getEnv();
  const db = createDatabase(env.DATABASE_URL);
  const files = createFileStore(env.FILE_STORE_URL);
  const applied = await migrateToLatest(db);
  if (applied.length > 0) logger.info({ migrations: applied }, "database migrated");
  if (env.SEED_ON_EMPTY === "true" && (await isCatalogEmpty(db))) {
    const { created } = await seedDemoCatalog(db, files);
    logger.info({ products: created }, "empty catalogue: demo data seeded");
  }
  return { db, files };
}

export async function closeServices(): Promise<void> {
  if (!services) return;
  const { db } = await services;
  services = undefined;
  await db.destroy();
}
