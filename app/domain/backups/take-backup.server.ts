import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import type { Insertable } from "kysely";
import { digestFile, writeArchive } from "../../adapters/backups/archive-file.server.ts";
import {
  type BackupDestination,
  type BackupLocation,
  DestinationError,
  describeLocation,
  openDestination,
  parseBackupLocation,
} from "../../adapters/backups/backup-destination.server.ts";
import {
  dumpPostgres,
  newestMigrationInDump,
  newestMigrationInSqlite,
  snapshotSqlite,
} from "../../adapters/backups/database-snapshot.server.ts";
import { shopVersion } from "../../adapters/backups/shop-version.server.ts";
import type { S3Settings } from "../../adapters/files/file-store.server.ts";
import type { FileStore } from "../../adapters/files/file-store.ts";
import { parseFileStoreUrl } from "../../adapters/files/file-store-url.ts";
import { logger } from "../../adapters/logger.server.ts";
import { type Database, isPostgresUrl, sqlitePathFromUrl } from "../../db/database.server.ts";
import type { BackupOrigin, BackupRunsTable } from "../../db/schema.ts";
import type { Env } from "../../env.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import {
  type BackupManifest,
  DATABASE_PATH,
  FILES_PREFIX,
  FORMAT_VERSION,
  MANIFEST_DIGEST_PATH,
  MANIFEST_PATH,
  type ManifestPart,
  manifestDigestLine,
} from "./backup-manifest.server.ts";
import { archiveName, UNFINISHED_SUFFIX } from "./backup-names.ts";

/**
 * Taking a backup (decision 028): the database as one consistent snapshot taken while the shop
 * serves (SQLite's online backup, or pg_dump), then every file of the file store, then the
 * manifest, into one archive written as `<name>.partial`, synced, and only then published under
 * its name (renamed in a directory, uploaded to a bucket). A run is recorded in `backup_runs` when
 * it ends, ok or failed. No database transaction is open while any of it happens.
 */

/** What a backup works with: the shop's database and file store, where they are, and the S3 settings. */
export interface BackupServices {
  db: Database;
  databaseUrl: string;
  files: FileStore;
  fileStoreUrl: string;
  /** the default destination is `<dataDir>/backups`; a bucket's archives are written there first */
  dataDir: string;
  s3: S3Settings;
  pgDumpPath?: string;
  pgRestorePath?: string;
}

export function backupServices({
  config,
  db,
  files,
}: {
  config: Env;
  db: Database;
  files: FileStore;
}): BackupServices {
  return {
    db,
    databaseUrl: config.DATABASE_URL,
    files,
    fileStoreUrl: config.FILE_STORE_URL,
    dataDir: config.DATA_DIR,
    s3: config,
    pgDumpPath: config.PG_DUMP_PATH,
    pgRestorePath: config.PG_RESTORE_PATH,
  };
}

/** Where backups go when no destination is set: `<DATA_DIR>/backups`. */
export function defaultBackupDirectory(dataDir: string): string {
  return resolve(dataDir, "backups");
}

/**
 * The destination a setting names ("" is the default directory), or why it cannot be one. A
 * destination inside the file store is refused: the next backup would hold the ones before it.
 */
export function backupLocation(
  services: Pick<BackupServices, "dataDir" | "fileStoreUrl">,
  destination: string,
): Result<BackupLocation, { code: "invalid-destination" | "inside-file-store"; message: string }> {
  let location: BackupLocation;
  try {
    location = parseBackupLocation(destination.trim() || defaultBackupDirectory(services.dataDir));
  } catch (error) {
    return fail({ code: "invalid-destination", message: (error as Error).message });
  }
  const store = parseFileStoreUrl(services.fileStoreUrl);
  const inside =
    store.kind === "file" && location.kind === "local"
      ? isWithin(location.directory, resolve(store.directory), sep)
      : store.kind === "s3" &&
        location.kind === "s3" &&
        store.bucket === location.bucket &&
        isWithin(location.prefix, store.prefix, "/");
  if (inside) {
    return fail({
      code: "inside-file-store",
      message: `${describeLocation(location)} is inside the file store (${services.fileStoreUrl}): choose a place outside it`,
    });
  }
  return ok(location);
}

function isWithin(path: string, parent: string, separator: string): boolean {
  return parent === "" || path === parent || path.startsWith(parent + separator);
}

export interface BackupDone {
  name: string;
  /** the directory or s3://bucket/prefix it went to */
  destination: string;
  bytes: number;
  manifest: BackupManifest;
}

export type BackupFailure = { code: "failed"; message: string; destination: string };

