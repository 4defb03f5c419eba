import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customPeriod, presetPeriod, previousPeriod } from "../../app/domain/reports/sales-period.ts";
import { salesByDay, salesFigures, topProducts } from "../../app/domain/reports/sales-report.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertOrder } from "../helpers/account-fixtures.ts";

/**
 * The dashboard's figures (issue 20) against orders placed on known days, on each engine: paid and
 * later states count, net of refunds; cancelled orders count neither as orders nor revenue;
 * unpaid attempts not at all; the period before is the same length; every day of the chart present.
 */
describe.each(ENGINES)("sales report on %s", (engine) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    const lamp = { name: "Desk Lamp", quantity: 2, unitPriceCents: 1_500 };
    const mug = { name: "Mug", quantity: 1, unitPriceCents: 800 };
    // Nov 10: two paid orders ($38 each); one partially refunded by $8
    await insertOrder(t.db, { userId: null, createdAt: "2026-11-10T09:00:00.000Z", items: [lamp, mug] });
    const refunded = await insertOrder(t.db, {
      userId: null,
      createdAt: "2026-11-10T23:59:59.000Z",
      items: [lamp, mug],
    });
    await t.db
      .updateTable("orders")
      .set({ refundedCents: 800, status: "partially_refunded" })
      .where("number", "=", refunded)
      .execute();
    // Nov 11: a shipped order of mugs, a cancelled (refunded) one, an unpaid attempt
    await insertOrder(t.db, {
      userId: null,
      createdAt: "2026-11-11T12:00:00.000Z",
      status: "shipped",
      items: [{ ...mug, quantity: 5 }],
    });
    const cancelled = await insertOrder(t.db, {
      userId: null,
      createdAt: "2026-11-11T13:00:00.000Z",
      items: [lamp],
    });
    await t.db
      .updateTable("orders")
      .set({ status: "cancelled", refundedCents: 3_000 })
      .where("number", "=", cancelled)
      .execute();
    await insertOrder(t.db, {
      userId: null,
      createdAt: "2026-11-11T14:00:00.000Z",
      status: "payment_failed",
      items: [lamp],
    });
    // Nov 8 (the period before a Nov 10–11 range): one paid order
    await insertOrder(t.db, { userId: null, createdAt: "2026-11-08T10:00:00.000Z", items: [mug] });
  });

  afterAll(async () => {
    await t?.destroy();
  });

  const period = { from: "2026-11-10", to: "2026-11-11" };

  it("sums paid orders by the day they were placed, net of refunds", async () => {
    expect(await salesFigures(t.db, period)).toEqual({
      revenueCents: 3_800 + (3_800 - 800) + 4_000 + 0,
      orders: 3,
      averageOrderCents: Math.round((3_800 + 3_000 + 4_000) / 3),
      refundsCents: 800 + 3_000,
      units: 3 + 3 + 5,
    });
    expect(previousPeriod(period)).toEqual({ from: "2026-11-08", to: "2026-11-09" });
    expect(await salesFigures(t.db, previousPeriod(period))).toMatchObject({
      revenueCents: 800,
      orders: 1,
      units: 1,
    });
    expect(await salesFigures(t.db, { from: "2026-11-12", to: "2026-11-12" })).toEqual({
      revenueCents: 0,
      orders: 0,
      averageOrderCents: 0,
      refundsCents: 0,
      units: 0,
    });
  });

  it("gives every day of the period, and the best sellers by units", async () => {
    expect(await salesByDay(t.db, { from: "2026-11-09", to: "2026-11-11" })).toEqual([
      { day: "2026-11-09", revenueCents: 0, orders: 0 },
      { day: "2026-11-10", revenueCents: 6_800, orders: 2 },
      { day: "2026-11-11", revenueCents: 4_000, orders: 1 },
    ]);
    expect(await topProducts(t.db, period)).toEqual([
      { productId: null, name: "Mug", units: 7, revenueCents: 5_600 },
      { productId: null, name: "Desk Lamp", units: 4, revenueCents: 6_000 },
    ]);
  });

  it("reads closed days from rollups that follow every change to an order; today is read live", async () => {
    await salesFigures(t.db, period);
    const stored = await t.db
      .selectFrom("salesDays")
      .select("day")
      .where("day", "in", ["2026-11-10", "2026-11-11"])
      .execute();
    expect(stored).toHaveLength(2);
    // a refund of an order placed on Nov 11 forgets that day's rollup; the figures follow
    const shipped = await t.db
      .selectFrom("orders")
      .select("number")
      .where("status", "=", "shipped")
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable("orders")
      .set({ refundedCents: 1_000 })
      .where("number", "=", shipped.number)
      .execute();
    expect(
      await t.db.selectFrom("salesDays").select("day").where("day", "=", "2026-11-11").execute(),
    ).toEqual([]);
    expect(await salesFigures(t.db, period)).toMatchObject({
      revenueCents: 3_800 + 3_000 + 3_000,
      refundsCents: 4_800,
    });
    await t.db.updateTable("orders").set({ refundedCents: 0 }).where("number", "=", shipped.number).execute();

    // "today" (Nov 12 here) is read from the orders, and a new order of a closed day forgets its rollup
    const now = new Date("2026-11-12T18:00:00Z");
    await insertOrder(t.db, {
      userId: null,
      createdAt: "2026-11-12T08:00:00.000Z",
      items: [{ name: "Mug", quantity: 1, unitPriceCents: 800 }],
    });
    const withToday = await salesFigures(t.db, { from: "2026-11-10", to: "2026-11-12" }, now);
    expect(withToday).toMatchObject({ revenueCents: 3_800 + 3_000 + 4_000 + 800, orders: 4 });
    expect(await topProducts(t.db, { from: "2026-11-12", to: "2026-11-12" }, 5, now)).toEqual([
      { productId: null, name: "Mug", units: 1, revenueCents: 800 },
    ]);
    expect(await topProducts(t.db, { from: "2026-11-10", to: "2026-11-12" }, 5, now)).toEqual([
      { productId: null, name: "Mug", units: 8, revenueCents: 6_400 },
      { productId: null, name: "Desk Lamp", units: 4, revenueCents: 6_000 },
    ]);
    expect(
      await t.db.selectFrom("salesDays").select("day").where("day", "=", "2026-11-12").execute(),
    ).toEqual([]);
  });

  it("rollups answer as the orders do over whole months and loose days, for every product", async () => {
    // a month of its own (October) plus loose days around it
    for (const [day, quantity] of [
      ["2026-09-30", 2],
      ["2026-10-01", 1],
      ["2026-10-31", 4],
      ["2026-11-01", 3],
    ] as const) {
      await insertOrder(t.db, {
        userId: null,
        createdAt: `${day}T12:00:00.000Z`,
        items: [{ name: "Lamp Shade", quantity, unitPriceCents: 500 }],
      });
    }
    const range = { from: "2026-09-30", to: "2026-11-11" };
    const now = new Date("2026-11-26T12:00:00Z");
    const first = await topProducts(t.db, range, 5, now);
    const again = await topProducts(t.db, range, 5, now);
    expect(again).toEqual(first);
    expect(first).toContainEqual({ productId: null, name: "Lamp Shade", units: 10, revenueCents: 5_000 });
    expect(await t.db.selectFrom("salesMonths").select("month").execute()).toEqual([{ month: "2026-10" }]);
    // October's rollup follows a change to one of its orders
    await insertOrder(t.db, {
      userId: null,
      createdAt: "2026-10-15T12:00:00.000Z",
      items: [{ name: "Lamp Shade", quantity: 5, unitPriceCents: 500 }],
    });
    expect(await t.db.selectFrom("salesMonths").select("month").execute()).toEqual([]);
    expect(await topProducts(t.db, range, 5, now)).toContainEqual({
      productId: null,
      name: "Lamp Shade",
      units: 15,
      revenueCents: 7_500,
    });
  });

  it("periods: presets end today; a custom range must be real dates in order, at most 366 days", () => {
    const now = new Date("2026-11-26T15:00:00Z");
    expect(presetPeriod("today", now)).toEqual({ from: "2026-11-26", to: "2026-11-26" });
    expect(presetPeriod("7d", now)).toEqual({ from: "2026-11-20", to: "2026-11-26" });
    expect(presetPeriod("30d", now)).toEqual({ from: "2026-10-28", to: "2026-11-26" });
    expect(customPeriod("2026-11-01", "2026-11-30")).toEqual({ from: "2026-11-01", to: "2026-11-30" });
    for (const [from, to] of [
      ["2026-11-30", "2026-11-01"],
      ["2026-02-30", "2026-03-01"],
      ["2025-01-01", "2026-11-30"],
      ["yesterday", "2026-11-01"],
      [null, "2026-11-01"],
    ] as const) {
      expect(customPeriod(from, to), `${from}..${to}`).toBeNull();
    }
  });
});
