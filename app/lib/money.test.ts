import { describe, expect, it } from "vitest";
import {
  CURRENCIES,
  CURRENCY_FORMATS,
  currencyOf,
  discountPercent,
  formatMoney,
  formatMoneyShort,
  toCents,
} from "./money.ts";

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

describe("formatMoney", () => {
  it.each([
    [12999, "USD", "$129.99"],
    [0, "USD", "$0.00"],
    [129999, "USD", "$1,299.99"],
    [499, "USD", "$4.99"],
    [123456, "EUR", "1.234,56\u00a0€"],
    [-500, "EUR", "-5,00\u00a0€"],
    [123456, "GBP", "£1,234.56"],
    [123456, "CAD", "$1,234.56"],
    [123456, "AUD", "$1,234.56"],
  ] as const)("%i %s → %s", (cents, currency, text) => {
    expect(formatMoney(cents, currency)).toBe(text);
  });

  it.each(CURRENCIES)("writes every amount in %s as Intl does in the currency's own locale", (currency) => {
    const intl = new Intl.NumberFormat(CURRENCY_FORMATS[currency].locale, { style: "currency", currency });
    const amounts = [1, 5, 9, 10, 99, 100, 101, 999, 1_000, 99_999, 100_000, 123_456_789, 2_000_000_00];
    for (let cents = 0; cents < 3_000; cents += 7) amounts.push(cents);
    for (const cents of amounts) {
      expect(formatMoney(cents, currency), String(cents)).toBe(intl.format(cents / 100));
      const negative = intl.format(-cents / 100).replace(/^-(?=\D*0[.,]00\D*$)/, "");
      expect(formatMoney(-cents, currency), String(-cents)).toBe(negative);
    }
  });

  it.each(CURRENCIES)("writes whole amounts in %s without cents, as Intl does", (currency) => {
    const intl = new Intl.NumberFormat(CURRENCY_FORMATS[currency].locale, {
      style: "currency",
      currency,
      minimumFractionDigits: 0,
    });
    for (const cents of [0, 5_000, 100_000, 123_400_00]) {
      expect(formatMoneyShort(cents, currency)).toBe(intl.format(cents / 100));
    }
    expect(formatMoneyShort(4_999, currency)).toBe(formatMoney(4_999, currency));
  });

  it("reads an unknown stored code as US dollars", () => {
    expect(currencyOf("XYZ")).toBe("USD");
    expect(currencyOf(null)).toBe("USD");
    expect(currencyOf("GBP")).toBe("GBP");
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
