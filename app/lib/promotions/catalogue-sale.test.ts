import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { divideRounded } from "../order-calculator.ts";
import {
  isCataloguePromotion,
  leftAfterPercent,
  nextBoundary,
  type SaleItem,
  salePrice,
  shownPrices,
} from "./catalogue-sale.ts";
import { applyPromotions, type ItemTarget, type Promotion } from "./engine.ts";

const NOW = new Date("2026-12-01T12:00:00Z");
const NO_LIMITS = { usageLimit: null, perCustomerLimit: null, uniqueCodes: false };

function percent(
  id: number,
  basisPoints: number,
  target: ItemTarget = {},
  extra: Partial<Promotion> = {},
): Promotion {
  return {
    id,
    name: `P${id}`,
    code: null,
    conditions: [],
    action: { type: "items-percent", target, basisPoints, apply: "all" },
    startsAt: null,
    endsAt: null,
    priority: 0,
    combines: true,
    campaignId: null,
    ...extra,
  };
}

const TEE: SaleItem = { productId: 7, category: "clothing", brand: "Acme", priceCents: 2_000 };

describe("which promotions are catalogue ones", () => {
  it.each([
    ["automatic, all units, no conditions", percent(1, 1_000), NO_LIMITS, true],
    ["a code", percent(1, 1_000, {}, { code: "SALE" }), NO_LIMITS, false],
    ["single-use codes", percent(1, 1_000), { ...NO_LIMITS, uniqueCodes: true }, false],
    ["a use limit", percent(1, 1_000), { ...NO_LIMITS, usageLimit: 10 }, false],
    ["a per-customer limit", percent(1, 1_000), { ...NO_LIMITS, perCustomerLimit: 1 }, false],
    ["a campaign", percent(1, 1_000, {}, { campaignId: 3 }), NO_LIMITS, false],
    ["a condition", percent(1, 1_000, {}, { conditions: [{ type: "signed-in" }] }), NO_LIMITS, false],
    ["variants named", percent(1, 1_000, { variantIds: [4] }), NO_LIMITS, false],
    ["0 %", percent(1, 0), NO_LIMITS, false],
    [
      "the cheapest unit only",
      {
        ...percent(1, 1_000),
        action: { type: "items-percent", target: {}, basisPoints: 1_000, apply: "cheapest" },
      },
      NO_LIMITS,
      false,
    ],
    [
      "an amount off",
      { ...percent(1, 1_000), action: { type: "items-fixed", target: {}, cents: 100, apply: "all" } },
      NO_LIMITS,
      false,
    ],
  ] as const)("%s → %s", (_, promotion, limits, expected) => {
    expect(isCataloguePromotion(promotion as Promotion, limits)).toBe(expected);
  });
});

