import { describe, expect, it } from "vitest";
import { lowestListPrices, memberPriceApplies, memberShownPrices } from "./price-lists.ts";
import { applyPromotions, type Promotion } from "./promotions/engine.ts";

describe("price lists (decision 037)", () => {
  it("takes the lowest of the shopper's groups' prices per variant, the oldest group on a tie", () => {
    const lowest = lowestListPrices([
      { variantId: 1, groupId: 7, priceCents: 1_700 },
      { variantId: 1, groupId: 3, priceCents: 1_500 },
      { variantId: 2, groupId: 9, priceCents: 800 },
      { variantId: 2, groupId: 4, priceCents: 800 },
    ]);
    expect([...lowest]).toEqual([
      [1, { groupId: 3, priceCents: 1_500 }],
      [2, { groupId: 4, priceCents: 800 }],
    ]);
  });

  it("applies a member price only below the regular price and below the sale price (a tie goes to the sale)", () => {
    expect(memberPriceApplies(1_500, 2_000, null)).toBe(true);
    expect(memberPriceApplies(2_000, 2_000, null)).toBe(false);
    expect(memberPriceApplies(2_500, 2_000, null)).toBe(false);
    expect(memberPriceApplies(1_500, 2_000, 1_600)).toBe(true);
    expect(memberPriceApplies(1_500, 2_000, 1_500)).toBe(false);
    expect(memberPriceApplies(1_500, 2_000, 1_400)).toBe(false);
    expect(memberPriceApplies(undefined, 2_000, null)).toBe(false);
  });

  it("shows the regular price (or a higher compare-at price) struck through", () => {
    expect(memberShownPrices({ priceCents: 2_000, originalPriceCents: null }, 1_500)).toEqual({
      priceCents: 1_500,
      originalPriceCents: 2_000,
    });
    expect(memberShownPrices({ priceCents: 2_000, originalPriceCents: 2_500 }, 1_500)).toEqual({
      priceCents: 1_500,
      originalPriceCents: 2_500,
    });
  });

  it("a line excluding a promotion takes nothing from it, while other lines and promotions still do", () => {
    const promotion = (id: number, basisPoints: number): Promotion => ({
      id,
      name: `P${id}`,
      code: null,
      conditions: [],
      action: { type: "items-percent", target: {}, basisPoints, apply: "all" },
      startsAt: null,
      endsAt: null,
      priority: 0,
      combines: true,
      campaignId: null,
    });
    const line = (key: string, unitPriceCents: number, excludedPromotionIds?: number[]) => ({
      key,
      productId: 1,
      variantId: Number(key),
      category: "clothing",
      brand: "Acme",
      unitPriceCents,
      quantity: 1,
      ...(excludedPromotionIds ? { excludedPromotionIds } : {}),
    });
    const result = applyPromotions(
      [promotion(1, 1_000), promotion(2, 5_000)],
      [line("1", 1_000, [1]), line("2", 1_000)],
      {
        now: new Date(),
        signedIn: true,
        groupIds: [],
        firstOrder: false,
        zoneId: null,
        shipping: null,
        codes: [],
      },
    );
    // line 1: only the 50 % (500); line 2: 10 % then 50 % of what is left (100 + 450)
    expect([...result.lineDiscounts]).toEqual([
      ["1", 500],
      ["2", 550],
    ]);
  });
});
