import type { Database } from "../../db/database.server.ts";
import { logger } from "../../services/logger.server.ts";
import type { Mailer } from "../../services/mailer.server.ts";
import { renderOrderConfirmation } from "./order-email.tsx";
import { getOrderByNumber } from "./orders.server.ts";

/**
 * The order confirmation e-mail. Place Order sends it at once (so it is in the shopper's inbox
 * when the confirmation page shows). The order row is created as confirmed by attempt 1 in the
 * order's own transaction, so the common case costs no extra write; if the send fails (the mail
 * server is down, say) the order is marked unconfirmed and `sendPendingConfirmations`, run every
 * minute by each app process, tries again — a few times, never twice for the same attempt
 * across processes. (A process that dies between the commit and the send loses that e-mail.)
 */

export interface ShopIdentity {
  shopName: string;
  publicUrl: string;
}

/** How the resend job picks orders. */
export const CONFIRMATION_RETRY = {
  /** an order is left to its own request for this long before the job looks at it */
  graceMs: 60_000,
  /** attempts in all (the first one included) */
  maxAttempts: 5,
  /** orders older than this are not confirmed any more (the shopper has other news by then) */
  maxAgeMs: 3 * 24 * 60 * 60_000,
  /** orders per run */
  batch: 50,
} as const;

/**
 * Sends the confirmation of one order, if it still needs one and this call wins the attempt.
 * The claim marks the order confirmed (and counts the attempt) before sending, so a concurrent
 * run skips it; a failed send marks it unconfirmed again. Never throws.
 */
export async function sendOrderConfirmation(
  db: Database,
  mailer: Mailer,
  shop: ShopIdentity,
  orderNumber: string,
  now: Date = new Date(),
): Promise<"sent" | "failed" | "skipped"> {
  const row = await db
    .selectFrom("orders")
    .select(["id", "confirmationSentAt", "confirmationAttempts"])
    .where("number", "=", orderNumber)
    .executeTakeFirst();
  if (!row || row.confirmationSentAt !== null) return "skipped";
  const attempt = row.confirmationAttempts + 1;
  // the claim: one caller moves the order from (unconfirmed, n attempts) to (confirmed, n + 1)
  const claimed = await db
    .updateTable("orders")
    .set({ confirmationSentAt: now.toISOString(), confirmationAttempts: attempt })
    .where("id", "=", row.id)
    .where("confirmationAttempts", "=", row.confirmationAttempts)
    .where("confirmationSentAt", "is", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return "skipped";
  return deliver(db, mailer, shop, orderNumber, attempt);
}

/** Sends the e-mail of an order already claimed (marked confirmed); on failure unmarks it. */
async function deliver(
  db: Database,
  mailer: Mailer,
  shop: ShopIdentity,
  orderNumber: string,
  attempt: number,
): Promise<"sent" | "failed"> {
  try {
    const order = await getOrderByNumber(db, orderNumber);
    if (!order) throw new Error(`order ${orderNumber} not found`);
    await mailer.send({ to: order.email, ...renderOrderConfirmation(order, shop) });
    return "sent";
  } catch (error) {
    logger.error(
      { err: error, orderNumber, attempt },
      "order confirmation e-mail failed; it will be retried",
    );
    await db
      .updateTable("orders")
      .set({ confirmationSentAt: null })
      .where("number", "=", orderNumber)
      .execute()
      .catch((markError: unknown) =>
        logger.error({ err: markError, orderNumber }, "could not mark the order for a confirmation retry"),
      );
    return "failed";
  }
}

/** Place Order's own send, right after the order committed (claimed as confirmed, attempt 1). */
export function sendPlacedOrderConfirmation(
  db: Database,
  mailer: Mailer,
  shop: ShopIdentity,
  orderNumber: string,
): Promise<"sent" | "failed"> {
  return deliver(db, mailer, shop, orderNumber, 1);
}

/** Sends the confirmations that failed earlier (see CONFIRMATION_RETRY); returns what happened. */
export async function sendPendingConfirmations(
  db: Database,
  mailer: Mailer,
  shop: ShopIdentity,
  now: Date = new Date(),
): Promise<{ sent: number; failed: number }> {
  const pending = await db
    .selectFrom("orders")
    .select("number")
    .where("confirmationSentAt", "is", null)
    .where("createdAt", "<=", new Date(now.getTime() - CONFIRMATION_RETRY.graceMs).toISOString())
    .where("createdAt", ">=", new Date(now.getTime() - CONFIRMATION_RETRY.maxAgeMs).toISOString())
    .where("confirmationAttempts", "<", CONFIRMATION_RETRY.maxAttempts)
    .where("status", "!=", "cancelled")
    .orderBy("createdAt")
    .limit(CONFIRMATION_RETRY.batch)
    .execute();
  const result = { sent: 0, failed: 0 };
  for (const { number } of pending) {
    const outcome = await sendOrderConfirmation(db, mailer, shop, number, now);
    if (outcome === "sent") result.sent++;
    if (outcome === "failed") result.failed++;
  }
  return result;
}
