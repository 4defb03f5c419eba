import { logger } from "../../adapters/logger.server.ts";
import type { Mailer } from "../../adapters/mail/mail-message.ts";
import type { PaymentEvent, PaymentGateway } from "../../adapters/payments/payment-gateway.ts";
import type { Database } from "../../db/database.server.ts";
import type { OrderStatus } from "../../db/schema.ts";
import { currencyOf, formatMoney } from "../../lib/money.ts";
import { recordAudit } from "../audit/audit-log.server.ts";
import { type ShopIdentity, sendCompletedOrderConfirmation } from "./order-confirmation.server.ts";
import { ORDER_COLUMNS, type OrderRow, settleReturning } from "./order-payment.server.ts";
import { canTransition } from "./order-status.ts";

/**
 * The payment provider's events (Stripe's webhooks, decision 020), each handled once: its id is
 * stored after it was acted on, and one found stored is a duplicate. An event is a cue, not the
 * truth: a pending order is settled from what the provider says of it now (settleReturning), so
 * the event and the shopper coming back through the return URL drive the same guarded
 * transitions — whichever comes first settles the order, the other finds it settled.
 * - a payment succeeded or failed, a hosted page completed or failed → the order's payment settled
 *   (paid, with its confirmation e-mail; or failed, its stock released); a payment that succeeded
 *   for an order given up meanwhile is refunded;
 * - refunded → refunds made at the provider (its dashboard) recorded on the order;
 * - disputed → the order flagged for staff (disputed_at) and the audit log.
 */
export type EventHandling = "handled" | "duplicate" | "unknown-order";

export async function handlePaymentEvent(
  db: Database,
  gateway: PaymentGateway,
  deps: { mailer: Mailer; shop: ShopIdentity },
  event: PaymentEvent,
  now: Date = new Date(),
): Promise<EventHandling> {
  const seen = await db
    .selectFrom("paymentEvents")
    .select("id")
    .where("id", "=", event.id)
    .executeTakeFirst();
  if (seen) return "duplicate";
  const order = await findOrder(db, event);
  if (order) await act(db, gateway, deps, order, event, now);
  await db
    .insertInto("paymentEvents")
    .values({
      id: event.id,
      provider: gateway.name,
      type: event.kind,
      orderNumber: order?.number ?? null,
      receivedAt: now.toISOString(),
    })
    // the same event delivered twice at once: both acted (each step is guarded), one is stored
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  return order ? "handled" : "unknown-order";
}

/** The order an event is about: by the number the payment carries, else by the payment's id. */
async function findOrder(db: Database, event: PaymentEvent): Promise<OrderRow | null> {
  const number = "orderNumber" in event ? event.orderNumber : null;
  const reference = "paymentId" in event ? event.paymentId : event.reference;
  const query = db.selectFrom("orders").select(ORDER_COLUMNS);
  const row = number
    ? await query.where("number", "=", number).executeTakeFirst()
    : await query.where("paymentReference", "=", reference).executeTakeFirst();
  return row ?? null;
}

async function act(
  db: Database,
  gateway: PaymentGateway,
  deps: { mailer: Mailer; shop: ShopIdentity },
  order: OrderRow,
  event: PaymentEvent,
  now: Date,
): Promise<void> {
  switch (event.kind) {
    case "payment-succeeded":
    case "payment-failed":
    case "hosted-completed":
    case "hosted-failed": {
      if (event.kind === "hosted-completed" && !event.paid) return; // its payment is still on its way
      if (order.status !== "pending_payment" && order.status !== "payment_failed") return;
      // a payment made without a step at the provider has no reference on the order yet
      const reference = order.paymentReference || ("paymentId" in event ? event.paymentId : event.reference);
      const settled = await settleReturning(
        db,
        gateway,
        { ...order, paymentReference: reference },
        { cancelled: event.kind === "hosted-failed", now },
      );
      if (settled.status === "paid" && !settled.replayed) {
        await sendCompletedOrderConfirmation(db, deps.mailer, deps.shop, order.number, now);
      }
      return;
    }
    case "refunded":
      await recordProviderRefunds(db, gateway, deps, order, event.paymentId, now);
      return;
    case "disputed":
      await markDisputed(db, order, event.reason, now);
      return;
  }
}

