import { createReadStream } from "node:fs";
import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { describeLocation, openDestination } from "../../adapters/backups/backup-destination.server.ts";
import { logger } from "../../adapters/logger.server.ts";
import { engineOf } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import { runAfterResponse } from "../../jobs/after-response.server.ts";
import { withJobLease } from "../../jobs/job-lease.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { type Actor, recordAudit } from "../audit/audit-log.server.ts";
import { archivesBeyond, isArchiveName, UNFINISHED_SUFFIX } from "./backup-names.ts";
import {
  type BackupDone,
  type BackupFailure,
  type BackupServices,
  backupLocation,
  defaultBackupDirectory,
  takeBackup,
} from "./take-backup.server.ts";

/**
 * Scheduled backups (decision 028): the owner's settings (Admin → Backups), the daily run when
 * enabled and due, "Back up now", pruning beyond the retention count, and the runs' list. A run
 * takes the job lease "backup" (app/jobs/job-lease.server.ts), so one process backs up at a time.
 */

export interface BackupSettings {
  enabled: boolean;
  /** the hour of the day (UTC) at which the daily backup is due */
  hourUtc: number;
  /** how many archives to keep at the destination */
  keepCount: number;
  /** a directory or s3://bucket/prefix; "" is DATA_DIR/backups */
  destination: string;
  /** when the owner last saved them (null: never, the defaults) */
  updatedAt: string | null;
}

export const DEFAULT_BACKUP_SETTINGS: BackupSettings = {
  enabled: false,
  hourUtc: 2,
  keepCount: 7,
  destination: "",
  updatedAt: null,
};

/** Longer than a backup can take: the lease of a process killed mid-backup lapses after it (SQLite). */
export const BACKUP_LEASE_MS = 3 * 60 * 60_000;
/** An unfinished archive or work directory this old was left by a process that stopped. */
const STALE_UNFINISHED_MS = 24 * 60 * 60_000;

export async function readBackupSettings(db: BackupServices["db"]): Promise<BackupSettings> {
  const row = await db.selectFrom("backupSettings").selectAll().where("id", "=", 1).executeTakeFirst();
  if (!row) return DEFAULT_BACKUP_SETTINGS;
  return {
    enabled: row.enabled === 1,
    hourUtc: row.hourUtc,
    keepCount: row.keepCount,
    destination: row.destination,
    updatedAt: row.updatedAt,
  };
}

export type SaveBackupSettingsError = { code: "invalid-destination" | "inside-file-store"; message: string };

/** Stores the owner's settings with an audit entry; a destination that cannot be one is refused. */
export async function saveBackupSettings(
  services: Pick<BackupServices, "db" | "dataDir" | "fileStoreUrl">,
  {
    settings,
    actor,
    now = new Date(),
  }: { settings: Omit<BackupSettings, "updatedAt">; actor: Actor; now?: Date },
): Promise<Result<{ saved: boolean }, SaveBackupSettingsError>> {
  const located = backupLocation(services, settings.destination);
  if (!located.ok) return fail(located.error);
  const values = {
    id: 1,
    enabled: settings.enabled ? (1 as const) : (0 as const),
    hourUtc: settings.hourUtc,
    keepCount: settings.keepCount,
    destination: settings.destination.trim(),
    updatedAt: now.toISOString(),
  };
  return services.db.transaction().execute(async (trx) => {
    let query = trx.selectFrom("backupSettings").selectAll().where("id", "=", 1);
    if (engineOf<DB>(trx) === "postgres") query = query.forUpdate();
    const before = await query.executeTakeFirst();
    const same =
      before &&
      before.enabled === values.enabled &&
      before.hourUtc === values.hourUtc &&
      before.keepCount === values.keepCount &&
      before.destination === values.destination;
    if (same) return ok({ saved: false });
    const { id: _id, ...update } = values;
    await trx
      .insertInto("backupSettings")
      .values(values)
      .onConflict((conflict) => conflict.column("id").doUpdateSet(update))
      .execute();
    const hour = `${String(values.hourUtc).padStart(2, "0")}:00 UTC`;
    await recordAudit(trx, {
      actor,
      action: "settings.update",
      entityType: "settings",
      entityId: "backups",
      summary: values.enabled
        ? `Backups every day at ${hour}, keeping ${values.keepCount}, to ${describeLocation(located.value)}`
        : "Scheduled backups off",
      before: before ? { ...before, id: undefined } : null,
      after: update,
      now,
    });
    return ok({ saved: true });
  });
}

