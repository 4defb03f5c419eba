import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { createDatabase, type Database, type Engine } from "../../app/db/database.server.ts";
import { checkStockLedger } from "../../app/domain/inventory/stock-ledger.server.ts";
import type { FixtureSnapshot } from "../../scripts/upgrade-fixtures/fixture-kit.ts";
import { POSTGRES_ADMIN_URL } from "../db-utils.ts";

/**
 * The upgrade fixtures (tests/fixtures/upgrades/README.md, decision 029): databases of earlier
 * releases, each a SQLite file and a PostgreSQL plain-SQL dump filled the same way, with the snapshot
 * of what each held when it was made.
 */
export const UPGRADE_FIXTURES_DIR = join(import.meta.dirname, "../fixtures/upgrades");

export interface UpgradeFixture {
  /** the directory's name: the commit it was made at */
  name: string;
  dir: string;
  snapshots: Record<Engine, FixtureSnapshot>;
}

/** Every fixture, oldest schema first. */
export function listUpgradeFixtures(): UpgradeFixture[] {
  return readdirSync(UPGRADE_FIXTURES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const dir = join(UPGRADE_FIXTURES_DIR, entry.name);
      for (const file of ["sqlite.db", "postgres.sql", "sqlite.json", "postgres.json"]) {
        if (!existsSync(join(dir, file))) throw new Error(`${dir} has no ${file}`);
      }
      const read = (engine: Engine) =>
        JSON.parse(readFileSync(join(dir, `${engine}.json`), "utf8")) as FixtureSnapshot;
      return { name: entry.name, dir, snapshots: { sqlite: read("sqlite"), postgres: read("postgres") } };
    })
    .sort((a, b) => a.snapshots.sqlite.migrations.length - b.snapshots.sqlite.migrations.length);
}

export interface RestoredFixture {
  db: Database;
  /** a scratch directory of its own (mail, uploads), removed with it */
  scratch: string;
  /**
   * Closes and removes the database. Like tests/db-utils.ts, it throws (after removing it) when the
   * stock does not balance — every level the sum of its movements — unless the database was never
   * migrated that far.
   */
  destroy(): Promise<void>;
}

const run = promisify(execFile);

/**
 * The fixture as it was made, in a database of its own and not migrated: a copy of its SQLite file,
 * or its dump restored with psql into a fresh PostgreSQL database.
 */
export async function restoreFixture(fixture: UpgradeFixture, engine: Engine): Promise<RestoredFixture> {
  const scratch = mkdtempSync(join(tmpdir(), "cartwheel-upgrade-"));
  if (engine === "sqlite") {
    copyFileSync(join(fixture.dir, "sqlite.db"), join(scratch, "upgrade.db"));
    const db = createDatabase(`file:${join(scratch, "upgrade.db")}`);
    return {
      db,
      scratch,
      async destroy() {
        const problem = await unbalanced(db);
        await db.destroy();
        rmSync(scratch, { recursive: true, force: true });
        if (problem) throw problem;
      },
    };
  }
  const name = `cartwheel_upgrade_${randomBytes(6).toString("hex")}`;
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const drop = async () => {
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    try {
      await waitUntilUnused(admin, name);
      await admin.query(`drop database if exists ${name} with (force)`);
    } finally {
      await admin.end();
    }
    rmSync(scratch, { recursive: true, force: true });
  };
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  try {
    await run("psql", [
      "--no-psqlrc",
      "--quiet",
      "--set=ON_ERROR_STOP=1",
      `--file=${join(fixture.dir, "postgres.sql")}`,
      `--dbname=${url}`,
    ]);
  } catch (error) {
    await drop();
    throw error;
  }
  const db = createDatabase(url.toString(), { poolSize: 5 });
  return {
    db,
    scratch,
    async destroy() {
      const problem = await unbalanced(db);
      await db.destroy();
      await drop();
      if (problem) throw problem;
    },
  };
}

async function unbalanced(db: Database): Promise<Error | null> {
  try {
    const tables = await db.introspection.getTables();
    if (!tables.some((table) => table.name === "stock_movements")) return null;
    const drift = await checkStockLedger(db);
    return drift.variants.length + drift.products.length > 0
      ? new Error(`The stock ledger does not balance: ${JSON.stringify(drift)}`)
      : null;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
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
