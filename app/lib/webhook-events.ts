/**
 * The events a webhook endpoint can ask for (issue 32, decision 039), each written to the outbox in
 * the transaction of its change by the area that owns it: the order's by its transitions
 * (orders.server.ts `moveOrder`), Place Order and the refund's settlement; returns by
 * returns.server.ts; products by the admin's product commands and the CSV import; stock by the
 * inventory area (crossing the low-stock line, reaching 0); customers by a trigger on the accounts
 * table (Better Auth inserts them); gift cards by gift-cards.server.ts and the checkout's take.
 * `webhook.test` is sent only by "Send a test event", to the one endpoint asked.
 */
export const WEBHOOK_EVENT_TYPES = [
  "order.created",
  "order.paid",
  "order.fulfilled",
  "order.delivered",
  "order.cancelled",
  "order.refunded",
  "return.requested",
  "return.received",
  "product.created",
  "product.updated",
  "product.deleted",
  "stock.low",
  "stock.out",
  "customer.created",
  "gift_card.issued",
  "gift_card.used",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The test event "Send a test event" posts to one endpoint (no endpoint subscribes to it). */
export const WEBHOOK_TEST_EVENT = "webhook.test";

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}
