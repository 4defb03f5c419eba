import { describe, expect, it } from "vitest";
import {
  calculateTotals,
  DEFAULT_PRICING,
  formatDayRange,
  formatTaxRate,
  shippingCents,
  shippingMethod,
  taxCents,
} from "./pricing.ts";

describe("shippingCents", () => {
  it.each([
    [0, "standard", 0],
    [1, "standard", 499],
    [4999, "standard", 499],
    [5000, "standard", 0],
    [129999, "standard", 0],
    [1000, "express", 999],
    [5000, "express", 999],
  ] as const)("subtotal %i with %s → %i", (subtotal, method, expected) => {
    expect(shippingCents(DEFAULT_PRICING, subtotal, method)).toBe(expected);
  });
});

describe("taxCents", () => {
  it.each([
    [0, 0],
    [100, 7],
    [14999, 1050], // 1049.93 → 1050
    [7, 0], // 0.49 → 0
    [8, 1], // 0.56 → 1
    [-500, 0],
  ])("7%% of %i → %i", (taxable, expected) => {
    expect(taxCents(DEFAULT_PRICING, taxable)).toBe(expected);
  });
});

describe("calculateTotals", () => {
  it.each([
    // subtotal, method, discount → shipping, tax, total
    [4999, "standard", 0, 499, 350, 4999 + 499 + 350],
    [5000, "standard", 0, 0, 350, 5350],
    [14999, "standard", 0, 0, 1050, 16049],
    [14999, "express", 0, 999, 1050, 17048],
    [10000, "standard", 2000, 0, 560, 8560],
    [3000, "standard", 5000, 499, 0, 499], // discount capped at subtotal
    [0, "standard", 0, 0, 0, 0],
  ] as const)(
    "%i %s −%i → shipping %i, tax %i, total %i",
    (subtotal, method, discount, shipping, tax, total) => {
      const totals = calculateTotals(DEFAULT_PRICING, subtotal, { method, discountCents: discount });
      expect(totals).toMatchObject({ shippingCents: shipping, taxCents: tax, totalCents: total });
      expect(totals.totalCents).toBe(
        totals.subtotalCents - totals.discountCents + totals.shippingCents + totals.taxCents,
      );
    },
  );
});

describe("the shop's own pricing", () => {
  const shop = {
    ...DEFAULT_PRICING,
    taxRateBasisPoints: 825,
    standardShippingCents: 350,
    freeShippingThresholdCents: 3_500,
    expressShippingCents: 1_250,
  };

  it("prices with its fees, threshold and rate", () => {
    expect(calculateTotals(shop, 3_499)).toMatchObject({
      shippingCents: 350,
      taxCents: 289,
      totalCents: 4_138,
    });
    expect(calculateTotals(shop, 3_500)).toMatchObject({
      shippingCents: 0,
      taxCents: 289,
      totalCents: 3_789,
    });
    expect(calculateTotals(shop, 3_500, { method: "express" }).shippingCents).toBe(1_250);
  });

  it("writes rates and day ranges as the pages show them", () => {
    expect([700, 825, 1_950, 0, 10_000].map(formatTaxRate)).toEqual(["7%", "8.25%", "19.5%", "0%", "100%"]);
    expect(formatDayRange({ min: 4, max: 6 })).toBe("4-6 business days");
    expect(formatDayRange({ min: 2, max: 2 })).toBe("2 business days");
    expect(formatDayRange({ min: 1, max: 1 })).toBe("1 business day");
    expect(shippingMethod(DEFAULT_PRICING, "standard")).toEqual({
      label: "Standard Shipping",
      days: "4-6 business days",
      deliveryDays: 5,
    });
    expect(shippingMethod(DEFAULT_PRICING, "express").deliveryDays).toBe(2);
  });
});
