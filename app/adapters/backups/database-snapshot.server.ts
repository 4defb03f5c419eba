import { execFile } from "node:child_process";
import { backup, DatabaseSync } from "node:sqlite";
import { promisify } from "node:util";

/**
 * The database half of a backup (decision 028), for each engine: a consistent copy taken while
 * the shop keeps writing, and its way back.
 *
 * - SQLite: node:sqlite's online backup from a connection of its own, every page in ONE step —
 *   one read transaction, so the copy is the database as of one moment, while writers go on
 *   (WAL). In smaller steps SQLite restarts the copy whenever another connection writes between
 *   two steps, which a shop taking orders does all the time (tried: it never finished). It runs
 *   on libuv's thread pool, so the process's event loop keeps serving meanwhile.
 * - PostgreSQL: `pg_dump --format=custom` (one repeatable-read snapshot) and `pg_restore`, the
 *   binaries from PG_DUMP_PATH / PG_RESTORE_PATH or PATH; the password goes to them in
 *   PGPASSWORD, never on a command line another user could read.
 */

const run = promisify(execFile);

/** Copies the SQLite database at `path` into the new file `out`, as one consistent snapshot. */
export async function snapshotSqlite(path: string, out: string): Promise<void> {
  const source = new DatabaseSync(path, { timeout: 10_000 });
  try {
    await backup(source, out, { rate: 2 ** 31 - 1 });
  } finally {
    source.close();
  }
  // the copy carries the source's WAL mode: a self-contained file (no -wal beside it) is what travels
  const copy = new DatabaseSync(out);
  try {
    copy.exec("pragma journal_mode = delete");
  } finally {
    copy.close();
  }
}

/** The newest migration recorded in a SQLite file (kysely_migration), or null when none is. */
export function newestMigrationInSqlite(path: string): string | null {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const table = db
      .prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'")
      .get();
    if (!table) return null;
    const row = db.prepare("select name from kysely_migration order by name desc limit 1").get() as
      | { name: string }
      | undefined;
    return row?.name ?? null;
  } finally {
    db.close();
  }
}

/** A PostgreSQL URL without its password, and the password for PGPASSWORD. */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return {
    dbname: parsed.toString(),
    env: password ? { ...process.env, PGPASSWORD: password } : process.env,
  };
}

export class ToolError extends Error {}

async function tool(binary: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout } = await run(binary, args, { env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === "ENOENT") {
      const variable = binary.includes("pg_restore") ? "PG_RESTORE_PATH" : "PG_DUMP_PATH";
      throw new ToolError(
        `${binary} was not found: install PostgreSQL's client programs (the server's major version or newer) or set ${variable}`,
      );
    }
    throw new ToolError(`${binary} failed: ${(failure.stderr ?? failure.message).trim().slice(0, 2_000)}`);
  }
}

/** `pg_dump --format=custom` of the database at `url` into `out`. */
export async function dumpPostgres(url: string, out: string, pgDump = "pg_dump"): Promise<void> {
  const { dbname, env } = connection(url);
  await tool(pgDump, ["--format=custom", "--file", out, "--dbname", dbname], env);
}

/** The newest migration recorded in a custom-format dump (its kysely_migration rows), or null. */
export async function newestMigrationInDump(file: string, pgRestore = "pg_restore"): Promise<string | null> {
  const text = await tool(
    pgRestore,
    ["--data-only", "--table=kysely_migration", "--file=-", file],
    process.env,
  );
  const names: string[] = [];
  let copying = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("COPY ") && line.includes("kysely_migration")) copying = true;
    else if (line === "\\.") copying = false;
    else if (copying && line) names.push(line.split("\t")[0]!);
  }
  return names.sort().at(-1) ?? null;
}

/**
 * Restores a custom-format dump into the (empty) database at `url`, in one transaction: all of
 * it or nothing. Objects belong to the restoring user (--no-owner, --no-privileges).
 */
export async function restorePostgres(url: string, file: string, pgRestore = "pg_restore"): Promise<void> {
  const { dbname, env } = connection(url);
  await tool(
    pgRestore,
    ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", "--dbname", dbname, file],
    env,
  );
}
