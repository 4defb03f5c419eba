import { sql } from "kysely";
import type { Database } from "../db/database.server.ts";
import { migrationState } from "../db/migrate.server.ts";

/** Readiness of the database: it answers a trivial query. */
export async function checkDatabase(db: Database): Promise<{ ok: boolean; database: "up" | "down" }> {
  try {
    await sql`select 1`.execute(db);
    return { ok: true, database: "up" };
  } catch {
    return { ok: false, database: "down" };
  }
}

/** What keeps a started process from taking traffic (`/readyz`); only `ok` when nothing does. */
export type Readiness =
  | { ok: true }
  | {
      ok: false;
      started?: false;
      database?: "down";
      pendingMigrations?: string[];
      unknownMigrations?: string[];
    };

/**
 * Readiness of a started process's database: it answers, and every migration of this code is
 * applied. A migration the code does not know (a newer version migrated the database) is reported
 * beside, but does not stop traffic: migrations only add, so the older code still works while a
 * rolling deploy replaces it.
 */
export async function checkReadiness(db: Database): Promise<Readiness> {
  let state: Awaited<ReturnType<typeof migrationState>>;
  try {
    state = await migrationState(db);
  } catch {
    return { ok: false, database: "down" };
  }
  if (state.pending.length > 0) return { ok: false, pendingMigrations: state.pending };
  return { ok: true };
}
