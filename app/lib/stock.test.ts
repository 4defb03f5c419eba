import { describe, expect, it } from "vitest";
import { stockLevel, stockMessage } from "./stock.ts";

describe("stock messages", () => {
  it.each([
    [0, "out", "Out of Stock"],
    [-3, "out", "Out of Stock"],
    [1, "low", "Only 1 left in stock - order soon"],
    [10, "low", "Only 10 left in stock - order soon"],
    [11, "in-stock", "In Stock"],
    [500, "in-stock", "In Stock"],
  ] as const)("stock %i → %s", (stock, level, message) => {
    expect(stockLevel(stock)).toBe(level);
    expect(stockMessage(stock)).toBe(message);
  });
});
