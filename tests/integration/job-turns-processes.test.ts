import { spawn } from "node:child_process";
import { once } from "node:events";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";

/**
 * Job leases and turns proven with real processes (decision 027): two processes run the background
 * jobs' scheduler on one database — PostgreSQL (an advisory lock) or one SQLite file (a lease row)
 * — with a job that takes 300 ms of each 1-second turn and records who ran it and when. Every turn
 * in the window runs exactly once, and no two runs overlap.
 */
const INTERVAL_MS = 1_000;
const WORK_MS = 300;
const TURNS = 6;

function worker(url: string) {
  const child = spawn(
    process.execPath,
    ["tests/helpers/job-turns-worker.ts", url, String(INTERVAL_MS), String(WORK_MS)],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  let output = "";
  const ready = new Promise<void>((resolve) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.startsWith("ready\n")) resolve();
    });
  });
  return {
    pid: child.pid,
    ready,
    /** the turns to run, told once both are up */
    window: (first: number, last: number) => child.stdin.end(`${first} ${last}\n`),
    exited: once(child, "exit").then(([code]) => ({ code, output: output.replace(/^ready\n/, "") })),
  };
}

describe.each(ENGINES)("two processes, one database, on %s", (engine) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    await sql`create table test_job_runs (pid integer not null, turn bigint not null,
              started_ms bigint not null, finished_ms bigint not null)`.execute(t.db);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("run each turn once, one at a time", { timeout: 60_000 }, async () => {
    const a = worker(t.url);
    const b = worker(t.url);
    await Promise.all([a.ready, b.ready]);
    // the window starts two turns from now: both processes are up and scheduling before it
    const first = Math.floor(Date.now() / INTERVAL_MS) + 2;
    const last = first + TURNS - 1;
    a.window(first, last);
    b.window(first, last);
    const ends = await Promise.all([a.exited, b.exited]);
    expect(ends).toEqual([
      { code: 0, output: "done\n" },
      { code: 0, output: "done\n" },
    ]);

    const { rows } = await sql<{ pid: number; turn: number; startedMs: number; finishedMs: number }>`
      select pid, turn, started_ms as "startedMs", finished_ms as "finishedMs"
      from test_job_runs order by started_ms`.execute(t.db);
    const runs = rows.map((row) => ({
      pid: Number(row.pid),
      turn: Number(row.turn),
      startedMs: Number(row.startedMs),
      finishedMs: Number(row.finishedMs),
    }));
    // each scheduled turn ran once: every turn of the window, none twice
    expect(runs.map((run) => run.turn).sort((x, y) => x - y)).toEqual(
      Array.from({ length: TURNS }, (_, i) => first + i),
    );
    // by one of the two processes, never two at once
    for (const run of runs) expect([a.pid, b.pid]).toContain(run.pid);
    for (let i = 1; i < runs.length; i++) {
      expect(runs[i]!.startedMs).toBeGreaterThanOrEqual(runs[i - 1]!.finishedMs);
    }
  });
});
