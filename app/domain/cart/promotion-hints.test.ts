import { describe, expect, it } from "vitest";
import {
  applyPromotions,
  type Promotion,
  type PromotionAction,
  type PromotionCondition,
} from "../../lib/promotions/engine.ts";
import { MAX_HINTS, promotionHints } from "./promotion-hints.ts";

const NOW = new Date("2026-12-01T12:00:00Z");

let nextId = 1;
function promotion(name: string, action: PromotionAction, conditions: PromotionCondition[] = []): Promotion {
  return {
    id: nextId++,
    name,
    code: null,
    conditions,
    action,
    startsAt: null,
    endsAt: null,
    priority: 0,
    combines: true,
    campaignId: null,
  };
}

const TEE = {
  productId: 1,
  variantId: 11,
  category: "clothing",
  brand: "Loom",
  name: "Classic Tee",
  unitPriceCents: 2000,
};
const SOCKS = {
  productId: 2,
  variantId: 21,
  category: "clothing",
  brand: "Loom",
  name: "Wool Socks",
  unitPriceCents: 800,
};
const MUG = {
  productId: 3,
  variantId: 31,
  category: "home",
  brand: "Potter",
  name: "Mug",
  unitPriceCents: 1199,
};
type Line = typeof TEE & { quantity: number };

/** The cart's hints for `lines` under `promotions`, as the cart computes them (shopper: `firstOrder`). */
function hints(promotions: Promotion[], lines: Line[], { firstOrder = true } = {}) {
  const result = applyPromotions(
    promotions,
    lines.map((line) => ({ ...line, key: String(line.variantId) })),
    {
      now: NOW,
      signedIn: false,
      groupIds: [],
      firstOrder,
      zoneId: "1",
      shipping: { methodCode: "standard", priceCents: 499 },
      codes: [],
    },
  );
  return promotionHints(result, lines, "USD");
}

const bogo = promotion("Tees: buy 2 get 1 free", {
  type: "buy-x-get-y",
  buy: { target: { productIds: [1] }, quantity: 2 },
  get: { target: { productIds: [1] }, quantity: 1 },
  basisPoints: 10_000,
  maxTimes: null,
});
const freeShipping = promotion("Free shipping over $50", { type: "free-shipping", methods: null }, [
  { type: "min-subtotal", cents: 5000 },
]);

describe("the cart's explainer", () => {
  it("says how many more of the product a buy X get Y needs, and what it gives", () => {
    expect(hints([bogo], [{ ...TEE, quantity: 2 }])).toEqual(["Add 1 more Classic Tee to get 1 free."]);
    expect(hints([bogo], [{ ...TEE, quantity: 1 }])).toEqual(["Add 2 more Classic Tee to get 1 free."]);
    // applied: nothing to say
    expect(hints([bogo], [{ ...TEE, quantity: 3 }])).toEqual([]);
    // no tee in the cart: not within reach, not advertised
    expect(hints([bogo], [{ ...MUG, quantity: 1 }])).toEqual([]);
  });

  it("says how far a free-shipping minimum is, in the issue's words", () => {
    expect(
      hints(
        [freeShipping],
        [
          { ...TEE, quantity: 1 },
          { ...SOCKS, quantity: 1 },
          { ...MUG, quantity: 1 },
        ],
      ),
    ).toEqual(["Free shipping from $50.00: $10.01 to go."]);
  });

  it("names an order promotion short of its minimum, and the category it needs more of", () => {
    const bigSpend = promotion("Spend $100, save 10%", { type: "order-percent", basisPoints: 1000 }, [
      { type: "min-subtotal", cents: 10_000 },
    ]);
    const clothingTrio = promotion("Three clothing items: $5 off", { type: "order-fixed", cents: 500 }, [
      { type: "items", target: { categories: ["clothing"] }, quantity: 3 },
    ]);
    expect(
      hints(
        [bigSpend, clothingTrio],
        [
          { ...TEE, quantity: 1 },
          { ...MUG, quantity: 1 },
        ],
      ),
    ).toEqual([
      "Add $68.01 more to get Spend $100, save 10%.",
      "Add 2 more Classic Tee to get Three clothing items: $5 off.",
    ]);
    // two clothing products in the cart: the category is named
    expect(
      hints(
        [clothingTrio],
        [
          { ...TEE, quantity: 1 },
          { ...SOCKS, quantity: 1 },
          { ...MUG, quantity: 1 },
        ],
      ),
    ).toEqual(["Add 1 more Clothing & Fashion item to get Three clothing items: $5 off."]);
  });

  it("says nothing of what adding cannot reach: a first-order promotion for a returning customer", () => {
    const welcome = promotion("Welcome: $10 off $80", { type: "order-fixed", cents: 1000 }, [
      { type: "min-subtotal", cents: 8000 },
      { type: "first-order" },
    ]);
    expect(hints([welcome], [{ ...TEE, quantity: 1 }], { firstOrder: false })).toEqual([]);
    expect(hints([welcome], [{ ...TEE, quantity: 1 }], { firstOrder: true })).toEqual([
      "Add $60.00 more to get Welcome: $10 off $80.",
    ]);
  });

  it("says nothing for an empty cart, and at most a few sentences", () => {
    expect(hints([bogo, freeShipping], [])).toEqual([]);
    const many = Array.from({ length: 6 }, (_, n) =>
      promotion(`Spend ${n + 1}00`, { type: "order-fixed", cents: 100 }, [
        { type: "min-subtotal", cents: (n + 1) * 10_000 },
      ]),
    );
    expect(hints(many, [{ ...TEE, quantity: 1 }])).toHaveLength(MAX_HINTS);
  });
});
