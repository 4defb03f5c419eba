/**
 * Worker-thread entry of a SQLite reader (sqlite-readers.server.ts): a read-only connection of its
 * own to the shop's file (WAL lets it read beside the app's connection), answering the statements
 * the app's thread sends, so a long read never holds that thread. Imports nothing of the app.
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { parentPort, workerData } from "node:worker_threads";

const { path } = workerData as { path: string };
const db = new DatabaseSync(path, { timeout: 5_000 });
db.exec("PRAGMA query_only = ON");
db.exec("PRAGMA busy_timeout = 5000");
db.exec("PRAGMA cache_size = -65536");
db.exec("PRAGMA mmap_size = 1073741824");
db.exec("PRAGMA temp_store = MEMORY");

const statements = new Map<string, StatementSync>();

parentPort?.on("message", ({ id, sql, parameters }: { id: number; sql: string; parameters: unknown[] }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      if (statements.size > 200) statements.clear();
      statements.set(sql, statement);
    }
    parentPort?.postMessage({ id, rows: statement.all(...(parameters as never[])) });
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
