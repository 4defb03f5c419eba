/**
 * The order calculator's cost (issue 30: "the calculator's cost for a 100-line cart reported"):
 * a 100-line cart priced for a destination — the zone found, each line's rate, the shipping by
 * weight, the discount spread, tax per rate — in the default zone (one rate, like the shop
 * before zones) and in a German zone (prices with tax, 19 % and 7 %, shipping taxed), beside the
 * reference: the single-rate arithmetic the shop did before (sum the lines, take 7 %), measured
 * in the same run. In-process and CPU-bound: microseconds per cart, and the ratio.
 */
import {
  DEFAULT_MARKETS,
  DEFAULT_ZONE,
  type MarketLine,
  type Markets,
  priceForDestination,
} from "../../app/lib/markets.ts";
import type { Row, Section } from "../lib/types.ts";

const S = "calculator";
const LINES = 100;

const GERMANY: Markets = {
  ...DEFAULT_MARKETS,
  taxMode: "inclusive",
  zones: [
    {
      id: 2,
      name: "Germany",
      countries: ["DE"],
      regions: {},
      taxLabel: "VAT",
      taxShipping: true,
      rates: [
        { region: "", taxClass: "standard", basisPoints: 1_900 },
        { region: "", taxClass: "reduced", basisPoints: 700 },
      ],
      methods: [
        {
          id: 9,
          code: "dhl",
          name: "DHL Parcel",
          rule: "weight",
          flatCents: 0,
          bands: [
            { upTo: 2_000, priceCents: 590 },
            { upTo: 31_500, priceCents: 1_490 },
            { upTo: null, priceCents: 4_990 },
          ],
          freeOverCents: null,
          daysMin: 2,
          daysMax: 4,
        },
      ],
    },
    DEFAULT_ZONE,
  ],
};

const lines: MarketLine[] = Array.from({ length: LINES }, (_, i) => ({
  key: String(i + 1),
  unitPriceCents: 199 + ((i * 7_919) % 20_000),
  quantity: 1 + (i % 3),
  taxClass: i % 4 === 0 ? "reduced" : "standard",
  weightGrams: 100 + ((i * 37) % 900),
}));

/** What the shop computed before zones: the subtotal, 7 % of it less the discount, one fee. */
function singleRate(discountCents: number): number {
  let subtotal = 0;
  for (const line of lines) subtotal += line.unitPriceCents * line.quantity;
  const taxable = Math.max(0, subtotal - discountCents);
  const shipping = subtotal >= 5_000 ? 0 : 499;
  return taxable + shipping + Math.round((taxable * 700) / 10_000);
}

/** Microseconds per call: the best of 5 rounds of `n` calls (after a warm-up round). */
function microseconds(n: number, call: (i: number) => number): number {
  let sink = 0;
  for (let i = 0; i < n; i++) sink += call(i);
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i++) sink += call(i);
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1_000 / n);
  }
  if (sink === Number.NEGATIVE_INFINITY) throw new Error("unreachable");
  return best;
}

function priced(markets: Markets, country: string, discount: number): number {
  const order = priceForDestination(markets, {
    lines,
    orderDiscountCents: discount,
    destination: { country },
  });
  if (!order.ok) throw new Error(`no zone for ${country}`);
  return order.calculation.totalCents;
}

export const calculator: Section = {
  name: "calculator",
  description:
    "the order calculator on a 100-line cart (default zone and a German zone) vs the old single-rate sum",
  async run(ctx) {
    const reference = microseconds(200_000, (i) => singleRate(i % 1_000));
    const home = microseconds(5_000, (i) => priced(DEFAULT_MARKETS, "US", i % 1_000));
    const germany = microseconds(5_000, (i) => priced(GERMANY, "DE", i % 1_000));
    ctx.log(
      `  100 lines: single-rate sum ${reference.toFixed(2)} µs, default zone ${home.toFixed(1)} µs, Germany ${germany.toFixed(1)} µs`,
    );
    const rows: Row[] = [
      {
        section: S,
        metric: "Single-rate sum of a 100-line cart (the shop before zones), reference",
        value: reference,
        unit: "µs",
        digits: 2,
      },
      {
        section: S,
        metric: "Order calculator, 100-line cart, default zone",
        value: home,
        unit: "µs",
        digits: 1,
      },
      {
        section: S,
        metric: "Order calculator, 100-line cart, Germany (inclusive, 2 rates, weight bands, shipping taxed)",
        value: germany,
        unit: "µs",
        digits: 1,
      },
      {
        section: S,
        metric: "Order calculator, 100-line cart in Germany / single-rate sum",
        value: germany / reference,
        unit: "×",
        digits: 0,
        note: "reported, no target: a Place Order takes milliseconds",
      },
    ];
    return { rows, data: { lines: LINES, reference, home, germany } };
  },
};
