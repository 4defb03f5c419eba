import type { Database } from "../../db/database.server.ts";
import type { IndexPatch } from "./patched-index.ts";

/**
 * The catalogue's change log (migration 2230: `catalog_changes`, kept by the triggers that bump
 * `catalog_version`) as the search index reads it to patch itself (decision 041).
 */

/** How many log rows the hourly prune keeps (an index whose changes are older is rebuilt). */
export const CATALOG_CHANGES_KEPT = 200_000;

/**
 * The products written since the build of `baseVersion` — the patch bringing it to the current
 * version — or why there is none: the log was pruned past it, or more than `maxProducts` changed
 * (a build is then the cheaper way).
 */
export async function changesSince(
  db: Database,
  baseVersion: number,
  maxProducts: number,
): Promise<IndexPatch | "pruned" | "too-many"> {
  // the version first: every change up to it has committed, so the rows read next hold them all
  const row = await db
    .selectFrom("catalogVersion")
    .select(["version", "changesFrom"])
    .executeTakeFirstOrThrow();
  if (Number(row.changesFrom) > baseVersion) return "pruned";
  const rows = await db
    .selectFrom("catalogChanges")
    .select("productId")
    .distinct()
    .where("version", ">", baseVersion)
    .limit(maxProducts + 1)
    .execute();
  if (rows.length > maxProducts) return "too-many";
  return {
    version: Number(row.version),
    changed: rows.map((r) => Number(r.productId)).sort((a, b) => a - b),
  };
}

/**
 * Forgets all but the newest `keep` rows of the change log (hourly, background-jobs.server.ts):
 * `changes_from` is raised first — an index built before the rows kept is rebuilt rather than
 * patched — then the older rows are deleted `batch` versions at a time, so a large import's rows
 * never hold the writer (on SQLite the app's thread) for long. Rows a stopped prune left below
 * `changes_from` are never read, and the next prune deletes them.
 */
export async function pruneCatalogChanges(
  db: Database,
  keep = CATALOG_CHANGES_KEPT,
  batch = 10_000,
): Promise<number> {
  const edge = await db
    .selectFrom("catalogChanges")
    .select("version")
    .orderBy("version", "desc")
    .offset(keep)
    .limit(1)
    .executeTakeFirst();
  if (!edge) return 0;
  const through = Number(edge.version);
  await db
    .updateTable("catalogVersion")
    .set({ changesFrom: through })
    .where("changesFrom", "<", through)
    .execute();
  const oldest = await db
    .selectFrom("catalogChanges")
    .select((eb) => eb.fn.min("version").as("version"))
    .executeTakeFirst();
  let deleted = 0;
  for (let from = Number(oldest?.version ?? through); from <= through; from += batch) {
    const result = await db
      .deleteFrom("catalogChanges")
      .where("version", "<=", Math.min(through, from + batch - 1))
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return deleted;
}
