import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { calculateOrder, refundShare, type TaxRate } from "../order-calculator.ts";
import {
  applyPromotions,
  type Promotion,
  type PromotionAction,
  type PromotionCondition,
  type PromotionContext,
  type PromotionLine,
  stackingBlocker,
} from "./engine.ts";

const NOW = new Date("2026-12-01T12:00:00Z");

let nextId = 1;
function promotion(action: PromotionAction, extra: Partial<Promotion> = {}): Promotion {
  return {
    id: nextId++,
    name: `P${nextId}`,
    code: null,
    conditions: [],
    action,
    startsAt: null,
    endsAt: null,
    priority: 0,
    combines: true,
    campaignId: null,
    ...extra,
  };
}

function line(key: string, unitPriceCents: number, quantity: number, extra: Partial<PromotionLine> = {}) {
  return {
    key,
    productId: Number(key.replace(/\D/g, "")) || 1,
    variantId: Number(key.replace(/\D/g, "")) || 1,
    category: "clothing",
    brand: "Acme",
    unitPriceCents,
    quantity,
    ...extra,
  } satisfies PromotionLine;
}

const CONTEXT: PromotionContext = {
  now: NOW,
  signedIn: false,
  groupIds: [],
  firstOrder: false,
  zoneId: "us",
  shipping: { methodCode: "standard", priceCents: 499 },
  codes: [],
};

const price = (promotions: Promotion[], lines: PromotionLine[], context: Partial<PromotionContext> = {}) =>
  applyPromotions(promotions, lines, { ...CONTEXT, ...context });

describe("the stacking rule", () => {
  const p = (combines: boolean, id: number) => promotion({ type: "order-fixed", cents: 1 }, { combines, id });
  it.each([
    ["nothing applied yet: a promotion that does not combine joins", [], false, null],
    ["nothing applied yet: one that combines joins", [], true, null],
    ["both combine", [p(true, 1)], true, null],
    ["several combining applied, another combining joins", [p(true, 1), p(true, 2)], true, null],
    ["the candidate does not combine: it yields to the first applied", [p(true, 1), p(true, 2)], false, 1],
    ["an exclusive one applied first: a combining candidate yields to it", [p(false, 1)], true, 1],
    ["an exclusive one applied first: an exclusive candidate yields to it", [p(false, 1)], false, 1],
  ] as const)("%s", (_, applied, combines, blockedBy) => {
    expect(stackingBlocker(applied, p(combines, 99))?.id ?? null).toBe(blockedBy);
  });
});

