import { sql, type Transaction } from "kysely";
import { engineOf } from "../../db/database.server.ts";
import type { DB, OrderStatus } from "../../db/schema.ts";
import type { WebhookEventType } from "../../lib/webhook-events.ts";

/**
 * The webhooks' outbox (decision 039): an event is a row written in the transaction of the change
 * it tells of — committed with it, rolled back with it — and sent later by the delivery job
 * (jobs/webhook-delivery.server.ts). What it says is what was true when it happened.
 */

/** The event an order's move to `to` is, if any (a failed payment and a pending one are none). */
export const ORDER_STATUS_EVENTS: Partial<Record<OrderStatus, WebhookEventType>> = {
  paid: "order.paid",
  shipped: "order.fulfilled",
  delivered: "order.delivered",
  cancelled: "order.cancelled",
  partially_refunded: "order.refunded",
  refunded: "order.refunded",
};

/** An order event's data (JSON): the order as the event leaves it. */
export interface OrderEventData {
  number: string;
  status: OrderStatus;
  email: string;
  total: { amount: number; currency: string };
}

/** The row for an order event, from the order as the caller just wrote it (Place Order). */
export function orderEventRow(
  type: WebhookEventType,
  order: {
    id: number;
    number: string;
    status: OrderStatus;
    email: string;
    totalCents: number;
    currency: string;
  },
  at: string,
) {
  const data: OrderEventData = {
    number: order.number,
    status: order.status,
    email: order.email,
    total: { amount: order.totalCents, currency: order.currency },
  };
  return { type, subjectId: order.id, data: JSON.stringify(data), createdAt: at };
}

/**
 * Records the event of an order's move to `to` inside the transaction that moved it: one INSERT …
 * SELECT reading the order's row as the move left it (no round trip more than the insert).
 */
export async function recordOrderEvent(
  trx: Transaction<DB>,
  { orderId, to, at }: { orderId: number; to: OrderStatus; at: string },
): Promise<void> {
  const type = ORDER_STATUS_EVENTS[to];
  if (!type) return;
  const data =
    engineOf<DB>(trx) === "postgres"
      ? sql<string>`json_build_object('number', number, 'status', status, 'email', email, 'total', json_build_object('amount', total_cents, 'currency', currency))::text`
      : sql<string>`json_object('number', number, 'status', status, 'email', email, 'total', json_object('amount', total_cents, 'currency', currency))`;
  await trx
    .insertInto("webhookEvents")
    .columns(["type", "subjectId", "data", "createdAt"])
    .expression((eb) =>
      eb
        .selectFrom("orders")
        .select([eb.val(type).as("type"), "orders.id", data.as("data"), eb.val(at).as("createdAt")])
        .where("orders.id", "=", orderId),
    )
    .execute();
}
