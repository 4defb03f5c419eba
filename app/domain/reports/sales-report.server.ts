import { sql } from "kysely";
import { logger } from "../../adapters/logger.server.ts";
import { type Database, engineOf } from "../../db/database.server.ts";
import type { OrderStatus } from "../../db/schema.ts";
import { addDays, MAX_PERIOD_DAYS, type Period } from "./sales-period.ts";

/**
 * The dashboard's sales figures (issue 20, decision 021): revenue, orders, average order value,
 * refunds and units sold for a period of whole UTC days, a daily series and the best sellers.
 * Figures come from orders that were paid (paid and every later state), net of refunds, by the day
 * they were placed.
 *
 * Closed days (before today) are read from rollups (migration 1900) — per day, and per product per
 * day and per month — computed from the orders the first time a period needs them; a change to an
 * order deletes the rollups of its day and month (triggers), so they are recomputed. Today is read
 * from the orders. The `scan*` functions read the orders only: the rollups' source, and the
 * bench's full-scan reference.
 */
export const SOLD_STATUSES: readonly OrderStatus[] = [
  "paid",
  "shipped",
  "delivered",
  "partially_refunded",
  "refunded",
  "cancelled",
];
const SHIPPED_GOODS = SOLD_STATUSES.filter((s) => s !== "cancelled");

export interface SalesFigures {
  revenueCents: number;
  /** orders placed and paid, cancelled ones left out */
  orders: number;
  averageOrderCents: number;
  refundsCents: number;
  units: number;
}

export interface SalesDay {
  day: string;
  revenueCents: number;
  orders: number;
}

export interface TopProduct {
  productId: number | null;
  name: string;
  units: number;
  revenueCents: number;
}

interface DayTotals {
  day: string;
  revenueCents: number;
  refundsCents: number;
  orders: number;
  units: number;
}

interface ProductTotals {
  productKey: string;
  productId: number | null;
  name: string;
  units: number;
  revenueCents: number;
}

const bounds = (period: Period) => ({
  start: `${period.from}T00:00:00.000Z`,
  end: `${addDays(period.to, 1)}T00:00:00.000Z`,
});
const todayOf = (now: Date) => now.toISOString().slice(0, 10);
const lastDayOfMonth = (month: string) => addDays(`${addDays(`${month}-28`, 4).slice(0, 7)}-01`, -1);

/** Per day of the period (days with sales only), straight from the orders. */
export async function scanDays(db: Database, period: Period): Promise<DayTotals[]> {
  const { start, end } = bounds(period);
  const day = sql<string>`substr(orders.created_at, 1, 10)`;
  const [money, units] = await Promise.all([
    db
      .selectFrom("orders")
      .select((eb) => [
        day.as("day"),
        eb.fn.sum<number>(eb("totalCents", "-", eb.ref("refundedCents"))).as("revenue"),
        eb.fn.sum<number>("refundedCents").as("refunds"),
        eb.fn.sum<number>(sql`case when status = 'cancelled' then 0 else 1 end`).as("orders"),
      ])
      .where("status", "in", [...SOLD_STATUSES])
      .where("createdAt", ">=", start)
      .where("createdAt", "<", end)
      .groupBy(day)
      .execute(),
    db
      .selectFrom("orderItems")
      .innerJoin("orders", "orders.id", "orderItems.orderId")
      .select((eb) => [day.as("day"), eb.fn.sum<number>("orderItems.quantity").as("units")])
      .where("orders.status", "in", SHIPPED_GOODS)
      .where("orders.createdAt", ">=", start)
      .where("orders.createdAt", "<", end)
      .groupBy(day)
      .execute(),
  ]);
  const unitsByDay = new Map(units.map((row) => [row.day, Number(row.units)]));
  const days = new Map<string, DayTotals>();
  for (const row of money) {
    days.set(row.day, {
      day: row.day,
      revenueCents: Number(row.revenue),
      refundsCents: Number(row.refunds),
      orders: Number(row.orders),
      units: unitsByDay.get(row.day) ?? 0,
    });
  }
  return [...days.values()];
}

