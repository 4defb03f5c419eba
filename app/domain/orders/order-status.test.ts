import { describe, expect, it } from "vitest";
import { canTransition, ORDER_STATUSES, type OrderStatus } from "./order-status.ts";

const allowed: [OrderStatus, OrderStatus][] = [
  ["paid", "shipped"],
  ["shipped", "delivered"],
  ["paid", "cancelled"],
];

describe("order status transitions", () => {
  const pairs = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.map((to) => [from, to] as const));
  it.each(pairs)("%s → %s", (from, to) => {
    const expected = allowed.some(([a, b]) => a === from && b === to);
    expect(canTransition(from, to)).toBe(expected);
  });
});
