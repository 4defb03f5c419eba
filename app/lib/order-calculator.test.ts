import { describe, expect, it } from "vitest";
import { specTotals } from "../../tests/helpers/spec-pricing.ts";
import {
  allocate,
  type CalculatorInput,
  calculateOrder,
  divideRounded,
  refundShare,
  type TaxRate,
} from "./order-calculator.ts";

const rate = (id: string, basisPoints: number, label = `${id} ${basisPoints / 100}%`): TaxRate => ({
  id,
  label,
  basisPoints,
});

/** A small deterministic random (mulberry32). */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("the order calculator", () => {
  it("rounds half up in whole cents", () => {
    expect(divideRounded(5, 2)).toBe(3);
    expect(divideRounded(4, 2)).toBe(2);
    expect(divideRounded(0, 7)).toBe(0);
    // 10.70 × 21 %: 2.247 → 2.25; the VAT inside 12.00 at 7 %: 0.785… → 0.79; 1.25 cents → 1
    expect(divideRounded(1070 * 2100, 10_000)).toBe(225);
    expect(divideRounded(1200 * 700, 10_700)).toBe(79);
    expect(divideRounded(5, 4)).toBe(1);
  });

  it("shares an amount in proportion: whole cents adding up exactly, never more than a part", () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(1, [500, 500])).toEqual([1, 0]);
    expect(allocate(0, [3, 4])).toEqual([0, 0]);
    expect(allocate(7, [0, 0])).toEqual([0, 0]);
    const next = random(7);
    for (let n = 0; n < 500; n++) {
      const weights = Array.from({ length: 1 + Math.floor(next() * 6) }, () => Math.floor(next() * 10_000));
      const sum = weights.reduce((a, b) => a + b, 0);
      const total = Math.floor(next() * (sum + 1));
      const shares = allocate(total, weights);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(sum === 0 ? 0 : total);
      shares.forEach((share, i) => {
        expect(share).toBeGreaterThanOrEqual(0);
        expect(share).toBeLessThanOrEqual(weights[i]!);
      });
    }
  });

  it("the shop's defaults (7 % added to the discounted subtotal, shipping untaxed) give today's totals exactly", () => {
    const next = random(11);
    for (let n = 0; n < 2_000; n++) {
      const lines = Array.from({ length: 1 + Math.floor(next() * 4) }, (_, i) => ({
        key: String(i),
        unitPriceCents: Math.floor(next() * 200_000),
        quantity: 1 + Math.floor(next() * 5),
        rate: rate("default", 700),
      }));
      const subtotal = lines.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0);
      const discount = Math.floor(next() * subtotal * 0.5);
      const method = next() < 0.5 ? "standard" : "express";
      const today = specTotals(subtotal, { method, discountCents: discount });
      const calculated = calculateOrder({
        mode: "exclusive",
        rounding: "per-order",
        lines,
        orderDiscountCents: discount,
        shipping: { priceCents: today.shippingCents, rate: null },
      });
      expect({
        subtotalCents: calculated.subtotalCents,
        discountCents: calculated.discountCents,
        shippingCents: calculated.shippingCents,
        taxCents: calculated.taxCents,
        totalCents: calculated.totalCents,
      }).toEqual(today);
    }
  });

  it("a US shop: prices without tax, California's 7.25 % added, free shipping", () => {
    const order = calculateOrder({
      mode: "exclusive",
      rounding: "per-order",
      lines: [
        { key: "tee", unitPriceCents: 1_999, quantity: 2, rate: rate("us-ca", 725, "Sales tax") },
        { key: "cap", unitPriceCents: 1_500, quantity: 1, rate: rate("us-ca", 725, "Sales tax") },
      ],
      shipping: { priceCents: 0, rate: null },
    });
    // 54.98 × 7.25 % = 3.98605 → 3.99
    expect(order).toMatchObject({ subtotalCents: 5_498, taxCents: 399, totalCents: 5_897 });
    expect(order.taxLines).toEqual([
      { rateId: "us-ca", label: "Sales tax", basisPoints: 725, netCents: 5_498, taxCents: 399 },
    ]);
    expect(order.lines.map((l) => l.taxCents)).toEqual([290, 109]);
  });

  it("an EU shop: prices with tax, 19 % and 7 % classes, shipping taxed at 19 %", () => {
    const order = calculateOrder({
      mode: "inclusive",
      rounding: "per-order",
      lines: [
        { key: "shirt", unitPriceCents: 2_990, quantity: 1, rate: rate("de:standard", 1900, "MwSt. 19%") },
        { key: "book", unitPriceCents: 1_200, quantity: 1, rate: rate("de:reduced", 700, "MwSt. 7%") },
      ],
      shipping: { priceCents: 490, rate: rate("de:standard", 1900, "MwSt. 19%") },
    });
    // 19 %: 29.90 + 4.90 = 34.80 gross → 5.556… → 5.56; 7 %: 12.00 → 0.785… → 0.79
    expect(order.taxLines).toEqual([
      { rateId: "de:standard", label: "MwSt. 19%", basisPoints: 1900, netCents: 2_924, taxCents: 556 },
      { rateId: "de:reduced", label: "MwSt. 7%", basisPoints: 700, netCents: 1_121, taxCents: 79 },
    ]);
    // the price is what the shopper pays: the tax is inside it
    expect(order).toMatchObject({
      subtotalCents: 4_190,
      shippingCents: 490,
      taxCents: 635,
      totalCents: 4_680,
    });
    expect(order.shipping).toMatchObject({ grossCents: 490, taxCents: 78, netCents: 412 });
    for (const line of order.lines) expect(line.netCents + line.taxCents).toBe(line.grossCents);
  });

  it("a UK shop: prices with 20 % VAT in them, shipping taxed too", () => {
    const order = calculateOrder({
      mode: "inclusive",
      rounding: "per-order",
      lines: [{ key: "mug", unitPriceCents: 1_000, quantity: 3, rate: rate("gb:standard", 2000, "VAT 20%") }],
      shipping: { priceCents: 395, rate: rate("gb:standard", 2000, "VAT 20%") },
    });
    // 33.95 gross at 20 %: 5.658… → 5.66
    expect(order).toMatchObject({ subtotalCents: 3_000, taxCents: 566, totalCents: 3_395 });
    expect(order.taxLines).toEqual([
      { rateId: "gb:standard", label: "VAT 20%", basisPoints: 2000, netCents: 2_829, taxCents: 566 },
    ]);
  });

  it("a discount over mixed rates is spread in proportion: each rate taxed on what was really charged", () => {
    const input: CalculatorInput = {
      mode: "inclusive",
      rounding: "per-order",
      lines: [
        // a product promotion's 10 % off the shirt, then a $10 coupon on the order
        {
          key: "shirt",
          unitPriceCents: 4_000,
          quantity: 1,
          rate: rate("de:standard", 1900),
          discountCents: 400,
        },
        { key: "book", unitPriceCents: 2_400, quantity: 1, rate: rate("de:reduced", 700) },
      ],
      orderDiscountCents: 1_000,
      shipping: { priceCents: 0, rate: null },
    };
    const order = calculateOrder(input);
    // 36.00 and 24.00 after the shirt's own discount: the $10 splits 6.00 / 4.00
    expect(order.lines.map((l) => [l.key, l.discountCents, l.chargedCents])).toEqual([
      ["shirt", 1_000, 3_000],
      ["book", 400, 2_000],
    ]);
    // the reduced rate is not charged on the shirt's discount (the peers' bug: discounts taxed at the highest rate)
    expect(order.taxLines.map((t) => [t.rateId, t.taxCents])).toEqual([
      ["de:standard", 479], // 30.00 × 19/119 = 4.789…
      ["de:reduced", 131], // 20.00 × 7/107 = 1.308…
    ]);
    expect(order).toMatchObject({
      subtotalCents: 6_400,
      discountCents: 1_400,
      totalCents: 5_000,
      taxCents: 610,
    });
  });

  it("rounds once per rate by default, or per line when the shop says so", () => {
    const lines = [
      { key: "a", unitPriceCents: 1_070, quantity: 1, rate: rate("nl:standard", 2100) },
      { key: "b", unitPriceCents: 1_070, quantity: 1, rate: rate("nl:standard", 2100) },
    ];
    const perOrder = calculateOrder({ mode: "exclusive", rounding: "per-order", lines });
    const perLine = calculateOrder({ mode: "exclusive", rounding: "per-line", lines });
    // 21.40 × 21 % = 4.494 → 4.49 once; 2.247 → 2.25 twice = 4.50
    expect(perOrder.taxCents).toBe(449);
    expect(perLine.taxCents).toBe(450);
    expect(perOrder.lines.map((l) => l.taxCents)).toEqual([225, 224]);
    expect(perLine.lines.map((l) => l.taxCents)).toEqual([225, 225]);
    // prices with tax in them: the per-line extraction, summed
    const inclusive = calculateOrder({ mode: "inclusive", rounding: "per-line", lines });
    expect(inclusive.lines.map((l) => l.taxCents)).toEqual([186, 186]); // 10.70 × 21/121 = 1.857…
    expect(inclusive.totalCents).toBe(2_140);
  });

  it("a 100 % discount leaves nothing to pay for the goods and no tax on them", () => {
    const order = calculateOrder({
      mode: "exclusive",
      rounding: "per-order",
      lines: [
        { key: "a", unitPriceCents: 1_150, quantity: 2, rate: rate("x", 1500) },
        { key: "b", unitPriceCents: 893, quantity: 1, rate: rate("x", 1500) },
      ],
      orderDiscountCents: 99_999,
      shipping: { priceCents: 499, rate: null },
    });
    expect(order).toMatchObject({ discountCents: 3_193, taxCents: 0, totalCents: 499 });
    expect(order.lines.every((line) => line.grossCents === 0)).toBe(true);
  });

  it("holds its invariants for any cart: no line below 0, the parts add up, the same input the same answer", () => {
    const next = random(2026);
    const rates = [rate("s", 1900), rate("r", 700), rate("z", 0), rate("c", 825)];
    for (let n = 0; n < 3_000; n++) {
      const input: CalculatorInput = {
        mode: next() < 0.5 ? "exclusive" : "inclusive",
        rounding: next() < 0.5 ? "per-order" : "per-line",
        lines: Array.from({ length: Math.floor(next() * 6) }, (_, i) => ({
          key: String(i),
          unitPriceCents: Math.floor(next() * 50_000),
          quantity: 1 + Math.floor(next() * 4),
          rate: rates[Math.floor(next() * rates.length)]!,
          discountCents: next() < 0.3 ? Math.floor(next() * 60_000) : 0,
        })),
        orderDiscountCents: next() < 0.5 ? Math.floor(next() * 80_000) : 0,
        shipping:
          next() < 0.7
            ? { priceCents: Math.floor(next() * 2_000), rate: next() < 0.5 ? rates[0]! : null }
            : null,
      };
      const order = calculateOrder(input);
      expect(calculateOrder(input)).toEqual(order);
      for (const line of order.lines) {
        expect(line.chargedCents).toBeGreaterThanOrEqual(0);
        expect(line.netCents).toBeGreaterThanOrEqual(0);
        expect(line.taxCents).toBeGreaterThanOrEqual(0);
        expect(line.netCents + line.taxCents).toBe(line.grossCents);
        expect(line.discountCents).toBeLessThanOrEqual(line.amountCents);
      }
      expect(order.discountCents).toBeLessThanOrEqual(order.subtotalCents);
      const gross = order.lines.reduce((s, l) => s + l.grossCents, 0) + (order.shipping?.grossCents ?? 0);
      expect(order.totalCents).toBe(gross);
      expect(order.taxLines.reduce((s, t) => s + t.taxCents, 0)).toBe(order.taxCents);
      const charged = order.subtotalCents - order.discountCents + order.shippingCents;
      expect(order.totalCents).toBe(input.mode === "inclusive" ? charged : charged + order.taxCents);
    }
  });

  it("refuses what is not a whole number of cents", () => {
    expect(() =>
      calculateOrder({
        mode: "exclusive",
        rounding: "per-order",
        lines: [{ key: "a", unitPriceCents: 10.5, quantity: 1, rate: rate("x", 700) }],
      }),
    ).toThrow(RangeError);
    expect(() =>
      calculateOrder({ mode: "exclusive", rounding: "per-order", lines: [], orderDiscountCents: -1 }),
    ).toThrow(RangeError);
  });
});

