import { logger } from "../adapters/logger.server.ts";
import type { Mailer } from "../adapters/mail/mail-message.ts";
import type { PaymentGateway } from "../adapters/payments/payment-gateway.ts";
import type { Database } from "../db/database.server.ts";
import { pruneCheckoutProgress } from "../domain/checkout/checkout-progress.server.ts";
import { checkStockLedger } from "../domain/inventory/stock-ledger.server.ts";
import { sendPendingConfirmations } from "../domain/orders/order-confirmation.server.ts";
import { reconcilePayments } from "../domain/payments/charges.server.ts";
import { settlePendingRefunds } from "../domain/payments/refunds.server.ts";
import { pruneRateLimits } from "../infra/rate-limit.server.ts";
import type { MailShop } from "../lib/shop-settings.ts";
import { withJobLease } from "./job-lease.server.ts";

/**
 * Housekeeping each app process runs while it serves: settling orders a dead process left awaiting
 * their payment and refunds it left pending (at start and every minute: payments/charges.server.ts,
 * payments/refunds.server.ts), resending order confirmations that failed (every minute), forgetting
 * rate-limit windows that ended a day ago and checkouts in progress untouched for a day (every
 * hour), and checking the stock ledger against the levels (daily: drift is logged at error). All
 * are safe with several processes on one database (every settlement is a guarded transition; a
 * resend attempt is claimed by one process; a prune deletes the same rows whoever runs it), and
 * the ones that would do the same work twice run in one process at a time: they take the job's
 * lease (job-lease.server.ts). Timers never keep the process alive.
 */
export const JOB_INTERVALS = {
  paymentsMs: 60_000,
  confirmationsMs: 60_000,
  prunesMs: 60 * 60_000,
  stockLedgerMs: 24 * 60 * 60_000,
} as const;
/** the first reconciliation after start: soon, so a restarted shop settles what it left pending */
const FIRST_PAYMENTS_RUN_MS = 2_000;
const RATE_LIMIT_RETENTION_MS = 24 * 60 * 60_000;

/** What the jobs work with: the app's database and mailer, and the shop's name and address for e-mails. */
export interface JobServices {
  db: Database;
  mail: Mailer;
  gateway: PaymentGateway;
  shop: MailShop;
}

/** Starts the jobs on the app's services (opened on first use); returns their stop. */
export function startJobs(open: () => Promise<JobServices>): () => void {
  const getDb = async () => (await open()).db;
  /**
   * A job run; with `lease`, only in the process that gets the job's lease (decision 027), the
   * others skipping that turn. The lease outlives a run that takes longer than its interval.
   */
  const run = (name: string, job: () => Promise<unknown>, lease?: { ttlMs: number }) => async () => {
    try {
      const result = lease ? await withJobLease(await getDb(), name, lease, job) : await job();
      if (result && typeof result === "object" && Object.values(result).some((n) => n !== 0)) {
        logger.info({ job: name, ...result }, "background job");
      }
    } catch (error) {
      logger.error({ err: error, job: name }, "background job failed");
    }
  };
  const confirmations = run(
    "order-confirmations",
    async () => {
      const { db, mail, shop } = await open();
      return sendPendingConfirmations(db, mail, shop);
    },
    { ttlMs: 10 * 60_000 },
  );
  const payments = run(
    "payment-reconcile",
    async () => {
      const { db, gateway, mail, shop } = await open();
      const charges = await reconcilePayments(db, gateway);
      const refunds = await settlePendingRefunds({ db, gateway, mail, shop });
      return {
        ...charges,
        refundsSucceeded: refunds.succeeded,
        refundsFailed: refunds.failed,
        refundsWaiting: refunds.waiting,
      };
    },
    { ttlMs: 10 * 60_000 },
  );
  const stockLedger = run(
    "stock-ledger-check",
    async () => {
      const drift = await checkStockLedger(await getDb());
      if (drift.variants.length + drift.products.length > 0) {
        logger.error(
          { variants: drift.variants.slice(0, 20), products: drift.products.slice(0, 20) },
          "stock levels differ from the stock ledger: run npm run cli -- inventory:check",
        );
      }
      return { drifting: drift.variants.length + drift.products.length };
    },
    { ttlMs: 60 * 60_000 },
  );
  const rateLimits = run("rate-limit-prune", async () =>
    pruneRateLimits(await getDb(), RATE_LIMIT_RETENTION_MS),
  );
  const checkouts = run("checkout-progress-prune", async () => pruneCheckoutProgress(await getDb()));
  const timers = [
    setTimeout(payments, FIRST_PAYMENTS_RUN_MS),
    setInterval(payments, JOB_INTERVALS.paymentsMs),
    setInterval(confirmations, JOB_INTERVALS.confirmationsMs),
    setInterval(rateLimits, JOB_INTERVALS.prunesMs),
    setInterval(checkouts, JOB_INTERVALS.prunesMs),
    setInterval(stockLedger, JOB_INTERVALS.stockLedgerMs),
  ];
  for (const timer of timers) timer.unref();
  return () => {
    for (const timer of timers) clearTimeout(timer);
  };
}
