import { describe, expect, it } from "vitest";
import { discountPercent, formatCents, toCents } from "./money.ts";

describe("toCents", () => {
  it.each([
    ["129.99", 12999],
    ["0", 0],
    ["1299.9", 129990],
    ["5", 500],
    [4.99, 499],
    [0.1 + 0.2, 30],
  ])("%s → %i cents", (input, cents) => {
    expect(toCents(input)).toBe(cents);
  });

  it.each(["-1", "1.999", "abc", "", "1e3", "12,50"])("rejects %j", (input) => {
    expect(() => toCents(input)).toThrow(RangeError);
  });
});

describe("formatCents", () => {
  it.each([
    [12999, "$129.99"],
    [0, "$0.00"],
    [129999, "$1,299.99"],
    [499, "$4.99"],
  ])("%i → %s", (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });
});

describe("discountPercent", () => {
  it.each([
    [89999, 109999, 18],
    [129999, 149999, 13],
    [14999, 19999, 25],
    [1000, 1000, null],
    [1000, null, null],
    [1200, 1000, null],
  ])("%i from %s → %s", (price, original, percent) => {
    expect(discountPercent(price, original)).toBe(percent);
  });
});