describe("actions", () => {
  it("takes a percentage off the order, of what the lines still cost after product promotions", () => {
    const result = price(
      [
        promotion({ type: "items-fixed", target: {}, cents: 100, apply: "all" }),
        promotion({ type: "order-percent", basisPoints: 1_000 }),
      ],
      [line("a1", 1_000, 2)],
    );
    expect(result.lineDiscounts.get("a1")).toBe(200);
    expect(result.orderDiscountCents).toBe(180);
  });

  it("never takes more off the order than the lines cost", () => {
    const result = price([promotion({ type: "order-fixed", cents: 5_000 })], [line("a1", 1_000, 2)]);
    expect(result.orderDiscountCents).toBe(2_000);
  });

  it("takes from all, the cheapest or the most expensive matching unit", () => {
    const lines = [line("a1", 1_000, 2), line("b2", 400, 1), line("c3", 3_000, 1, { category: "shoes" })];
    const target = { categories: ["clothing"] };
    const all = price(
      [promotion({ type: "items-percent", target, basisPoints: 5_000, apply: "all" })],
      lines,
    );
    expect(Object.fromEntries(all.lineDiscounts)).toEqual({ a1: 1_000, b2: 200, c3: 0 });
    const cheapest = price(
      [promotion({ type: "items-percent", target, basisPoints: 10_000, apply: "cheapest" })],
      lines,
    );
    expect(Object.fromEntries(cheapest.lineDiscounts)).toEqual({ a1: 0, b2: 400, c3: 0 });
    const dearest = price(
      [promotion({ type: "items-fixed", target, cents: 10_000, apply: "most-expensive" })],
      lines,
    );
    // an amount off a unit never takes more than the unit costs
    expect(Object.fromEntries(dearest.lineDiscounts)).toEqual({ a1: 1_000, b2: 0, c3: 0 });
  });

  it("repeats buy X get Y per multiple, the cheapest units free, up to its maximum", () => {
    const bogo = (maxTimes: number | null) =>
      promotion({
        type: "buy-x-get-y",
        buy: { target: {}, quantity: 2 },
        get: { target: {}, quantity: 1 },
        basisPoints: 10_000,
        maxTimes,
      });
    const lines = [line("a1", 1_000, 3), line("b2", 500, 3)];
    expect(price([bogo(null)], lines).lineDiscounts.get("b2")).toBe(1_000); // 6 units: two free
    expect(price([bogo(1)], lines).lineDiscounts.get("b2")).toBe(500);
    expect(price([bogo(null)], [line("a1", 1_000, 9)]).lineDiscounts.get("a1")).toBe(3_000);
    // two units: one short of the first application, and the explainer can say so
    const short = price([bogo(null)], [line("a1", 1_000, 2)]);
    expect(short.applied).toEqual([]);
    expect(short.refused[0]?.refusal).toEqual({
      reason: "nothing-to-discount",
      shortfall: { units: 1, target: {} },
    });
  });

  it("buys from one target and gives from another", () => {
    const action: PromotionAction = {
      type: "buy-x-get-y",
      buy: { target: { categories: ["shoes"] }, quantity: 1 },
      get: { target: { categories: ["socks"] }, quantity: 1 },
      basisPoints: 5_000,
      maxTimes: null,
    };
    const lines = [line("a1", 8_000, 2, { category: "shoes" }), line("b2", 600, 3, { category: "socks" })];
    expect(price([promotion(action)], lines).lineDiscounts.get("b2")).toBe(600); // 2 pairs at half
    const noSocks = price([promotion(action)], [line("a1", 8_000, 1, { category: "shoes" })]);
    expect(noSocks.refused[0]?.refusal).toEqual({
      reason: "nothing-to-discount",
      shortfall: { units: 1, target: { categories: ["socks"] } },
    });
  });

  it("prices sets of units at a fixed price, the dearest sets first", () => {
    const threeFor50 = promotion({
      type: "set-price",
      target: {},
      quantity: 3,
      priceCents: 5_000,
      maxTimes: null,
    });
    const result = price([threeFor50], [line("a1", 2_000, 4), line("b2", 1_500, 3)]);
    // sets: 2000×3 (−1000), then 2000+1500+1500 (−0: not dearer than the price) → one set
    expect(result.applied.map((a) => a.amountCents)).toEqual([1_000]);
    expect(result.lineDiscounts.get("a1")).toBe(1_000);
  });

  it("makes shipping free once, even when two free-shipping promotions combine", () => {
    const result = price(
      [
        promotion({ type: "free-shipping", methods: null }),
        promotion({ type: "free-shipping", methods: ["standard"] }),
      ],
      [line("a1", 1_000, 1)],
    );
    expect(result.shippingDiscountCents).toBe(499);
    expect(result.applied).toHaveLength(1);
    expect(result.refused[0]?.refusal).toEqual({ reason: "nothing-to-discount", shortfall: null });
    // a method it is not for
    const express = price(
      [promotion({ type: "free-shipping", methods: ["express"] })],
      [line("a1", 1_000, 1)],
    );
    expect(express.shippingDiscountCents).toBe(0);
  });
});

