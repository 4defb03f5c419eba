import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { sql } from "kysely";
import {
  digestFile,
  extractArchive,
  syncFile,
  verifyGzip,
} from "../../adapters/backups/archive-file.server.ts";
import { openDestination, parseBackupLocation } from "../../adapters/backups/backup-destination.server.ts";
import { restorePostgres } from "../../adapters/backups/database-snapshot.server.ts";
import { createFileStore, type S3Settings } from "../../adapters/files/file-store.server.ts";
import {
  createDatabase,
  type Database,
  type Engine,
  isPostgresUrl,
  sqlitePathFromUrl,
} from "../../db/database.server.ts";
import { MIGRATION_NAMES, migrateToLatest } from "../../db/migrate.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { checkStockLedger } from "../inventory/stock-ledger.server.ts";
import {
  type BackupManifest,
  DATABASE_PATH,
  FILES_PREFIX,
  isArchivePath,
  MANIFEST_DIGEST_PATH,
  MANIFEST_PATH,
  manifestDigestLine,
  readManifest,
} from "./backup-manifest.server.ts";
import { UNFINISHED_SUFFIX } from "./backup-names.ts";

/**
 * Restoring a backup (decision 028), refusing first whatever it cannot vouch for: an unfinished
 * archive, a damaged one, one whose manifest or any part's SHA-256 does not match, one of a newer
 * archive format or schema than this code knows, one of the other engine, and any target that is
 * not empty unless forced. Then the database goes in (a SQLite file renamed into place; pg_restore
 * in one transaction), the migrations run up to this code's, the files go into the target's file
 * store, and the restored shop is checked: SQLite's integrity and foreign keys, the stock ledger
 * against every level, every product image the database names present in the file store.
 */

export interface RestoreInput {
  /** a local archive, or s3://bucket/prefix/<name> (read with the S3 settings) */
  archive: string;
  databaseUrl: string;
  fileStoreUrl: string;
  /** where the archive is unpacked meanwhile (for a SQLite target, best on its file system) */
  workDirectory: string;
  /** replace a target that is not empty */
  force?: boolean;
  s3: S3Settings;
  pgRestorePath?: string;
  log?: (line: string) => void;
}

export type RestoreRefusal = {
  code:
    | "missing"
    | "unfinished"
    | "damaged"
    | "not-verified"
    | "newer-format"
    | "newer-schema"
    | "other-engine"
    | "not-empty";
  message: string;
};

export interface RestoreCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export interface RestoreDone {
  manifest: BackupManifest;
  /** migrations applied after the restore (the archive's schema was older than this code's) */
  migrated: string[];
  files: number;
  checks: RestoreCheck[];
  counts: { orders: number; orderItems: number; refunds: number; products: number };
  /** every check passed */
  ok: boolean;
}

const ENGINE_NAMES: Record<Engine, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };

