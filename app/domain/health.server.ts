import { sql } from "kysely";
import { getDb } from "../composition.server.ts";

/** Liveness and readiness in one: the process answers and the database does too. */
export async function checkHealth(): Promise<{ ok: boolean; database: "up" | "down" }> {
  try {
    const db = await getDb();
    await sql`select 1`.execute(db);
    return { ok: true, database: "up" };
  } catch {
    return { ok: false, database: "down" };
  }
}
