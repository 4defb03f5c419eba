import type { Mailer } from "../../adapters/mail/mail-message.ts";
import type { PaymentEvent, PaymentGateway } from "../../adapters/payments/payment-gateway.ts";
import type { Database } from "../../db/database.server.ts";
import { recordAudit } from "../audit/audit-log.server.ts";
import { type ShopIdentity, sendCompletedOrderConfirmation } from "../orders/order-confirmation.server.ts";
import { ORDER_COLUMNS, type OrderRow, settleReturning } from "./charges.server.ts";
import { recordProviderRefund } from "./provider-refunds.server.ts";

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
 * recorded by the refund workflow): each recorded once, by the provider's refund id, never past
 * what was paid (refunds.server.ts `recordProviderRefund`).
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
  for (const refund of refunds) {
    await recordProviderRefund(
      { db, gateway, mail: deps.mailer, shop: deps.shop },
      {
        orderId: order.id,
        paymentId,
        providerRefund: { id: refund.id, amountCents: refund.amountCents },
        now,
      },
    );
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
