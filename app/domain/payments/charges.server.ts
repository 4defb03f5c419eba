import { sql } from "kysely";
import { logger } from "../../adapters/logger.server.ts";
import {
  type CardSummary,
  PAYMENT_MESSAGES,
  type PaymentGateway,
  type PaymentOutcome,
} from "../../adapters/payments/payment-gateway.ts";
import { type Database, engineOf } from "../../db/database.server.ts";
import { recordOrder, recordPaymentFailure } from "../../infra/metrics.server.ts";
import { currencyOf } from "../../lib/money.ts";
import { buildInvoiceDocument } from "../invoices/build-documents.server.ts";
import type { InvoiceDocument, IssuedDocument } from "../invoices/invoice-document.ts";
import { insertInvoice, invoiceInPaidStatement } from "../invoices/issue-documents.server.ts";
import { transitionOrder } from "../orders/orders.server.ts";
import { ORDER_COLUMNS, type OrderRow } from "./idempotency.server.ts";
import { refundLapsedPayment } from "./refunds.server.ts";

export { ORDER_COLUMNS, type OrderRow };

/**
 * Charges: steps 3 and 4 of Place Order (orders/place-order.server.ts, decision 020) and the job
 * that settles the orders a dead process left `pending_payment` — the payments area's charge
 * workflow, beside its refunds (refunds.server.ts) and the provider's events
 * (provider-events.server.ts), with one idempotency mechanism (idempotency.server.ts). No
 * transaction is open while the gateway is asked; each outcome is recorded with one guarded
 * transition (whichever settles an order first wins, the other finds it settled).
 */

/** How long a pending order holds its stock by default (PAYMENT_RESERVATION_MINUTES). */
export const DEFAULT_RESERVATION_MS = 15 * 60_000;
/** A pending order younger than this may still be in the hands of the request that placed it. */
export const SETTLE_GRACE_MS = 60_000;
export const EXPIRED_MESSAGE = "The payment was not completed in time. Please place your order again.";
export const CANCELLED_MESSAGE = "The payment was not completed. Please choose how to pay again.";

export type Settlement =
  /** `invoice`: the invoice this settlement issued, when it was the one to record the payment */
  | { status: "paid"; replayed: boolean; invoice?: IssuedDocument }
  | { status: "failed"; message: string }
  /** the gateway could not be reached: the order stays pending for the job */
  | { status: "unknown" }
  /** the shopper pays (or authenticates) at the provider: the order stays pending meanwhile */
  | { status: "redirect"; url: string };

/** Where a provider sends the shopper back to (the checkout's return page). */
export interface ProviderReturn {
  /** after 3-D Secure */
  returnUrl: string;
  /** from the hosted page, paid ({CHECKOUT_SESSION_ID} stands for the page) or given up */
  successUrl: string;
  cancelUrl: string;
}

/**
 * The token (and then the payment reference) of an order its gift cards and store credit pay
 * whole: paid without asking the gateway, and refunded to them alone.
 */
export const GIFT_CARD_PAYMENT = "gift-card";

/** What the gateway is asked for: the total less what gift cards paid. */
export const cardPartOf = (order: Pick<OrderRow, "totalCents" | "giftCardCents">) =>
  order.totalCents - order.giftCardCents;

/** The token of a payment the shopper makes on the provider's hosted page (no card yet). */
export const HOSTED_PAYMENT = "hosted";
/** A hosted page lives at least this long (Stripe refuses a shorter one). */
const HOSTED_MINIMUM_MS = 30 * 60_000;
/**
 * Added to that minimum, counted from the order's creation: the provider counts its 30 minutes from
 * when it is asked, in whole seconds, a moment later (a page timed to exactly 30 minutes from the
 * order was refused whenever a second ticked in between). An order still pending this long after
 * it was made without a page gets none (it fails, and the shopper places it again).
 */
const HOSTED_SLACK_MS = 5 * 60_000;

