import { type Kysely, sql, type Transaction } from "kysely";
import { engineOf } from "../../db/database.server.ts";
import type { DB, OrderStatus } from "../../db/schema.ts";
import { LOW_STOCK_THRESHOLD } from "../../lib/stock.ts";
import type { WebhookEventType } from "../../lib/webhook-events.ts";

/**
 * The webhooks' outbox (decision 039): an event is a row written in the transaction of the change
 * it tells of — committed with it, rolled back with it — and sent later by the delivery job
 * (jobs/webhook-delivery.server.ts). What it says is what was true when it happened.
 */

/** An event's row: its type, the id of what it tells of, its data (JSON) and when it happened. */
export interface WebhookEventRow {
  type: WebhookEventType;
  subjectId: number;
  data: string;
  createdAt: string;
}

/** The row of one event: `data` is what the receiver gets (kept small: ids, numbers, money in minor units). */
export function eventRow(
  type: WebhookEventType,
  subjectId: number,
  data: object,
  at: Date | string,
): WebhookEventRow {
  return {
    type,
    subjectId,
    data: JSON.stringify(data),
    createdAt: typeof at === "string" ? at : at.toISOString(),
  };
}

/**
 * Writes an event in the caller's transaction (the change's own): committed with it, rolled back
 * with it. `subjectId`: the id of what it tells of (a product's, a return's…).
 */
export async function recordEvent(
  trx: Kysely<DB>,
  type: WebhookEventType,
  payload: { subjectId: number; data: object; at: Date | string },
): Promise<void> {
  await trx
    .insertInto("webhookEvents")
    .values(eventRow(type, payload.subjectId, payload.data, payload.at))
    .execute();
}

/** Several events at once (one statement), in the caller's transaction. */
export async function recordEvents(trx: Kysely<DB>, rows: readonly WebhookEventRow[]): Promise<void> {
  if (rows.length > 0)
    await trx
      .insertInto("webhookEvents")
      .values([...rows])
      .execute();
}

/** `stock.low` / `stock.out` data: the variant's level after the change that crossed the line. */
export interface StockEventData {
  variantId: number;
  productId: number;
  stock: number;
  /** the shop's low-stock line (lib/stock.ts): `stock.low` when a level falls to it or below */
  threshold: number;
}

/**
 * The stock events of levels that moved (one per variant at most): `stock.out` when a level
 * reaches 0 from above, `stock.low` when it falls from above the low-stock line to it or below (but
 * not to 0). A change that does not cross a line — a sale from 8 to 7, a count up — is none.
 */
export function stockEventRows(
  changes: readonly { variantId: number; productId: number; before: number; after: number }[],
  at: Date | string,
): WebhookEventRow[] {
  return changes.flatMap(({ variantId, productId, before, after }) => {
    const data: StockEventData = { variantId, productId, stock: after, threshold: LOW_STOCK_THRESHOLD };
    if (after === 0 && before > 0) return [eventRow("stock.out", variantId, data, at)];
    if (after > 0 && after <= LOW_STOCK_THRESHOLD && before > LOW_STOCK_THRESHOLD)
      return [eventRow("stock.low", variantId, data, at)];
    return [];
  });
}

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

/** `gift_card.issued` data: the card (never its code) and what it holds. */
export interface GiftCardIssuedData {
  id: number;
  last4: string;
  initial: { amount: number; currency: string };
  expiresAt: string | null;
  /** the order that bought it; null: issued by staff */
  orderNumber: string | null;
}

/** `gift_card.used` data: what an order took from the card, and what it holds after. */
export interface GiftCardUsedData {
  id: number;
  last4: string;
  orderId: number;
  amount: { amount: number; currency: string };
  balance: { amount: number; currency: string };
}

/** `product.*` data: the product as the change left it (`deleted`: removed with its variants). */
export interface ProductEventData {
  id: number;
  slug: string;
  name: string;
  status: "active" | "archived" | "deleted";
}

/**
 * Records a product event inside the transaction of the change: one INSERT … SELECT reading the
 * product's row as the change left it (a deletion records it before its row goes, `status: deleted`).
 */
export async function recordProductEvent(
  trx: Kysely<DB>,
  type: "product.created" | "product.updated" | "product.deleted",
  { productId, deleted = false, at }: { productId: number; deleted?: boolean; at: Date | string },
): Promise<void> {
  const status = deleted
    ? sql<string>`'deleted'`
    : sql<string>`case when archived_at is null then 'active' else 'archived' end`;
  const data =
    engineOf<DB>(trx) === "postgres"
      ? sql<string>`json_build_object('id', id, 'slug', slug, 'name', name, 'status', ${status})::text`
      : sql<string>`json_object('id', id, 'slug', slug, 'name', name, 'status', ${status})`;
  const createdAt = typeof at === "string" ? at : at.toISOString();
  await trx
    .insertInto("webhookEvents")
    .columns(["type", "subjectId", "data", "createdAt"])
    .expression((eb) =>
      eb
        .selectFrom("products")
        .select([eb.val(type).as("type"), "products.id", data.as("data"), eb.val(createdAt).as("createdAt")])
        .where("products.id", "=", productId),
    )
    .execute();
}
