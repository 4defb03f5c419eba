import { Readable } from "node:stream";
import { data } from "react-router";
import { servicesFrom } from "../context.ts";
import { openBackupArchive } from "../domain/backups/backup-schedule.server.ts";
import { backupServices } from "../domain/backups/take-backup.server.ts";
import { requirePermission } from "../http/session.server.ts";
import type { Route } from "./+types/admin.backups_.$name";

/**
 * A local backup archive, streamed to the owner as a download. Only an archive a backup run
 * recorded, still where it was written; any other name is a 404.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requirePermission(request, context, "settings");
  const archive = await openBackupArchive(backupServices(servicesFrom(context)), params.name ?? "");
  if (!archive) throw data("No such backup archive here.", { status: 404 });
  return new Response(Readable.toWeb(archive.stream) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "application/gzip",
      "Content-Length": String(archive.bytes),
      "Content-Disposition": `attachment; filename="${params.name}"`,
      "Cache-Control": "no-store",
    },
  });
}
