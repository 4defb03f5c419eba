import { sql } from "kysely";
import { z } from "zod";
import { logger } from "../../adapters/logger.server.ts";
import type { Mailer } from "../../adapters/mail/mail-message.ts";
import type { PaymentGateway } from "../../adapters/payments/payment-gateway.ts";
import type { Database } from "../../db/database.server.ts";
import type { OrderStatus } from "../../db/schema.ts";
import { CARRIER_IDS, type CarrierId, TRACKING_NUMBER, trackingOf } from "../../lib/carriers.ts";
import { currencyOf, formatMoney } from "../../lib/money.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { actorCan } from "../../lib/staff-roles.ts";
import { recordAudit, type StaffActor } from "../audit/audit-log.server.ts";
import {
  cancelPaidOrder,
  REFUNDABLE,
  type RefundError,
  refundRefusalMessage,
} from "../payments/refunds.server.ts";
import type { OrderPaymentFilter, OrderSort } from "./order-list-query.ts";
import { canTransition, ORDER_STATUS_LABELS, ORDER_TRANSITIONS, STAFF_MOVES } from "./order-status.ts";
import { renderStatusEmail, type StatusMailShop } from "./order-status-email.ts";
import { getOrderByNumber, type OrderDetails, transitionOrder } from "./orders.server.ts";

export const ADMIN_ORDERS_PAGE_SIZE = 25;

export interface AdminOrderRow {
  id: number;
  number: string;
  email: string;
  status: OrderStatus;
  totalCents: number;
  /** the order's currency code (`currencyOf` reads it) */
  currency: string;
  createdAt: string;
}

export interface AdminOrderQuery {
  status?: OrderStatus | null;
  /** the order number or the e-mail */
  search?: string;
  /** placed on or after this UTC day (YYYY-MM-DD) */
  from?: string | null;
  /** placed on or before this UTC day */
  to?: string | null;
  /** refunded in part or full, disputed, or not paid (pending or failed) */
  payment?: OrderPaymentFilter | null;
  sort?: OrderSort;
  page?: number;
  /** keyset paging (the API's cursor): the rows after this one in the sort's order, instead of a page */
  after?: OrderCursor | null;
  /** rows per page (ADMIN_ORDERS_PAGE_SIZE unless said) */
  limit?: number;
}

/** Where a keyset page ends: the last row's sort value (its time or total) and its id. */
export type OrderCursor = { value: string | number; id: number };

/** The orders list: filtered by status, search, the day placed and the payment's state; sorted. */
export async function listAdminOrders(
  db: Database,
  {
    status,
    search = "",
    from,
    to,
    payment,
    sort = "newest",
    page = 1,
    after = null,
    limit = ADMIN_ORDERS_PAGE_SIZE,
  }: AdminOrderQuery = {},
): Promise<{ orders: AdminOrderRow[]; page: number; hasMore: boolean; next: OrderCursor | null }> {
  let query = db
    .selectFrom("orders")
    .select(["id", "number", "email", "status", "totalCents", "currency", "createdAt"]);
  if (status) query = query.where("status", "=", status);
  if (from) query = query.where("createdAt", ">=", `${from}T00:00:00.000Z`);
  if (to) query = query.where("createdAt", "<", `${to}T23:59:59.999Z`);
  if (payment === "refunded") query = query.where("refundedCents", ">", 0);
  if (payment === "disputed") query = query.where("disputedAt", "is not", null);
  if (payment === "unpaid") query = query.where("status", "in", ["pending_payment", "payment_failed"]);
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
  const column = sort === "total-desc" || sort === "total-asc" ? "totalCents" : "createdAt";
  const ascending = sort === "oldest" || sort === "total-asc";
  if (after) {
    const beyond = ascending ? ">" : "<";
    query = query.where((eb) =>
      eb.or([
        eb(column, beyond, after.value as never),
        eb.and([eb(column, "=", after.value as never), eb("id", beyond, after.id)]),
      ]),
    );
  }
  const ordered =
    sort === "oldest"
      ? query.orderBy("createdAt", "asc").orderBy("id", "asc")
      : sort === "total-desc"
        ? query.orderBy("totalCents", "desc").orderBy("id", "desc")
        : sort === "total-asc"
          ? query.orderBy("totalCents", "asc").orderBy("id", "asc")
          : query.orderBy("createdAt", "desc").orderBy("id", "desc");
  const rows = await ordered
    .limit(limit + 1)
    .offset(after ? 0 : (Math.max(1, page) - 1) * limit)
    .execute();
  const orders = rows.slice(0, limit);
  const last = orders.at(-1);
  const hasMore = rows.length > limit;
  return {
    orders,
    page,
    hasMore,
    next: hasMore && last ? { value: last[column], id: Number(last.id) } : null,
  };
}

