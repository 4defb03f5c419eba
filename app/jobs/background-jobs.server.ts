import { logger } from "../adapters/logger.server.ts";
import { getMailer } from "../adapters/mail/mailer.server.ts";
import type { Database } from "../db/database.server.ts";
import { pruneCheckoutProgress } from "../domain/checkout/checkout-progress.server.ts";
import { sendPendingConfirmations } from "../domain/orders/order-confirmation.server.ts";
import { getEnv } from "../env.server.ts";
import { pruneRateLimits } from "../infra/rate-limit.server.ts";

/**
 * Housekeeping each app process runs while it serves: resending order confirmations that failed
 * (every minute), forgetting rate-limit windows that ended a day ago and checkouts in progress
 * untouched for a day (every hour). All are safe with several processes on one database (a resend
 * attempt is claimed by one process; a prune deletes the same rows whoever runs it). Timers never
 * keep the process alive.
 */
export const JOB_INTERVALS = { confirmationsMs: 60_000, prunesMs: 60 * 60_000 } as const;
const RATE_LIMIT_RETENTION_MS = 24 * 60 * 60_000;

/** Starts the jobs on the app's database (opened on first use); returns their stop. */
export function startJobs(getDb: () => Promise<Database>): () => void {
  const run = (name: string, job: () => Promise<unknown>) => async () => {
    try {
      const result = await job();
      if (result && typeof result === "object" && Object.values(result).some((n) => n !== 0)) {
        logger.info({ job: name, ...result }, "background job");
      }
    } catch (error) {
      logger.error({ err: error, job: name }, "background job failed");
    }
  };
  const confirmations = run("order-confirmations", async () => {
    const env = getEnv();
    return sendPendingConfirmations(await getDb(), getMailer(), {
      shopName: env.SHOP_NAME,
      publicUrl: env.PUBLIC_URL,
    });
  });
  const rateLimits = run("rate-limit-prune", async () =>
    pruneRateLimits(await getDb(), RATE_LIMIT_RETENTION_MS),
  );
  const checkouts = run("checkout-progress-prune", async () => pruneCheckoutProgress(await getDb()));
  const timers = [
    setInterval(confirmations, JOB_INTERVALS.confirmationsMs),
    setInterval(rateLimits, JOB_INTERVALS.prunesMs),
    setInterval(checkouts, JOB_INTERVALS.prunesMs),
  ];
  for (const timer of timers) timer.unref();
  return () => {
    for (const timer of timers) clearInterval(timer);
  };
}