/**
 * Takes a pending order's payment — authorized and captured in one call; the order's idempotency
 * key makes a retry the same payment — then marks it paid, emptying the cart it came from, or failed.
 * With a provider that takes cards in the browser (`provider`), the payment may need the shopper
 * there: 3-D Secure, or the hosted page (token HOSTED_PAYMENT); the order then stays pending, with
 * the provider's reference, until they come back (settleReturning), the provider's event
 * (payment-events.server.ts) or the job settles it.
 */
export async function settlePayment(
  db: Database,
  gateway: PaymentGateway,
  {
    order,
    token,
    cartId,
    now,
    provider,
    description,
    invoice,
  }: {
    order: OrderRow;
    token: string;
    cartId?: string;
    now?: Date;
    provider?: ProviderReturn;
    /** what a hosted page says is being paid for */
    description?: string;
    /** the order's invoice as Place Order reserved it (else it is read when the payment is recorded) */
    invoice?: InvoiceDocument;
  },
): Promise<Settlement> {
  // nothing left to pay by card: paid without a gateway call
  if (cardPartOf(order) === 0) return markPaid(db, order.id, GIFT_CARD_PAYMENT, { cartId, now, invoice });
  if (token === HOSTED_PAYMENT) return startHosted(db, gateway, order, provider, description, now);
  let authorizationId: string;
  try {
    // authorized and captured in one call (the reconciliation job captures one left authorized)
    const authorization = await gateway.authorize({
      token,
      amountCents: cardPartOf(order),
      currency: currencyOf(order.currency),
      idempotencyKey: order.idempotencyKey,
      capture: true,
      orderNumber: order.number,
      ...(provider ? { returnUrl: provider.returnUrl } : {}),
    });
    if (authorization.ok === false) return markFailed(db, order.id, authorization.message, now);
    if (authorization.ok === "action") {
      await keepReference(db, order.id, authorization.authorizationId);
      return { status: "redirect", url: authorization.redirectUrl };
    }
    authorizationId = authorization.authorizationId;
  } catch (error) {
    logger.warn({ err: error, order: order.number }, "payment outcome unknown; the order stays pending");
    return { status: "unknown" };
  }
  const settled = await markPaid(db, order.id, authorizationId, { cartId, now, invoice });
  if (settled.status === "failed") await refundLapsed(db, gateway, order, authorizationId, now);
  return settled;
}

/** The hosted page for a pending order: where to send the shopper (no money can move before they go). */
async function startHosted(
  db: Database,
  gateway: PaymentGateway,
  order: OrderRow,
  provider: ProviderReturn | undefined,
  description = `Order ${order.number}`,
  now?: Date,
): Promise<Settlement> {
  if (!gateway.browser || !provider) return markFailed(db, order.id, PAYMENT_MESSAGES.invalid_token, now);
  try {
    // the page lives until the reservation lapses (at least the provider's minimum), from the
    // order's own times: the same order always asks for the same page
    const created = Date.parse(order.createdAt);
    const until = order.reservedUntil ? Date.parse(order.reservedUntil) : created;
    const page = await gateway.browser.startHostedPayment({
      expiresAt: new Date(Math.max(until, created + HOSTED_MINIMUM_MS + HOSTED_SLACK_MS)),
      amountCents: cardPartOf(order),
      currency: currencyOf(order.currency),
      orderNumber: order.number,
      idempotencyKey: order.idempotencyKey,
      email: order.email,
      description,
      successUrl: provider.successUrl,
      cancelUrl: provider.cancelUrl,
    });
    await keepReference(db, order.id, page.reference);
    return { status: "redirect", url: page.url };
  } catch (error) {
    // nobody was sent to a page, so nothing can have been paid: the order is given up at once
    logger.warn({ err: error, order: order.number }, "could not start the hosted payment page");
    return markFailed(db, order.id, PAYMENT_MESSAGES.processing_error, now);
  }
}

/** A pending order's provider reference (its hosted page, or its payment waiting for 3-D Secure). */
async function keepReference(db: Database, orderId: number, reference: string): Promise<void> {
  await db
    .updateTable("orders")
    .set({ paymentReference: reference })
    .where("id", "=", orderId)
    .where("status", "=", "pending_payment")
    .execute();
}

