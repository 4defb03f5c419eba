/**
 * The owner's backup form (Admin → Backups). Pure: its fields, labels and messages; the rules are
 * backup-schema.server.ts's.
 */
export const BACKUP_FIELDS = ["enabled", "hour", "keep", "destination"] as const;
export type BackupField = (typeof BACKUP_FIELDS)[number];

export const BACKUP_LIMITS = { keep: 1_000, destination: 500 } as const;

export const BACKUP_LABELS: Record<BackupField, string> = {
  enabled: "Back up every day",
  hour: "Hour of day (UTC)",
  keep: "Backups to keep",
  destination: "Destination",
};

export const BACKUP_MESSAGES = {
  invalid: "Please correct the highlighted fields.",
  saved: "Backup settings saved",
  unchanged: "Nothing changed",
  started: "Backup started: it shows in the list below once it is written (reload the page).",
  hour: "Choose an hour from 00:00 to 23:00.",
  keep: `Enter how many backups to keep: a whole number from 1 to ${BACKUP_LIMITS.keep}.`,
  destination:
    "Enter a directory on this server starting with / (without ..), or s3://bucket/prefix, or leave it empty for the default.",
  unknownAction: "Unknown backup action.",
} as const;

export const HOURS = Array.from({ length: 24 }, (_, hour) => ({
  value: String(hour),
  label: `${String(hour).padStart(2, "0")}:00`,
}));

/** 1536 → "1.5 KB", 122 000 000 → "116.3 MB" (powers of 1024, one decimal from KB up). */
export function formatBytes(bytes: number): string {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}
