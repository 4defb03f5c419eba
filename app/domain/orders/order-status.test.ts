import { describe, expect, it } from "vitest";
import { canTransition, ORDER_STATUSES, type OrderStatus } from "./order-status.ts";

/** Every allowed edge, written out: any other pair must be refused. */
const allowed: [OrderStatus, OrderStatus][] = [
  ["pending_payment", "paid"],
  ["pending_payment", "payment_failed"],
  ["paid", "shipped"],
  ["paid", "cancelled"],
  ["paid", "partially_refunded"],
  ["paid", "refunded"],
  ["shipped", "delivered"],
  ["delivered", "partially_refunded"],
  ["delivered", "refunded"],
  ["partially_refunded", "partially_refunded"],
  ["partially_refunded", "refunded"],
  ["partially_refunded", "shipped"],
  ["partially_refunded", "cancelled"],
];

describe("order status transitions", () => {
  const pairs = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.map((to) => [from, to] as const));
  it("covers every state", () => {
    expect(pairs).toHaveLength(64);
  });
  it.each(pairs)("%s → %s", (from, to) => {
    const expected = allowed.some(([a, b]) => a === from && b === to);
    expect(canTransition(from, to)).toBe(expected);
  });
});
