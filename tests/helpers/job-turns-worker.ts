/**
 * One of the "processes" of tests/integration/job-turns-processes.test.ts: the background jobs'
 * own scheduler (`everyTurn`) and turn runner (`jobTurn`, under the job's lease) with a job that
 * takes `workMs` and records (pid, turn, start, end) in `test_job_runs`, for the turns
 * `first`…`last` of `intervalMs` each. Prints "done" and exits once the scheduler is past `last`.
 *
 *   node tests/helpers/job-turns-worker.ts <databaseUrl> <intervalMs> <workMs>
 *
 * It prints "ready", then reads "<first> <last>" from its stdin.
 */
import { sql } from "kysely";
import { createDatabase } from "../../app/db/database.server.ts";
import { everyTurn, jobTurn } from "../../app/jobs/job-schedule.server.ts";

const [databaseUrl, interval, work] = process.argv.slice(2);
const intervalMs = Number(interval);
const workMs = Number(work);
const db = createDatabase(databaseUrl!, { poolSize: 4 });

// up: the test names the window once both processes are (a busy machine starts them slowly)
console.log("ready");
const [first, last] = await new Promise<[number, number]>((resolve) => {
  let input = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk: string) => {
    input += chunk;
    if (input.includes("\n")) {
      const [a, b] = input.trim().split(" ").map(Number);
      process.stdin.pause();
      resolve([a!, b!]);
    }
  });
});

let finish!: () => void;
const finished = new Promise<void>((resolve) => {
  finish = resolve;
});
const attempt = jobTurn(
  async () => db,
  "proof-of-turns",
  { ttlMs: 60_000 },
  async (turn) => {
    if (turn < first || turn > last) return null;
    const startedMs = Date.now();
    await new Promise((resolve) => setTimeout(resolve, workMs)); // the job's own work takes a while
    await sql`insert into test_job_runs (pid, turn, started_ms, finished_ms)
            values (${process.pid}, ${turn}, ${startedMs}, ${Date.now()})`.execute(db);
    return null;
  },
);
const stop = everyTurn(intervalMs, async (turn) => {
  const outcome = await attempt(turn);
  if (turn > last) finish();
  return outcome;
});
// the scheduler's timers do not keep a process alive (they are unref'd); this does, until done
const alive = setInterval(() => {}, 1_000);
await finished;
stop();
clearInterval(alive);
await db.destroy();
console.log("done");