describe("refunds by the figures the order kept", () => {
  // an EU shop (prices with tax): 2 × €50.00 at 19 %, 3 × €9.99 at 7 %, €13.00 off the order,
  // shipping €5.90 taxed at 19 %
  const vat = rate("de:standard", 1900, "VAT 19%");
  const reduced = rate("de:reduced", 700, "VAT 7%");
  const order = calculateOrder({
    mode: "inclusive",
    rounding: "per-order",
    lines: [
      { key: "lamp", unitPriceCents: 5000, quantity: 2, rate: vat },
      { key: "book", unitPriceCents: 999, quantity: 3, rate: reduced },
    ],
    orderDiscountCents: 1300,
    shipping: { priceCents: 590, rate: vat },
  });
  const [lamp, book] = order.lines;

  it("pays back each line's share of what it charged after the discount, its tax at the line's own rate", () => {
    // the discount is spread by what each line costs (10000 : 2997), so each line's tax is on what it charged
    expect(lamp!.grossCents + book!.grossCents).toBe(10_000 + 2_997 - 1_300);
    const oneLamp = refundShare(lamp!, 0, 1);
    expect(oneLamp.amountCents).toBe(Math.floor(lamp!.grossCents / 2));
    expect(oneLamp.taxCents).toBe(Math.floor(lamp!.taxCents / 2));
    // the tax in a lamp's refund is 19 % of its net, a book's 7 %, within a cent of rounding
    expect(Math.abs(oneLamp.taxCents - ((oneLamp.amountCents - oneLamp.taxCents) * 19) / 100)).toBeLessThan(
      1,
    );
    const twoBooks = refundShare(book!, 0, 2);
    expect(Math.abs(twoBooks.taxCents - ((twoBooks.amountCents - twoBooks.taxCents) * 7) / 100)).toBeLessThan(
      1,
    );
  });

  it("adds up, in any steps, to exactly what the line charged once every unit is back — never more", () => {
    for (const line of [lamp!, book!]) {
      for (const steps of [[line.quantity], Array(line.quantity).fill(1), [1, line.quantity - 1]]) {
        let back = 0;
        let amount = 0;
        let tax = 0;
        for (const units of steps) {
          const share = refundShare(line, back, units);
          back += units;
          amount += share.amountCents;
          tax += share.taxCents;
        }
        expect([amount, tax]).toEqual([line.grossCents, line.taxCents]);
      }
    }
    // the whole order back, with its shipping: what was paid
    expect(lamp!.grossCents + book!.grossCents + order.shipping!.grossCents).toBe(order.totalCents);
    expect(() => refundShare(book!, 2, 2)).toThrow(RangeError);
    expect(() => refundShare(book!, 0, 0)).toThrow(RangeError);
  });

  it("shares a line of odd cents so no unit is paid back more than once", () => {
    const line = { quantity: 3, grossCents: 1000, taxCents: 160 };
    expect([0, 1, 2].map((r) => refundShare(line, r, 1))).toEqual([
      { amountCents: 333, taxCents: 53 },
      { amountCents: 333, taxCents: 53 },
      { amountCents: 334, taxCents: 54 },
    ]);
  });
});
