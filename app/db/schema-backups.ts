import type { Generated } from "kysely";
import type { Flag, Timestamp } from "./schema-types.ts";

/** The owner's backup schedule (migration 2026-11-28T0300): at most one row, id 1. */
export interface BackupSettingsTable {
  id: number;
  enabled: Flag;
  /** the hour of the day, UTC, at which the daily backup is due (0–23) */
  hourUtc: number;
  /** how many archives to keep at the destination; older ones are deleted after a backup */
  keepCount: number;
  /** a directory or s3://bucket/prefix; "" is the default, DATA_DIR/backups */
  destination: string;
  updatedAt: Timestamp;
}

export type BackupOrigin = "schedule" | "manual" | "cli";

/** One backup run, written when it ended (migration 2026-11-28T0300). */
export interface BackupRunsTable {
  id: Generated<number>;
  startedAt: Timestamp;
  finishedAt: Timestamp;
  status: "ok" | "failed";
  origin: BackupOrigin;
  /** the owner who pressed "Back up now", by e-mail */
  requestedBy: string | null;
  destination: string;
  archiveName: string | null;
  sizeBytes: number | null;
  error: string | null;
}
