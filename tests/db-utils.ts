import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createDatabase, type Database, type Engine } from "../app/db/database.server.ts";
import { migrateToLatest } from "../app/db/migrate.server.ts";

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

/** A fresh, migrated database of its own (a temp SQLite file, or a new PostgreSQL database). */
export async function createTestDatabase(engine: Engine): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), "cartwheel-test-"));
  if (engine === "sqlite") {
    const url = `file:${join(dir, "test.db")}`;
    const db = createDatabase(url);
    await migrateToLatest(db);
    return {
      db,
      url,
      engine,
      dir,
      async destroy() {
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `cartwheel_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const db = createDatabase(url.toString(), { poolSize: 20 });
  await migrateToLatest(db);
  return {
    db,
    url: url.toString(),
    engine,
    dir,
    async destroy() {
      await db.destroy();
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      // pool.end() resolves before its sockets have closed; dropping "with (force)" while they
      // are still open kills them mid-goodbye and their clients raise an uncaught 57P01 error.
      for (let waited = 0; waited < 5000; waited += 20) {
        const { rows } = await client.query(
          "select count(*)::int as n from pg_stat_activity where datname = $1",
          [name],
        );
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
