import type { Transaction } from "kysely";
import { logger } from "../../adapters/logger.server.ts";
import type { Mailer } from "../../adapters/mail/mail-message.ts";
import type { PaymentGateway } from "../../adapters/payments/payment-gateway.ts";
import type { Database } from "../../db/database.server.ts";
import type { DB, OrderStatus } from "../../db/schema.ts";
import { recordRefund } from "../../infra/metrics.server.ts";
import { currencyOf, formatMoney } from "../../lib/money.ts";
import { recordAudit } from "../audit/audit-log.server.ts";
import { refundToGiftCards } from "../gift-cards/gift-card-spending.server.ts";
import { apiKeyActorEmail } from "../integrations/api-keys.server.ts";
import { recordOrderEvent } from "../integrations/webhook-outbox.server.ts";
import { giveBackStock } from "../inventory/inventory.server.ts";
import { issueCreditNote } from "../invoices/issue-documents.server.ts";
import { canTransition } from "../orders/order-status.ts";
import { renderStatusEmail } from "../orders/order-status-email.ts";
import { moveOrder } from "../orders/orders.server.ts";
import { gatewayKey, REFUND_COLUMNS, type RefundRecord } from "./idempotency.server.ts";

/**
 * Steps 3 and 4 of a refund (refunds.server.ts, decision 025): the gateway asked outside any
 * transaction with the refund's own key, then one short transaction records what it answered —
 * succeeded (the books, the order's status, units back through the inventory, a cancellation or a
 * return completed with it) or failed (what the pending refund promised given back) — and the
 * customer's e-mail after the commit, sent only by whoever settled it. And the job that settles the
 * refunds a dead process (or an unreachable gateway) left pending, from the gateway's answer by key.
 */

/** A refund the request left pending is the job's once it is this old (the request may still be at it). */
export const REFUND_SETTLE_GRACE_MS = 60_000;

/** What a refund works with: the database, the gateway, and the mailer and shop that tell the customer. */
export interface RefundServices {
  db: Database;
  gateway: PaymentGateway;
  mail: Mailer;
  shop: { shopName: string; publicUrl: string };
}

/** What settling needs: the e-mail only where a customer is told (never for a lapsed payment). */
export type SettleServices = Pick<RefundServices, "db" | "gateway"> &
  Partial<Pick<RefundServices, "mail" | "shop">>;