describe("what decides whether a promotion applies", () => {
  it("follows priority: an exclusive promotion of higher priority wins over a bigger one", () => {
    const small = promotion({ type: "order-fixed", cents: 100 }, { priority: 10, combines: false });
    const big = promotion({ type: "order-fixed", cents: 900 }, { priority: 1 });
    const result = price([big, small], [line("a1", 5_000, 1)]);
    expect(result.orderDiscountCents).toBe(100);
    expect(result.refused).toEqual([
      { promotion: big, refusal: { reason: "does-not-combine", with: small.id } },
    ]);
  });

  it("stacks within a kind only, so a product and an order promotion both apply", () => {
    const product = promotion(
      { type: "items-fixed", target: {}, cents: 100, apply: "all" },
      { combines: false },
    );
    const order = promotion({ type: "order-fixed", cents: 100 }, { combines: false });
    const result = price([product, order], [line("a1", 1_000, 1)]);
    expect(result.applied.map((a) => a.promotion.id)).toEqual([product.id, order.id]);
  });

  it("never applies outside its window, to the millisecond", () => {
    const ends = promotion({ type: "order-fixed", cents: 100 }, { endsAt: NOW.toISOString() });
    const starts = promotion({ type: "order-fixed", cents: 100 }, { startsAt: "2026-12-01T12:00:00.001Z" });
    const result = price([ends, starts], [line("a1", 1_000, 1)]);
    expect(result.orderDiscountCents).toBe(0);
    expect(result.refused.map((r) => r.refusal.reason).sort()).toEqual(["ended", "not-started"]);
    const before = price([ends], [line("a1", 1_000, 1)], { now: new Date(NOW.getTime() - 1) });
    expect(before.orderDiscountCents).toBe(100);
  });

  it("applies a code promotion only when its code was entered", () => {
    const coded = promotion({ type: "order-fixed", cents: 100 }, { code: "SAVE" });
    expect(price([coded], [line("a1", 1_000, 1)]).orderDiscountCents).toBe(0);
    expect(price([coded], [line("a1", 1_000, 1)], { codes: ["SAVE"] }).orderDiscountCents).toBe(100);
  });

  it("names the first failed condition (the shopper's before the cart's) and what is missing to meet it", () => {
    const conditions: PromotionCondition[] = [{ type: "min-subtotal", cents: 5_000 }, { type: "signed-in" }];
    const free = promotion({ type: "free-shipping", methods: null }, { conditions });
    // signed out: adding to the cart would not help, so that is the reason given
    expect(price([free], [line("a1", 3_799, 1)]).refused[0]?.refusal).toEqual({
      reason: "condition",
      condition: conditions[1],
      shortfall: null,
    });
    const result = price([free], [line("a1", 3_799, 1)], { signedIn: true });
    expect(result.refused[0]?.refusal).toEqual({
      reason: "condition",
      condition: conditions[0],
      shortfall: { cents: 1_201 },
    });
    const met = price(
      [promotion({ type: "free-shipping", methods: null }, { conditions })],
      [line("a1", 5_000, 1)],
      {
        signedIn: true,
      },
    );
    expect(met.shippingDiscountCents).toBe(499);
  });

  it.each([
    [{ type: "customer-group", groupIds: [7] }, { groupIds: [3, 7] }, { groupIds: [3] }],
    [{ type: "first-order" }, { firstOrder: true }, { firstOrder: false }],
    [{ type: "zone", zoneIds: ["de"] }, { zoneId: "de" }, { zoneId: null }],
    [{ type: "items", target: { brands: ["Acme"] }, quantity: 2 }, {}, { zoneId: "us" }],
  ] as [PromotionCondition, Partial<PromotionContext>, Partial<PromotionContext>][])(
    "checks %o",
    (condition, meets, fails) => {
      const p = promotion({ type: "order-fixed", cents: 100 }, { conditions: [condition] });
      const lines = [line("a1", 1_000, 2)];
      expect(price([p], lines, meets).orderDiscountCents).toBe(100);
      const failing = condition.type === "items" ? [line("a1", 1_000, 1)] : lines;
      expect(price([p], failing, fails).orderDiscountCents).toBe(0);
    },
  );

  it("refuses a promotion whose limit is used up", () => {
    const p = promotion({ type: "order-fixed", cents: 100 });
    const result = price([p], [line("a1", 1_000, 1)], {
      exhausted: new Map([[p.id, "customer-uses" as const]]),
    });
    expect(result.refused[0]?.refusal).toEqual({ reason: "limit", limit: "customer-uses" });
  });

  it("keeps a campaign's promotions within what is left of its budget", () => {
    const a = promotion(
      { type: "items-percent", target: {}, basisPoints: 5_000, apply: "all" },
      { campaignId: 1 },
    );
    const b = promotion({ type: "order-fixed", cents: 500 }, { campaignId: 1 });
    const c = promotion({ type: "free-shipping", methods: null }, { campaignId: 1 });
    const result = price([a, b, c], [line("a1", 1_000, 3)], { budgets: new Map([[1, 1_800]]) });
    expect(result.applied.map((x) => x.amountCents)).toEqual([1_500, 300]);
    expect(result.refused.map((x) => x.refusal.reason)).toEqual(["budget-spent"]);
  });
});

