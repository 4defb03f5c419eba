/** Order status as a transition table: paid → shipped → delivered, or paid → cancelled. */
import type { OrderStatus } from "../../db/schema.ts";

export type { OrderStatus } from "../../db/schema.ts";

export const ORDER_STATUSES: readonly OrderStatus[] = ["paid", "shipped", "delivered", "cancelled"];

export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  paid: ["shipped", "cancelled"],
  shipped: ["delivered"],
  delivered: [],
  cancelled: [],
};

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  paid: "Paid — preparing for shipment",
  shipped: "Shipped",
  delivered: "Delivered",
  cancelled: "Cancelled",
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === "string" && (ORDER_STATUSES as readonly string[]).includes(value);
}