export interface AdminOrderDetail extends OrderDetails {
  events: { fromStatus: OrderStatus | null; toStatus: OrderStatus; actor: string; createdAt: string }[];
  nextStatuses: readonly OrderStatus[];
  /** what a refund form offers: null when the order cannot be refunded (order-refund.server.ts) */
  refund: {
    refundedCents: number;
    leftCents: number;
    lines: { itemId: number; name: string; variantTitle: string; quantity: number; refundable: number }[];
    /** the order has an account: a refund may go to its store credit */
    storeCredit: boolean;
  } | null;
  /** what gift cards and store credit paid of the total (the card the rest) */
  giftCardCents: number;
  /** every refund, newest last: pending ones wait for the provider's answer, failed ones say why */
  refunds: {
    amountCents: number;
    reason: string;
    restocked: boolean;
    createdAt: string;
    status: "pending" | "succeeded" | "failed";
    failure: string | null;
    /** what of it went back to gift cards or store credit */
    giftCardCents: number;
    toStoreCredit: boolean;
  }[];
  /** when the customer's bank reported a dispute (chargeback) of the payment; null: none */
  disputedAt: string | null;
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
  const money = await db
    .selectFrom("orders")
    .select(["refundedCents", "refundPendingCents", "totalCents", "disputedAt", "giftCardCents", "userId"])
    .where("id", "=", order.id)
    .executeTakeFirstOrThrow();
  const items = await db
    .selectFrom("orderItems")
    .select(["id", "name", "variantTitle", "quantity", "refundedQuantity"])
    .where("orderId", "=", order.id)
    .orderBy("id")
    .execute();
  const refunds = await db
    .selectFrom("orderRefunds")
    .select([
      "amountCents",
      "reason",
      "restocked",
      "createdAt",
      "status",
      "failure",
      "giftCardCents",
      "toStoreCredit",
    ])
    .where("orderId", "=", order.id)
    .orderBy("id")
    .execute();
  // what pending refunds promise is not left to refund
  const leftCents = money.totalCents - money.refundedCents - money.refundPendingCents;
  return {
    ...order,
    events,
    nextStatuses: ORDER_TRANSITIONS[order.status].filter((to) => STAFF_MOVES.includes(to)),
    refund:
      REFUNDABLE.includes(order.status) && leftCents > 0
        ? {
            refundedCents: money.refundedCents,
            leftCents,
            lines: items.map((item) => ({
              itemId: item.id,
              name: item.name,
              variantTitle: item.variantTitle,
              quantity: item.quantity,
              refundable: item.quantity - item.refundedQuantity,
            })),
            storeCredit: money.userId !== null,
          }
        : null,
    giftCardCents: money.giftCardCents,
    refunds: refunds.map((r) => ({
      ...r,
      restocked: r.restocked === 1,
      toStoreCredit: r.toStoreCredit === 1,
    })),
    disputedAt: money.disputedAt,
  };
}

export const PACKING_SLIPS_MAX = 50;

/** The orders list's bulk form: the selected order numbers (at most PACKING_SLIPS_MAX). */
export const bulkOrdersSchema = z.object({
  number: z
    .array(z.string().regex(/^CW-[0-9A-Z]{1,20}$/))
    .min(1)
    .max(PACKING_SLIPS_MAX),
});