export async function restoreBackup(input: RestoreInput): Promise<Result<RestoreDone, RestoreRefusal>> {
  const log = input.log ?? (() => {});
  const name = basename(input.archive);
  if (name.endsWith(UNFINISHED_SUFFIX)) {
    return fail({
      code: "unfinished",
      message: `${name} is an unfinished backup (its name ends in ${UNFINISHED_SUFFIX}): the backup writing it stopped before it was complete`,
    });
  }
  await mkdir(input.workDirectory, { recursive: true });
  const work = join(input.workDirectory, `.restore-${randomBytes(4).toString("hex")}`);
  await mkdir(work);
  try {
    const file = await localArchive(input, work);
    if (!file) return fail({ code: "missing", message: `there is no archive at ${input.archive}` });
    const unpacked = join(work, "archive");
    await mkdir(unpacked);
    const verified = await unpackAndVerify(file, unpacked);
    if (!verified.ok) return verified;
    const manifest = verified.value;
    log(
      `Verified ${manifest.parts.length} parts of a ${ENGINE_NAMES[manifest.engine]} backup taken ${manifest.createdAt} (schema ${manifest.schemaVersion ?? "none"}, Cartwheel ${manifest.shop.version}${manifest.shop.commit ? ` ${manifest.shop.commit.slice(0, 12)}` : ""}).`,
    );
    const engine: Engine = isPostgresUrl(input.databaseUrl) ? "postgres" : "sqlite";
    if (manifest.engine !== engine) {
      return fail({
        code: "other-engine",
        message: `the archive holds a ${ENGINE_NAMES[manifest.engine]} database and the target is ${ENGINE_NAMES[engine]}: restore it into a ${ENGINE_NAMES[manifest.engine]} database (${manifest.engine === "postgres" ? "--database-url postgres://…" : "--into DATA_DIR"})`,
      });
    }
    if (manifest.schemaVersion !== null && !MIGRATION_NAMES.includes(manifest.schemaVersion)) {
      return fail({
        code: "newer-schema",
        message: `the archive's database has the migration ${manifest.schemaVersion}, which this version of Cartwheel does not have: it was made by a newer version (${manifest.shop.version}${manifest.shop.commit ? `, commit ${manifest.shop.commit.slice(0, 12)}` : ""}). Upgrade Cartwheel, then restore`,
      });
    }
    const tables = await targetTables(input.databaseUrl);
    if (tables > 0 && !input.force) {
      return fail({
        code: "not-empty",
        message: `the target database is not empty (${tables} tables): restore only into an empty database, or add --force to replace it`,
      });
    }
    const databaseFile = join(unpacked, DATABASE_PATH[engine]);
    if (engine === "sqlite") await placeSqlite(databaseFile, sqlitePathFromUrl(input.databaseUrl));
    else await placePostgres(input, databaseFile, tables > 0);
    log(`Restored the database${tables > 0 ? ` (replacing ${tables} tables)` : ""}.`);

    const db = createDatabase(input.databaseUrl, { poolSize: 2 });
    try {
      const migrated = await migrateToLatest(db);
      if (migrated.length > 0) log(`Applied ${migrated.length} newer migrations: ${migrated.join(", ")}.`);
      // leases were held by the old shop's processes, which are not this one's
      await db.deleteFrom("jobLeases").execute();
      const store = createFileStore(input.fileStoreUrl, input.s3);
      const files = manifest.parts.filter((part) => part.kind === "file");
      for (const part of files) {
        const key = part.path.slice(FILES_PREFIX.length);
        await store.put(key, await readFile(join(unpacked, part.path)), contentTypeOf(key));
      }
      log(`Restored ${files.length} files into ${input.fileStoreUrl}.`);
      const stored = new Set<string>();
      for await (const key of store.list()) stored.add(key);
      const checks = await checkRestoredShop(db, engine, stored);
      const counts = await countRows(db);
      return ok({ manifest, migrated, files: files.length, checks, counts, ok: checks.every((c) => c.ok) });
    } finally {
      await db.destroy();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The archive as a local file: the path itself, or downloaded from a bucket into `work`. */
async function localArchive(input: RestoreInput, work: string): Promise<string | null> {
  if (!input.archive.startsWith("s3://")) return existsSync(input.archive) ? input.archive : null;
  const slash = input.archive.lastIndexOf("/");
  const location = parseBackupLocation(input.archive.slice(0, slash));
  const to = join(work, "download.tar.gz");
  try {
    await openDestination(location, { s3: input.s3, scratch: work }).download(
      input.archive.slice(slash + 1),
      to,
    );
  } catch (error) {
    if ((error as { name?: string }).name === "NoSuchKey") return null;
    throw error;
  }
  return to;
}

async function unpackAndVerify(file: string, into: string): Promise<Result<BackupManifest, RestoreRefusal>> {
  const notVerified = (message: string) => fail({ code: "not-verified" as const, message });
  try {
    await verifyGzip(file);
    const { refused } = await extractArchive(file, into, isArchivePath);
    if (refused.length > 0) {
      return notVerified(
        `the archive holds entries a Cartwheel backup does not: ${refused.slice(0, 5).join(", ")}`,
      );
    }
  } catch (error) {
    return fail({
      code: "damaged",
      message: `the archive is damaged or incomplete (${(error as Error).message})`,
    });
  }
  const manifestFile = join(into, MANIFEST_PATH);
  if (!existsSync(manifestFile) || !existsSync(join(into, MANIFEST_DIGEST_PATH))) {
    return fail({
      code: "damaged",
      message: "the archive has no manifest: it is incomplete or not a Cartwheel backup",
    });
  }
  const { sha256 } = await digestFile(manifestFile);
  if ((await readFile(join(into, MANIFEST_DIGEST_PATH), "utf8")) !== manifestDigestLine(sha256)) {
    return notVerified(
      "its manifest does not match the manifest's checksum: the archive was changed or damaged",
    );
  }
  const read = readManifest(await readFile(manifestFile, "utf8"));
  if (!read.ok) {
    return fail({
      code: read.message.includes("newer") ? "newer-format" : "not-verified",
      message: read.message,
    });
  }
  const { manifest } = read;
  const databases = manifest.parts.filter((part) => part.kind === "database");
  if (databases.length !== 1 || databases[0]!.path !== DATABASE_PATH[manifest.engine]) {
    return notVerified("its manifest does not name exactly one database of its engine");
  }
  const listed = new Set<string>([MANIFEST_PATH, MANIFEST_DIGEST_PATH]);
  for (const part of manifest.parts) {
    listed.add(part.path);
    const path = join(into, part.path);
    if (!existsSync(path)) return notVerified(`${part.path}, which its manifest lists, is missing`);
    const digest = await digestFile(path);
    if (digest.bytes !== part.bytes || digest.sha256 !== part.sha256) {
      return notVerified(
        `${part.path} does not match its SHA-256 in the manifest: the archive was changed or damaged`,
      );
    }
  }
  for (const path of await filesUnder(into)) {
    if (!listed.has(path)) return notVerified(`${path} is in the archive but not in its manifest`);
  }
  return ok(manifest);
}

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(directory, join(entry.parentPath, entry.name)).split(sep).join("/"));
}

/** How many tables the target database holds (0: a missing or empty SQLite file, a new PostgreSQL database). */
async function targetTables(url: string): Promise<number> {
  if (!isPostgresUrl(url)) {
    const path = sqlitePathFromUrl(url);
    if (!existsSync(path) || (await stat(path)).size === 0) return 0;
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const row = db
        .prepare("select count(*) as n from sqlite_master where type = 'table' and name not like 'sqlite_%'")
        .get() as { n: number };
      return Number(row.n);
    } finally {
      db.close();
    }
  }
  const db = createDatabase(url, { poolSize: 1 });
  try {
    const { rows } = await sql<{ n: number }>`select count(*) as n from information_schema.tables
      where table_schema not in ('pg_catalog', 'information_schema')`.execute(db);
    return Number(rows[0]?.n ?? 0);
  } finally {
    await db.destroy();
  }
}

