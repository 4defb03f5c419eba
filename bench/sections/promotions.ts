/**
 * The promotion engine's cost (issue 31: "pricing a 50-line cart with 1 000 active promotions,
 * p95 ≤ 5 ms"): a 50-line cart across the six categories and ten brands, priced with 1 000 active
 * automatic promotions of every action — percentages and amounts off categories, brands and
 * products (all, the cheapest, the dearest), buy X get Y, sets at a fixed price, order discounts,
 * free shipping — behind every kind of condition, nine in ten combining, in two campaigns with a
 * budget. Beside it, the reference measured in the same run: the order calculator alone on the
 * same cart (what pricing costs without promotions). In-process and CPU-bound.
 */
import { calculateOrder, type TaxRate } from "../../app/lib/order-calculator.ts";
import {
  applyPromotions,
  type ItemTarget,
  type Promotion,
  type PromotionAction,
  type PromotionCondition,
  type PromotionContext,
  type PromotionLine,
} from "../../app/lib/promotions/engine.ts";
import { percentile } from "../lib/http-client.ts";
import type { Row, Section } from "../lib/types.ts";

const S = "promotions";
const LINES = 50;
const PROMOTIONS = 1_000;
const SAMPLES = 2_000;
const TARGET_P95_MS = 5;

const CATEGORIES = ["electronics", "clothing", "home-kitchen", "sports", "books", "beauty"];
const BRANDS = Array.from({ length: 10 }, (_, i) => `Brand ${i}`);
const RATE: TaxRate = { id: "us:standard", label: "Sales tax", basisPoints: 700 };

const lines: PromotionLine[] = Array.from({ length: LINES }, (_, i) => ({
  key: String(i + 1),
  productId: i + 1,
  variantId: 1_000 + i,
  category: CATEGORIES[i % CATEGORIES.length]!,
  brand: BRANDS[i % BRANDS.length]!,
  unitPriceCents: 199 + ((i * 7_919) % 20_000),
  quantity: 1 + (i % 3),
}));

/** A deterministic spread of promotions: the same set every run. */
function promotionSet(): Promotion[] {
  const target = (i: number): ItemTarget =>
    i % 3 === 0
      ? { categories: [CATEGORIES[i % CATEGORIES.length]!] }
      : i % 3 === 1
        ? { brands: [BRANDS[i % BRANDS.length]!] }
        : { productIds: [1 + (i % 200)] };
  const action = (i: number): PromotionAction => {
    switch (i % 8) {
      case 0:
        return { type: "items-percent", target: target(i), basisPoints: 500 + (i % 20) * 100, apply: "all" };
      case 1:
        return {
          type: "items-fixed",
          target: target(i),
          cents: 100 + i,
          apply: i % 2 ? "cheapest" : "most-expensive",
        };
      case 2:
        return {
          type: "buy-x-get-y",
          buy: { target: target(i), quantity: 2 },
          get: { target: target(i), quantity: 1 },
          basisPoints: 10_000,
          maxTimes: 3,
        };
      case 3:
        return { type: "set-price", target: target(i), quantity: 3, priceCents: 5_000, maxTimes: null };
      case 4:
        return { type: "order-percent", basisPoints: 500 };
      case 5:
        return { type: "order-fixed", cents: 500 };
      case 6:
        return { type: "free-shipping", methods: i % 2 ? null : ["standard"] };
      default:
        return { type: "items-percent", target: target(i), basisPoints: 1_000, apply: "cheapest" };
    }
  };
  const condition = (i: number): PromotionCondition[] => {
    switch (i % 6) {
      case 0:
        return [{ type: "min-subtotal", cents: 5_000 + (i % 50) * 1_000 }];
      case 1:
        return [{ type: "items", target: target(i + 1), quantity: 2 }];
      case 2:
        return [{ type: "customer-group", groupIds: [i % 5] }];
      case 3:
        return [
          { type: "zone", zoneIds: ["us"] },
          { type: "min-quantity", quantity: 10 },
        ];
      case 4:
        return [{ type: "signed-in" }];
      default:
        return [];
    }
  };
  return Array.from({ length: PROMOTIONS }, (_, i) => ({
    id: i + 1,
    name: `Promotion ${i + 1}`,
    code: null,
    conditions: condition(i),
    action: action(i),
    startsAt: "2026-01-01T00:00:00Z",
    endsAt: "2027-01-01T00:00:00Z",
    priority: i % 10,
    combines: i % 10 !== 0,
    campaignId: i % 7 === 0 ? 1 + (i % 2) : null,
  }));
}

