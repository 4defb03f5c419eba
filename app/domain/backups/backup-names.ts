/**
 * Backup archives' names (decision 028): `cartwheel-backup-2026-11-28T020000Z-1a2b3c.tar.gz` —
 * the moment the backup began (UTC; names sort as the times do) and a random tail, so two
 * backups begun in the same second never take each other's name. Pure, for the page and the
 * server alike.
 */
export const ARCHIVE_NAME = /^cartwheel-backup-\d{4}-\d{2}-\d{2}T\d{6}Z-[0-9a-f]{6}\.tar\.gz$/;
/** what a name ends with while its archive is being written */
export const UNFINISHED_SUFFIX = ".partial";

export function isArchiveName(name: string): boolean {
  return ARCHIVE_NAME.test(name);
}

export function archiveName(startedAt: Date, random: string): string {
  const stamp = startedAt
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/:/g, "");
  return `cartwheel-backup-${stamp}-${random}.tar.gz`;
}

/** The newest `keep` archive names first; the rest are the ones to delete. */
export function archivesBeyond(names: readonly string[], keep: number): string[] {
  return names.filter(isArchiveName).sort().reverse().slice(Math.max(0, keep));
}