/**
 * A payment went through for an order that was given up meanwhile (its reservation lapsed): the
 * money goes back, as the order does not exist for the shopper — through the refund workflow, so
 * it is recorded before the gateway is asked and settled by the refund job if this process dies.
 */
async function refundLapsed(
  db: Database,
  gateway: PaymentGateway,
  order: OrderRow,
  authorizationId: string,
  now?: Date,
) {
  await refundLapsedPayment(
    { db, gateway },
    {
      orderId: order.id,
      orderKey: order.idempotencyKey,
      authorizationId,
      amountCents: cardPartOf(order),
      now,
    },
  ).catch((error: unknown) =>
    logger.error({ err: error, order: order.number }, "could not refund a lapsed order's payment"),
  );
}

/**
 * Settles a pending order from the provider's report on its reference: the shopper came back from
 * 3-D Secure or the hosted page, or the provider sent an event. Captured → paid (the cart emptied
 * when `cartId` is given, the card's brand and last 4 kept); authorized → captured, then paid;
 * declined → failed; nothing yet → failed when the shopper gave up (`cancelled`: the hosted page
 * is closed first, so it cannot be paid later), else left pending. An order settled already is
 * answered as it stands; a payment that went through for an order given up is refunded.
 */
export async function settleReturning(
  db: Database,
  gateway: PaymentGateway,
  order: OrderRow,
  { cartId, cancelled = false, now }: { cartId?: string; cancelled?: boolean; now?: Date },
): Promise<Settlement> {
  const browser = gateway.browser;
  if (!browser || !order.paymentReference) return settledElsewhere(db, order.id);
  let report: Awaited<ReturnType<typeof browser.report>>;
  try {
    report = await browser.report(order.paymentReference);
  } catch (error) {
    logger.warn({ err: error, order: order.number }, "could not ask the provider about a payment");
    return order.status === "pending_payment" ? { status: "unknown" } : settledElsewhere(db, order.id);
  }
  return settleFromOutcome(db, gateway, order, report.outcome, { cartId, cancelled, now, card: report.card });
}

/** Records what the provider says of an order's payment (see settleReturning). */
export async function settleFromOutcome(
  db: Database,
  gateway: PaymentGateway,
  order: OrderRow,
  outcome: PaymentOutcome,
  {
    cartId,
    cancelled = false,
    now,
    card = null,
  }: { cartId?: string; cancelled?: boolean; now?: Date; card?: CardSummary | null },
): Promise<Settlement> {
  switch (outcome.status) {
    case "captured":
    case "authorized": {
      if (outcome.status === "authorized") await gateway.capture(outcome.authorizationId);
      const settled = await markPaid(db, order.id, outcome.authorizationId, { cartId, now, card });
      if (settled.status === "failed") await refundLapsed(db, gateway, order, outcome.authorizationId, now);
      return settled;
    }
    case "declined":
      return markFailed(db, order.id, PAYMENT_MESSAGES[outcome.code], now);
    case "voided":
      return markFailed(db, order.id, CANCELLED_MESSAGE, now);
    case "none": {
      if (!cancelled)
        return order.status === "pending_payment" ? { status: "unknown" } : settledElsewhere(db, order.id);
      await giveUpAtProvider(gateway, order);
      return markFailed(db, order.id, CANCELLED_MESSAGE, now);
    }
  }
}

/**
 * Makes sure an order's pending payment can no longer be completed at the provider: its hosted
 * page is closed, its payment waiting for 3-D Secure cancelled. Logged, never thrown.
 */
export async function giveUpAtProvider(gateway: PaymentGateway, order: OrderRow): Promise<void> {
  const reference = order.paymentReference;
  if (!gateway.browser || !reference) return;
  try {
    if (reference.startsWith("pi_")) await gateway.void(reference);
    else await gateway.browser.closeHostedPayment(reference);
  } catch (error) {
    logger.warn({ err: error, order: order.number }, "could not close a given-up payment at the provider");
  }
}

/**
 * Step 4 on success: paid (and the cart emptied); an order some other party settled first is
 * answered as it is. One short transaction; on PostgreSQL one statement (data-modifying CTEs: the
 * guarded status change, its event and the cart's emptying), which is the same transition without
 * four more round trips to the server on the checkout's hottest path.
 */
