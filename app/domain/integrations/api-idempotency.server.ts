import type { Database } from "../../db/database.server.ts";

/**
 * The API's Idempotency-Key (decision 038), as Stripe has it: a POST sent again with the same key
 * gets the first answer for 24 hours; the same key with a different request is refused; a repeat
 * while the first is still being answered is told so. The key is claimed by an insert the unique
 * (API key, Idempotency-Key) index lets through once, so two processes cannot both run it.
 */
export const IDEMPOTENCY_HOURS = 24;

export type IdempotencyClaim =
  /** first use: answer it, then `recordAnswer` (or `releaseClaim` on a failure of ours) */
  | { kind: "claimed"; id: number }
  | { kind: "replay"; status: number; body: string }
  | { kind: "in-flight" }
  | { kind: "mismatch" };

export async function claimIdempotencyKey(
  db: Database,
  {
    apiKeyId,
    key,
    requestHash,
    now = new Date(),
  }: { apiKeyId: number; key: string; requestHash: string; now?: Date },
): Promise<IdempotencyClaim> {
  const expired = new Date(now.getTime() - IDEMPOTENCY_HOURS * 3_600_000).toISOString();
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await db
      .insertInto("apiIdempotency")
      .values({
        apiKeyId,
        idempotencyKey: key,
        requestHash,
        statusCode: null,
        responseBody: null,
        createdAt: now.toISOString(),
      })
      .onConflict((oc) => oc.columns(["apiKeyId", "idempotencyKey"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (inserted) return { kind: "claimed", id: Number(inserted.id) };
    const row = await db
      .selectFrom("apiIdempotency")
      .select(["id", "requestHash", "statusCode", "responseBody", "createdAt"])
      .where("apiKeyId", "=", apiKeyId)
      .where("idempotencyKey", "=", key)
      .executeTakeFirst();
    if (!row) continue;
    if (row.createdAt < expired) {
      // older than its 24 hours: forgotten, and this request is a first one
      await db
        .deleteFrom("apiIdempotency")
        .where("id", "=", row.id)
        .where("createdAt", "<", expired)
        .execute();
      continue;
    }
    if (row.requestHash !== requestHash) return { kind: "mismatch" };
    if (row.statusCode === null) return { kind: "in-flight" };
    return { kind: "replay", status: row.statusCode, body: row.responseBody ?? "" };
  }
  return { kind: "in-flight" };
}

/** The claimed request's answer, kept for its repeats. */
export async function recordAnswer(db: Database, id: number, status: number, body: string): Promise<void> {
  await db
    .updateTable("apiIdempotency")
    .set({ statusCode: status, responseBody: body })
    .where("id", "=", id)
    .execute();
}

/** A claim given up (the request failed on our side): the same key may be sent again. */
export async function releaseClaim(db: Database, id: number): Promise<void> {
  await db.deleteFrom("apiIdempotency").where("id", "=", id).execute();
}
