import { logger } from "../adapters/logger.server.ts";
import type { Mailer } from "../adapters/mail/mail-message.ts";
import type { PaymentGateway } from "../adapters/payments/payment-gateway.ts";
import type { Database } from "../db/database.server.ts";
import { pruneCheckoutProgress } from "../domain/checkout/checkout-progress.server.ts";
import { checkStockLedger } from "../domain/inventory/stock-ledger.server.ts";
import { sendPendingConfirmations } from "../domain/orders/order-confirmation.server.ts";
import { reconcilePayments } from "../domain/payments/charges.server.ts";
import { settlePendingRefunds } from "../domain/payments/refunds.server.ts";
import { fillClosedRollups } from "../domain/reports/sales-report.server.ts";
import { type JobOutcome, recordJobRun } from "../infra/metrics.server.ts";
import { pruneRateLimits } from "../infra/rate-limit.server.ts";
import type { MailShop } from "../lib/shop-settings.ts";
import { runJobTurn } from "./job-lease.server.ts";

/**
 * Housekeeping each app process runs while it serves: settling orders a dead process left awaiting
 * their payment and refunds it left pending (at start and every minute: payments/charges.server.ts,
 * payments/refunds.server.ts), resending order confirmations that failed (every minute), forgetting
 * rate-limit windows that ended a day ago and checkouts in progress untouched for a day (every
 * hour), checking the stock ledger against the levels (daily: drift is logged at error) and rolling
 * up the dashboard's closed days (nightly, and at start when that night's was missed). All are safe
 * with several processes on one database (every settlement is a guarded transition; a resend
 * attempt is claimed by one process; a prune deletes the same rows whoever runs it), and the ones
 * that would do the same work twice run once per turn across every process (decision 027): turns
 * are the wall clock's minutes or days, every process wakes at each, and the one that gets the
 * job's lease runs the turn unless another already did (job-lease.server.ts). Timers never keep
 * the process alive.
 */
export const JOB_INTERVALS = {
  paymentsMs: 60_000,
  confirmationsMs: 60_000,
  prunesMs: 60 * 60_000,
  stockLedgerMs: 24 * 60 * 60_000,
  rollupsMs: 24 * 60 * 60_000,
} as const;
/** the first reconciliation after start: soon, so a restarted shop settles what it left pending */
const FIRST_PAYMENTS_RUN_MS = 2_000;
/** the daily jobs' first look after start (has today's turn been done?), out of the start-up's way */
const FIRST_DAILY_RUN_MS = 60_000;
/** the nightly roll-up runs this long after midnight UTC, when the day before is closed */
const ROLLUPS_OFFSET_MS = 10 * 60_000;
const RATE_LIMIT_RETENTION_MS = 24 * 60 * 60_000;

/** What the jobs work with: the app's database and mailer, and the shop's name and address for e-mails. */
export interface JobServices {
  db: Database;
  mail: Mailer;
  gateway: PaymentGateway;
  shop: MailShop;
}

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
  job: () => Promise<unknown>,
): (turn: number) => Promise<TurnAttempt> {
  return async (turn) => {
    const started = performance.now();
    let outcome: JobOutcome = "failed";
    try {
      const done = await runJobTurn(await db(), name, { ttlMs, turn }, job);
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

function logResult(job: string, result: unknown) {
  if (result && typeof result === "object" && Object.values(result).some((n) => n !== 0)) {
    logger.info({ job, ...result }, "background job");
  }
}

/** Starts the jobs on the app's services (opened on first use); returns their stop. */
export function startJobs(open: () => Promise<JobServices>): () => void {
  const getDb = async () => (await open()).db;
  /** a job every process may run at once (a prune deletes the same rows whoever runs it) */
  const everywhere = (name: string, job: () => Promise<unknown>) => async () => {
    const started = performance.now();
    let outcome: JobOutcome = "failed";
    try {
      logResult(name, await job());
      outcome = "ran";
    } catch (error) {
      logger.error({ err: error, job: name }, "background job failed");
    } finally {
      recordJobRun(name, outcome, (performance.now() - started) / 1000);
    }
  };
  const confirmations = jobTurn(getDb, "order-confirmations", { ttlMs: 10 * 60_000 }, async () => {
    const { db, mail, shop } = await open();
    return sendPendingConfirmations(db, mail, shop);
  });
  const payments = jobTurn(getDb, "payment-reconcile", { ttlMs: 10 * 60_000 }, async () => {
    const { db, gateway, mail, shop } = await open();
    const charges = await reconcilePayments(db, gateway);
    const refunds = await settlePendingRefunds({ db, gateway, mail, shop });
    return {
      ...charges,
      refundsSucceeded: refunds.succeeded,
      refundsFailed: refunds.failed,
      refundsWaiting: refunds.waiting,
    };
  });
  const stockLedger = jobTurn(getDb, "stock-ledger-check", { ttlMs: 60 * 60_000 }, async () => {
    const drift = await checkStockLedger(await getDb());
    if (drift.variants.length + drift.products.length > 0) {
      logger.error(
        { variants: drift.variants.slice(0, 20), products: drift.products.slice(0, 20) },
        "stock levels differ from the stock ledger: run npm run cli -- inventory:check",
      );
    }
    return { drifting: drift.variants.length + drift.products.length };
  });
  const rollups = jobTurn(getDb, "sales-rollups", { ttlMs: 60 * 60_000 }, async () =>
    fillClosedRollups(await getDb()),
  );
  const rateLimits = everywhere("rate-limit-prune", async () =>
    pruneRateLimits(await getDb(), RATE_LIMIT_RETENTION_MS),
  );
  const checkouts = everywhere("checkout-progress-prune", async () => pruneCheckoutProgress(await getDb()));
  const stops = [
    everyTurn(JOB_INTERVALS.paymentsMs, payments, { firstMs: FIRST_PAYMENTS_RUN_MS }),
    everyTurn(JOB_INTERVALS.confirmationsMs, confirmations),
    everyTurn(JOB_INTERVALS.stockLedgerMs, stockLedger, { firstMs: FIRST_DAILY_RUN_MS }),
    everyTurn(JOB_INTERVALS.rollupsMs, rollups, { firstMs: FIRST_DAILY_RUN_MS, offsetMs: ROLLUPS_OFFSET_MS }),
  ];
  const timers = [
    setInterval(rateLimits, JOB_INTERVALS.prunesMs),
    setInterval(checkouts, JOB_INTERVALS.prunesMs),
  ];
  for (const timer of timers) timer.unref();
  return () => {
    for (const stop of stops) stop();
    for (const timer of timers) clearInterval(timer);
  };
}