/** The last moment a daily backup was due at or before `now` (today's hour, else yesterday's). */
export function lastDueAt(hourUtc: number, now: Date): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hourUtc);
  return new Date(today <= now.getTime() ? today : today - 24 * 60 * 60_000);
}

/**
 * Whether the daily backup is due: enabled, and none has been run by the schedule since the last
 * due moment — a shop that was down at the hour backs up when it is back. Settings saved after that
 * moment wait for the next one (enabling at 15:00 for 02:00 does not back up at once).
 */
export function backupDue(settings: BackupSettings, lastScheduledStart: string | null, now: Date): boolean {
  if (!settings.enabled) return false;
  const due = lastDueAt(settings.hourUtc, now).toISOString();
  if (settings.updatedAt && settings.updatedAt > due) return false;
  return lastScheduledStart === null || lastScheduledStart < due;
}

/** When the next scheduled backup is due (null: off). */
export function nextDueAt(
  settings: BackupSettings,
  lastScheduledStart: string | null,
  now: Date,
): Date | null {
  if (!settings.enabled) return null;
  if (backupDue(settings, lastScheduledStart, now)) return now;
  return new Date(lastDueAt(settings.hourUtc, now).getTime() + 24 * 60 * 60_000);
}

/** When the last scheduled backup began (null: never). */
export async function lastScheduledStart(db: BackupServices["db"]): Promise<string | null> {
  const row = await db
    .selectFrom("backupRuns")
    .select("startedAt")
    .where("origin", "=", "schedule")
    .orderBy("startedAt", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.startedAt ?? null;
}

export type BackupRunOutcome = Result<BackupDone & { pruned: string[] }, BackupFailure>;

/** A backup to the owner's destination, then the archives beyond the retention count deleted. */
async function backUpAndPrune(
  services: BackupServices,
  settings: BackupSettings,
  run: { origin: "schedule" | "manual"; requestedBy?: string | null; now: Date },
): Promise<BackupRunOutcome> {
  const done = await takeBackup(services, { destination: settings.destination, ...run });
  if (!done.ok) {
    logger.error({ destination: done.error.destination, error: done.error.message }, "backup failed");
    return done;
  }
  // a failed prune leaves old archives behind; the backup itself stands
  const pruned = await pruneBackups(services, settings).catch((error: unknown) => {
    logger.error({ err: error, destination: done.value.destination }, "deleting old backups failed");
    return [] as string[];
  });
  logger.info(
    { archive: done.value.name, destination: done.value.destination, bytes: done.value.bytes, pruned },
    "backup written",
  );
  return ok({ ...done.value, pruned });
}

/**
 * The daily job's turn (app/jobs/background-jobs.server.ts runs it under the "backup" lease):
 * backs up when enabled and due, else does nothing.
 */
export async function runScheduledBackup(
  services: BackupServices,
  now = new Date(),
): Promise<{ ran: false } | { ran: true; outcome: BackupRunOutcome }> {
  const settings = await readBackupSettings(services.db);
  if (!backupDue(settings, await lastScheduledStart(services.db), now)) return { ran: false };
  return { ran: true, outcome: await backUpAndPrune(services, settings, { origin: "schedule", now }) };
}

/**
 * "Back up now": under the "backup" lease (a backup already running in any process means this one
 * is recorded as not started, with why). The caller decides when it runs (startBackupNow: after
 * the response).
 */
export async function runBackupNow(
  services: BackupServices,
  { requestedBy, now = new Date() }: { requestedBy: string; now?: Date },
): Promise<BackupRunOutcome> {
  const settings = await readBackupSettings(services.db);
  const outcome = await withJobLease(services.db, "backup", { ttlMs: BACKUP_LEASE_MS }, () =>
    backUpAndPrune(services, settings, { origin: "manual", requestedBy, now }),
  );
  if (outcome) return outcome;
  const message = "another backup was running at the time, so this one did not start";
  const located = backupLocation(services, settings.destination);
  const destination = located.ok ? describeLocation(located.value) : settings.destination;
  const at = now.toISOString();
  await services.db
    .insertInto("backupRuns")
    .values({
      startedAt: at,
      finishedAt: at,
      status: "failed",
      origin: "manual",
      requestedBy,
      destination,
      archiveName: null,
      sizeBytes: null,
      error: message,
    })
    .execute();
  return fail({ code: "failed", message, destination });
}

/**
 * "Back up now" from the admin page: the backup runs after the response in this process
 * (app/jobs/after-response.server.ts; a shutdown waits for it), because its time grows with the
 * shop — seconds for the demo shop, about a minute at a million orders — past what a request
 * should take or a proxy waits for. Its outcome is a row of the page's list.
 */
export function startBackupNow(services: BackupServices, { requestedBy }: { requestedBy: string }): void {
  runAfterResponse("backup-now", () => runBackupNow(services, { requestedBy }));
}

/**
 * Deletes the archives at the owner's destination beyond the newest `keepCount`, and (in a
 * directory) unfinished archives and work directories a stopped process left over a day ago.
 */
export async function pruneBackups(services: BackupServices, settings: BackupSettings): Promise<string[]> {
  const located = backupLocation(services, settings.destination);
  if (!located.ok) return [];
  const destination = openDestination(located.value, {
    s3: services.s3,
    scratch: defaultBackupDirectory(services.dataDir),
  });
  const archives = await destination.list(isArchiveName);
  const beyond = archivesBeyond(
    archives.map((archive) => archive.name),
    settings.keepCount,
  );
  for (const name of beyond) await destination.delete(name);
  if (located.value.kind === "local") {
    const { directory } = located.value;
    for (const name of await readdir(directory).catch(() => [] as string[])) {
      if (!name.endsWith(UNFINISHED_SUFFIX) && !name.endsWith(".work")) continue;
      const info = await stat(join(directory, name)).catch(() => null);
      if (info && Date.now() - info.mtimeMs > STALE_UNFINISHED_MS) {
        await rm(join(directory, name), { recursive: true, force: true });
      }
    }
  }
  return beyond;
}

export interface BackupRunRow {
  id: number;
  startedAt: string;
  finishedAt: string;
  status: "ok" | "failed";
  origin: "schedule" | "manual" | "cli";
  requestedBy: string | null;
  destination: string;
  archiveName: string | null;
  sizeBytes: number | null;
  error: string | null;
  /** a local archive that is still there: the page links it for download */
  downloadable: boolean;
}

/** The latest runs, newest first, each saying whether its archive can still be downloaded. */
export async function listBackupRuns(services: BackupServices, limit = 20): Promise<BackupRunRow[]> {
  const rows = await services.db
    .selectFrom("backupRuns")
    .selectAll()
    .orderBy("startedAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return Promise.all(
    rows.map(async (row) => ({
      ...row,
      sizeBytes: row.sizeBytes === null ? null : Number(row.sizeBytes),
      downloadable: row.status === "ok" && (await localArchivePath(row)) !== null,
    })),
  );
}

async function localArchivePath(row: {
  destination: string;
  archiveName: string | null;
}): Promise<string | null> {
  if (!row.archiveName || !isArchiveName(row.archiveName) || row.destination.startsWith("s3://")) return null;
  const path = join(row.destination, row.archiveName);
  const info = await stat(path).catch(() => null);
  return info?.isFile() ? path : null;
}

/**
 * A local archive for download, by name: only one a backup run wrote and recorded, still where it
 * was written. Null for any other name (the route answers 404).
 */
export async function openBackupArchive(
  services: BackupServices,
  name: string,
): Promise<{ stream: Readable; bytes: number } | null> {
  if (!isArchiveName(name)) return null;
  const row = await services.db
    .selectFrom("backupRuns")
    .select(["destination", "archiveName"])
    .where("archiveName", "=", name)
    .where("status", "=", "ok")
    .executeTakeFirst();
  const path = row ? await localArchivePath(row) : null;
  if (!path) return null;
  const { size } = await stat(path);
  return { stream: createReadStream(path), bytes: size };
}