export async function takeBackup(
  services: BackupServices,
  {
    destination = "",
    origin,
    requestedBy = null,
    now = new Date(),
  }: { destination?: string; origin: BackupOrigin; requestedBy?: string | null; now?: Date },
): Promise<Result<BackupDone, BackupFailure>> {
  const startedAt = now.toISOString();
  const located = backupLocation(services, destination);
  const where = located.ok ? describeLocation(located.value) : destination;
  let outcome: Result<BackupDone, BackupFailure>;
  if (!located.ok) {
    outcome = fail({ code: "failed", message: located.error.message, destination: where });
  } else {
    const target = openDestination(located.value, {
      s3: services.s3,
      scratch: defaultBackupDirectory(services.dataDir),
    });
    try {
      outcome = ok(await writeBackup(services, target, now));
    } catch (error) {
      outcome = fail({ code: "failed", message: messageOf(error), destination: where });
    }
  }
  await recordRun(services, {
    startedAt,
    finishedAt: new Date().toISOString(),
    status: outcome.ok ? "ok" : "failed",
    origin,
    requestedBy,
    destination: where,
    archiveName: outcome.ok ? outcome.value.name : null,
    sizeBytes: outcome.ok ? outcome.value.bytes : null,
    error: outcome.ok ? null : outcome.error.message,
  });
  return outcome;
}

/**
 * The run's row. A database older than the backups migration (the CLI backs up without migrating)
 * has nowhere to record it: the archive stands, and that is logged.
 */
async function recordRun(services: BackupServices, run: Insertable<BackupRunsTable>): Promise<void> {
  try {
    await services.db.insertInto("backupRuns").values(run).execute();
  } catch (error) {
    logger.warn({ err: error, archive: run.archiveName }, "backup run not recorded");
  }
}

function messageOf(error: unknown): string {
  if (error instanceof DestinationError) return error.message;
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, 2_000);
}

async function writeBackup(
  services: BackupServices,
  target: BackupDestination,
  now: Date,
): Promise<BackupDone> {
  const name = archiveName(now, randomBytes(3).toString("hex"));
  const scratch = await target.scratchDirectory();
  const work = join(scratch, `${name}.work`);
  const partial = join(scratch, `${name}${UNFINISHED_SUFFIX}`);
  try {
    await mkdir(join(work, "database"), { recursive: true });
    // 1. the database, as of one moment
    const postgres = isPostgresUrl(services.databaseUrl);
    const engine = postgres ? "postgres" : "sqlite";
    const databaseFile = join(work, DATABASE_PATH[engine]);
    let schemaVersion: string | null;
    if (postgres) {
      await dumpPostgres(services.databaseUrl, databaseFile, services.pgDumpPath);
      schemaVersion = await newestMigrationInDump(databaseFile, services.pgRestorePath);
    } else {
      const path = sqlitePathFromUrl(services.databaseUrl);
      if (!existsSync(path)) throw new Error(`there is no database at ${path}`);
      await snapshotSqlite(path, databaseFile);
      schemaVersion = newestMigrationInSqlite(databaseFile);
    }
    const parts: ManifestPart[] = [
      { path: DATABASE_PATH[engine], kind: "database", ...(await digestFile(databaseFile)) },
    ];
    // 2. the file store's files (taken after the database: an image uploaded meanwhile is there
    //    too; one deleted meanwhile is skipped)
    const files: ManifestPart[] = [];
    for await (const key of services.files.list()) {
      const bytes = await services.files.get(key);
      if (!bytes) continue;
      const path = `${FILES_PREFIX}${key}`;
      await mkdir(dirname(join(work, path)), { recursive: true });
      await writeFile(join(work, path), bytes);
      files.push({
        path,
        kind: "file",
        bytes: bytes.length,
        sha256: createHash("sha256").update(bytes).digest("hex"),
      });
    }
    parts.push(...files.sort((a, b) => (a.path < b.path ? -1 : 1)));
    // 3. the manifest, then the archive, synced, then published under its name
    const version = await shopVersion();
    const manifest: BackupManifest = {
      format: "cartwheel-backup",
      formatVersion: FORMAT_VERSION,
      createdAt: now.toISOString(),
      shop: version,
      schemaVersion,
      engine,
      parts,
    };
    const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
    await writeFile(join(work, MANIFEST_PATH), manifestText);
    await writeFile(
      join(work, MANIFEST_DIGEST_PATH),
      manifestDigestLine(createHash("sha256").update(manifestText).digest("hex")),
    );
    await writeArchive(
      work,
      [MANIFEST_PATH, MANIFEST_DIGEST_PATH, ...parts.map((part) => part.path)],
      partial,
    );
    const { size } = await stat(partial);
    await target.publish(partial, name);
    return { name, destination: describeLocation(target.location), bytes: size, manifest };
  } finally {
    await rm(work, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}
