import type { Database } from "../../db/database.server.ts";
import type { OrderStatus } from "../../db/schema.ts";
import { type Currency, currencyOf, formatMoney } from "../../lib/money.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { actorCan, type Permission } from "../../lib/staff-roles.ts";
import type { Actor, StaffActor } from "../audit/audit-log.server.ts";
import { ORDER_STATUS_LABELS } from "../orders/order-status.ts";
import { findRefundByKey, type RefundRecord, refundKeyOf } from "./idempotency.server.ts";
import {
  insertPending,
  type LineUnits,
  REFUNDABLE,
  type RefundError,
  Refused,
  type RunRequest,
  recordPending,
  unitsPerLine,
} from "./refund-recording.server.ts";
import {
  payAndSettle,
  REFUND_SETTLE_GRACE_MS,
  type RefundServices,
  refundById,
  type SettleServices,
  settlePendingRefunds,
} from "./refund-settlement.server.ts";

/**
 * Refunds as a recoverable workflow (issue 28, decision 025), the way Place Order takes a payment
 * (decision 020). Every refund — from the order page, cancelling a paid order, refunding a return,
 * paying back a payment that landed for an order given up — goes through the same four steps:
 * 1. the whole request is checked (lines normalised and summed per line first);
 * 2. one short transaction records it `pending`, with guarded updates: never past what is left to
 *    refund (refunded + pending + this ≤ total), never more units of a line than bought less those
 *    refunded or being refunded;
 * 3. the gateway is asked outside any transaction, with the refund's own idempotency key;
 * 4. a second short transaction marks it `succeeded` — the order's refunded total, its status, the
 *    stock given back (through the inventory), a cancellation or a return completed with it — or
 *    `failed`, giving back what step 2 promised.
 * A refund a dead process left pending is settled by `settlePendingRefunds` (the background job)
 * from the gateway's answer for its key. So for every order what the gateway paid back equals what
 * the books say (`refunded_cents`), and never exceeds what was paid.
 */

export type { LineUnits, RefundError, RefundServices };
export { REFUND_SETTLE_GRACE_MS, REFUNDABLE, settlePendingRefunds, unitsPerLine };

export interface RefundRequest {
  number: string;
  /** one per refund form shown: the same form twice refunds once */
  key: string;
  /** lines and quantities to refund; or none, with amountCents */
  lines: readonly LineUnits[];
  amountCents: number | null;
  restock: boolean;
  reason: string;
  /** all of it as store credit on the order's account (else: the gateway first, then the gift cards) */
  toStoreCredit?: boolean;
  actor: StaffActor;
  now?: Date;
}

export type RefundOutcome = Result<
  /** `currency`: the order's, which the amounts are in */
  { amountCents: number; currency: Currency; status: OrderStatus; replayed: boolean },
  RefundError
>;

const PERMISSION_FOR: Record<"refund" | "cancel" | "return", Permission> = {
  refund: "refunds",
  cancel: "refunds",
  return: "returns",
};

/** A refund from the admin's order page: lines and quantities (or an amount), optionally restocked. */
export async function refundOrder(services: RefundServices, request: RefundRequest): Promise<RefundOutcome> {
  if (!actorCan(request.actor, PERMISSION_FOR.refund)) return fail({ code: "forbidden" });
  return runRefund(services, {
    kind: "refund",
    number: request.number,
    key: request.key,
    lines: request.lines,
    amountCents: request.amountCents,
    restock: request.restock,
    plusShipping: false,
    reason: request.reason,
    returnId: null,
    toStoreCredit: request.toStoreCredit ?? false,
    actor: request.actor,
    now: request.now,
  });
}

/**
 * Cancelling a paid order: what is left of its payment is refunded, and the order is cancelled (its
 * stock and coupon use given back) in the same transaction that records the refund's success —
 * so a cancellation never completes without its money, nor its money without the cancellation.
 */
export async function cancelPaidOrder(
  services: RefundServices,
  { number, orderKey, actor, now }: { number: string; orderKey: string; actor: StaffActor; now?: Date },
): Promise<RefundOutcome> {
  if (!actorCan(actor, PERMISSION_FOR.cancel)) return fail({ code: "forbidden" });
  return runRefund(services, {
    kind: "cancel",
    number,
    key: refundKeyOf.cancel(orderKey),
    lines: [],
    amountCents: "rest",
    restock: false,
    plusShipping: false,
    reason: "Order cancelled",
    returnId: null,
    toStoreCredit: false,
    actor,
    now,
  });
}

/**
 * A received return refunded: each returned line's share of what was paid (and the shipping, for a
 * faulty, damaged or wrong item), once per return; the return becomes `refunded` with it.
 */