/** Per product (per day or month of the period, or over all of it), straight from the orders. */
export async function scanProducts(
  db: Database,
  period: Period,
  by: "day" | "month" | "period",
): Promise<(ProductTotals & { bucket: string })[]> {
  const { start, end } = bounds(period);
  // a product by its id; a line whose product was deleted since, by its name
  const product = sql<string>`coalesce(cast(order_items.product_id as text), 'name:' || order_items.name)`;
  const bucket =
    by === "day"
      ? sql<string>`substr(orders.created_at, 1, 10)`
      : by === "month"
        ? sql<string>`substr(orders.created_at, 1, 7)`
        : sql<string>`''`;
  const rows = await db
    .selectFrom("orderItems")
    .innerJoin("orders", "orders.id", "orderItems.orderId")
    .select((eb) => [
      bucket.as("bucket"),
      product.as("productKey"),
      eb.fn.max("orderItems.productId").as("productId"),
      eb.fn.max("orderItems.name").as("name"),
      eb.fn.sum<number>("orderItems.quantity").as("units"),
      eb.fn.sum<number>("orderItems.lineTotalCents").as("revenue"),
    ])
    .where("orders.status", "in", SHIPPED_GOODS)
    .where("orders.createdAt", ">=", start)
    .where("orders.createdAt", "<", end)
    .groupBy(by === "period" ? [product] : [bucket, product])
    .execute();
  return rows.map((row) => ({
    bucket: row.bucket,
    productKey: row.productKey,
    productId: row.productId === null ? null : Number(row.productId),
    name: String(row.name ?? ""),
    units: Number(row.units),
    revenueCents: Number(row.revenue),
  }));
}

/**
 * Writes rollups computed from the orders, inside a transaction that read them: on SQLite writes
 * are serialized, so no order can change in between; on PostgreSQL the transaction is serializable.
 * A rollup that could not be stored (a conflict) is simply computed again next time.
 */
async function storeRollups(db: Database, write: (trx: Database) => Promise<void>): Promise<boolean> {
  try {
    const transaction =
      engineOf(db) === "postgres" ? db.transaction().setIsolationLevel("serializable") : db.transaction();
    await transaction.execute((trx) => write(trx as unknown as Database));
    return true;
  } catch (error) {
    // two readers filling the same days at once on PostgreSQL: one of them stores them
    if ((error as { code?: string }).code !== "40001")
      logger.warn({ err: error }, "sales rollups not stored this time");
    return false;
  }
}

/** The closed days of the period rolled up (day totals and per product per day); false if not stored. */
async function ensureDays(db: Database, closed: Period): Promise<boolean> {
  const have = await db
    .selectFrom("salesDays")
    .select("day")
    .where("day", ">=", closed.from)
    .where("day", "<=", closed.to)
    .execute();
  const known = new Set(have.map((row) => row.day));
  const missing: string[] = [];
  for (let day = closed.from; day <= closed.to; day = addDays(day, 1)) if (!known.has(day)) missing.push(day);
  if (missing.length === 0) return true;
  const span = { from: missing[0]!, to: missing.at(-1)! };
  const wanted = new Set(missing);
  return storeRollups(db, async (trx) => {
    const [days, products] = await Promise.all([scanDays(trx, span), scanProducts(trx, span, "day")]);
    const byDay = new Map(days.map((d) => [d.day, d]));
    const dayRows = missing.map((day) => ({
      day,
      revenueCents: byDay.get(day)?.revenueCents ?? 0,
      refundsCents: byDay.get(day)?.refundsCents ?? 0,
      orders: byDay.get(day)?.orders ?? 0,
      units: byDay.get(day)?.units ?? 0,
    }));
    for (let i = 0; i < dayRows.length; i += 500) {
      await trx
        .insertInto("salesDays")
        .values(dayRows.slice(i, i + 500))
        .onConflict((oc) => oc.column("day").doNothing())
        .execute();
    }
    const productRows = products
      .filter((p) => wanted.has(p.bucket))
      .map(({ bucket, ...p }) => ({ day: bucket, ...p }));
    for (let i = 0; i < productRows.length; i += 500) {
      await trx
        .insertInto("salesProductDays")
        .values(productRows.slice(i, i + 500))
        .onConflict((oc) => oc.columns(["day", "productKey"]).doNothing())
        .execute();
    }
  });
}

