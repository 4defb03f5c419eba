import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../../app/db/database.server.ts";
import { withJobLease } from "../../app/jobs/job-lease.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";

/**
 * Job leases (decision 027): a job runs in one process at a time across every process on the
 * database — here two connections pools of their own, as two processes have.
 */
describe.each(ENGINES)("job leases on %s", (engine) => {
  let t: TestDatabase;
  let other: Database;

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    other = createDatabase(t.url);
  });
  afterAll(async () => {
    await other?.destroy();
    await t?.destroy();
  });

  it("runs a job in one process at a time, and again once it is done", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const first = withJobLease(t.db, "reconcile", { ttlMs: 60_000 }, async () => {
      started();
      await held;
      return "first";
    });
    await running;
    // the other process asks while the first holds the lease: it skips its turn
    expect(await withJobLease(other, "reconcile", { ttlMs: 60_000 }, async () => "second")).toBeNull();
    // another job's lease is its own
    expect(await withJobLease(other, "stock-check", { ttlMs: 60_000 }, async () => "other job")).toBe(
      "other job",
    );
    release();
    expect(await first).toBe("first");
    expect(await withJobLease(other, "reconcile", { ttlMs: 60_000 }, async () => "second")).toBe("second");
  });

  it("gives the lease back when the job fails", async () => {
    await expect(
      withJobLease(t.db, "failing", { ttlMs: 60_000 }, async () => {
        throw new Error("the job failed");
      }),
    ).rejects.toThrow("the job failed");
    expect(await withJobLease(other, "failing", { ttlMs: 60_000 }, async () => "ran")).toBe("ran");
  });

  it.runIf(engine === "sqlite")(
    "takes over a lease its holder left to expire (a process killed mid-job)",
    async () => {
      await t.db
        .insertInto("jobLeases")
        .values({
          name: "abandoned",
          holder: "dead-process",
          expiresAt: new Date(Date.now() - 1).toISOString(),
        })
        .execute();
      expect(await withJobLease(other, "abandoned", { ttlMs: 60_000 }, async () => "taken over")).toBe(
        "taken over",
      );
      await t.db
        .insertInto("jobLeases")
        .values({
          name: "live",
          holder: "busy-process",
          expiresAt: new Date(Date.now() + 60_000).toISOString(),
        })
        .execute();
      expect(await withJobLease(other, "live", { ttlMs: 60_000 }, async () => "taken")).toBeNull();
    },
  );
});
