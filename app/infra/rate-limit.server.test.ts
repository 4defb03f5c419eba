import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, ENGINES, type TestDatabase } from "../../tests/db-utils.ts";
import { hitRateLimit, pruneRateLimits, resetRateLimitsByPrefix } from "./rate-limit.server.ts";

describe.each(ENGINES)("hitRateLimit on %s", (engine) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await test?.destroy();
  });

  const rule = { limit: 3, windowMs: 60_000 };

  it("allows the limit, refuses beyond it with the time left, and starts again after the window", async () => {
    const t0 = 1_800_000_000_000;
    const results = [];
    for (let i = 0; i < 5; i++)
      results.push(await hitRateLimit(test.db, "track:1.2.3.4", rule, t0 + i * 1000));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(results[0]).toEqual({ allowed: true, remaining: 2 });
    expect(results[4]).toEqual({ allowed: false, retryAfterSeconds: 56 });
    // another key has its own count
    expect(await hitRateLimit(test.db, "track:5.6.7.8", rule, t0 + 5000)).toEqual({
      allowed: true,
      remaining: 2,
    });
    // a new window
    expect(await hitRateLimit(test.db, "track:1.2.3.4", rule, t0 + 60_000)).toEqual({
      allowed: true,
      remaining: 2,
    });
  });

  it("counts every one of many simultaneous attempts", async () => {
    const now = 1_900_000_000_000;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => hitRateLimit(test.db, "burst", { limit: 5, windowMs: 60_000 }, now)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });

  it("clears every key that starts with a prefix, and no other (the prefix is not a LIKE pattern)", async () => {
    const now = 1_950_000_000_000;
    const keys = [
      "acct:a_b%:ip:1",
      "acct:a_b%:device:x",
      "acct:aXbY:ip:1",
      "acct:a_b",
      "other:acct:a_b%:ip:1",
    ];
    for (const key of keys) await hitRateLimit(test.db, key, rule, now);
    await resetRateLimitsByPrefix(test.db, "acct:a_b%:");
    const left = await test.db.selectFrom("rateLimits").select("key").where("key", "in", keys).execute();
    expect(left.map((row) => row.key).sort()).toEqual(["acct:aXbY:ip:1", "acct:a_b", "other:acct:a_b%:ip:1"]);
    // a cleared key counts from one again
    expect(await hitRateLimit(test.db, "acct:a_b%:ip:1", rule, now)).toEqual({ allowed: true, remaining: 2 });
  });

  it("prunes old windows", async () => {
    await pruneRateLimits(test.db, 60_000, 2_000_000_000_000);
    const left = await test.db.selectFrom("rateLimits").select("key").execute();
    expect(left).toEqual([]);
  });
});
