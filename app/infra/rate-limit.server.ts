import { sql } from "kysely";
import type { Database } from "../db/database.server.ts";

export interface RateLimitRule {
  /** attempts allowed per window */
  limit: number;
  windowMs: number;
}

export type RateLimitResult =
  | { allowed: true; remaining: number }
  | { allowed: false; retryAfterSeconds: number };

/**
 * A fixed-window counter in the database, so every app process (and machine) shares the
 * counts. One upsert per attempt: a new window starts at the first attempt after the old one ends.
 */
export async function hitRateLimit(
  db: Database,
  key: string,
  rule: RateLimitRule,
  now: number = Date.now(),
): Promise<RateLimitResult> {
  const windowEnded = now - rule.windowMs;
  const row = await db
    .insertInto("rateLimits")
    .values({ key: key.slice(0, 200), windowStart: now, count: 1 })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        count: sql<number>`case when rate_limits.window_start <= ${windowEnded} then 1 else rate_limits.count + 1 end`,
        windowStart: sql<number>`case when rate_limits.window_start <= ${windowEnded} then ${now} else rate_limits.window_start end`,
      }),
    )
    .returning(["count", "windowStart"])
    .executeTakeFirstOrThrow();
  const count = Number(row.count);
  if (count <= rule.limit) return { allowed: true, remaining: rule.limit - count };
  const retryAfterMs = Number(row.windowStart) + rule.windowMs - now;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
}

/** Forgets windows that ended long ago (called now and then; the table stays small). */
export async function pruneRateLimits(
  db: Database,
  olderThanMs: number,
  now: number = Date.now(),
): Promise<void> {
  await db
    .deleteFrom("rateLimits")
    .where("windowStart", "<", now - olderThanMs)
    .execute();
}

/** Clears a key's count (e.g. a successful sign-in forgives that e-mail's failed attempts). */
export async function resetRateLimit(db: Database, key: string): Promise<void> {
  await db.deleteFrom("rateLimits").where("key", "=", key.slice(0, 200)).execute();
}

/** Clears every key that starts with `prefix` (e.g. all of one account's sign-in counters). */
export async function resetRateLimitsByPrefix(db: Database, prefix: string): Promise<void> {
  const start = prefix.slice(0, 200);
  await db
    .deleteFrom("rateLimits")
    .where(sql<string>`substr(key, 1, ${sql.lit(start.length)})`, "=", start)
    .execute();
}