export async function refundReturn(
  services: RefundServices,
  {
    number,
    returnId,
    returnNumber,
    lines,
    plusShipping,
    actor,
    now,
  }: {
    number: string;
    returnId: number;
    returnNumber: string;
    lines: readonly LineUnits[];
    plusShipping: boolean;
    actor: StaffActor;
    now?: Date;
  },
): Promise<RefundOutcome> {
  if (!actorCan(actor, PERMISSION_FOR.return)) return fail({ code: "forbidden" });
  return runRefund(services, {
    kind: "return",
    number,
    key: refundKeyOf.return(returnNumber),
    lines,
    amountCents: null,
    // received: already back in stock
    restock: false,
    plusShipping,
    reason: `Return ${returnNumber}`,
    returnId,
    toStoreCredit: false,
    actor,
    now,
  });
}

const SYSTEM: Actor = { id: "system", email: "system" };

/**
 * A payment that went through for an order given up meanwhile (its reservation lapsed): the money
 * goes back, as the order does not exist for the shopper — recorded first like any refund, so a
 * crash between the two cannot keep the money.
 */
export async function refundLapsedPayment(
  services: SettleServices,
  {
    orderId,
    orderKey,
    authorizationId,
    amountCents,
    now = new Date(),
  }: {
    orderId: number;
    orderKey: string;
    authorizationId: string;
    amountCents: number;
    now?: Date;
  },
): Promise<void> {
  const key = refundKeyOf.lapsed(orderKey);
  let refund = await findRefundByKey(services.db, key);
  if (!refund) {
    try {
      refund = await services.db.transaction().execute(async (trx) => {
        const id = await insertPending(trx, {
          kind: "lapsed",
          key,
          orderId,
          paymentId: authorizationId,
          amountCents,
          lines: [],
          restock: false,
          includesShipping: false,
          reason: "The payment arrived after the order was given up",
          returnId: null,
          giftCardCents: 0,
          toStoreCredit: false,
          actor: SYSTEM,
          at: now.toISOString(),
        });
        if (id === null) throw new Error("a lapsed payment's refund would pass the order's total");
        return refundById(trx, id);
      });
    } catch (error) {
      // recorded by a twin (the job and the request found the payment at once)
      refund = await findRefundByKey(services.db, key);
      if (!refund) throw error;
    }
  }
  if (refund?.status === "pending") await payAndSettle(services, refund, now);
}

async function runRefund(services: RefundServices, request: RunRequest): Promise<RefundOutcome> {
  const { db } = services;
  const now = request.now ?? new Date();
  let refund = await findRefundByKey(db, request.key);
  let replayed = refund !== null;
  if (!refund) {
    try {
      const recorded = await db.transaction().execute((trx) => recordPending(trx, request, now));
      refund = recorded.refund;
      replayed = recorded.replayed;
    } catch (error) {
      // a twin submission recorded it first: this one is that refund
      refund = await findRefundByKey(db, request.key);
      replayed = true;
      if (!refund) {
        if (error instanceof Refused) return fail(error.error);
        throw error;
      }
    }
  }
  if (refund.status === "pending") {
    const settled = await payAndSettle(services, refund, now);
    if (settled === "pending") return fail({ code: "pending" });
    refund = settled;
  }
  return answerFor(db, refund, replayed);
}

/** A settled refund as its request's answer. */
async function answerFor(db: Database, refund: RefundRecord, replayed: boolean): Promise<RefundOutcome> {
  const order = await db
    .selectFrom("orders")
    .select(["status", "currency"])
    .where("id", "=", refund.orderId)
    .executeTakeFirstOrThrow();
  if (refund.status === "failed") {
    return fail({ code: "gateway", message: refund.failure ?? "the payment provider refused the refund" });
  }
  if (refund.status === "pending") return fail({ code: "pending" });
  return ok({
    amountCents: refund.amountCents,
    currency: currencyOf(order.currency),
    status: order.status,
    replayed,
  });
}

/** What the refund form's messages say for each refusal (the order page, the returns page). */
export function refundRefusalMessage(error: RefundError): string {
  switch (error.code) {
    case "forbidden":
      return "Your role does not allow giving money back.";
    case "not-found":
      return "No such order.";
    case "not-refundable":
      return `This order is ${ORDER_STATUS_LABELS[error.status].toLowerCase()} and cannot be refunded.`;
    case "nothing-chosen":
      return "Choose the lines to refund, or an amount.";
    case "too-much":
      return `At most ${formatMoney(error.leftCents, error.currency)} can be refunded.`;
    case "line-too-much":
      return `More units of ${error.name} than are left to refund.`;
    case "no-account":
      return "This order was placed without an account, so it cannot be refunded as store credit.";
    case "gift-card-used":
      return `A gift card bought as ${error.name} was already used or is not issued yet, so it cannot be taken back and refunded.`;
    case "gateway":
      return `The refund failed: ${error.message}`;
    case "pending":
      return "The refund is recorded and waiting for the payment provider's answer; it completes on its own shortly.";
  }
}