const PROVIDER_ACTOR = { id: "payment-provider", email: "payment provider" };

/**
 * Refunds made at the provider rather than through the shop (the shop's own carry its key and are
 * recorded by refundOrder): each recorded once, by the provider's refund id, never past what was
 * paid; the order's status follows where its transition table allows.
 */
async function recordProviderRefunds(
  db: Database,
  gateway: PaymentGateway,
  deps: { mailer: Mailer; shop: ShopIdentity },
  order: OrderRow,
  paymentId: string,
  now: Date,
): Promise<void> {
  if (!gateway.browser) return;
  const refunds = (await gateway.browser.refundsOf(paymentId)).filter((refund) => refund.shopKey === null);
  const at = now.toISOString();
  for (const refund of refunds) {
    const recorded = await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto("orderRefunds")
        .values({
          orderId: order.id,
          idempotencyKey: `provider:${refund.id}`,
          amountCents: refund.amountCents,
          reason: "Refunded at the payment provider",
          restocked: 0,
          gatewayRefundId: refund.id,
          actor: PROVIDER_ACTOR.id,
          createdAt: at,
        })
        .onConflict((oc) => oc.column("idempotencyKey").doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      const taken = await trx
        .updateTable("orders")
        .set((eb) => ({ refundedCents: eb("refundedCents", "+", refund.amountCents), updatedAt: at }))
        .where("id", "=", order.id)
        .where((eb) => eb(eb("refundedCents", "+", refund.amountCents), "<=", eb.ref("totalCents")))
        .returning(["status", "refundedCents", "totalCents"])
        .executeTakeFirst();
      if (!taken) return false;
      const to: OrderStatus = taken.refundedCents === taken.totalCents ? "refunded" : "partially_refunded";
      const moves = canTransition(taken.status, to);
      if (moves) {
        await trx.updateTable("orders").set({ status: to }).where("id", "=", order.id).execute();
        await trx
          .insertInto("orderEvents")
          .values({
            orderId: order.id,
            fromStatus: taken.status,
            toStatus: to,
            actor: PROVIDER_ACTOR.id,
            createdAt: at,
          })
          .execute();
      }
      await recordAudit(trx, {
        actor: PROVIDER_ACTOR,
        action: "order.refund",
        entityType: "order",
        entityId: order.number,
        summary: `Order ${order.number}: ${formatMoney(refund.amountCents, currencyOf(order.currency))} refunded at the payment provider`,
        before: { status: taken.status, refundedCents: taken.refundedCents - refund.amountCents },
        after: { status: moves ? to : taken.status, refundedCents: taken.refundedCents },
        now,
      });
      return true;
    });
    if (!recorded) continue;
    await deps.mailer
      .send({
        to: order.email,
        subject: `${deps.shop.shopName}: ${formatMoney(refund.amountCents, currencyOf(order.currency))} refunded for order ${order.number}`,
        text: [
          `We have refunded ${formatMoney(refund.amountCents, currencyOf(order.currency))} for your order ${order.number}.`,
          "It goes back to the card you paid with and usually shows within 5–10 business days.",
        ].join("\n\n"),
      })
      .catch((error: unknown) => logger.warn({ err: error, order: order.number }, "refund e-mail failed"));
  }
}

/** A chargeback: the order is flagged for staff once, with the reason in the audit log. */
async function markDisputed(db: Database, order: OrderRow, reason: string, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const flagged = await trx
      .updateTable("orders")
      .set({ disputedAt: now.toISOString() })
      .where("id", "=", order.id)
      .where("disputedAt", "is", null)
      .executeTakeFirst();
    if (Number(flagged.numUpdatedRows) !== 1) return;
    await recordAudit(trx, {
      actor: PROVIDER_ACTOR,
      action: "order.dispute",
      entityType: "order",
      entityId: order.number,
      summary: `Order ${order.number}: the customer disputed the payment (${reason.replace(/_/g, " ")})`,
      now,
    });
  });
}
