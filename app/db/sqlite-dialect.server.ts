import { DatabaseSync, type StatementSync } from "node:sqlite";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  SqliteDialect,
  SqliteDriver,
  type SqliteStatement,
} from "kysely";

/**
 * Kysely has no node:sqlite dialect. This adapts `DatabaseSync` to the small interface
 * Kysely's own SqliteDialect drives, and makes every transaction `BEGIN IMMEDIATE` so two
 * writers never deadlock on a lock upgrade (SQLITE_BUSY mid-transaction).
 */
export function createNodeSqliteDialect(path: string): SqliteDialect {
  return new NodeSqliteDialect({ database: () => Promise.resolve(openSqlite(path)) });
}

export function openSqlite(path: string): SqliteDatabase & { raw: DatabaseSync } {
  const raw = new DatabaseSync(path, { timeout: 5_000 });
  raw.exec("PRAGMA journal_mode = WAL");
  raw.exec("PRAGMA synchronous = FULL");
  raw.exec("PRAGMA foreign_keys = ON");
  raw.exec("PRAGMA busy_timeout = 5000");
  raw.exec("PRAGMA cache_size = -65536"); // 64 MiB page cache
  raw.exec("PRAGMA mmap_size = 1073741824"); // read through the OS page cache, up to 1 GiB
  raw.exec("PRAGMA temp_store = MEMORY");
  const cache = new Map<string, SqliteStatement>();
  return {
    raw,
    close: () => raw.close(),
    prepare(sql: string): SqliteStatement {
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

function wrapStatement(statement: StatementSync): SqliteStatement {
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

function toSqliteValue(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value;
}

class NodeSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateTransactionSqliteDriver(this.#config);
  }
}

class ImmediateTransactionSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}