export async function refundById(db: Database, id: number): Promise<RefundRecord | null> {
  const row = await db
    .selectFrom("orderRefunds")
    .select(REFUND_COLUMNS)
    .where("id", "=", id)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Step 3 and 4: the gateway asked with the refund's own key, outside any transaction, and its
 * answer recorded. "pending": the gateway could not be reached (the job asks again later).
 */
export async function payAndSettle(
  services: SettleServices,
  refund: RefundRecord,
  now: Date,
): Promise<RefundRecord | "pending"> {
  const gatewayCents = refund.amountCents - refund.giftCardCents;
  // all of it back to gift cards or store credit: nothing for the gateway to do
  if (gatewayCents === 0)
    return settleAndNotify(services, refund, { status: "succeeded", gatewayRefundId: "" }, now);
  let answer: Awaited<ReturnType<PaymentGateway["refund"]>>;
  try {
    answer = await services.gateway.refund({
      authorizationId: refund.paymentId,
      amountCents: gatewayCents,
      idempotencyKey: gatewayKey.refund(refund.idempotencyKey),
    });
  } catch (error) {
    logger.warn({ err: error, refund: refund.idempotencyKey }, "refund outcome unknown; it stays pending");
    recordRefund("pending");
    return "pending";
  }
  const outcome: SettleOutcome = answer.ok
    ? { status: "succeeded", gatewayRefundId: answer.refundId }
    : { status: "failed", message: answer.message };
  return settleAndNotify(services, refund, outcome, now);
}

export type SettleOutcome =
  | { status: "succeeded"; gatewayRefundId: string }
  | { status: "failed"; message: string };

/** Step 4 and the e-mail that follows it (sent only by whoever settled it). */
async function settleAndNotify(
  services: SettleServices,
  refund: RefundRecord,
  outcome: SettleOutcome,
  now: Date,
): Promise<RefundRecord> {
  const settled = await services.db
    .transaction()
    .execute((trx) => settleRefund(trx, refund.id, outcome, now));
  const record = (await refundById(services.db, refund.id))!;
  // counted by whoever recorded it: a success returns its settlement, a failure leaves the refund failed
  if (settled) recordRefund("succeeded");
  else if (outcome.status === "failed" && record.status === "failed") recordRefund("failed");
  const { mail, shop } = services;
  if (settled && mail && shop) {
    await notify({ mail, shop }, settled).catch((error: unknown) => {
      logger.warn({ err: error, refund: refund.idempotencyKey }, "refund e-mail failed");
    });
  }
  return record;
}

export interface SettledRefund {
  refund: RefundRecord;
  order: { number: string; email: string; currency: string; estimatedDelivery: string };
  reason: string;
  returnNumber: string | null;
  /** the order's status after it, when the refund moved it */
  cancelled: boolean;
}

/**
 * Step 4, one transaction: only a pending refund settles (the request and the job may race; the
 * loser gets null). Succeeded: the order's refunded total and status, the units given back, a
 * cancellation or return completed, audited. Failed: what step 2 promised given back.
 */
export async function settleRefund(
  trx: Transaction<DB>,
  refundId: number,
  outcome: SettleOutcome,
  now: Date,
): Promise<SettledRefund | null> {
  const at = now.toISOString();
  const refund = await trx
    .updateTable("orderRefunds")
    .set(
      outcome.status === "succeeded"
        ? { status: "succeeded", gatewayRefundId: outcome.gatewayRefundId, settledAt: at }
        : { status: "failed", failure: outcome.message.slice(0, 500), settledAt: at },
    )
    .where("id", "=", refundId)
    .where("status", "=", "pending")
    .returning([
      "id",
      "orderId",
      "kind",
      "status",
      "amountCents",
      "paymentId",
      "idempotencyKey",
      "failure",
      "restocked",
      "returnId",
      "reason",
      "actor",
      "giftCardCents",
      "toStoreCredit",
    ])
    .executeTakeFirst();
  if (!refund) return null;
  const lines = await trx
    .selectFrom("orderRefundItems")
    .innerJoin("orderItems", "orderItems.id", "orderRefundItems.orderItemId")
    .select(["orderRefundItems.orderItemId", "orderRefundItems.quantity", "orderItems.variantId"])
    .where("orderRefundItems.refundId", "=", refund.id)
    .orderBy("orderRefundItems.orderItemId")
    .execute();
  const staff = await trx
    .selectFrom("users")
    .select("email")
    .where("id", "=", refund.actor)
    .executeTakeFirst();
  // an API key acting (decision 038) is named as the audit log names it elsewhere
  const actor = {
    id: refund.actor,
    email: staff?.email ?? (await apiKeyActorEmail(trx, refund.actor)) ?? refund.actor,
  };

  if (outcome.status === "failed") {
    await trx
      .updateTable("orders")
      .set((eb) => ({ refundPendingCents: eb("refundPendingCents", "-", refund.amountCents), updatedAt: at }))
      .where("id", "=", refund.orderId)
      .execute();
    for (const line of lines) {
      await trx
        .updateTable("orderItems")
        .set((eb) => ({ refundedQuantity: eb("refundedQuantity", "-", line.quantity) }))
        .where("id", "=", line.orderItemId)
        .execute();
    }
    const order = await orderOf(trx, refund.orderId);
    await recordAudit(trx, {
      actor,
      action: "order.refund",
      entityType: "order",
      entityId: order.number,
      summary: `Order ${order.number}: refund of ${formatMoney(refund.amountCents, currencyOf(order.currency))} failed — ${outcome.message}`,
      now,
    });
    return null;
  }

  const moved = await trx
    .updateTable("orders")
    .set((eb) => ({
      refundedCents: eb("refundedCents", "+", refund.amountCents),
      refundPendingCents: eb("refundPendingCents", "-", refund.amountCents),
      updatedAt: at,
    }))
    .where("id", "=", refund.orderId)
    .returning(["status", "refundedCents", "totalCents"])
    .executeTakeFirstOrThrow();
  const order = await orderOf(trx, refund.orderId);
  // the part that goes back to the order's gift cards, or as store credit, with the refund
  await refundToGiftCards(trx, {
    orderId: refund.orderId,
    amountCents: refund.giftCardCents,
    toStoreCredit: refund.toStoreCredit === 1,
    userId: order.userId,
    currency: order.currency,
    actor: refund.actor,
    now,
  });
  let cancelled = false;
  if (refund.kind === "cancel") {
    const done = await moveOrder(trx, {
      orderId: refund.orderId,
      to: "cancelled",
      actor: refund.actor,
      now,
      refundId: refund.id,
    });
    cancelled = done.ok;
  }
  if (!cancelled && refund.kind !== "lapsed") {
    const to: OrderStatus = moved.refundedCents >= moved.totalCents ? "refunded" : "partially_refunded";
    if (canTransition(moved.status, to)) {
      await trx.updateTable("orders").set({ status: to }).where("id", "=", refund.orderId).execute();
      await trx
        .insertInto("orderEvents")
        .values({
          orderId: refund.orderId,
          fromStatus: moved.status,
          toStatus: to,
          actor: refund.actor,
          createdAt: at,
        })
        .execute();
      // order.refunded for the webhooks, with the refund (decision 039)
      await recordOrderEvent(trx, { orderId: refund.orderId, to, at });
    }
  }
  if (refund.restocked === 1) {
    const back = lines.flatMap((line) =>
      line.variantId === null ? [] : [{ variantId: line.variantId, quantity: line.quantity }],
    );
    await giveBackStock(trx, back, {
      reason: "refund_restock",
      actor: refund.actor,
      orderId: refund.orderId,
      refundId: refund.id,
      now,
    });
    for (const line of lines) {
      await trx
        .updateTable("orderItems")
        .set((eb) => ({ restockedQuantity: eb("restockedQuantity", "+", line.quantity) }))
        .where("id", "=", line.orderItemId)
        .where((eb) => eb(eb("restockedQuantity", "+", line.quantity), "<=", eb.ref("quantity")))
        .execute();
    }
  }
  let returnNumber: string | null = null;
  if (refund.kind === "return" && refund.returnId !== null) {
    const returned = await trx
      .updateTable("returns")
      .set({ status: "refunded", refundCents: refund.amountCents, updatedAt: at })
      .where("id", "=", refund.returnId)
      .where("status", "=", "received")
      .returning("number")
      .executeTakeFirst();
    returnNumber = returned?.number ?? null;
  }
  const money = formatMoney(refund.amountCents, currencyOf(order.currency));
  await recordAudit(trx, {
    actor,
    action: refund.kind === "cancel" ? "order.transition" : "order.refund",
    entityType: "order",
    entityId: order.number,
    summary:
      refund.kind === "cancel"
        ? `Order ${order.number}: ${moved.status} → cancelled (stock restored, ${money} refunded)`
        : `Order ${order.number}: ${money} refunded${refund.restocked === 1 ? " (stock restored)" : ""}${refund.reason ? ` — ${refund.reason}` : ""}`,
    ...(refund.kind === "cancel"
      ? { before: { status: moved.status }, after: { status: "cancelled" } }
      : {
          before: { status: moved.status, refundedCents: moved.refundedCents - refund.amountCents },
          after: { status: (await orderOf(trx, refund.orderId)).status, refundedCents: moved.refundedCents },
        }),
    now,
  });
  // a credit note for money given back on an invoiced order, numbered last (decision 031)
  await issueCreditNote(trx, refund.id, now);
  return { refund, order, reason: refund.reason, returnNumber, cancelled };
}

async function orderOf(db: Database, orderId: number) {
  return db
    .selectFrom("orders")
    .select(["number", "email", "currency", "estimatedDelivery", "status", "userId"])
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
}

/** The e-mail of money given back: how much, for which order, why. */
function refundMail(shop: { shopName: string }, { order, reason, refund }: SettledRefund, money: string) {
  return {
    to: order.email,
    subject: `${shop.shopName}: ${money} refunded for order ${order.number}`,
    text: [
      `We have refunded ${money} for your order ${order.number}.`,
      // a refund made at the provider has no reason the shop wrote
      reason && refund.kind !== "provider" ? `Reason: ${reason}` : "",
      whereItGoes(refund, (cents) => formatMoney(cents, currencyOf(order.currency))),
    ]
      .filter(Boolean)
      .join("\n\n"),
  };
}

/** Where a refund's money goes: the card, the gift cards it was paid with, or store credit. */
function whereItGoes(refund: RefundRecord, money: (cents: number) => string): string {
  if (refund.toStoreCredit === 1)
    return "It is on your account as store credit, to spend on your next order.";
  const card = "usually shows within 5–10 business days";
  if (refund.giftCardCents === 0) return `It goes back to the card you paid with and ${card}.`;
  if (refund.giftCardCents === refund.amountCents) return "It goes back to the gift card you paid with.";
  return `${money(refund.amountCents - refund.giftCardCents)} goes back to the card you paid with and ${card}; ${money(refund.giftCardCents)} goes back to your gift card.`;
}

/** The customer hears of a refund that went through (a lapsed payment's was never their order). */
export async function notify(
  { mail, shop }: Pick<RefundServices, "mail" | "shop">,
  settled: SettledRefund,
): Promise<void> {
  const { refund, order } = settled;
  const money = formatMoney(refund.amountCents, currencyOf(order.currency));
  switch (refund.kind) {
    case "cancel": {
      const message = renderStatusEmail(
        {
          number: order.number,
          email: order.email,
          estimatedDelivery: order.estimatedDelivery,
          tracking: null,
          refundedCents: refund.amountCents,
        },
        "cancelled",
        shop,
        (cents) => formatMoney(cents, currencyOf(order.currency)),
      );
      if (message) await mail.send(message);
      return;
    }
    case "return":
      await mail.send(refundMail(shop, settled, money));
      await mail.send({
        to: order.email,
        subject: `${shop.shopName}: return ${settled.returnNumber ?? ""} refunded`,
        text: [
          `Return ${settled.returnNumber ?? ""} for order ${order.number}.`,
          `We have refunded ${money} to the card you paid with.`,
        ].join("\n\n"),
      });
      return;
    case "refund":
    case "provider":
      await mail.send(refundMail(shop, settled, money));
      return;
    default:
      return;
  }
}

/**
 * The job: every refund pending for longer than the grace period (its request died, or the gateway
 * could not be reached) is settled from the gateway's answer for its key — made → succeeded,
 * refused → failed — or, if the gateway never saw it, asked for again with the same key.
 */
export async function settlePendingRefunds(
  services: RefundServices,
  { now = new Date(), limit = 100 }: { now?: Date; limit?: number } = {},
): Promise<{ succeeded: number; failed: number; waiting: number }> {
  const counts = { succeeded: 0, failed: 0, waiting: 0 };
  const pending = await services.db
    .selectFrom("orderRefunds")
    .select(REFUND_COLUMNS)
    .where("status", "=", "pending")
    .where("createdAt", "<=", new Date(now.getTime() - REFUND_SETTLE_GRACE_MS).toISOString())
    .orderBy("createdAt")
    .limit(limit)
    .execute();
  for (const refund of pending) {
    let settled: RefundRecord | "pending";
    try {
      // none of it through the gateway: settled at once (payAndSettle asks the gateway nothing)
      const known =
        refund.amountCents === refund.giftCardCents
          ? { status: "none" as const }
          : await services.gateway.refundOutcome({
              authorizationId: refund.paymentId,
              idempotencyKey: gatewayKey.refund(refund.idempotencyKey),
            });
      settled =
        known.status === "none"
          ? await payAndSettle(services, refund, now)
          : await settleAndNotify(
              services,
              refund,
              known.status === "succeeded"
                ? { status: "succeeded", gatewayRefundId: known.refundId }
                : { status: "failed", message: known.message },
              now,
            );
    } catch (error) {
      logger.warn({ err: error, refund: refund.idempotencyKey }, "could not settle a pending refund");
      settled = "pending";
    }
    if (settled === "pending" || settled.status === "pending") counts.waiting++;
    else if (settled.status === "succeeded") counts.succeeded++;
    else counts.failed++;
  }
  return counts;
}
