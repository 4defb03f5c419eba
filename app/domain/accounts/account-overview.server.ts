import type { Database } from "../../db/database.server.ts";
import { PLACED_STATUSES } from "../orders/order-status.ts";

/** The user's latest orders (newest first), for the overview and the orders list. */
export async function listUserOrders(db: Database, userId: string, limit = 50) {
  return db
    .selectFrom("orders")
    .select(["number", "status", "totalCents", "currency", "createdAt"])
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
    .limit(limit)
    .execute();
}

/** The user's default address, or null. */
export async function findDefaultAddress(db: Database, userId: string) {
  const row = await db
    .selectFrom("addresses")
    .selectAll()
    .where("userId", "=", userId)
    .orderBy("isDefault", "desc")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}