describe("a product's sale price", () => {
  it.each<[string, Promotion[], SaleItem, number | null, number[]]>([
    ["none", [], TEE, null, []],
    ["20 % off everything", [percent(1, 2_000)], TEE, 1_600, [1]],
    ["by product", [percent(1, 2_000, { productIds: [7] })], TEE, 1_600, [1]],
    ["another product", [percent(1, 2_000, { productIds: [8] })], TEE, null, []],
    ["by category", [percent(1, 1_500, { categories: ["clothing"] })], TEE, 1_700, [1]],
    ["another category", [percent(1, 1_500, { categories: ["electronics"] })], TEE, null, []],
    ["by brand", [percent(1, 1_000, { brands: ["Acme"] })], TEE, 1_800, [1]],
    [
      "two combining compound (10 % then 10 % = 19 %)",
      [percent(1, 1_000), percent(2, 1_000)],
      TEE,
      1_620,
      [1, 2],
    ],
    [
      "rounded half up at each step: $9.99 at 15 % then 10 %",
      [percent(1, 1_500), percent(2, 1_000)],
      { ...TEE, priceCents: 999 },
      // 999 − 150 (149.85) = 849; 849 − 85 (84.9) = 764
      764,
      [1, 2],
    ],
    [
      "one that does not combine, first: alone",
      [percent(1, 3_000, {}, { combines: false, priority: 5 }), percent(2, 1_000)],
      TEE,
      1_400,
      [1],
    ],
    [
      "one that does not combine, after another: not at all",
      [percent(1, 1_000, {}, { priority: 5 }), percent(2, 5_000, {}, { combines: false })],
      TEE,
      1_800,
      [1],
    ],
    [
      "a non-combining one that does not match blocks nothing",
      [percent(1, 5_000, { productIds: [8] }, { combines: false, priority: 5 }), percent(2, 1_000)],
      TEE,
      1_800,
      [2],
    ],
    ["before its start", [percent(1, 2_000, {}, { startsAt: "2026-12-01T12:00:00.001Z" })], TEE, null, []],
    ["from its start", [percent(1, 2_000, {}, { startsAt: "2026-12-01T12:00:00.000Z" })], TEE, 1_600, [1]],
    ["at its end: over", [percent(1, 2_000, {}, { endsAt: "2026-12-01T12:00:00.000Z" })], TEE, null, []],
    ["100 %: free", [percent(1, 10_000)], TEE, 0, [1]],
    ["half a cent rounds up: 5 ¢ at 10 %", [percent(1, 1_000)], { ...TEE, priceCents: 5 }, 4, [1]],
    ["less than half a cent: nothing", [percent(1, 1_000)], { ...TEE, priceCents: 4 }, null, []],
  ])("%s", (_, promotions, item, cents, ids) => {
    const sale = salePrice(promotions, item, NOW);
    expect(sale?.priceCents ?? null).toBe(cents);
    expect(sale?.promotionIds ?? []).toEqual(ids);
    if (sale) expect(sale.regularCents).toBe(item.priceCents);
  });

  it("holds until the first end among the promotions taken", () => {
    const sale = salePrice(
      [
        percent(1, 1_000, {}, { endsAt: "2026-12-09T00:00:00.000Z" }),
        percent(2, 1_000, {}, { endsAt: "2026-12-05T00:00:00.000Z" }),
        percent(3, 1_000, { productIds: [8] }, { endsAt: "2026-12-02T00:00:00.000Z" }),
      ],
      TEE,
      NOW,
    );
    expect(sale?.endsAt).toBe("2026-12-05T00:00:00.000Z");
  });

  it("is what the engine takes from one unit in a cart (any prices, percentages, stacking)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.array(
          fc.record({
            bp: fc.integer({ min: 1, max: 10_000 }),
            combines: fc.boolean(),
            priority: fc.integer({ min: 0, max: 3 }),
          }),
          {
            maxLength: 5,
          },
        ),
        (priceCents, specs) => {
          const promotions = specs.map((s, i) =>
            percent(i + 1, s.bp, {}, { combines: s.combines, priority: s.priority }),
          );
          const cart = applyPromotions(
            promotions,
            [
              {
                key: "l",
                productId: 7,
                variantId: 70,
                category: "clothing",
                brand: "Acme",
                unitPriceCents: priceCents,
                quantity: 3,
              },
            ],
            {
              now: NOW,
              signedIn: false,
              groupIds: [],
              firstOrder: false,
              zoneId: null,
              shipping: null,
              codes: [],
            },
          );
          const perUnit = (cart.lineDiscounts.get("l") ?? 0) / 3;
          const sale = salePrice(promotions, { ...TEE, priceCents }, NOW);
          expect(sale ? priceCents - sale.priceCents : 0).toBe(perUnit);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("what is left after a percentage, in one expression", () => {
  it("is the engine's rounding", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (cents, bp) => {
          expect(leftAfterPercent(cents, bp)).toBe(cents - divideRounded(cents * bp, 10_000));
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe("the next boundary", () => {
  it("is the first start or end after now", () => {
    const promotions = [
      percent(1, 1_000, {}, { startsAt: "2026-11-01T00:00:00.000Z", endsAt: "2026-12-03T00:00:00.000Z" }),
      percent(2, 1_000, {}, { startsAt: "2026-12-02T00:00:00.000Z" }),
    ];
    expect(nextBoundary(promotions, NOW.getTime())).toBe(Date.parse("2026-12-02T00:00:00.000Z"));
    expect(nextBoundary(promotions, Date.parse("2026-12-03T00:00:00.000Z"))).toBeNull();
  });
});

describe("what is shown", () => {
  it("strikes the regular price through, or the compare-at price when higher", () => {
    const sale = salePrice([percent(1, 1_000)], TEE, NOW);
    expect(shownPrices({ priceCents: 2_000, originalPriceCents: null }, sale)).toEqual({
      priceCents: 1_800,
      originalPriceCents: 2_000,
    });
    expect(shownPrices({ priceCents: 2_000, originalPriceCents: 2_500 }, sale)).toEqual({
      priceCents: 1_800,
      originalPriceCents: 2_500,
    });
    expect(shownPrices({ priceCents: 2_000, originalPriceCents: null }, null)).toEqual({
      priceCents: 2_000,
      originalPriceCents: null,
    });
  });
});
