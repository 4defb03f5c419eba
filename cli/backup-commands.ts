import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createFileStore } from "../app/adapters/files/file-store.server.ts";
import { createDatabase, isPostgresUrl, sqlitePathFromUrl } from "../app/db/database.server.ts";
import { formatBytes } from "../app/domain/backups/backup-form.ts";
import { restoreBackup } from "../app/domain/backups/restore-backup.server.ts";
import { backupServices, takeBackup } from "../app/domain/backups/take-backup.server.ts";
import type { Env } from "../app/env.server.ts";

/**
 * `npm run cli -- backup` and `restore` (decision 028). Neither migrates the configured database
 * first, as the other commands do: a backup takes the database as it is, and a restore's target
 * must be empty (or is replaced with --force).
 */
export const BACKUP_USAGE = `  backup [--to DIR | --to s3://bucket/prefix]
                                    one archive of the database (a consistent snapshot, taken while
                                    the shop serves) and the file store's images, with a manifest of
                                    checksums; default destination DATA_DIR/backups
  restore ARCHIVE [--into DATA_DIR] [--database-url URL] [--force]
                                    verify ARCHIVE (a file or s3://bucket/prefix/name), restore it
                                    into an empty database (--force replaces one) and its images into
                                    the file store, migrate, check; exit 0 only when every check passed`;

export async function backupCommand(env: Env, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { to: { type: "string" } } });
  const db = createDatabase(env.DATABASE_URL, { poolSize: 2 });
  try {
    const services = backupServices({ config: env, db, files: createFileStore(env.FILE_STORE_URL, env) });
    const started = performance.now();
    const done = await takeBackup(services, { destination: values.to ?? "", origin: "cli" });
    if (!done.ok) {
      console.error(`Backup failed (${done.error.destination}): ${done.error.message}`);
      return 1;
    }
    const { name, destination, bytes, manifest } = done.value;
    const database = manifest.parts.find((part) => part.kind === "database");
    const files = manifest.parts.filter((part) => part.kind === "file");
    const where = destination.startsWith("s3://") ? `${destination}/${name}` : join(destination, name);
    console.log(
      `Wrote ${where} (${formatBytes(bytes)}) in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
        `the ${manifest.engine === "postgres" ? "PostgreSQL" : "SQLite"} database (${formatBytes(database?.bytes ?? 0)}, schema ${manifest.schemaVersion ?? "none"}) ` +
        `and ${files.length} files (${formatBytes(files.reduce((sum, part) => sum + part.bytes, 0))}).`,
    );
    return 0;
  } finally {
    await db.destroy();
  }
}

export async function restoreCommand(env: Env, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      into: { type: "string" },
      "database-url": { type: "string" },
      force: { type: "boolean", default: false },
    },
  });
  const [archive, ...extra] = positionals;
  if (!archive || extra.length > 0) {
    console.error(
      "restore needs exactly one archive: npm run cli -- restore ARCHIVE [--into DATA_DIR] [--database-url URL] [--force]",
    );
    return 2;
  }
  const into = values.into ? resolve(values.into) : null;
  const databaseUrl =
    values["database-url"] ?? (into ? `file:${join(into, "cartwheel.db")}` : env.DATABASE_URL);
  const fileStoreUrl = into ? `file:${join(into, "uploads")}` : env.FILE_STORE_URL;
  const workDirectory =
    into ?? (isPostgresUrl(databaseUrl) ? resolve(env.DATA_DIR) : dirname(sqlitePathFromUrl(databaseUrl)));
  const started = performance.now();
  let restored: Awaited<ReturnType<typeof restoreBackup>>;
  try {
    restored = await restoreBackup({
      archive,
      databaseUrl,
      fileStoreUrl,
      workDirectory,
      force: values.force,
      s3: env,
      pgRestorePath: env.PG_RESTORE_PATH,
      log: (line) => console.log(line),
    });
  } catch (error) {
    // the target could not be reached or written (a database that does not answer, a full disk)
    console.error(`Restore of ${archive} failed: ${(error as Error).message}`);
    return 1;
  }
  if (!restored.ok) {
    console.error(`Refused to restore ${archive}: ${restored.error.message}. Nothing was changed.`);
    return 2;
  }
  const { checks, counts, ok } = restored.value;
  for (const check of checks) console.log(`${check.ok ? "ok  " : "FAIL"} ${check.name}: ${check.detail}`);
  console.log(
    `Rows: ${counts.orders} orders, ${counts.orderItems} order items, ${counts.refunds} refunds, ${counts.products} products.`,
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (!ok) {
    console.error(
      `Restored into ${redact(databaseUrl)} in ${seconds} s, but ${checks.filter((c) => !c.ok).length} checks failed.`,
    );
    return 1;
  }
  console.log(`Restored into ${redact(databaseUrl)} in ${seconds} s; every check passed.`);
  return 0;
}

/** A database URL as printed: without its password. */
function redact(url: string): string {
  if (!isPostgresUrl(url)) return url;
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}
