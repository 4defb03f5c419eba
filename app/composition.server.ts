import { createHash } from "node:crypto";
import { join } from "node:path";
import type { MiddlewareFunction } from "react-router";
import { type Auth, createAuth } from "./adapters/auth/auth.server.ts";
import { queueEmailChangeLink } from "./adapters/auth/email-change.server.ts";
import { sendPasswordResetEmail } from "./adapters/auth/password-reset-email.server.ts";
import { createFileStore } from "./adapters/files/file-store.server.ts";
import type { FileStore } from "./adapters/files/file-store.ts";
import { logger } from "./adapters/logger.server.ts";
import type { Mailer } from "./adapters/mail/mail-message.ts";
import { createShopMailer } from "./adapters/mail/mailer.server.ts";
import { createPaymentGateway, type PaymentGateway } from "./adapters/payments/index.server.ts";
import { type AppServices, servicesContext } from "./context.ts";
import {
  createDatabase,
  type Database,
  dataChangeStamp,
  engineOf,
  sqlitePathFromUrl,
} from "./db/database.server.ts";
import { migrateToLatest } from "./db/migrate.server.ts";
import { seedOnFirstStart } from "./db/seed/first-start.server.ts";
import { setInvoiceSellerDefaults } from "./domain/invoices/issue-documents.server.ts";
import { nextCatalogueBoundary } from "./domain/promotions/promotions.server.ts";
import { ShopSettingsSource } from "./domain/settings/shop-settings.server.ts";
import { type Env, getEnv } from "./env.server.ts";
import {
  attachSearchIndex,
  detachSearchIndex,
  searchIndexStamp,
} from "./infra/search-index/search-index.server.ts";
import { attachSqliteReaders, detachSqliteReaders } from "./infra/sqlite-readers.server.ts";
import { settleAfterResponseTasks } from "./jobs/after-response.server.ts";
import { DEFAULT_SHOP_SETTINGS, mailShop, type ShopSettings } from "./lib/shop-settings.ts";

/**
 * The application's one database and file store, opened on first use: migrations are applied
 * and, on an empty catalogue, the demo data is seeded (unless SEED_ON_EMPTY=false; first-start.server.ts).
 */

let services: Promise<AppServices> | undefined;
/** the database once the services are open, for synchronous questions (dataStamp) */
let openDb: Database | null = null;
let searchIndexWorkerUrl: URL | null = null;
let sqliteReaderWorkerUrl: URL | null = null;

/**
 * The search index is built in a worker thread running this file (the server passes the source
 * file's URL, which the bundle cannot know); without it, on the app's thread in slices.
 */
export function setSearchIndexWorker(url: URL): void {
  searchIndexWorkerUrl = url;
}

/**
 * On SQLite, the listing's long reads run in worker threads running this file (decision 041);
 * without it, on the app's thread.
 */
export function setSqliteReaderWorker(url: URL): void {
  sqliteReaderWorkerUrl = url;
}

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

/**
 * The settings of a shop whose owner has saved none: the environment's name and contact details
 * (SHOP_NAME, CONTACT_*), the spec's pricing, US dollars.
 */
export function defaultShopSettings(config: Env): ShopSettings {
  return {
    ...DEFAULT_SHOP_SETTINGS,
    shopName: config.SHOP_NAME,
    contactEmail: config.CONTACT_EMAIL,
    contactPhone: config.CONTACT_PHONE,
    contactAddress: config.CONTACT_ADDRESS,
  };
}

/**
 * The services of a shop with this configuration, over a database, file store and mailer already
 * opened (the server's come from the configuration; a test brings its own). Nothing is migrated
 * or seeded here: `getServices` does that for the process.
 */
