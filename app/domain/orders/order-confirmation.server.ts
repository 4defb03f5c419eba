import type { ExpressionBuilder } from "kysely";
import { logger } from "../../adapters/logger.server.ts";
import type { Mailer } from "../../adapters/mail/mail-message.ts";
import type { Database } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import type { MailShop } from "../../lib/shop-settings.ts";
import { invoiceAttachment, invoiceAttachmentOf } from "../invoices/documents.server.ts";
import { renderOrderConfirmation } from "./order-email.tsx";
import { getOrderByNumber } from "./orders.server.ts";
import type { PlacedConfirmation } from "./place-order.server.ts";

/**
 * The order confirmation e-mail, sent at least once. Place Order sends it at once (so it is in
 * the shopper's inbox when the confirmation page shows): the order row is created with attempt 1
 * claimed in the order's own transaction, and marked sent once the e-mail went out. An order
 * whose latest attempt was claimed more than a grace time ago and is still not marked sent — the
 * mail server refused it, or the process died between the order's commit and the send — is taken
 * up by `sendPendingConfirmations`, run every minute by each app process: a few attempts in all,
 * each claimed by one process only. A process that dies after sending but before marking makes
 * the shopper receive that confirmation twice, never not at all.
 */

/** The shop as its e-mails name it (settings' name and tax label, the public URL). */
export type ShopIdentity = MailShop;

/** How the resend job picks orders. */
export const CONFIRMATION_RETRY = {
  /**
   * an attempt is left to finish for this long before the job tries again; longer than an SMTP
   * send can take (the mailer's timeouts), so a slow attempt is not repeated while it runs
   */
  graceMs: 120_000,
  /** attempts in all (the first one included) */
  maxAttempts: 5,
  /** orders older than this are not confirmed any more (the shopper has other news by then) */
  maxAgeMs: 3 * 24 * 60 * 60_000,
  /** orders per run */
  batch: 50,
} as const;

/** The order's latest attempt (if any) was claimed long enough ago to be tried again. */
const graceOver = (eb: ExpressionBuilder<DB, "orders">, now: Date) => {
  const cutoff = new Date(now.getTime() - CONFIRMATION_RETRY.graceMs).toISOString();
  return eb.or([eb("confirmationClaimedAt", "is", null), eb("confirmationClaimedAt", "<=", cutoff)]);
};

/**
 * Sends the confirmation of one order, if it still needs one and this call wins the attempt: the
 * claim counts the attempt and stamps it, so a concurrent run skips the order and later runs
 * leave it alone for the grace time. Never throws.
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
  // the claim: one caller moves the order from n attempts to n + 1, and only once the latest
  // attempt has had its grace time (another process may be sending it right now)
  const claimed = await db
    .updateTable("orders")
    .set({ confirmationAttempts: attempt, confirmationClaimedAt: now.toISOString() })
    .where("id", "=", row.id)
    .where("confirmationAttempts", "=", row.confirmationAttempts)
    .where("confirmationSentAt", "is", null)
    .where((eb) => graceOver(eb, now))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return "skipped";
  return deliver(db, mailer, shop, orderNumber, attempt, now);
}

/** Sends the e-mail of a claimed attempt and marks the order sent; a failure is logged and left to the job. */
async function deliver(
  db: Database,
  mailer: Mailer,
  shop: ShopIdentity,
  orderNumber: string,
  attempt: number,
  now: Date,
  /** Place Order's own: the order as it wrote it, and the invoice its payment issued */
  placed?: PlacedConfirmation,
): Promise<"sent" | "failed"> {
  try {
    const order = placed?.order ?? (await getOrderByNumber(db, orderNumber));
    if (!order) throw new Error(`order ${orderNumber} not found`);
    // the invoice, issued when the order was paid, as a PDF (decision 031)
    const invoice = placed?.invoice
      ? invoiceAttachmentOf(placed.invoice)
      : await invoiceAttachment(db, orderNumber);
    await mailer.send({
      to: order.email,
      ...renderOrderConfirmation(order, shop),
      ...(invoice ? { attachments: [invoice] } : {}),
    });
  } catch (error) {
    logger.error(
      { err: error, orderNumber, attempt },
      "order confirmation e-mail failed; it will be retried",
    );
    return "failed";
  }
  await db
    .updateTable("orders")
    .set({ confirmationSentAt: now.toISOString() })
    .where("number", "=", orderNumber)
    .where("confirmationSentAt", "is", null)
    .execute()
    .catch((markError: unknown) =>
      // the e-mail went out; unmarked, the job sends it once more after the grace time
      logger.error({ err: markError, orderNumber }, "could not mark the order confirmation sent"),
    );
  return "sent";
}

/**
 * Place Order's own send, right after it recorded the payment (attempt 1 was claimed with the
 * order); `placed`: what it wrote — the order's view and the invoice its payment issued — so
 * nothing is read back (else both are read).
 */
export function sendPlacedOrderConfirmation(
  db: Database,
  mailer: Mailer,
  shop: ShopIdentity,
  orderNumber: string,
  placed?: PlacedConfirmation,
): Promise<"sent" | "failed"> {
  return deliver(db, mailer, shop, orderNumber, 1, new Date(), placed);
}

/**
 * The send for an order whose payment completed after Place Order answered (3-D Secure, the
 * provider's hosted page, its event): Place Order claimed attempt 1 but sent nothing, so the first
 * of the return page and the provider's event to get here claims attempt 2 — without waiting for
 * the grace time — and sends; the other finds it claimed.
 */
export async function sendCompletedOrderConfirmation(
  db: Database,
  mailer: Mailer,
  shop: ShopIdentity,
  orderNumber: string,
  now: Date = new Date(),
): Promise<"sent" | "failed" | "skipped"> {
  const claimed = await db
    .updateTable("orders")
    .set({ confirmationAttempts: 2, confirmationClaimedAt: now.toISOString() })
    .where("number", "=", orderNumber)
    .where("confirmationAttempts", "=", 1)
    .where("confirmationSentAt", "is", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return "skipped";
  return deliver(db, mailer, shop, orderNumber, 2, now);
}

/**
 * Sends the confirmations whose latest attempt failed or never finished (see CONFIRMATION_RETRY);
 * returns what happened.
 */
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
    .where((eb) => graceOver(eb, now))
    .where("createdAt", ">=", new Date(now.getTime() - CONFIRMATION_RETRY.maxAgeMs).toISOString())
    .where("confirmationAttempts", "<", CONFIRMATION_RETRY.maxAttempts)
    .where("status", "in", ["paid", "shipped", "delivered", "partially_refunded"])
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