/**
 * Marks each of these orders shipped (no tracking: that is the order page's), each through
 * advanceOrder (its own transaction, audit entry and e-mail). Orders that cannot ship (not paid,
 * already shipped, unknown) are listed as refused; the others ship.
 */
export async function shipOrders(
  deps: Parameters<typeof advanceOrder>[0],
  { numbers, actor }: { numbers: readonly string[]; actor: StaffActor },
): Promise<{ shipped: string[]; refused: string[] }> {
  const shipped: string[] = [];
  const refused: string[] = [];
  for (const number of new Set(numbers)) {
    const result = await advanceOrder(deps, { number, to: "shipped", actor });
    (result.ok ? shipped : refused).push(number);
  }
  return { shipped, refused };
}

export type PackingSlip = Pick<OrderDetails, "number" | "createdAt" | "shippingMethodName" | "shipTo"> & {
  items: Pick<OrderDetails["items"][number], "name" | "variantTitle" | "sku" | "quantity">[];
};

/**
 * Packing slips for these orders (at most PACKING_SLIPS_MAX), in the order asked: what goes in
 * the parcel and where to — no prices. Numbers of no order are left out.
 */
export async function getPackingSlips(db: Database, numbers: readonly string[]): Promise<PackingSlip[]> {
  const slips: PackingSlip[] = [];
  for (const number of numbers.slice(0, PACKING_SLIPS_MAX)) {
    const order = await getOrderByNumber(db, number);
    if (!order) continue;
    slips.push({
      number: order.number,
      createdAt: order.createdAt,
      shippingMethodName: order.shippingMethodName,
      shipTo: order.shipTo,
      items: order.items.map(({ name, variantTitle, sku, quantity }) => ({
        name,
        variantTitle,
        sku,
        quantity,
      })),
    });
  }
  return slips;
}

export const ORDER_ADMIN_MESSAGES = {
  badRequest: "Unknown order action.",
  cancelUnconfirmed: "The order was not cancelled: confirm with “Yes, cancel order” to cancel it.",
  changed: (number: string, to: OrderStatus) => `Order ${number}: ${ORDER_STATUS_LABELS[to]}`,
  refundFailed: (message: string) => `The order was not cancelled: its refund failed (${message}).`,
  refundPending:
    "The order's refund is waiting for the payment provider's answer; the order is cancelled as soon as it comes.",
  notAllowed: (from: OrderStatus, to: OrderStatus) =>
    `This order is ${ORDER_STATUS_LABELS[from].toLowerCase()} and cannot become ${to}.`,
} as const;

/** The order page's status buttons: the status to move to, and the confirm step's field (cancel). */
export const orderActionSchema = z.object({
  to: z.enum(STAFF_MOVES as [OrderStatus, ...OrderStatus[]], { error: ORDER_ADMIN_MESSAGES.badRequest }),
  confirm: z.string().optional(),
  // shipping: the carrier and tracking number, both optional
  carrier: z.enum(CARRIER_IDS, { error: "Choose a carrier from the list." }).optional(),
  trackingNumber: z
    .string()
    .trim()
    .regex(TRACKING_NUMBER, "A tracking number has 3 to 40 letters, digits, spaces or dashes.")
    .optional(),
});

export type AdvanceOrderError =
  /** the acting staff member's role may not make this move (cancelling gives money back: `refunds`) */
  | { code: "forbidden" }
  | { code: "not-found" }
  | { code: "not-allowed"; from: OrderStatus }
  /** cancelling cannot be undone: it needs the confirm step */
  | { code: "unconfirmed" }
  | { code: "refund-failed"; message: string }
  /** the cancellation's refund is waiting for the provider's answer: it completes on its own */
  | { code: "refund-pending" };

/**
 * Ship, deliver or cancel through the order's transition table, audited, the customer e-mailed.
 * Shipping and delivering need the `orders` permission; cancelling needs `refunds` as well — it
 * gives money back — and is checked here, on the move the command makes. Cancelling a paid order
 * is a refund of what is left of its payment (payments/refunds.server.ts `cancelPaidOrder`), which
 * cancels the order — stock and coupon use given back — in the transaction that records the money.
 */
