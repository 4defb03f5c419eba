/**
 * The events a webhook endpoint can ask for (issue 32, decision 039). The order's follow its
 * transitions (orders.server.ts `moveOrder`) and Place Order; the rest are to come.
 */
export const WEBHOOK_EVENT_TYPES = [
  "order.created",
  "order.paid",
  "order.fulfilled",
  "order.delivered",
  "order.cancelled",
  "order.refunded",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}