export async function markPaid(
  db: Database,
  orderId: number,
  authorizationId: string,
  {
    cartId,
    now = new Date(),
    card = null,
    invoice: reserved,
  }: {
    cartId?: string;
    now?: Date;
    card?: CardSummary | null;
    /** the invoice as the order was reserved, without its `paidAt` (Place Order's own payment) */
    invoice?: InvoiceDocument;
  } = {},
): Promise<Settlement> {
  const at = now.toISOString();
  // a payment made on the provider's page: the card is known only now
  const cardColumns = card ? { paymentBrand: card.brand, paymentLast4: card.last4 } : {};
  // the invoice's document, made before the write (decision 031); numbered and written with it
  const invoice = reserved
    ? { ...reserved, order: { ...reserved.order, paidAt: at } }
    : await buildInvoiceDocument(db, orderId, { paidAt: at });
  if (engineOf(db) === "postgres") {
    const cardSet = card ? sql`, payment_brand = ${card.brand}, payment_last4 = ${card.last4}` : sql``;
    const cartWork = cartId
      ? sql`, emptied as (delete from cart_items where cart_id = ${cartId} and exists (select 1 from moved)),
          cleared as (update carts set coupon_code = null, updated_at = ${at}
                      where id = ${cartId} and exists (select 1 from moved))`
      : sql``;
    // the order's invoice, numbered in the same statement (decision 031); its webhook event
    // (order.paid, decision 039) in it too, as moveOrder writes it on the other engine
    const invoiceWork = invoiceInPaidStatement(orderId, invoice, at);
    const { rows } = await sql<{ id: number; invoice: string | null }>`
      with moved as (
        update orders set status = 'paid', paid_at = ${at}, payment_reference = ${authorizationId},
          reserved_until = null, updated_at = ${at}${cardSet}
        where id = ${orderId} and status = 'pending_payment'
        returning id, number, email, total_cents, currency),
      logged as (
        insert into order_events (order_id, from_status, to_status, actor, created_at)
        select id, 'pending_payment', 'paid', 'checkout', ${at} from moved),
      hooked as (
        insert into webhook_events (type, subject_id, data, created_at)
        select 'order.paid', id, json_build_object('number', number, 'status', 'paid', 'email', email,
          'total', json_build_object('amount', total_cents, 'currency', currency))::text, ${at}
        from moved)${cartWork}${invoiceWork}
      select id, ${invoice ? sql`(select number from invoiced)` : sql`null`} as invoice from moved`.execute(
      db,
    );
    const [row] = rows;
    if (rows.length !== 1 || !row) return settledElsewhere(db, orderId);
    recordOrder("paid");
    return { status: "paid", replayed: false, ...issuedWith(invoice, row.invoice, at) };
  }
  let issuedNumber: string | null = null;
  const result = await transitionOrder(db, {
    orderId,
    to: "paid",
    from: "pending_payment",
    actor: "checkout",
    now,
    set: { paidAt: at, paymentReference: authorizationId, reservedUntil: null, ...cardColumns },
    inSameTransaction: async (trx) => {
      if (invoice) issuedNumber = (await insertInvoice(trx, orderId, invoice, now)).number;
      if (!cartId) return;
      await trx.deleteFrom("cartItems").where("cartId", "=", cartId).execute();
      await trx
        .updateTable("carts")
        .set({ couponCode: null, updatedAt: at })
        .where("id", "=", cartId)
        .execute();
    },
  });
  if (!result.ok) return settledElsewhere(db, orderId);
  recordOrder("paid");
  return { status: "paid", replayed: false, ...issuedWith(invoice, issuedNumber, at) };
}

/** The invoice just issued with a payment, as the confirmation attaches it (nothing to read back). */
function issuedWith(
  document: InvoiceDocument | null,
  number: string | null,
  issuedAt: string,
): { invoice?: IssuedDocument } {
  return document && number ? { invoice: { kind: "invoice", number, issuedAt, document } } : {};
}

