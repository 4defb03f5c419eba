import type { Transaction } from "kysely";
import { engineOf } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";

/**
 * Serialises one user's address-book and saved-card changes: on PostgreSQL the user's row is
 * locked for the rest of the transaction (so "the first address becomes the default" and
 * "skip a duplicate card" hold when two requests race); SQLite already has a single writer.
 */
export async function lockUser(trx: Transaction<DB>, userId: string): Promise<boolean> {
  let query = trx.selectFrom("users").select("id").where("id", "=", userId);
  if (engineOf<DB>(trx) === "postgres") query = query.forUpdate();
  return (await query.executeTakeFirst()) !== undefined;
}
