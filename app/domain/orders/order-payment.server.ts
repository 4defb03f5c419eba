import { logger } from "../../adapters/logger.server.ts";
import { PAYMENT_MESSAGES, type PaymentGateway } from "../../adapters/payments/payment-gateway.ts";
import type { Database } from "../../db/database.server.ts";
import type { OrderStatus } from "../../db/schema.ts";
import { transitionOrder } from "./orders.server.ts";

/**
 * Steps 3 and 4 of Place Order (place-order.server.ts, decision 020) and the job that settles the
 * orders a dead process left `pending_payment`. No transaction is open while the gateway is asked;
 * each outcome is recorded with one guarded transition (whichever settles an order first wins,
 * the other finds it settled).
 */

/** How long a pending order holds its stock by default (PAYMENT_RESERVATION_MINUTES). */
export const DEFAULT_RESERVATION_MS = 15 * 60_000;
/** A pending order younger than this may still be in the hands of the request that placed it. */
export const SETTLE_GRACE_MS = 60_000;
export const EXPIRED_MESSAGE = "The payment was not completed in time. Please place your order again.";

/** What Place Order and the job read of an order. */
export const ORDER_COLUMNS = [
  "id",
  "number",
  "email",
  "totalCents",
  "estimatedDelivery",
  "status",
  "idempotencyKey",
  "paymentError",
] as const;

export interface OrderRow {
  id: number;
  number: string;
  email: string;
  totalCents: number;
  estimatedDelivery: string;
  status: OrderStatus;
  idempotencyKey: string;
  paymentError: string | null;
}

export type Settlement =
  | { status: "paid"; replayed: boolean }
  | { status: "failed"; message: string }
  /** the gateway could not be reached: the order stays pending for the job */
  | { status: "unknown" };

/**
 * Takes a pending order's payment — authorized and captured in one call; the order's idempotency
 * key makes a retry the same payment — then marks it paid, emptying the cart it came from, or failed.
 */
export async function settlePayment(
  db: Database,
  gateway: PaymentGateway,
  { order, token, cartId, now }: { order: OrderRow; token: string; cartId?: string; now?: Date },
): Promise<Settlement> {
  let authorizationId: string;
  try {
    // authorized and captured in one call (the reconciliation job captures one left authorized)
    const authorization = await gateway.authorize({
      token,
      amountCents: order.totalCents,
      currency: "USD",
      idempotencyKey: order.idempotencyKey,
      capture: true,
    });
    if (!authorization.ok) return markFailed(db, order.id, authorization.message, now);
    authorizationId = authorization.authorizationId;
  } catch (error) {
    logger.warn({ err: error, order: order.number }, "payment outcome unknown; the order stays pending");
    return { status: "unknown" };
  }
  const settled = await markPaid(db, order.id, authorizationId, { cartId, now });
  if (settled.status === "failed") {
    // the job gave the order up (its reservation lapsed) while this payment went through: the
    // money goes back, as the order does not exist for the shopper
    await gateway
      .refund({
        authorizationId,
        amountCents: order.totalCents,
        idempotencyKey: `${order.idempotencyKey}:lapsed`,
      })
      .catch((error: unknown) =>
        logger.error({ err: error, order: order.number }, "could not refund a lapsed order's payment"),
      );
  }
  return settled;
}

/** Step 4 on success: paid (and the cart emptied); an order some other party settled first is answered as it is. */
export async function markPaid(
  db: Database,
  orderId: number,
  authorizationId: string,
  { cartId, now = new Date() }: { cartId?: string; now?: Date } = {},
): Promise<Settlement> {
  const at = now.toISOString();
  const result = await transitionOrder(db, {
    orderId,
    to: "paid",
    from: "pending_payment",
    actor: "checkout",
    now,
    set: { paidAt: at, paymentReference: authorizationId, reservedUntil: null },
    inSameTransaction: async (trx) => {
      if (!cartId) return;
      await trx.deleteFrom("cartItems").where("cartId", "=", cartId).execute();
      await trx
        .updateTable("carts")
        .set({ couponCode: null, updatedAt: at })
        .where("id", "=", cartId)
        .execute();
    },
  });
  if (result.ok) return { status: "paid", replayed: false };
  return settledElsewhere(db, orderId);
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
  if (result.ok) return { status: "failed", message };
  return settledElsewhere(db, orderId);
}

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
    .select([...ORDER_COLUMNS, "reservedUntil", "createdAt"])
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
  order: OrderRow & { reservedUntil: string | null },
  now: Date,
): Promise<Settlement> {
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
      return lapsed ? markFailed(db, order.id, EXPIRED_MESSAGE, now) : { status: "unknown" };
    }
  }
}