// ── properties over random carts and promotion sets ────────────────────────────────────────────

const targetArb = fc.oneof(
  fc.constant({}),
  fc.record({ categories: fc.subarray(["clothing", "shoes", "home"], { minLength: 1 }) }),
  fc.record({ productIds: fc.subarray([1, 2, 3, 4, 5], { minLength: 1 }) }),
);
const actionArb: fc.Arbitrary<PromotionAction> = fc.oneof(
  fc.record({
    type: fc.constant("order-percent" as const),
    basisPoints: fc.integer({ min: 0, max: 10_000 }),
  }),
  fc.record({ type: fc.constant("order-fixed" as const), cents: fc.integer({ min: 0, max: 50_000 }) }),
  fc.record({
    type: fc.constant("items-percent" as const),
    target: targetArb,
    basisPoints: fc.integer({ min: 0, max: 10_000 }),
    apply: fc.constantFrom("all" as const, "cheapest" as const, "most-expensive" as const),
  }),
  fc.record({
    type: fc.constant("items-fixed" as const),
    target: targetArb,
    cents: fc.integer({ min: 0, max: 20_000 }),
    apply: fc.constantFrom("all" as const, "cheapest" as const, "most-expensive" as const),
  }),
  fc.record({
    type: fc.constant("buy-x-get-y" as const),
    buy: fc.record({ target: targetArb, quantity: fc.integer({ min: 1, max: 3 }) }),
    get: fc.record({ target: targetArb, quantity: fc.integer({ min: 1, max: 2 }) }),
    basisPoints: fc.integer({ min: 1, max: 10_000 }),
    maxTimes: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
  }),
  fc.record({
    type: fc.constant("set-price" as const),
    target: targetArb,
    quantity: fc.integer({ min: 1, max: 4 }),
    priceCents: fc.integer({ min: 0, max: 20_000 }),
    maxTimes: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
  }),
  fc.record({
    type: fc.constant("free-shipping" as const),
    methods: fc.option(fc.subarray(["standard", "express"], { minLength: 1 }), { nil: null }),
  }),
);
const promotionsArb = fc
  .array(
    fc.record({
      action: actionArb,
      priority: fc.integer({ min: 0, max: 3 }),
      combines: fc.boolean(),
      campaignId: fc.option(fc.constantFrom(1, 2), { nil: null }),
    }),
    { maxLength: 8 },
  )
  .map((list) => list.map((p, i) => ({ ...promotion(p.action, p), id: i + 1 })));
const linesArb = fc
  .uniqueArray(
    fc.record({
      productId: fc.integer({ min: 1, max: 5 }),
      unitPriceCents: fc.integer({ min: 0, max: 20_000 }),
      quantity: fc.integer({ min: 1, max: 6 }),
      category: fc.constantFrom("clothing", "shoes", "home"),
      rate: fc.constantFrom(0, 700, 1900),
    }),
    { selector: (l) => l.productId, maxLength: 5 },
  )
  .map((list) =>
    list.map((l) => ({
      ...line(`p${l.productId}`, l.unitPriceCents, l.quantity, {
        productId: l.productId,
        category: l.category,
      }),
      rate: l.rate,
    })),
  );
const contextArb = fc.record({
  shipping: fc.option(
    fc.record({
      methodCode: fc.constantFrom("standard", "express"),
      priceCents: fc.integer({ min: 0, max: 2_000 }),
    }),
    { nil: null },
  ),
  budgets: fc.constantFrom(
    undefined,
    new Map([[1, 0]]),
    new Map([
      [1, 700],
      [2, 5_000],
    ]),
  ),
});

