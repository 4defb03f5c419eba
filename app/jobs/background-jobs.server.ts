import { logger } from "../adapters/logger.server.ts";
import type { Mailer } from "../adapters/mail/mail-message.ts";
import type { PaymentGateway } from "../adapters/payments/payment-gateway.ts";
import { sendWebhook } from "../adapters/webhooks/webhook-sender.server.ts";
import type { Database } from "../db/database.server.ts";
import { BACKUP_LEASE_MS, runScheduledBackup } from "../domain/backups/backup-schedule.server.ts";
import type { BackupServices } from "../domain/backups/take-backup.server.ts";
import { pruneSearchMisses } from "../domain/catalog/search-misses.server.ts";
import { pruneCheckoutProgress } from "../domain/checkout/checkout-progress.server.ts";
import { refreshGroupRules } from "../domain/customer-groups/group-rules.server.ts";
import { deliverGiftCards } from "../domain/gift-cards/gift-card-delivery.server.ts";
import { pruneWebhookOutbox, watchFailingEndpoints } from "../domain/integrations/webhook-upkeep.server.ts";
import { deliverWebhooks, hasWebhookWork } from "../domain/integrations/webhooks.server.ts";
import { checkStockLedger } from "../domain/inventory/stock-ledger.server.ts";
import { issueMissingDocuments } from "../domain/invoices/issue-documents.server.ts";
import { sendPendingConfirmations } from "../domain/orders/order-confirmation.server.ts";
import { reconcilePayments } from "../domain/payments/charges.server.ts";
import { settlePendingRefunds } from "../domain/payments/refunds.server.ts";
import { fillClosedRollups } from "../domain/reports/sales-report.server.ts";
import { type JobOutcome, recordJobRun } from "../infra/metrics.server.ts";
import { pruneRateLimits } from "../infra/rate-limit.server.ts";
import { pruneCatalogChanges } from "../infra/search-index/catalog-changes.server.ts";
import { readerOf } from "../infra/sqlite-readers.server.ts";
import type { MailShop } from "../lib/shop-settings.ts";
import { withJobLease } from "./job-lease.server.ts";
import { everyTurn, jobTurn, logResult } from "./job-schedule.server.ts";

/**
 * Housekeeping each app process runs while it serves: settling orders a dead process left awaiting
 * their payment and refunds it left pending (at start and every minute: payments/charges.server.ts,
 * payments/refunds.server.ts) and issuing any invoice or credit note one lacks (decision 031),
 * resending order confirmations that failed (every minute), forgetting rate-limit windows that
 * ended a day ago, checkouts in progress untouched for a day, webhook events 30 days old whose
 * deliveries ended and all but the newest rows of the catalogue's change log (every hour), checking the stock
 * ledger against the levels (daily: drift is logged at error) and rolling up the dashboard's closed
 * days (nightly, and at start when that night's was missed), applying customer groups' rules (daily).
 * All are safe with several processes on
 * one database (every settlement is a guarded transition; a resend attempt is claimed by one
 * process; a prune deletes the same rows whoever runs it), and the ones that would do the same work
 * twice run once per turn across every process (decision 027): turns are the wall clock's minutes
 * or days, every process wakes at each, and the one that gets the job's lease runs the turn unless
 * another already did (job-lease.server.ts). Timers never keep the process alive.
 */