/** The whole months inside the closed part of the period, rolled up per product; false if not stored. */
async function ensureMonths(db: Database, months: string[]): Promise<boolean> {
  if (months.length === 0) return true;
  const have = await db.selectFrom("salesMonths").select("month").where("month", "in", months).execute();
  const known = new Set(have.map((row) => row.month));
  const missing = months.filter((m) => !known.has(m));
  if (missing.length === 0) return true;
  const span = { from: `${missing[0]}-01`, to: lastDayOfMonth(missing.at(-1)!) };
  const wanted = new Set(missing);
  return storeRollups(db, async (trx) => {
    const products = (await scanProducts(trx, span, "month")).filter((p) => wanted.has(p.bucket));
    await trx
      .insertInto("salesMonths")
      .values(missing.map((month) => ({ month })))
      .onConflict((oc) => oc.column("month").doNothing())
      .execute();
    const rows = products.map(({ bucket, ...p }) => ({ month: bucket, ...p }));
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto("salesProductMonths")
        .values(rows.slice(i, i + 500))
        .onConflict((oc) => oc.columns(["month", "productKey"]).doNothing())
        .execute();
    }
  });
}

/** The months ("YYYY-MM") lying wholly inside the period. */
function wholeMonths(period: Period): string[] {
  const months: string[] = [];
  for (
    let month = period.from.slice(0, 7);
    month <= period.to.slice(0, 7);
    month = addDays(`${month}-28`, 4).slice(0, 7)
  ) {
    if (`${month}-01` >= period.from && lastDayOfMonth(month) <= period.to) months.push(month);
  }
  return months;
}

/**
 * The nightly roll-up (background job "sales-rollups", decision 027): every closed day of the last
 * year without its rollup — yesterday, and any day missed or invalidated since — and the whole
 * months among them are computed and stored, so no dashboard request pays for a first fill.
 * Answers how many days and months it stored.
 */
export async function fillClosedRollups(
  db: Database,
  now = new Date(),
): Promise<{ days: number; months: number }> {
  const yesterday = addDays(todayOf(now), -1);
  const closed = { from: addDays(yesterday, 1 - MAX_PERIOD_DAYS), to: yesterday };
  const months = wholeMonths(closed);
  const [days, monthRows] = await Promise.all([
    db
      .selectFrom("salesDays")
      .select("day")
      .where("day", ">=", closed.from)
      .where("day", "<=", closed.to)
      .execute(),
    months.length > 0
      ? db.selectFrom("salesMonths").select("month").where("month", "in", months).execute()
      : Promise.resolve([]),
  ]);
  const missingDays = daysBetween(closed) - days.length;
  const missingMonths = months.length - monthRows.length;
  const storedDays = missingDays > 0 && (await ensureDays(db, closed));
  const storedMonths = missingMonths > 0 && (await ensureMonths(db, months));
  return { days: storedDays ? missingDays : 0, months: storedMonths ? missingMonths : 0 };
}

/** The period split into its closed days (rolled up) and today (read live), if either. */
function split(period: Period, now: Date) {
  const today = todayOf(now);
  const yesterday = addDays(today, -1);
  const closed =
    period.from <= yesterday ? { from: period.from, to: period.to < today ? period.to : yesterday } : null;
  const live = period.from <= today && period.to >= today ? { from: today, to: today } : null;
  return { closed, live };
}

async function dayTotals(db: Database, period: Period, now: Date): Promise<DayTotals[]> {
  const { closed, live } = split(period, now);
  const parts: DayTotals[] = [];
  if (closed) {
    await ensureDays(db, closed);
    const rows = await db
      .selectFrom("salesDays")
      .selectAll()
      .where("day", ">=", closed.from)
      .where("day", "<=", closed.to)
      .execute();
    for (const row of rows) {
      parts.push({
        day: row.day,
        revenueCents: Number(row.revenueCents),
        refundsCents: Number(row.refundsCents),
        orders: Number(row.orders),
        units: Number(row.units),
      });
    }
    // a day whose rollup could not be stored: computed for this answer only
    if (rows.length < daysBetween(closed)) {
      const stored = new Set(rows.map((row) => row.day));
      for (const day of await scanDays(db, closed)) if (!stored.has(day.day)) parts.push(day);
    }
  }
  if (live) parts.push(...(await scanDays(db, live)));
  return parts;
}

