import { Worker } from "node:worker_threads";
import {
  CamelCasePlugin,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import type { Database } from "../db/database.server.ts";
import type { DB } from "../db/schema.ts";
import { queryTelemetry } from "./query-telemetry.server.ts";
import { toSqliteValue } from "./sqlite-connection.server.ts";

/**
 * SQLite readers off the app's thread (issue 33, decision 041). node:sqlite is synchronous: a
 * listing's SQL over a large catalogue (seconds at 1M products before the search index exists)
 * would hold the process's one thread, and every request with it. `readerOf(db)` gives the
 * listing a Kysely whose statements run in worker threads, each with a read-only connection of
 * its own to the same file (WAL: readers see what is committed and never block the writer). On
 * PostgreSQL, on an in-memory database and before `attachSqliteReaders`, it is `db` itself.
 */
export interface SqliteReaderWorker {
  /** the worker entry, sqlite-reader-worker.ts (server/main.ts knows where the source is) */
  url: URL;
  /** the SQLite file */
  path: string;
}

interface Pending {
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
}

/** Worker threads, each with one read at a time in flight at most in its queue order. */
class ReaderPool {
  readonly #spec: SqliteReaderWorker;
  readonly #size: number;
  readonly #threads: Array<{ worker: Worker; pending: Map<number, Pending> }> = [];
  #next = 0;
  #closed = false;

  constructor(spec: SqliteReaderWorker, size: number) {
    this.#spec = spec;
    this.#size = size;
  }

  #thread() {
    if (this.#threads.length < this.#size) {
      const worker = new Worker(this.#spec.url, { workerData: { path: this.#spec.path } });
      worker.unref(); // a reader never keeps the process alive
      const thread = { worker, pending: new Map<number, Pending>() };
      const fail = (error: Error) => {
        this.#threads.splice(this.#threads.indexOf(thread), 1);
        for (const { reject } of thread.pending.values()) reject(error);
        thread.pending.clear();
      };
      worker.on("message", (message: { id: number; rows?: unknown[]; error?: string }) => {
        const waiting = thread.pending.get(message.id);
        thread.pending.delete(message.id);
        if (message.error !== undefined) waiting?.reject(new Error(message.error));
        else waiting?.resolve(message.rows ?? []);
      });
      worker.on("error", fail);
      worker.on("exit", (code) => fail(new Error(`the SQLite reader stopped (exit code ${code})`)));
      this.#threads.push(thread);
      return thread;
    }
    // the least busy
    return this.#threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  read(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    if (this.#closed) return Promise.reject(new Error("the database is closed"));
    const thread = this.#thread();
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.postMessage({ id, sql, parameters: parameters.map(toSqliteValue) });
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#threads.splice(0).map(({ worker }) => worker.terminate()));
  }
}

class ReaderConnection implements DatabaseConnection {
  readonly #pool: ReaderPool;
  constructor(pool: ReaderPool) {
    this.#pool = pool;
  }
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return { rows: (await this.#pool.read(compiled.sql, compiled.parameters)) as R[] };
  }
  // biome-ignore lint/correctness/useYield: a reader answers whole results only
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("a SQLite reader does not stream");
  }
}

class ReaderDriver implements Driver {
  readonly #pool: ReaderPool;
  readonly #connection: ReaderConnection;
  constructor(pool: ReaderPool) {
    this.#pool = pool;
    this.#connection = new ReaderConnection(pool);
  }
  async init() {}
  async acquireConnection() {
    return this.#connection;
  }
  async beginTransaction(): Promise<void> {
    throw new Error("a SQLite reader only reads");
  }
  async commitTransaction() {}
  async rollbackTransaction() {}
  async releaseConnection() {}
  async destroy() {
    await this.#pool.close();
  }
}

const readers = new WeakMap<Database, Kysely<DB>>();

/** READERS threads: the second core reads while the first serves (2 cores here). */
export const SQLITE_READERS = 2;

/** From now on, `readerOf(db)` reads in worker threads (a SQLite file database only). */
export function attachSqliteReaders(db: Database, worker: SqliteReaderWorker, size = SQLITE_READERS): void {
  if (readers.has(db) || worker.path === ":memory:") return;
  const pool = new ReaderPool(worker, size);
  readers.set(
    db,
    new Kysely<DB>({
      dialect: {
        createAdapter: () => new SqliteAdapter(),
        createDriver: () => new ReaderDriver(pool),
        createIntrospector: (kysely) => new SqliteIntrospector(kysely),
        createQueryCompiler: () => new SqliteQueryCompiler(),
      },
      plugins: [new CamelCasePlugin()],
      log: queryTelemetry("sqlite"),
    }),
  );
}

/** Stops `db`'s readers (before the database closes). */
export async function detachSqliteReaders(db: Database): Promise<void> {
  const reader = readers.get(db);
  readers.delete(db);
  await reader?.destroy();
}

/**
 * Where a long read of `db` runs: its readers when attached, else `db`. For reads only — and for
 * reads that may miss a write this request has not committed (none of the listing's).
 */
export function readerOf(db: Database): Database {
  return (readers.get(db) as Database | undefined) ?? db;
}