const CONTEXT: PromotionContext = {
  now: new Date("2026-12-01T12:00:00Z"),
  signedIn: true,
  groupIds: [1, 3],
  firstOrder: false,
  zoneId: "us",
  shipping: { methodCode: "standard", priceCents: 499 },
  codes: [],
  budgets: new Map([
    [1, 50_000],
    [2, 2_000],
  ]),
};

function calculate(result: ReturnType<typeof applyPromotions> | null): number {
  return calculateOrder({
    mode: "exclusive",
    rounding: "per-order",
    lines: lines.map((line) => ({
      key: line.key,
      unitPriceCents: line.unitPriceCents,
      quantity: line.quantity,
      rate: RATE,
      discountCents: result?.lineDiscounts.get(line.key) ?? 0,
    })),
    orderDiscountCents: result?.orderDiscountCents ?? 0,
    shipping: { priceCents: 499 - (result?.shippingDiscountCents ?? 0), rate: null },
  }).totalCents;
}

/** Milliseconds per call, one sample per call, after a warm-up. */
function samples(n: number, call: () => number): number[] {
  let sink = 0;
  for (let i = 0; i < Math.min(200, n); i++) sink += call();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = process.hrtime.bigint();
    sink += call();
    out.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  if (sink === Number.NEGATIVE_INFINITY) throw new Error("unreachable");
  return out.sort((a, b) => a - b);
}

export const promotions: Section = {
  name: "promotions",
  description:
    "the promotion engine: a 50-line cart priced with 1 000 active promotions (p95) vs the calculator alone",
  async run(ctx) {
    const set = promotionSet();
    const reference = samples(SAMPLES, () => calculate(null));
    const priced = samples(SAMPLES, () => calculate(applyPromotions(set, lines, CONTEXT)));
    const once = applyPromotions(set, lines, CONTEXT);
    const p95 = percentile(priced, 0.95);
    const referenceP95 = percentile(reference, 0.95);
    ctx.log(
      `  50 lines, ${PROMOTIONS} promotions: p50 ${percentile(priced, 0.5)?.toFixed(3)} ms, p95 ${p95?.toFixed(3)} ms; calculator alone p95 ${referenceP95?.toFixed(4)} ms; ${once.applied.length} applied, ${once.refused.length} refused`,
    );
    const rows: Row[] = [
      {
        section: S,
        metric: "Order calculator alone, 50-line cart, p95 (reference)",
        value: referenceP95,
        unit: "ms",
        digits: 4,
      },
      {
        section: S,
        metric: `50-line cart priced with ${PROMOTIONS} active promotions, p95`,
        value: p95,
        unit: "ms",
        digits: 3,
        target: { op: "<=", value: TARGET_P95_MS },
        note: `p50 ${percentile(priced, 0.5)?.toFixed(3)} ms, max ${priced.at(-1)?.toFixed(3)} ms over ${SAMPLES} carts; ${once.applied.length} applied, ${once.refused.length} refused`,
      },
      {
        section: S,
        metric: "Promotions p95 / calculator alone p95",
        value: p95 !== null && referenceP95 ? p95 / referenceP95 : null,
        unit: "×",
        digits: 0,
        note: "reported, no target",
      },
    ];
    return {
      rows,
      data: { lines: LINES, promotions: PROMOTIONS, p95, referenceP95, applied: once.applied.length },
    };
  },
};
