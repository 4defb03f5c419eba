import { describe, expect, it } from "vitest";
import {
  DEFAULT_MARKETS,
  DEFAULT_ZONE,
  deliveryDayCount,
  deliveryDays,
  formatTaxRate,
  priceForDestination,
} from "./markets.ts";

/**
 * The spec's pricing (§9) table, kept from before zones: the default zone prices every order as
 * the shop did with one rate and two fees — 7 % of the discounted subtotal rounded half up,
 * standard $4.99 free from $50.00 (before the discount) and for an empty cart, express $9.99.
 */
function priced(subtotal: number, method: "standard" | "express" = "standard", discount = 0) {
  const order = priceForDestination(DEFAULT_MARKETS, {
    lines: subtotal
      ? [{ key: "a", unitPriceCents: subtotal, quantity: 1, taxClass: "standard", weightGrams: 0 }]
      : [],
    orderDiscountCents: discount,
    destination: { country: "US", region: "IL" },
    methodCode: method,
  });
  if (!order.ok) throw new Error("the default zone holds the US");
  return order.calculation;
}

describe("shipping in the default zone", () => {
  it.each([
    [0, "standard", 0],
    [1, "standard", 499],
    [4999, "standard", 499],
    [5000, "standard", 0],
    [129999, "standard", 0],
    [1000, "express", 999],
    [5000, "express", 999],
  ] as const)("subtotal %i with %s → %i", (subtotal, method, expected) => {
    expect(priced(subtotal, method).shippingCents).toBe(expected);
  });
});

describe("tax in the default zone", () => {
  it.each([
    [0, 0],
    [100, 7],
    [14999, 1050], // 1049.93 → 1050
    [7, 0], // 0.49 → 0
    [8, 1], // 0.56 → 1
  ])("7%% of %i → %i", (taxable, expected) => {
    expect(priced(taxable).taxCents).toBe(expected);
  });
});

describe("totals in the default zone", () => {
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
      const totals = priced(subtotal, method, discount);
      expect(totals).toMatchObject({ shippingCents: shipping, taxCents: tax, totalCents: total });
      expect(totals.totalCents).toBe(
        totals.subtotalCents - totals.discountCents + totals.shippingCents + totals.taxCents,
      );
    },
  );
});

describe("the default zone's words", () => {
  it("writes rates and day ranges as the pages show them", () => {
    expect([700, 825, 1_950, 0, 10_000].map(formatTaxRate)).toEqual(["7%", "8.25%", "19.5%", "0%", "100%"]);
    expect(deliveryDays({ daysMin: 4, daysMax: 6 })).toBe("4-6 business days");
    expect(deliveryDays({ daysMin: 2, daysMax: 2 })).toBe("2 business days");
    expect(deliveryDays({ daysMin: 1, daysMax: 1 })).toBe("1 business day");
    const [standard, express] = DEFAULT_ZONE.methods;
    expect([standard!.name, deliveryDays(standard!), deliveryDayCount(standard!)]).toEqual([
      "Standard Shipping",
      "4-6 business days",
      5,
    ]);
    expect([express!.name, deliveryDayCount(express!)]).toEqual(["Express Shipping", 2]);
  });
});
