import { createHash, randomUUID } from "node:crypto";
import { sql } from "kysely";
import { type Database, engineOf } from "../db/database.server.ts";

/**
 * A lease for a job that must run in one process at a time across every process on the database
 * (decision 027): the payment and refund reconciliation, the confirmation resends, the stock check,
 * backups, roll-ups. `withJobLease` runs `work` only when it gets the lease and answers `null`
 * (nothing run) when another process holds it.
 *
 * - PostgreSQL: `pg_try_advisory_lock` on a session of its own, held while `work` runs and
 *   unlocked after; a process that dies mid-work loses its session and with it the lock.
 * - SQLite: a row in `job_leases` (migration 0100 of 2026-11-28), taken with one upsert when none
 *   is held or the holder's has expired (`ttlMs`: longer than the work can take), given back after.
 *   A process killed mid-work leaves its row until it expires.
 */
const PROCESS_ID = `${process.pid}-${randomUUID().slice(0, 8)}`;

/** The advisory lock's key for a job's name: a stable signed 64-bit number from its hash, as text. */
function lockKey(name: string): string {
  const digest = createHash("sha256").update(`cartwheel:job:${name}`).digest();
  return digest.readBigInt64BE(0).toString();
}

export async function withJobLease<T>(
  db: Database,
  name: string,
  { ttlMs }: { ttlMs: number },
  work: () => Promise<T>,
): Promise<T | null> {
  if (engineOf(db) === "postgres") {
    const key = lockKey(name);
    return db.connection().execute(async (connection) => {
      const { rows } = await sql<{
        taken: boolean;
      }>`select pg_try_advisory_lock(${key}::bigint) as taken`.execute(connection);
      if (!rows[0]?.taken) return null;
      try {
        return await work();
      } finally {
        await sql`select pg_advisory_unlock(${key}::bigint)`.execute(connection);
      }
    });
  }
  const holder = `${PROCESS_ID}:${randomUUID().slice(0, 8)}`;
  const now = new Date();
  const taken = await db
    .insertInto("jobLeases")
    .values({ name, holder, expiresAt: new Date(now.getTime() + ttlMs).toISOString() })
    .onConflict((oc) =>
      oc
        .column("name")
        .doUpdateSet({ holder, expiresAt: new Date(now.getTime() + ttlMs).toISOString() })
        .where("jobLeases.expiresAt", "<=", now.toISOString()),
    )
    .returning("holder")
    .executeTakeFirst();
  if (taken?.holder !== holder) return null;
  try {
    return await work();
  } finally {
    await db.deleteFrom("jobLeases").where("name", "=", name).where("holder", "=", holder).execute();
  }
}

/** What became of a job's turn: run here (with its result), or not — another process holds the lease, or did the turn. */
export type TurnOutcome<T> = { ran: true; value: T } | { ran: false; reason: "busy" | "done" };

/**
 * A scheduled job's turn (the minute, the day: a number that grows) runs once across every process
 * (decision 027): under the job's lease, the last turn done (`job_turns`) is read; when it is this
 * one or a later one nothing runs ("done"), else `work` runs and the turn is recorded before the
 * lease is given back. A turn whose work failed is not recorded, so another process may take it.
 */
export async function runJobTurn<T>(
  db: Database,
  name: string,
  { ttlMs, turn }: { ttlMs: number; turn: number },
  work: () => Promise<T>,
): Promise<TurnOutcome<T>> {
  const outcome = await withJobLease(db, name, { ttlMs }, async (): Promise<TurnOutcome<T>> => {
    const last = await db.selectFrom("jobTurns").select("turn").where("name", "=", name).executeTakeFirst();
    if (last && Number(last.turn) >= turn) return { ran: false, reason: "done" };
    const value = await work();
    const finishedAt = new Date().toISOString();
    await db
      .insertInto("jobTurns")
      .values({ name, turn, finishedAt })
      .onConflict((oc) => oc.column("name").doUpdateSet({ turn, finishedAt }))
      .execute();
    return { ran: true, value };
  });
  return outcome ?? { ran: false, reason: "busy" };
}
