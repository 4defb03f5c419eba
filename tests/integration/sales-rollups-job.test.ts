import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../app/domain/reports/sales-period.ts";
import {
  fillClosedRollups,
  salesByDay,
  salesFigures,
  scanDays,
  topProducts,
} from "../../app/domain/reports/sales-report.server.ts";
import { jobTurn } from "../../app/jobs/job-schedule.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertOrder } from "../helpers/account-fixtures.ts";

/**
 * The nightly roll-up (decision 027): the job fills the rollups of every closed day of the last
 * year that lacks one — yesterday, and days missed or changed since — and their whole months, so
 * the dashboard's first look at a period stores nothing more; a second night has nothing to do.
 */
const NOW = new Date("2026-11-20T00:10:00.000Z");
const YESTERDAY = "2026-11-19";

const count = async (t: TestDatabase, table: "salesDays" | "salesMonths" | "salesProductDays") =>
  Number(
    (
      await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe.each(ENGINES)("the nightly sales roll-up, on %s", (engine) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    for (const createdAt of [
      `${YESTERDAY}T23:59:00.000Z`,
      "2026-11-02T10:00:00.000Z",
      "2026-08-15T12:00:00.000Z",
      "2025-11-25T08:00:00.000Z", // within the last 366 days
      "2024-06-01T08:00:00.000Z", // older than a year: left for the dashboard to fill if ever asked
      "2026-11-20T00:05:00.000Z", // today: never rolled up
    ]) {
      await insertOrder(t.db, { userId: null, createdAt });
    }
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("fills every closed day of the last year and its whole months, as the orders say", async () => {
    expect(await count(t, "salesDays")).toBe(0);
    const filled = await fillClosedRollups(t.db, NOW);
    expect(filled.days).toBe(366);
    expect(filled.months).toBe(11); // 2025-12 … 2026-10: the whole months among those days
    const days = await t.db
      .selectFrom("salesDays")
      .select(["day", "revenueCents", "orders", "units"])
      .execute();
    expect(days).toHaveLength(366);
    expect(days.map((d) => d.day).sort()).toEqual(
      Array.from({ length: 366 }, (_, i) => addDays(YESTERDAY, i - 365)),
    );
    // the stored figures are the orders' own
    const scanned = await scanDays(t.db, { from: addDays(YESTERDAY, -365), to: YESTERDAY });
    expect(
      days
        .filter((d) => Number(d.orders) > 0)
        .map((d) => d.day)
        .sort(),
    ).toEqual(scanned.map((d) => d.day).sort());
    for (const day of scanned) {
      expect(days.find((d) => d.day === day.day)).toMatchObject({
        revenueCents: day.revenueCents,
        orders: day.orders,
        units: day.units,
      });
    }
    expect(await t.db.selectFrom("salesDays").selectAll().where("day", "<", "2025-01-01").execute()).toEqual(
      [],
    );
  });

  it("leaves nothing for the dashboard's first look to store, and nothing for the next night", async () => {
    const before = await Promise.all([
      count(t, "salesDays"),
      count(t, "salesMonths"),
      count(t, "salesProductDays"),
    ]);
    const period = { from: addDays(YESTERDAY, -29), to: "2026-11-20" };
    const figures = await salesFigures(t.db, period, NOW);
    await salesByDay(t.db, period, NOW);
    await topProducts(t.db, { from: addDays(YESTERDAY, -365), to: YESTERDAY }, 5, NOW);
    expect(figures.orders).toBe(3); // yesterday, Nov 2 and today (read live)
    expect(
      await Promise.all([count(t, "salesDays"), count(t, "salesMonths"), count(t, "salesProductDays")]),
    ).toEqual(before);
    expect(await fillClosedRollups(t.db, NOW)).toEqual({ days: 0, months: 0 });
  });

  it("refills a day whose orders changed since (its rollup was dropped), as the job, once per turn", async () => {
    // a refund on Nov 2 changes that day: the orders' trigger drops its rollup (and its month's)
    await t.db
      .updateTable("orders")
      .set({ refundedCents: 500 })
      .where("createdAt", "=", "2026-11-02T10:00:00.000Z")
      .execute();
    expect(
      await t.db.selectFrom("salesDays").select("day").where("day", "=", "2026-11-02").execute(),
    ).toEqual([]);
    const runs: unknown[] = [];
    const nightly = jobTurn(
      async () => t.db,
      "sales-rollups",
      { ttlMs: 60_000 },
      async () => {
        const filled = await fillClosedRollups(t.db, NOW);
        runs.push(filled);
        return filled;
      },
    );
    const turn = Math.floor(NOW.getTime() / 86_400_000);
    expect(await nightly(turn)).toBe("settled");
    expect(await nightly(turn)).toBe("settled");
    expect(runs).toEqual([{ days: 1, months: 0 }]);
    const day = await t.db
      .selectFrom("salesDays")
      .selectAll()
      .where("day", "=", "2026-11-02")
      .executeTakeFirstOrThrow();
    expect(Number(day.refundsCents)).toBe(500);
  });
});