describe("properties (fast-check)", () => {
  it("no line below zero, no discount past the subtotal or the shipping, the same answer every time", () => {
    fc.assert(
      fc.property(promotionsArb, linesArb, contextArb, (promotions, lines, extra) => {
        const context = { ...CONTEXT, ...extra };
        const result = applyPromotions(promotions, lines, context);
        let afterLines = 0;
        for (const l of lines) {
          const off = result.lineDiscounts.get(l.key) ?? 0;
          expect(off).toBeGreaterThanOrEqual(0);
          expect(off).toBeLessThanOrEqual(l.unitPriceCents * l.quantity);
          afterLines += l.unitPriceCents * l.quantity - off;
        }
        expect(result.orderDiscountCents).toBeGreaterThanOrEqual(0);
        expect(result.orderDiscountCents).toBeLessThanOrEqual(afterLines);
        expect(result.shippingDiscountCents).toBeGreaterThanOrEqual(0);
        expect(result.shippingDiscountCents).toBeLessThanOrEqual(context.shipping?.priceCents ?? 0);
        // what applied adds up to what was taken
        const taken =
          [...result.lineDiscounts.values()].reduce((a, b) => a + b, 0) +
          result.orderDiscountCents +
          result.shippingDiscountCents;
        expect(result.applied.reduce((sum, a) => sum + a.amountCents, 0)).toBe(taken);
        // every promotion is either applied or refused, once
        expect(result.applied.length + result.refused.length).toBe(promotions.length);
        // a campaign never spends more than its budget
        for (const [campaign, budget] of context.budgets ?? []) {
          const spent = result.applied
            .filter((a) => a.promotion.campaignId === campaign)
            .reduce((sum, a) => sum + a.amountCents, 0);
          expect(spent).toBeLessThanOrEqual(budget);
        }
        // the same cart priced again, with the promotions listed in another order: the same answer
        const again = applyPromotions([...promotions].reverse(), lines, context);
        expect(again.lineDiscounts).toEqual(result.lineDiscounts);
        expect(again.orderDiscountCents).toBe(result.orderDiscountCents);
        expect(again.shippingDiscountCents).toBe(result.shippingDiscountCents);
      }),
      { numRuns: 400 },
    );
  });

  it("through the calculator: totals are the lines' and shipping's sum, and tax follows what was charged", () => {
    const rate = (bp: number): TaxRate => ({ id: `r${bp}`, label: `${bp}`, basisPoints: bp });
    fc.assert(
      fc.property(
        promotionsArb,
        linesArb,
        contextArb,
        fc.constantFrom("exclusive" as const, "inclusive" as const),
        fc.constantFrom("per-order" as const, "per-line" as const),
        (promotions, lines, extra, mode, rounding) => {
          const context = { ...CONTEXT, ...extra };
          const result = applyPromotions(promotions, lines, context);
          const shipping = context.shipping;
          const calculation = calculateOrder({
            mode,
            rounding,
            lines: lines.map((l) => ({
              key: l.key,
              unitPriceCents: l.unitPriceCents,
              quantity: l.quantity,
              rate: rate(l.rate),
              discountCents: result.lineDiscounts.get(l.key) ?? 0,
            })),
            orderDiscountCents: result.orderDiscountCents,
            shipping: shipping
              ? { priceCents: shipping.priceCents - result.shippingDiscountCents, rate: rate(1900) }
              : null,
          });
          const linesGross = calculation.lines.reduce((sum, l) => sum + l.grossCents, 0);
          expect(calculation.totalCents).toBe(linesGross + (calculation.shipping?.grossCents ?? 0));
          expect(calculation.discountCents).toBe(
            [...result.lineDiscounts.values()].reduce((a, b) => a + b, 0) + result.orderDiscountCents,
          );
          for (const l of calculation.lines) {
            expect(l.chargedCents).toBe(l.amountCents - l.discountCents);
            expect(l.chargedCents).toBeGreaterThanOrEqual(0);
            // a line that is charged nothing bears no tax
            if (l.chargedCents === 0) expect(l.taxCents).toBe(0);
          }
          // a refund or return of a discounted line pays back its discounted share (what the line
          // was charged, not its price): unit by unit or all at once, never more, exactly that once
          // all its units are back
          for (const l of calculation.lines) {
            const quantity = lines.find((line) => line.key === l.key)!.quantity;
            const charged = { quantity, grossCents: l.grossCents, taxCents: l.taxCents };
            let paidBack = 0;
            for (let unit = 0; unit < quantity; unit++) {
              const share = refundShare(charged, unit, 1);
              expect(share.amountCents).toBeGreaterThanOrEqual(0);
              expect(share.amountCents).toBeLessThanOrEqual(Math.ceil(l.grossCents / quantity));
              paidBack += share.amountCents;
              expect(paidBack).toBeLessThanOrEqual(l.grossCents);
            }
            expect(paidBack).toBe(l.grossCents);
            expect(refundShare(charged, 0, quantity).amountCents).toBe(l.grossCents);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
