import type { WebhookEventType } from "../../lib/webhook-events.ts";

/** Admin → Webhooks: its texts (shared by the server and the page). */
export const WEBHOOK_MESSAGES = {
  invalid: "Please correct the errors below.",
  url: "Enter the endpoint's address, starting with https:// (or http://).",
  privateAddress: "This address is inside a private network; webhooks are only sent to public addresses.",
  unresolved: "This address's host name could not be found.",
  events: "Choose at least one event.",
  added: "Webhook endpoint added.",
  rotated: "A new signing secret was made; the old one keeps signing for 24 hours.",
  notFound: "That endpoint no longer exists.",
  deliveryNotFound: "That delivery is waiting to be sent already, or no longer exists.",
  resent: "The event is queued to be sent again now.",
  testSent: "A test event is queued for this endpoint; it appears below once sent.",
  testDisabled: "This endpoint is disabled: enable it first.",
  enabled: "The endpoint is enabled again.",
} as const;

export const WEBHOOK_EVENT_LABELS = {
  "order.created": "Order created",
  "order.paid": "Order paid",
  "order.fulfilled": "Order shipped",
  "order.delivered": "Order delivered",
  "order.cancelled": "Order cancelled",
  "order.refunded": "Order refunded",
  "return.requested": "Return requested",
  "return.received": "Return received",
  "product.created": "Product created",
  "product.updated": "Product updated",
  "product.deleted": "Product deleted or archived",
  "stock.low": "Stock low",
  "stock.out": "Out of stock",
  "customer.created": "Customer account created",
  "gift_card.issued": "Gift card issued",
  "gift_card.used": "Gift card used",
} as const satisfies Record<WebhookEventType, string>;