/** Step 4 on a decline: payment_failed, the stock and the coupon use given back. */
export async function markFailed(
  db: Database,
  orderId: number,
  message: string,
  now?: Date,
): Promise<Settlement> {
  const result = await transitionOrder(db, {
    orderId,
    to: "payment_failed",
    actor: "checkout",
    now,
    set: { paymentError: message, reservedUntil: null },
  });
  if (!result.ok) return settledElsewhere(db, orderId);
  recordPaymentFailure(FAILURE_REASONS.get(message) ?? "other");
  return { status: "failed", message };
}

/** A failed payment's message back to a reason for the metrics (a closed set: bounded labels). */
const FAILURE_REASONS = new Map<string, string>([
  ...Object.entries(PAYMENT_MESSAGES).map(([code, message]) => [message, code] as [string, string]),
  [EXPIRED_MESSAGE, "expired"],
  [CANCELLED_MESSAGE, "cancelled"],
]);

/** The outcome another request or the job recorded first. */
async function settledElsewhere(db: Database, orderId: number): Promise<Settlement> {
  const row = await db
    .selectFrom("orders")
    .select(["status", "paymentError"])
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  if (row.status === "payment_failed") {
    return { status: "failed", message: row.paymentError ?? PAYMENT_MESSAGES.processing_error };
  }
  if (row.status === "pending_payment") return { status: "unknown" };
  return { status: "paid", replayed: true };
}

/**
 * The reconciliation job: every order pending for longer than the grace period is settled from
 * the gateway's answer for its idempotency key — a captured payment makes it paid, an authorized
 * one is captured first, a declined or voided one fails it. A payment the gateway never saw fails
 * the order once its reservation has lapsed, so no stock stays held by an abandoned checkout.
 */
export async function reconcilePayments(
  db: Database,
  gateway: PaymentGateway,
  { now = new Date(), limit = 100 }: { now?: Date; limit?: number } = {},
): Promise<{ paid: number; failed: number; waiting: number }> {
  const counts = { paid: 0, failed: 0, waiting: 0 };
  const pending = await db
    .selectFrom("orders")
    .select(ORDER_COLUMNS)
    .where("status", "=", "pending_payment")
    .where("createdAt", "<=", new Date(now.getTime() - SETTLE_GRACE_MS).toISOString())
    .orderBy("reservedUntil")
    .limit(limit)
    .execute();
  for (const order of pending) {
    let settled: Settlement;
    try {
      settled = await reconcileOne(db, gateway, order, now);
    } catch (error) {
      logger.warn({ err: error, order: order.number }, "could not reconcile a pending payment");
      settled = { status: "unknown" };
    }
    if (settled.status === "paid") counts.paid++;
    else if (settled.status === "failed") counts.failed++;
    else counts.waiting++;
  }
  return counts;
}

async function reconcileOne(
  db: Database,
  gateway: PaymentGateway,
  order: OrderRow,
  now: Date,
): Promise<Settlement> {
  // paid whole by gift cards (the process died before it recorded it): nothing to ask the gateway
  if (cardPartOf(order) === 0) return markPaid(db, order.id, GIFT_CARD_PAYMENT, { now });
  const outcome = await gateway.outcome(order.idempotencyKey);
  switch (outcome.status) {
    case "captured":
      return markPaid(db, order.id, outcome.authorizationId, { now });
    case "authorized":
      await gateway.capture(outcome.authorizationId);
      return markPaid(db, order.id, outcome.authorizationId, { now });
    case "declined":
      return markFailed(db, order.id, PAYMENT_MESSAGES[outcome.code], now);
    case "voided":
      return markFailed(db, order.id, PAYMENT_MESSAGES.processing_error, now);
    case "none": {
      const lapsed = order.reservedUntil === null || order.reservedUntil <= now.toISOString();
      if (!lapsed) return { status: "unknown" };
      // a hosted page or a 3-D Secure step still open at the provider is closed first, so the
      // shopper cannot pay for an order that no longer holds its stock
      await giveUpAtProvider(gateway, order);
      return markFailed(db, order.id, EXPIRED_MESSAGE, now);
    }
  }
}
