import { createHash, randomBytes } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createDatabase, type Database, type Engine } from "../app/db/database.server.ts";
import { migrateToLatest } from "../app/db/migrate.server.ts";
import { checkGiftCardLedger } from "../app/domain/gift-cards/gift-cards.server.ts";
import { checkStockLedger } from "../app/domain/inventory/stock-ledger.server.ts";

/**
 * Integration tests run on SQLite always, and on PostgreSQL whenever one answers at
 * TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres). CI always has one;
 * set REQUIRE_POSTGRES=true to make its absence an error instead of a skip.
 */
export const POSTGRES_ADMIN_URL =
  process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    if (process.env.REQUIRE_POSTGRES === "true")
      throw new Error(`PostgreSQL not reachable at ${POSTGRES_ADMIN_URL}`);
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The engines this run tests: ["sqlite"] or ["sqlite", "postgres"]. */
export const ENGINES: Engine[] = (await postgresReachable()) ? ["sqlite", "postgres"] : ["sqlite"];

export interface TestDatabase {
  db: Database;
  url: string;
  engine: Engine;
  /** a scratch directory for files (uploads, mail) belonging to this database */
  dir: string;
  destroy(): Promise<void>;
}

/**
 * Migrations run once per run of the suite, not once per test database: the first test to ask
 * migrates a template (a SQLite file, a PostgreSQL database), and every test database is a copy of
 * it (`copyFileSync`; `create database … template …`). A template is named after a hash of the
 * migrations and the migrator, so changing either makes a new one; forks race harmlessly (a SQLite
 * template appears by rename, a PostgreSQL one is made under an advisory lock).
 */
const MIGRATIONS_HASH = (() => {
  const hash = createHash("sha256");
  const root = join(import.meta.dirname, "../app/db");
  for (const file of [
    "migrate.server.ts",
    ...readdirSync(join(root, "migrations"))
      .sort()
      .map((f) => `migrations/${f}`),
  ]) {
    hash.update(file).update(readFileSync(join(root, file)));
  }
  return hash.digest("hex").slice(0, 16);
})();

const TEMPLATE_DIR = join(tmpdir(), "cartwheel-test-templates");
let sqliteTemplate: Promise<string> | undefined;

function sqliteTemplateFile(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const file = join(TEMPLATE_DIR, `${MIGRATIONS_HASH}.db`);
    if (existsSync(file)) return file;
    mkdirSync(TEMPLATE_DIR, { recursive: true });
    const scratch = `${file}.${randomBytes(6).toString("hex")}`;
    const db = createDatabase(`file:${scratch}`);
    await migrateToLatest(db);
    await db.destroy(); // closing checkpoints the WAL into the file
    renameSync(scratch, file);
    return file;
  })();
  return sqliteTemplate;
}

let postgresTemplate: Promise<string> | undefined;

function postgresTemplateName(): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `cartwheel_template_${MIGRATIONS_HASH}`;
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    try {
      await admin.query("select pg_advisory_lock(hashtext('cartwheel_test_template'))");
      const { rowCount } = await admin.query("select 1 from pg_database where datname = $1", [name]);
      if (!rowCount) {
        const scratch = `${name}_${randomBytes(4).toString("hex")}`;
        await admin.query(`create database ${scratch}`);
        const url = new URL(POSTGRES_ADMIN_URL);
        url.pathname = `/${scratch}`;
        const db = createDatabase(url.toString(), { poolSize: 1 });
        await migrateToLatest(db);
        await db.destroy();
        await waitUntilUnused(admin, scratch);
        await admin.query(`alter database ${scratch} rename to ${name}`);
        // templates of other migration sets (older checkouts) are dropped once nobody uses them
        const { rows } = await admin.query(
          "select datname from pg_database where datname like 'cartwheel\\_template\\_%' and datname <> $1",
          [name],
        );
        for (const row of rows) await admin.query(`drop database if exists ${row.datname} with (force)`);
      }
    } finally {
      await admin.query("select pg_advisory_unlock(hashtext('cartwheel_test_template'))").catch(() => {});
      await admin.end();
    }
    return name;
  })();
  return postgresTemplate;
}

/** pool.end() resolves before its sockets have closed: wait until the server saw them go. */
async function waitUntilUnused(admin: pg.Client, name: string) {
  for (let waited = 0; waited < 5000; waited += 20) {
    const { rows } = await admin.query("select count(*)::int as n from pg_stat_activity where datname = $1", [
      name,
    ]);
    if (rows[0].n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Before a test's database goes, its stock must balance: every variant's level the sum of its
 * stock movements, every product's stock its live variants' (decision 026). So every order,
 * refund, return and admin test of the suite also checks that nothing moved stock outside the
 * inventory area. Throws after the database is gone, failing the test's teardown.
 */
async function assertStockBalances(db: Database): Promise<void> {
  const tables = await db.introspection.getTables();
  if (!tables.some((table) => table.name === "stock_movements")) return; // migrated down by the test
  const drift = await checkStockLedger(db);
  if (drift.variants.length + drift.products.length > 0) {
    throw new Error(`The stock ledger does not balance: ${JSON.stringify(drift)}`);
  }
  // gift cards too: each balance the sum of its movements (decision 036)
  if (!tables.some((table) => table.name === "gift_card_movements")) return;
  const cards = await checkGiftCardLedger(db);
  if (cards.length > 0)
    throw new Error(`A gift card's balance is not its movements' sum: ${JSON.stringify(cards)}`);
}

/**
 * A fresh, migrated database of its own (a temp SQLite file, or a new PostgreSQL database). Its
 * stock ledger (and every gift card's balance) must balance when it is destroyed, unless
 * `checkStockLedger` is false (the schema's own tests, which write past the domain on purpose).
 */
export async function createTestDatabase(
  engine: Engine,
  { checkStockLedger: check = true }: { checkStockLedger?: boolean } = {},
): Promise<TestDatabase> {
  const balances = (db: Database) => (check ? assertStockBalances(db) : Promise.resolve());
  const dir = mkdtempSync(join(tmpdir(), "cartwheel-test-"));
  if (engine === "sqlite") {
    const url = `file:${join(dir, "test.db")}`;
    copyFileSync(await sqliteTemplateFile(), join(dir, "test.db"));
    const db = createDatabase(url);
    return {
      db,
      url,
      engine,
      dir,
      async destroy() {
        const problem = await balances(db).then(
          () => null,
          (error: unknown) => error,
        );
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
        if (problem) throw problem;
      },
    };
  }
  const template = await postgresTemplateName();
  const name = `cartwheel_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const db = createDatabase(url.toString(), { poolSize: 20 });
  return {
    db,
    url: url.toString(),
    engine,
    dir,
    async destroy() {
      const problem = await balances(db).then(
        () => null,
        (error: unknown) => error,
      );
      await db.destroy();
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      // dropping "with (force)" while the pool's sockets are still open kills them mid-goodbye
      // and their clients raise an uncaught 57P01 error
      await waitUntilUnused(client, name);
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
      rmSync(dir, { recursive: true, force: true });
      if (problem) throw problem;
    },
  };
}