export function assembleServices(
  config: Env,
  parts: { db: Database; files?: FileStore; mail?: Mailer; gateway?: PaymentGateway },
): AppServices {
  const { db } = parts;
  const mail = parts.mail ?? createShopMailer(config);
  const settings = new ShopSettingsSource(db, defaultShopSettings(config));
  // an invoice issued before the owner saved any settings names the shop as configured
  setInvoiceSellerDefaults(settings.defaults);
  // e-mails name the shop as its settings do when they are sent
  const shop = async () => mailShop(await settings.current(), config.PUBLIC_URL);
  const auth = createAuth({
    db,
    secret: config.SESSION_SECRET,
    baseURL: config.PUBLIC_URL,
    shopName: config.SHOP_NAME,
    sendResetPassword: async (data) => sendPasswordResetEmail(mail, await shop(), data),
    sendEmailChangeLink: (data) => queueEmailChangeLink(mail, shop, data),
  });
  return {
    config,
    db,
    files: parts.files ?? createFileStore(config.FILE_STORE_URL, config),
    auth,
    mail,
    gateway: parts.gateway ?? createPaymentGateway(config, db),
    settings,
  };
}

async function openServices(): Promise<AppServices> {
  const env = getEnv();
  const db = createDatabase(env.DATABASE_URL);
  const applied = await migrateToLatest(db);
  if (applied.length > 0) logger.info({ migrations: applied }, "database migrated");
  const services = assembleServices(env, { db });
  // the demo catalogue, and locally the demo owner and history (processes started together on one
  // empty PostgreSQL take turns: one seeds, the others find it)
  await seedOnFirstStart(services);
  // searches are answered from memory once the first index is built (decision 004, revision 3)
  attachSearchIndex(
    db,
    searchIndexWorkerUrl
      ? {
          url: searchIndexWorkerUrl,
          databaseUrl: env.DATABASE_URL,
          // the last index of a large catalogue, for the next start (one file per database)
          snapshotPath: join(env.DATA_DIR, "search-index", `${sha256(env.DATABASE_URL).slice(0, 16)}.v8`),
        }
      : null,
  );
  if (sqliteReaderWorkerUrl && engineOf(db) === "sqlite") {
    attachSqliteReaders(db, { url: sqliteReaderWorkerUrl, path: sqlitePathFromUrl(env.DATABASE_URL) });
  }
  openDb = db;
  return services;
}

/**
 * The app database's change stamp (`dataChangeStamp`): null before the services are open and on
 * PostgreSQL. The server's page cache keeps a page only while this stays the same. It carries the
 * next start or end of a catalogue promotion (decision 035), so it also moves when one passes: a
 * page kept before a sale starts (or ends) is not served after; and the search index's build, so a
 * page kept before a new index is not served after it.
 */
export function dataStamp(): string | null {
  if (!openDb) return null;
  const stamp = dataChangeStamp(openDb);
  if (stamp === null) return null;
  const boundary = nextCatalogueBoundary(openDb, Date.now());
  // a new search index changes what a search answers with no write (typo corrections from its
  // words; a large catalogue's stale index replaced, decision 041)
  const index = searchIndexStamp(openDb);
  return [stamp, boundary, index].filter((part) => part !== null).join("|");
}

/** The app database once the services are open (the process has started); null before and after. */
export function openedDatabase(): Database | null {
  return openDb;
}

export async function getAuth(): Promise<Auth> {
  return (await getServices()).auth;
}

export async function closeServices(): Promise<void> {
  if (!services) return;
  // work started by requests that already answered (a password reset's e-mail) finishes first
  await settleAfterResponseTasks();
  const { db } = await services;
  services = undefined;
  openDb = null;
  await detachSearchIndex(db);
  await detachSqliteReaders(db);
  await db.destroy();
}

/**
 * The root route's middleware: every loader and action of the request finds the app's services in
 * its context (`servicesFrom(context)`), unless the caller (a route test) already put its own there.
 */
export const provideServices: MiddlewareFunction<Response> = async ({ context }, next) => {
  if (!context.get(servicesContext)) context.set(servicesContext, await getServices());
  return next();
};

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
