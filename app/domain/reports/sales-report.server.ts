import { sql } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { OrderStatus } from "../../db/schema.ts";
import { addDays, type Period } from "./sales-period.ts";

/**
 * The dashboard's sales figures (issue 20): revenue, orders, average order value, refunds and
 * units sold for a period of whole UTC days, beside the period of the same length before it; a
 * daily series; the best-selling products. Figures come from orders that were paid (paid and every
 * later state), net of refunds, by the day they were placed.
 */
export const SOLD_STATUSES: readonly OrderStatus[] = [
  "paid",
  "shipped",
  "delivered",
  "partially_refunded",
  "refunded",
  "cancelled",
];

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

const bounds = (period: Period) => ({
  start: `${period.from}T00:00:00.000Z`,
  end: `${addDays(period.to, 1)}T00:00:00.000Z`,
});

/** Revenue, orders, average order, refunds and units of the orders placed in the period. */
export async function salesFigures(db: Database, period: Period): Promise<SalesFigures> {
  const { start, end } = bounds(period);
  const [money, units] = await Promise.all([
    db
      .selectFrom("orders")
      .select((eb) => [
        eb.fn.sum<number>(eb("totalCents", "-", eb.ref("refundedCents"))).as("revenue"),
        eb.fn.sum<number>("refundedCents").as("refunds"),
        eb.fn.sum<number>(sql`case when status = 'cancelled' then 0 else 1 end`).as("orders"),
      ])
      .where("status", "in", [...SOLD_STATUSES])
      .where("createdAt", ">=", start)
      .where("createdAt", "<", end)
      .executeTakeFirst(),
    db
      .selectFrom("orderItems")
      .innerJoin("orders", "orders.id", "orderItems.orderId")
      .select((eb) => eb.fn.sum<number>("orderItems.quantity").as("units"))
      .where(
        "orders.status",
        "in",
        SOLD_STATUSES.filter((s) => s !== "cancelled"),
      )
      .where("orders.createdAt", ">=", start)
      .where("orders.createdAt", "<", end)
      .executeTakeFirst(),
  ]);
  const revenueCents = Number(money?.revenue ?? 0);
  const orders = Number(money?.orders ?? 0);
  return {
    revenueCents,
    orders,
    averageOrderCents: orders > 0 ? Math.round(revenueCents / orders) : 0,
    refundsCents: Number(money?.refunds ?? 0),
    units: Number(units?.units ?? 0),
  };
}

/** Revenue and orders per day of the period, every day present (0 on a day without sales). */
export async function salesByDay(db: Database, period: Period): Promise<SalesDay[]> {
  const { start, end } = bounds(period);
  const day = sql<string>`substr(created_at, 1, 10)`;
  const rows = await db
    .selectFrom("orders")
    .select((eb) => [
      day.as("day"),
      eb.fn.sum<number>(eb("totalCents", "-", eb.ref("refundedCents"))).as("revenue"),
      eb.fn.sum<number>(sql`case when status = 'cancelled' then 0 else 1 end`).as("orders"),
    ])
    .where("status", "in", [...SOLD_STATUSES])
    .where("createdAt", ">=", start)
    .where("createdAt", "<", end)
    .groupBy(day)
    .execute();
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const days: SalesDay[] = [];
  for (let d = period.from; d <= period.to; d = addDays(d, 1)) {
    const row = byDay.get(d);
    days.push({ day: d, revenueCents: Number(row?.revenue ?? 0), orders: Number(row?.orders ?? 0) });
  }
  return days;
}

/** The best-selling products of the period by units, with what they brought in. */
export async function topProducts(db: Database, period: Period, limit = 5): Promise<TopProduct[]> {
  const { start, end } = bounds(period);
  // a product by its id; a line whose product was deleted since, by its name
  const product = sql<string>`coalesce(cast(order_items.product_id as text), 'name:' || order_items.name)`;
  const rows = await db
    .selectFrom("orderItems")
    .innerJoin("orders", "orders.id", "orderItems.orderId")
    .select((eb) => [
      eb.fn.max("orderItems.productId").as("productId"),
      eb.fn.max("orderItems.name").as("name"),
      eb.fn.sum<number>("orderItems.quantity").as("units"),
      eb.fn.sum<number>("orderItems.lineTotalCents").as("revenue"),
    ])
    .where(
      "orders.status",
      "in",
      SOLD_STATUSES.filter((s) => s !== "cancelled"),
    )
    .where("orders.createdAt", ">=", start)
    .where("orders.createdAt", "<", end)
    .groupBy(product)
    .orderBy("units", "desc")
    .orderBy(product)
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    productId: row.productId === null ? null : Number(row.productId),
    name: String(row.name ?? ""),
    units: Number(row.units),
    revenueCents: Number(row.revenue),
  }));
}
