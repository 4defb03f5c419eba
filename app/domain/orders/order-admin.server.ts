import { sql } from "kysely";
import { z } from "zod";
import type { Database } from "../../db/database.server.ts";
import type { OrderStatus } from "../../db/schema.ts";
import { fail, type Result } from "../../lib/result.ts";
import { type Actor, recordAudit } from "../audit/audit-log.server.ts";
import { ORDER_STATUS_LABELS, ORDER_STATUSES, ORDER_TRANSITIONS } from "./order-status.ts";
import { getOrderByNumber, type OrderDetails, transitionOrder } from "./orders.server.ts";

export const ADMIN_ORDERS_PAGE_SIZE = 25;

export interface AdminOrderRow {
  id: number;
  number: string;
  email: string;
  status: OrderStatus;
  totalCents: number;
  createdAt: string;
}

/** Orders newest first; `status` filters, `search` matches the order number or the e-mail. */
export async function listAdminOrders(
  db: Database,
  { status, search = "", page = 1 }: { status?: OrderStatus | null; search?: string; page?: number } = {},
): Promise<{ orders: AdminOrderRow[]; page: number; hasMore: boolean }> {
  let query = db.selectFrom("orders").select(["id", "number", "email", "status", "totalCents", "createdAt"]);
  if (status) query = query.where("status", "=", status);
  const term = search.trim().toLowerCase().slice(0, 254);
  if (term) {
    const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb("number", "=", term.toUpperCase()),
        eb(sql`lower(number)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`lower(email)`, "like", sql`${pattern} escape '\\'`),
      ]),
    );
  }
  const rows = await query
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(ADMIN_ORDERS_PAGE_SIZE + 1)
    .offset((Math.max(1, page) - 1) * ADMIN_ORDERS_PAGE_SIZE)
    .execute();
  return {
    orders: rows.slice(0, ADMIN_ORDERS_PAGE_SIZE),
    page,
    hasMore: rows.length > ADMIN_ORDERS_PAGE_SIZE,
  };
}

export interface AdminOrderDetail extends OrderDetails {
  events: { fromStatus: OrderStatus | null; toStatus: OrderStatus; actor: string; createdAt: string }[];
  nextStatuses: readonly OrderStatus[];
}

export async function getAdminOrder(db: Database, number: string): Promise<AdminOrderDetail | null> {
  const order = await getOrderByNumber(db, number);
  if (!order) return null;
  const events = await db
    .selectFrom("orderEvents")
    .select(["fromStatus", "toStatus", "actor", "createdAt"])
    .where("orderId", "=", order.id)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  return { ...order, events, nextStatuses: ORDER_TRANSITIONS[order.status] };
}

export const ORDER_ADMIN_MESSAGES = {
  badRequest: "Unknown order action.",
  cancelUnconfirmed: "The order was not cancelled: confirm with “Yes, cancel order” to cancel it.",
  changed: (number: string, to: OrderStatus) => `Order ${number}: ${ORDER_STATUS_LABELS[to]}`,
  notAllowed: (from: OrderStatus, to: OrderStatus) =>
    `This order is ${ORDER_STATUS_LABELS[from].toLowerCase()} and cannot become ${to}.`,
} as const;

/** The order page's status buttons: the status to move to, and the confirm step's field (cancel). */
export const orderActionSchema = z.object({
  to: z.enum(ORDER_STATUSES as [OrderStatus, ...OrderStatus[]], { error: ORDER_ADMIN_MESSAGES.badRequest }),
  confirm: z.string().optional(),
});

export type AdvanceOrderError = { code: "not-found" } | { code: "not-allowed"; from: OrderStatus };

/** Ship, deliver or cancel (stock restored) through the order's transition table, audited. */
export async function advanceOrder(
  db: Database,
  { number, to, actor }: { number: string; to: OrderStatus; actor: Actor },
): Promise<Result<{ from: OrderStatus; to: OrderStatus }, AdvanceOrderError>> {
  const order = await db.selectFrom("orders").select(["id"]).where("number", "=", number).executeTakeFirst();
  if (!order) return fail({ code: "not-found" });
  const result = await transitionOrder(db, {
    orderId: order.id,
    to,
    actor: actor.id,
    // the audit entry is written in the transition's transaction: both happen or neither
    inSameTransaction: (trx, change) =>
      recordAudit(trx, {
        actor,
        action: "order.transition",
        entityType: "order",
        entityId: number,
        summary: `Order ${number}: ${change.from} → ${change.to}${to === "cancelled" ? " (stock restored)" : ""}`,
        before: { status: change.from },
        after: { status: change.to },
      }),
  });
  return result;
}