export const JOB_INTERVALS = {
  paymentsMs: 60_000,
  confirmationsMs: 60_000,
  prunesMs: 60 * 60_000,
  stockLedgerMs: 24 * 60 * 60_000,
  rollupsMs: 24 * 60 * 60_000,
  /** each hour one process looks whether the owner's daily backup is due (decision 028) */
  backupsMs: 60 * 60_000,
  /** customer groups' rules ("spent over $X") applied again each day (decision 034) */
  groupRulesMs: 24 * 60 * 60_000,
  /** webhooks: new events sent, failed ones retried when due (decision 039) */
  webhooksMs: 5_000,
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
  /** what a backup reads and where it goes (decision 028) */
  backups: BackupServices;
  /** webhooks may go to private addresses (WEBHOOKS_ALLOW_PRIVATE) */
  webhooksAllowPrivate: boolean;
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
  // gift cards bought in paid orders, issued and e-mailed (Place Order does it at once when it can)
  const giftCards = jobTurn(getDb, "gift-card-deliveries", { ttlMs: 10 * 60_000 }, async () => {
    const { db, mail, shop } = await open();
    return deliverGiftCards(db, mail, shop);
  });
  const payments = jobTurn(getDb, "payment-reconcile", { ttlMs: 10 * 60_000 }, async () => {
    const { db, gateway, mail, shop } = await open();
    const charges = await reconcilePayments(db, gateway);
    const refunds = await settlePendingRefunds({ db, gateway, mail, shop });
    // a paid order or a succeeded refund without its invoice or credit note gets it (decision 031)
    const documents = await issueMissingDocuments(db);
    return {
      ...charges,
      refundsSucceeded: refunds.succeeded,
      refundsFailed: refunds.failed,
      refundsWaiting: refunds.waiting,
      invoicesIssued: documents.invoices,
      creditNotesIssued: documents.creditNotes,
    };
  });
  const stockLedger = jobTurn(getDb, "stock-ledger-check", { ttlMs: 60 * 60_000 }, async () => {
    // read off the app's thread on SQLite: at 1M products the check reads ~6 s
    const drift = await checkStockLedger(readerOf(await getDb()));
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
  // webhooks' outbox: events older than 30 days whose deliveries all ended, with their attempts
  const webhookOutbox = everywhere("webhook-outbox-prune", async () => pruneWebhookOutbox(await getDb()));
  const searchMisses = everywhere("search-misses-prune", async () => pruneSearchMisses(await getDb()));
  // the catalogue's change log: its newest rows kept for the search index's patches (decision 041)
  const catalogChanges = everywhere("catalog-changes-prune", async () => pruneCatalogChanges(await getDb()));
  // the owner's daily backup, when enabled and due; a failure is recorded on Admin → Backups and
  // logged at error (runScheduledBackup), and waits for the next day
  const backups = jobTurn(getDb, "backup", { ttlMs: BACKUP_LEASE_MS }, async () => {
    const run = await runScheduledBackup((await open()).backups);
    return run.ran ? { backups: 1, backupsFailed: run.outcome.ok ? 0 : 1 } : { backups: 0 };
  });
  // rule members of customer groups recomputed (a refund or a new order moves a customer across "spent over")
  const groupRules = jobTurn(getDb, "customer-group-rules", { ttlMs: 60 * 60_000 }, async () =>
    refreshGroupRules(await getDb()),
  );
  // webhooks: the outbox's new events made deliveries, and those due sent (decision 039) — looked
  // for with reads only, and the lease taken only when there is work: a write every few seconds
  // would move SQLite's data stamp and empty the page cache
  let webhooksRunning = false;
  const webhooks = everywhere("webhook-delivery", async () => {
    if (webhooksRunning) return null;
    webhooksRunning = true;
    try {
      const { db, mail, shop, webhooksAllowPrivate } = await open();
      if (!(await hasWebhookWork(db))) return null;
      return await withJobLease(db, "webhook-delivery", { ttlMs: 10 * 60_000 }, async () => ({
        ...(await deliverWebhooks(db, {
          send: (url, request) => sendWebhook(url, request, { allowPrivate: webhooksAllowPrivate }),
        })),
        // an endpoint failing for a day: its owners e-mailed once; for three: disabled
        ...(await watchFailingEndpoints(db, { mail, shop })),
      }));
    } finally {
      webhooksRunning = false;
    }
  });
  const stops = [
    everyTurn(JOB_INTERVALS.paymentsMs, payments, { firstMs: FIRST_PAYMENTS_RUN_MS }),
    everyTurn(JOB_INTERVALS.confirmationsMs, confirmations),
    everyTurn(JOB_INTERVALS.confirmationsMs, giftCards),
    everyTurn(JOB_INTERVALS.stockLedgerMs, stockLedger, { firstMs: FIRST_DAILY_RUN_MS }),
    everyTurn(JOB_INTERVALS.rollupsMs, rollups, { firstMs: FIRST_DAILY_RUN_MS, offsetMs: ROLLUPS_OFFSET_MS }),
    everyTurn(JOB_INTERVALS.backupsMs, backups, { firstMs: FIRST_DAILY_RUN_MS }),
    everyTurn(JOB_INTERVALS.groupRulesMs, groupRules, { firstMs: FIRST_DAILY_RUN_MS }),
  ];
  const timers = [
    setInterval(rateLimits, JOB_INTERVALS.prunesMs),
    setInterval(checkouts, JOB_INTERVALS.prunesMs),
    setInterval(webhookOutbox, JOB_INTERVALS.prunesMs),
    setInterval(searchMisses, JOB_INTERVALS.prunesMs),
    setInterval(catalogChanges, JOB_INTERVALS.prunesMs),
    setInterval(webhooks, JOB_INTERVALS.webhooksMs),
  ];
  for (const timer of timers) timer.unref();
  return () => {
    for (const stop of stops) stop();
    for (const timer of timers) clearInterval(timer);
  };
}
