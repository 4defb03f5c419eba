import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CamelCasePlugin, Kysely, PostgresAdapter, PostgresDialect } from "kysely";
import pg from "pg";
import type { DB } from "./schema.ts";
import { createNodeSqliteDialect } from "./sqlite-dialect.server.ts";

export type Database = Kysely<DB>;
export type Engine = "sqlite" | "postgres";

// COUNT(*) and other int8 values arrive as strings from pg; our counts fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** `file:./data/cartwheel.db` → SQLite (node:sqlite); `postgres://…` → PostgreSQL (pg). */
export function createDatabase(url: string, options: { poolSize?: number } = {}): Database {
  const plugins = [new CamelCasePlugin()];
  if (isPostgresUrl(url)) {
    const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
    return new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins });
  }
  const path = sqlitePathFromUrl(url);
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  return new Kysely<DB>({ dialect: createNodeSqliteDialect(path), plugins });
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
