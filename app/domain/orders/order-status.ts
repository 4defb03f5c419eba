/**
 * Order status as a transition table (decision 020). Checkout writes an order `pending_payment`
 * with its stock reserved, and the payment's outcome makes it `paid` or `payment_failed` (stock
 * released). Staff ship, deliver and cancel; refunds make it `partially_refunded` (again, for a
 * further partial refund, and still shippable) or `refunded`.
 */
import type { OrderStatus } from "../../db/schema.ts";

export type { OrderStatus } from "../../db/schema.ts";

export const ORDER_STATUSES: readonly OrderStatus[] = [
  "pending_payment",
  "payment_failed",
  "paid",
  "shipped",
  "delivered",
  "cancelled",
  "partially_refunded",
  "refunded",
];

export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending_payment: ["paid", "payment_failed"],
  payment_failed: [],
  paid: ["shipped", "cancelled", "partially_refunded", "refunded"],
  shipped: ["delivered"],
  delivered: ["partially_refunded", "refunded"],
  partially_refunded: ["partially_refunded", "refunded", "shipped", "cancelled"],
  cancelled: [],
  refunded: [],
};

/** The moves staff make with the order page's buttons; the others follow payments and refunds. */
export const STAFF_MOVES: readonly OrderStatus[] = ["shipped", "delivered", "cancelled"];

/** Orders a customer has bought: payment taken (the pending and failed attempts are not orders to them). */
export const PLACED_STATUSES: readonly OrderStatus[] = [
  "paid",
  "shipped",
  "delivered",
  "cancelled",
  "partially_refunded",
  "refunded",
];

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending_payment: "Awaiting payment",
  payment_failed: "Payment failed",
  paid: "Paid — preparing for shipment",
  shipped: "Shipped",
  delivered: "Delivered",
  cancelled: "Cancelled",
  partially_refunded: "Partially refunded",
  refunded: "Refunded",
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === "string" && (ORDER_STATUSES as readonly string[]).includes(value);
}
