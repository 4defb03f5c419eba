import { DatabaseSync, type StatementSync } from "node:sqlite";

/**
 * The process's one node:sqlite connection with the shop's PRAGMAs and a cache of prepared
 * statements; the group-commit dialect (sqlite-dialect.server.ts, decision 009) drives it.
 */
export interface NodeSqliteDatabase {
  raw: DatabaseSync;
  prepare(sql: string): PreparedStatement;
  close(): void;
}

interface PreparedStatement {
  reader: boolean;
  all(parameters: ReadonlyArray<unknown>): unknown[];
  run(parameters: ReadonlyArray<unknown>): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown>;
}

export function openSqlite(path: string): NodeSqliteDatabase {
  const raw = new DatabaseSync(path, { timeout: 5_000 });
  raw.exec("PRAGMA journal_mode = WAL");
  raw.exec("PRAGMA synchronous = FULL");
  raw.exec("PRAGMA foreign_keys = ON");
  raw.exec("PRAGMA busy_timeout = 5000");
  raw.exec("PRAGMA cache_size = -65536"); // 64 MiB page cache
  raw.exec("PRAGMA mmap_size = 1073741824"); // read through the OS page cache, up to 1 GiB
  raw.exec("PRAGMA temp_store = MEMORY");
  const cache = new Map<string, PreparedStatement>();
  return {
    raw,
    close: () => raw.close(),
    prepare(sql: string): PreparedStatement {
      let statement = cache.get(sql);
      if (!statement) {
        statement = wrapStatement(raw.prepare(sql));
        if (cache.size > 500) cache.clear();
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}

function wrapStatement(statement: StatementSync): PreparedStatement {
  const reader = statement.columns().length > 0;
  const params = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqliteValue);
  return {
    reader,
    all: (parameters) => statement.all(...(params(parameters) as never[])),
    run: (parameters) => statement.run(...(params(parameters) as never[])),
    iterate: (parameters) =>
      statement.iterate(...(params(parameters) as never[])) as IterableIterator<unknown>,
  };
}

/** A parameter as node:sqlite binds it (booleans as 0/1, dates as ISO text). */
export function toSqliteValue(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value;
}
