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
 * Forgets all but the newest `keep` rows of the change log (hourly, background-jobs.server.ts),
 * raising `changes_from` first: an index built before them is rebuilt rather than patched.
 */
export async function pruneCatalogChanges(db: Database, keep = CATALOG_CHANGES_KEPT): Promise<number> {
  const edge = await db
    .selectFrom("catalogChanges")
    .select("version")
    .orderBy("version", "desc")
    .offset(keep)
    .limit(1)
    .executeTakeFirst();
  if (!edge) return 0;
  const through = Number(edge.version);
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable("catalogVersion")
      .set({ changesFrom: through })
      .where("changesFrom", "<", through)
      .execute();
    const result = await trx.deleteFrom("catalogChanges").where("version", "<=", through).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}