const daysBetween = (period: Period) =>
  Math.round((Date.parse(period.to) - Date.parse(period.from)) / 86_400_000) + 1;

/** Revenue, orders, average order, refunds and units of the orders placed in the period. */
export async function salesFigures(db: Database, period: Period, now = new Date()): Promise<SalesFigures> {
  const days = await dayTotals(db, period, now);
  const sum = (key: keyof Omit<DayTotals, "day">) => days.reduce((total, day) => total + day[key], 0);
  const revenueCents = sum("revenueCents");
  const orders = sum("orders");
  return {
    revenueCents,
    orders,
    averageOrderCents: orders > 0 ? Math.round(revenueCents / orders) : 0,
    refundsCents: sum("refundsCents"),
    units: sum("units"),
  };
}

/** Revenue and orders per day of the period, every day present (0 on a day without sales). */
export async function salesByDay(db: Database, period: Period, now = new Date()): Promise<SalesDay[]> {
  const byDay = new Map((await dayTotals(db, period, now)).map((d) => [d.day, d]));
  const days: SalesDay[] = [];
  for (let d = period.from; d <= period.to; d = addDays(d, 1)) {
    const row = byDay.get(d);
    days.push({ day: d, revenueCents: row?.revenueCents ?? 0, orders: row?.orders ?? 0 });
  }
  return days;
}

/**
 * The best-selling products of the period by units, with what they brought in: the whole months
 * of its closed part from the monthly rollup, the other closed days from the daily one, today live.
 */
export async function topProducts(
  db: Database,
  period: Period,
  limit = 5,
  now = new Date(),
): Promise<TopProduct[]> {
  const { closed, live } = split(period, now);
  const totals = new Map<string, ProductTotals>();
  const add = (row: ProductTotals) => {
    const seen = totals.get(row.productKey);
    if (seen) {
      seen.units += row.units;
      seen.revenueCents += row.revenueCents;
    } else totals.set(row.productKey, { ...row });
  };
  if (closed) {
    const months = wholeMonths(closed);
    const inMonths = (day: string) => months.includes(day.slice(0, 7));
    const dayRanges: Period[] = [];
    for (let day = closed.from; day <= closed.to; day = addDays(day, 1)) {
      if (inMonths(day)) continue;
      const last = dayRanges.at(-1);
      if (last && addDays(last.to, 1) === day) last.to = day;
      else dayRanges.push({ from: day, to: day });
    }
    const stored = (await ensureMonths(db, months)) && (await ensureDays(db, closed));
    // rollups that could not be stored this time (another reader stored them): the orders answer
    const rows = stored
      ? await closedProductRows(db, months, dayRanges)
      : await scanProducts(db, closed, "period");
    for (const row of rows) add(row);
  }
  if (live) for (const row of await scanProducts(db, live, "period")) add(row);
  return [...totals.values()]
    .sort((a, b) => b.units - a.units || (a.productKey < b.productKey ? -1 : 1))
    .slice(0, limit)
    .map(({ productId, name, units, revenueCents }) => ({ productId, name, units, revenueCents }));
}

/** Per product over the whole months (monthly rollup) and the loose days (daily rollup). */
async function closedProductRows(
  db: Database,
  months: string[],
  dayRanges: Period[],
): Promise<ProductTotals[]> {
  const grouped = (table: "salesProductMonths" | "salesProductDays") =>
    db
      .selectFrom(table)
      .select((eb) => [
        "productKey",
        eb.fn.max("productId").as("productId"),
        eb.fn.max("name").as("name"),
        eb.fn.sum<number>("units").as("units"),
        eb.fn.sum<number>("revenueCents").as("revenue"),
      ])
      .groupBy("productKey");
  const rows = [
    ...(months.length > 0 ? await grouped("salesProductMonths").where("month", "in", months).execute() : []),
    ...(dayRanges.length > 0
      ? await grouped("salesProductDays")
          .where((eb) =>
            eb.or(dayRanges.map((r) => eb.and([eb("day", ">=", r.from), eb("day", "<=", r.to)]))),
          )
          .execute()
      : []),
  ];
  return rows.map((row) => ({
    productKey: row.productKey,
    productId: row.productId === null ? null : Number(row.productId),
    name: String(row.name ?? ""),
    units: Number(row.units),
    revenueCents: Number(row.revenue),
  }));
}
