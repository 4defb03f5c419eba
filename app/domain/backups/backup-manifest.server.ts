import { z } from "zod";
import { isSafeKey } from "../../adapters/files/file-store.ts";
import type { Engine } from "../../db/database.server.ts";

/**
 * What a backup archive holds and how a restore checks it (decision 028). Entries, in order:
 *
 * - `manifest.json`: this format's name and version, the shop's version (package.json and the git
 *   commit when known), the schema version (the newest migration applied in the snapshot), the
 *   engine, the time, and every part's path, size and SHA-256;
 * - `manifest.json.sha256`: the manifest's own SHA-256, as `sha256sum` writes it;
 * - `database/cartwheel.sqlite` (a SQLite file) or `database/cartwheel.pgdump` (pg_dump's custom
 *   format);
 * - `files/<key>`: every file of the file store (product images), under its key.
 *
 * So every byte that matters is covered by a SHA-256 the restore recomputes; gzip's CRC (the whole
 * stream is read before anything is extracted, `verifyGzip`) and tar's header checksums cover the rest.
 */
export const ARCHIVE_FORMAT = "cartwheel-backup";
export const FORMAT_VERSION = 1;
export const MANIFEST_PATH = "manifest.json";
export const MANIFEST_DIGEST_PATH = "manifest.json.sha256";
export const DATABASE_PATH: Record<Engine, string> = {
  sqlite: "database/cartwheel.sqlite",
  postgres: "database/cartwheel.pgdump",
};
export const FILES_PREFIX = "files/";

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  formatVersion: z.literal(FORMAT_VERSION),
  createdAt: z.iso.datetime(),
  shop: z.object({ version: z.string(), commit: z.string().nullable() }),
  schemaVersion: z.string().nullable(),
  engine: z.enum(["sqlite", "postgres"]),
  parts: z.array(
    z.object({
      path: z.string(),
      kind: z.enum(["database", "file"]),
      bytes: z.number().int().nonnegative(),
      sha256,
    }),
  ),
});

export type BackupManifest = z.infer<typeof manifestSchema>;
export type ManifestPart = BackupManifest["parts"][number];

/** Whether an archive may hold an entry at this path (anything else makes a restore refuse it). */
export function isArchivePath(path: string): boolean {
  if (path === MANIFEST_PATH || path === MANIFEST_DIGEST_PATH) return true;
  if (Object.values(DATABASE_PATH).includes(path)) return true;
  return path.startsWith(FILES_PREFIX) && isSafeKey(path.slice(FILES_PREFIX.length));
}

/** The digest file's line for a manifest's SHA-256. */
export const manifestDigestLine = (digest: string) => `${digest}  ${MANIFEST_PATH}\n`;

/** The manifest's text as read back; a refusal's message when it is not a manifest this code reads. */
export function readManifest(
  text: string,
): { ok: true; manifest: BackupManifest } | { ok: false; message: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: "its manifest is not valid JSON" };
  }
  const head = z.object({ format: z.string(), formatVersion: z.number() }).safeParse(json);
  if (!head.success || head.data.format !== ARCHIVE_FORMAT) {
    return { ok: false, message: "it is not a Cartwheel backup (its manifest names another format)" };
  }
  if (head.data.formatVersion > FORMAT_VERSION) {
    return {
      ok: false,
      message: `it was written in archive format ${head.data.formatVersion} by a newer Cartwheel; this version reads format ${FORMAT_VERSION}. Upgrade Cartwheel, then restore`,
    };
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) return { ok: false, message: "its manifest is incomplete or malformed" };
  return { ok: true, manifest: parsed.data };
}