export async function advanceOrder(
  { db, gateway, mail, shop }: { db: Database; gateway: PaymentGateway; mail: Mailer; shop: StatusMailShop },
  {
    number,
    to,
    actor,
    shipment,
    confirmed = false,
    now,
  }: {
    number: string;
    to: OrderStatus;
    actor: StaffActor;
    /** cancelling (which cannot be undone) only from its confirm step */
    confirmed?: boolean;
    /** when shipping: the carrier and its tracking number, if given */
    shipment?: { carrier?: CarrierId; trackingNumber?: string };
    now?: Date;
  },
): Promise<Result<{ from: OrderStatus; to: OrderStatus }, AdvanceOrderError>> {
  if (!actorCan(actor, "orders") || (to === "cancelled" && !actorCan(actor, "refunds"))) {
    return fail({ code: "forbidden" });
  }
  if (to === "cancelled" && !confirmed) return fail({ code: "unconfirmed" });
  const order = await db
    .selectFrom("orders")
    .select([
      "id",
      "email",
      "status",
      "totalCents",
      "refundedCents",
      "refundPendingCents",
      "paymentReference",
      "idempotencyKey",
      "estimatedDelivery",
      "currency",
    ])
    .where("number", "=", number)
    .executeTakeFirst();
  if (!order) return fail({ code: "not-found" });
  if (!canTransition(order.status, to)) return fail({ code: "not-allowed", from: order.status });
  const leftCents = order.totalCents - order.refundedCents - order.refundPendingCents;
  if (to === "cancelled" && leftCents > 0 && order.paymentReference) {
    const cancelled = await cancelPaidOrder(
      { db, gateway, mail, shop },
      { number, orderKey: order.idempotencyKey, actor, now },
    );
    if (cancelled.ok) return ok({ from: order.status, to: "cancelled" });
    return fail(cancelRefusal(cancelled.error, order.status));
  }
  const tracking =
    to === "shipped" && shipment
      ? { carrier: shipment.carrier ?? null, trackingNumber: shipment.trackingNumber || null }
      : null;
  const result = await transitionOrder(db, {
    orderId: order.id,
    to,
    actor: actor.id,
    now,
    set: tracking ?? {},
    // the audit entry is written in the transition's transaction: both happen or neither
    inSameTransaction: (trx, change) =>
      recordAudit(trx, {
        actor,
        action: "order.transition",
        entityType: "order",
        entityId: number,
        summary: `Order ${number}: ${change.from} → ${change.to}${to === "cancelled" ? " (stock restored)" : ""}${tracking?.trackingNumber ? ` (${tracking.carrier ?? "carrier"} ${tracking.trackingNumber})` : ""}`,
        before: { status: change.from },
        after: { status: change.to, ...(tracking ?? {}) },
        now,
      }),
  });
  if (result.ok) {
    // the customer hears of it once the change is committed; a mail that fails is logged, the
    // order's change stands
    const message = renderStatusEmail(
      {
        number,
        email: order.email,
        estimatedDelivery: order.estimatedDelivery,
        tracking: tracking ? trackingOf(tracking.carrier, tracking.trackingNumber) : null,
        refundedCents: 0,
      },
      to,
      shop,
      (cents) => formatMoney(cents, currencyOf(order.currency)),
    );
    if (message) {
      await mail
        .send(message)
        .catch((error: unknown) =>
          logger.warn({ err: error, order: number, to }, "order status e-mail failed"),
        );
    }
  }
  return result;
}

function cancelRefusal(error: RefundError, from: OrderStatus): AdvanceOrderError {
  switch (error.code) {
    case "forbidden":
    case "not-found":
      return error;
    case "not-refundable":
      return { code: "not-allowed", from: error.status };
    case "pending":
      return { code: "refund-pending" };
    case "gateway":
      return { code: "refund-failed", message: error.message };
    default:
      // nothing left to refund, or a guard refused: the order changed meanwhile
      return { code: "refund-failed", message: refundRefusalMessage(error) || from };
  }
}
