/**
 * The promotion engine's cost (issue 31: "pricing a 50-line cart with 1 000 active promotions,
 * p95 ≤ 5 ms"): a 50-line cart across the six categories and ten brands, priced with 1 000 active
 * automatic promotions of every action — percentages and amounts off categories, brands and
 * products (all, the cheapest, the dearest), buy X get Y, sets at a fixed price, order discounts,
 * free shipping — behind every kind of condition, nine in ten combining, in two campaigns with a
 * budget. Beside it, the reference measured in the same run: the order calculator alone on the
 * same cart (what pricing costs without promotions). In-process and CPU-bound.
 *
 * And the code lookup ("among 100 000 unique codes, p95 ≤ 1 ms"), on both engines: a promotion with
 * 100 000 single-use codes (made as the admin makes them) beside 100 automatic ones, and the read a
 * cart makes with a code on it (`readPromotionState` with one code: the code, its promotion, its
 * limits), timed for random codes: the lookup itself (`findSingleUseCodes`, the target), and the
 * whole read beside the same read without a code (the reference).
 */
import { join } from "node:path";
import { createDatabase, type Database } from "../../app/db/database.server.ts";
import { migrateToLatest } from "../../app/db/migrate.server.ts";
import { generateCodes } from "../../app/domain/promotions/promotion-codes.server.ts";
import { findSingleUseCodes, readPromotionState } from "../../app/domain/promotions/promotions.server.ts";
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
import { withPostgresDatabase } from "../lib/postgres.ts";
import type { BenchContext, Row, Section } from "../lib/types.ts";

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

const CODES = 100_000;
const LOOKUPS = 2_000;
const TARGET_LOOKUP_P95_MS = 1;

/** Milliseconds per awaited call, one sample per call, after a warm-up. */
async function asyncSamples(n: number, call: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 200; i++) await call(i);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = process.hrtime.bigint();
    await call(i);
    out.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return out.sort((a, b) => a - b);
}

/** The cart's read with one of 100 000 codes on it, and without one (the reference). */
async function codeLookup(ctx: BenchContext, label: string, db: Database): Promise<Row[]> {
  await migrateToLatest(db);
  const at = "2026-11-01T00:00:00.000Z";
  await db
    .insertInto("promotions")
    .values(
      Array.from({ length: 100 }, (_, i) => ({
        name: `Automatic ${i + 1}`,
        action: JSON.stringify({ type: "order-percent", basisPoints: 100 + i }),
        conditions: JSON.stringify([{ type: "min-subtotal", cents: 1_000_000 + i }]),
        createdAt: at,
        updatedAt: at,
      })),
    )
    .execute();
  const { id } = await db
    .insertInto("promotions")
    .values({
      name: "Mailing",
      action: JSON.stringify({ type: "order-fixed", cents: 500 }),
      createdAt: at,
      updatedAt: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const started = performance.now();
  await generateCodes(db, {
    promotionId: Number(id),
    count: CODES,
    prefix: "BENCH",
    actor: { id: "bench", email: "bench@example.com", role: "owner" },
  });
  const madeMs = performance.now() - started;
  const codes = (await db.selectFrom("promotionCodes").select("code").execute()).map((row) => row.code);
  const now = new Date("2026-12-01T12:00:00Z");
  // a fixed spread of codes (a multiplicative step through the list)
  const pick = (i: number) => codes[(i * 7_919) % codes.length]!;
  const lookups = await asyncSamples(LOOKUPS, (i) => findSingleUseCodes(db, [pick(i)]));
  const withCode = await asyncSamples(LOOKUPS, (i) =>
    readPromotionState(db, { now, codes: [pick(i)], customerKey: null }),
  );
  const without = await asyncSamples(LOOKUPS, () =>
    readPromotionState(db, { now, codes: [], customerKey: null }),
  );
  const check = await readPromotionState(db, { now, codes: [pick(1)], customerKey: null });
  if (!check.promotions.some((promotion) => promotion.code === pick(1)))
    throw new Error("the code was not found");
  const p95 = percentile(lookups, 0.95);
  const readP95 = percentile(withCode, 0.95);
  const reference = percentile(without, 0.95);
  ctx.log(
    `  ${label}: ${CODES} codes made in ${(madeMs / 1000).toFixed(1)} s; a code looked up p50 ${percentile(lookups, 0.5)?.toFixed(3)} ms, p95 ${p95?.toFixed(3)} ms; the cart's whole read with a code p95 ${readP95?.toFixed(3)} ms, without one ${reference?.toFixed(3)} ms`,
  );
  return [
    {
      section: S,
      metric: `${label}: a code looked up among ${CODES.toLocaleString("en-US")} single-use codes, p95`,
      value: p95,
      unit: "ms",
      digits: 3,
      target: { op: "<=", value: TARGET_LOOKUP_P95_MS },
      note: `p50 ${percentile(lookups, 0.5)?.toFixed(3)} ms over ${LOOKUPS} random codes; ${CODES} made in ${(madeMs / 1000).toFixed(1)} s`,
    },
    {
      section: S,
      metric: `${label}: the cart's promotions read, 100 automatic + the code's, p95`,
      value: readP95,
      unit: "ms",
      digits: 3,
      note: `the same read without a code (reference): ${reference?.toFixed(3)} ms`,
    },
  ];
}

export const promotions: Section = {
  name: "promotions",
  description:
    "the promotion engine: a 50-line cart priced with 1 000 active promotions (p95) vs the calculator alone; a code looked up among 100 000 (both engines)",
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
    const sqlite = createDatabase(`file:${join(ctx.tmpDir, "promotion-codes.db")}`);
    try {
      rows.push(...(await codeLookup(ctx, "SQLite", sqlite)));
    } finally {
      await sqlite.destroy();
    }
    rows.push(
      ...(await withPostgresDatabase(ctx, async (url) => {
        const db = createDatabase(url, { poolSize: 2 });
        try {
          return await codeLookup(ctx, "PostgreSQL", db);
        } finally {
          await db.destroy();
        }
      })),
    );
    return {
      rows,
      data: { lines: LINES, promotions: PROMOTIONS, p95, referenceP95, applied: once.applied.length },
    };
  },
};
