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

  it("writes every amount as Intl's USD currency format does", () => {
    const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
    const amounts = [1, 5, 9, 10, 99, 100, 101, 999, 1_000, 99_999, 100_000, 123_456_789, 2_000_000_00];
    for (let cents = 0; cents < 3_000; cents += 7) amounts.push(cents);
    for (const cents of amounts) {
      expect(formatCents(cents), String(cents)).toBe(usd.format(cents / 100));
      expect(formatCents(-cents), String(-cents)).toBe(usd.format(-cents / 100).replace("-$0.00", "$0.00"));
    }
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
