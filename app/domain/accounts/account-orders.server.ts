import type { Database } from "../../db/database.server.ts";
import type { OrderStatus } from "../../db/schema.ts";
import { PLACED_STATUSES } from "../orders/order-status.ts";
import { getOrderByNumber, type OrderDetails } from "../orders/orders.server.ts";

export const ORDERS_PER_PAGE = 20;

export interface OrderSummary {
  number: string;
  status: OrderStatus;
  createdAt: string;
  itemCount: number;
  totalCents: number;
  /** the order's currency code (`currencyOf` reads it) */
  currency: string;
}

/** One page of the user's orders, newest first (only ever that user's). */
export async function listOrdersPage(
  db: Database,
  userId: string,
  page = 1,
  perPage = ORDERS_PER_PAGE,
): Promise<{ orders: OrderSummary[]; page: number; hasMore: boolean }> {
  const current = Number.isSafeInteger(page) && page > 0 ? Math.min(page, 10_000) : 1;
  const rows = await db
    .selectFrom("orders")
    .select(["number", "status", "createdAt", "totalCents", "currency"])
    .select((eb) =>
      eb
        .selectFrom("orderItems")
        .select((inner) => inner.fn.sum<number>("orderItems.quantity").as("items"))
        .whereRef("orderItems.orderId", "=", "orders.id")
        .as("itemCount"),
    )
    .where("userId", "=", userId)
    .where("status", "in", PLACED_STATUSES)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(perPage + 1)
    .offset((current - 1) * perPage)
    .execute();
  return {
    orders: rows.slice(0, perPage).map((row) => ({ ...row, itemCount: Number(row.itemCount ?? 0) })),
    page: current,
    hasMore: rows.length > perPage,
  };
}

/** The user's order with this number; null when there is none or it belongs to someone else. */
export async function getUserOrder(
  db: Database,
  userId: string,
  number: string,
): Promise<OrderDetails | null> {
  if (number.length > 40) return null;
  const own = await db
    .selectFrom("orders")
    .select("id")
    .where("number", "=", number)
    .where("userId", "=", userId)
    .where("status", "in", PLACED_STATUSES)
    .executeTakeFirst();
  if (!own) return null;
  return getOrderByNumber(db, number);
}
