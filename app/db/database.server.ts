import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CamelCasePlugin, Kysely, PostgresAdapter, PostgresDialect } from "kysely";
import pg from "pg";
import { queryTelemetry } from "../infra/query-telemetry.server.ts";
import { createNodeSqliteDialect } from "../infra/sqlite-dialect.server.ts";
import type { DB } from "./schema.ts";

export type Database = Kysely<DB>;
export type Engine = "sqlite" | "postgres";

// COUNT(*) and other int8 values arrive as strings from pg; our counts fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * `file:./data/cartwheel.db` → SQLite (node:sqlite); `postgres://…` → PostgreSQL (pg). With metrics
 * or tracing on in this process, each statement is timed and traced (query-telemetry.server.ts).
 */
export function createDatabase(url: string, options: { poolSize?: number } = {}): Database {
  const plugins = [new CamelCasePlugin()];
  if (isPostgresUrl(url)) {
    const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
    return new Kysely<DB>({
      dialect: new PostgresDialect({ pool }),
      plugins,
      log: queryTelemetry("postgres"),
    });
  }
  const path = sqlitePathFromUrl(url);
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const dialect = createNodeSqliteDialect(path);
  const db = new Kysely<DB>({ dialect, plugins, log: queryTelemetry("sqlite") });
  changeStamps.set(db, () => dialect.changeStamp());
  return db;
}

const changeStamps = new WeakMap<object, () => string | null>();

/**
 * A value that differs whenever the data may have changed since it was last read: on SQLite,
 * after any write by this process (from the moment the row changed) or a commit by any other
 * process; null when unknown — on PostgreSQL (other instances write unseen) or before the first
 * query opened the database. For caches that must never serve what changed.
 */
export function dataChangeStamp(db: Database): string | null {
  return changeStamps.get(db)?.() ?? null;
}

export function engineOf<T>(db: Kysely<T>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

export function isPostgresUrl(url: string): boolean {
  return url.startsWith("postgres://") || url.startsWith("postgresql://");
}

export function sqlitePathFromUrl(url: string): string {
  const path = url.replace(/^file:(\/\/)?/, "");
  return path === ":memory:" ? path : resolve(path);
}
