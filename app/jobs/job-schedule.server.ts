import { logger } from "../adapters/logger.server.ts";
import type { Database } from "../db/database.server.ts";
import { type JobOutcome, recordJobRun } from "../infra/metrics.server.ts";
import { runJobTurn } from "./job-lease.server.ts";

/**
 * The background jobs' schedule (decision 027): turns on the wall clock that every process shares,
 * and a job's turn run under its lease by whichever process gets it first, once.
 */

/** What a turn's attempt came to, for the scheduler: another process is at it ("busy"), or it is settled. */
export type TurnAttempt = "busy" | "settled";

/**
 * Calls `attempt(turn)` at the start of every turn — the wall clock's multiples of `intervalMs`
 * (shifted by `offsetMs`), so every process wakes together — and once `firstMs` after now. A turn
 * another process is busy with (the lease is held: it may be running the turn before, late) is
 * tried again every `retryMs` until the turn ends; a turn that began while an attempt ran is
 * attempted at once. Returns the stop.
 */
export function everyTurn(
  intervalMs: number,
  attempt: (turn: number) => Promise<TurnAttempt>,
  {
    firstMs,
    offsetMs = 0,
    retryMs = Math.min(5_000, intervalMs / 4),
  }: { firstMs?: number; offsetMs?: number; retryMs?: number } = {},
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const turnAt = (ms: number) => Math.floor((ms - offsetMs) / intervalMs);
  const untilNextTurn = () =>
    intervalMs - ((((Date.now() - offsetMs) % intervalMs) + intervalMs) % intervalMs);
  const later = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(tick, Math.max(0, ms));
    timer.unref();
  };
  async function tick() {
    const turn = turnAt(Date.now());
    const outcome = await attempt(turn);
    if (turnAt(Date.now()) !== turn) later(0);
    else if (outcome === "busy") later(Math.min(retryMs, untilNextTurn()));
    else later(untilNextTurn());
  }
  later(firstMs ?? untilNextTurn());
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * A job's turn as the scheduler attempts it: run under the job's lease unless another process did
 * the turn, counted in the metrics (ran, skipped, failed) and logged when it did something.
 */
export function jobTurn(
  db: () => Promise<Database>,
  name: string,
  { ttlMs }: { ttlMs: number },
  job: (turn: number) => Promise<unknown>,
): (turn: number) => Promise<TurnAttempt> {
  return async (turn) => {
    const started = performance.now();
    let outcome: JobOutcome = "failed";
    try {
      const done = await runJobTurn(await db(), name, { ttlMs, turn }, () => job(turn));
      outcome = done.ran ? "ran" : "skipped";
      if (done.ran) logResult(name, done.value);
      return done.ran || done.reason === "done" ? "settled" : "busy";
    } catch (error) {
      logger.error({ err: error, job: name }, "background job failed");
      return "settled";
    } finally {
      recordJobRun(name, outcome, (performance.now() - started) / 1000);
    }
  };
}

export function logResult(job: string, result: unknown) {
  if (result && typeof result === "object" && Object.values(result).some((n) => n !== 0)) {
    logger.info({ job, ...result }, "background job");
  }
}
