import { sql } from "kysely";
import type { Database } from "../db/database.server.ts";

/** Readiness of the database: it answers a trivial query. */
export async function checkDatabase(db: Database): Promise<{ ok: boolean; database: "up" | "down" }> {
  try {
    await sql`select 1`.execute(db);
    return { ok: true, database: "up" };
  } catch {
    return { ok: false, database: "down" };
  }
}