/** The SQLite file renamed into place (any old one's WAL gone first), synced. */
async function placeSqlite(from: string, path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const incoming = `${path}.restoring-${randomBytes(4).toString("hex")}`;
  await copyFile(from, incoming);
  await syncFile(incoming);
  await rm(`${path}-wal`, { force: true });
  await rm(`${path}-shm`, { force: true });
  await rename(incoming, path);
  await syncFile(dirname(path));
}

async function placePostgres(input: RestoreInput, dump: string, replace: boolean): Promise<void> {
  if (replace) {
    const db = createDatabase(input.databaseUrl, { poolSize: 1 });
    try {
      await sql`drop schema public cascade`.execute(db);
      await sql`create schema public`.execute(db);
    } finally {
      await db.destroy();
    }
  }
  await restorePostgres(input.databaseUrl, dump, input.pgRestorePath);
}

const CONTENT_TYPES: Record<string, string> = {
  webp: "image/webp",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  avif: "image/avif",
  svg: "image/svg+xml",
};

function contentTypeOf(key: string): string {
  return CONTENT_TYPES[key.slice(key.lastIndexOf(".") + 1)] ?? "application/octet-stream";
}

async function checkRestoredShop(db: Database, engine: Engine, stored: Set<string>): Promise<RestoreCheck[]> {
  const checks: RestoreCheck[] = [];
  if (engine === "sqlite") {
    const integrity = (await sql<Record<string, string>>`pragma integrity_check`.execute(db)).rows.map(
      (row) => Object.values(row)[0],
    );
    checks.push({
      name: "SQLite integrity_check",
      ok: integrity.length === 1 && integrity[0] === "ok",
      detail: integrity.slice(0, 5).join("; "),
    });
    const foreignKeys = (await sql`pragma foreign_key_check`.execute(db)).rows;
    checks.push({
      name: "SQLite foreign_key_check",
      ok: foreignKeys.length === 0,
      detail: foreignKeys.length === 0 ? "every reference holds" : `${foreignKeys.length} broken references`,
    });
  }
  const drift = await checkStockLedger(db);
  const drifting = drift.variants.length + drift.products.length;
  checks.push({
    name: "stock ledger",
    ok: drifting === 0,
    detail:
      drifting === 0
        ? `every level equals its ledger (${drift.movements} movements)`
        : `${drifting} levels differ from the ledger (npm run cli -- inventory:check lists them)`,
  });
  const images = await db.selectFrom("productImages").select(["key", "widths"]).execute();
  const missing: string[] = [];
  let named = 0;
  for (const image of images) {
    for (const width of JSON.parse(image.widths) as number[]) {
      named++;
      const key = `${image.key}-${width}.webp`;
      if (!stored.has(key)) missing.push(key);
    }
  }
  checks.push({
    name: "product images",
    ok: missing.length === 0,
    detail:
      missing.length === 0
        ? `all ${named} files the products name are in the file store`
        : `${missing.length} of ${named} missing: ${missing.slice(0, 5).join(", ")}`,
  });
  return checks;
}

async function countRows(db: Database): Promise<RestoreDone["counts"]> {
  const count = async (table: "orders" | "orderItems" | "orderRefunds" | "products") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    orders: await count("orders"),
    orderItems: await count("orderItems"),
    refunds: await count("orderRefunds"),
    products: await count("products"),
  };
}
