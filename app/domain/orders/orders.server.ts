import type { Transaction, Updateable } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { DB, OrderStatus, OrdersTable } from "../../db/schema.ts";
import { syncProductSummary } from "../../db/variant-summary.server.ts";
import { type Tracking, trackingOf } from "../../lib/carriers.ts";
import { type Currency, currencyOf } from "../../lib/money.ts";
import type { ShippingMethod } from "../../lib/pricing.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { releaseCoupon } from "../coupons/coupons.server.ts";
import { canTransition, PLACED_STATUSES } from "./order-status.ts";

export interface OrderDetails {
  id: number;
  number: string;
  email: string;
  status: OrderStatus;
  createdAt: string;
  estimatedDelivery: string;
  shippingMethod: ShippingMethod;
  shipTo: {
    name: string;
    phone: string;
    address: string;
    city: string;
    state: string;
    zipCode: string;
    country: string;
  };
  payment: { brand: string; last4: string };
  /** the carrier and tracking number given when it shipped, if any */
  tracking: Tracking | null;
  couponCode: string | null;
  /** the currency the order was placed in: its amounts are in it */
  currency: Currency;
  totals: {
    subtotalCents: number;
    discountCents: number;
    shippingCents: number;
    taxCents: number;
    totalCents: number;
  };
  items: {
    productId: number | null;
    productSlug: string;
    name: string;
    /** "Size: M · Colour: Black"; "" for a product without options */
    variantTitle: string;
    sku: string | null;
    brand: string;
    imageKey: string | null;
    unitPriceCents: number;
    quantity: number;
    lineTotalCents: number;
  }[];
}

/** The order with this number, with its items; null when there is none. */
export async function getOrderByNumber(db: Database, number: string): Promise<OrderDetails | null> {
  const row = await db.selectFrom("orders").selectAll().where("number", "=", number).executeTakeFirst();
  if (!row) return null;
  const items = await db
    .selectFrom("orderItems")
    .select([
      "productId",
      "productSlug",
      "name",
      "variantTitle",
      "sku",
      "brand",
      "imageKey",
      "unitPriceCents",
      "quantity",
      "lineTotalCents",
    ])
    .where("orderId", "=", row.id)
    .orderBy("id")
    .execute();
  return {
    id: row.id,
    number: row.number,
    email: row.email,
    status: row.status,
    createdAt: row.createdAt,
    estimatedDelivery: row.estimatedDelivery,
    shippingMethod: row.shippingMethod,
    shipTo: {
      name: `${row.firstName} ${row.lastName}`,
      phone: row.phone,
      address: row.address,
      city: row.city,
      state: row.state,
      zipCode: row.zipCode,
      country: row.country,
    },
    payment: { brand: row.paymentBrand, last4: row.paymentLast4 },
    tracking: trackingOf(row.carrier, row.trackingNumber),
    couponCode: row.couponCode,
    currency: currencyOf(row.currency),
    totals: {
      subtotalCents: row.subtotalCents,
      discountCents: row.discountCents,
      shippingCents: row.shippingCents,
      taxCents: row.taxCents,
      totalCents: row.totalCents,
    },
    items,
  };
}

/**
 * The order for a number + e-mail pair (both compared case-insensitively), or null. Callers
 * must answer every miss the same way: nothing tells which half was wrong.
 */
export async function findOrderForTracking(
  db: Database,
  { number, email }: { number: string; email: string },
): Promise<OrderDetails | null> {
  const normalizedNumber = number.trim().toUpperCase();
  const normalizedEmail = email.trim().toLowerCase();
  if (!/^CW-[0-9A-Z]{10}$/.test(normalizedNumber) || normalizedEmail === "" || normalizedEmail.length > 254) {
    return null;
  }
  const order = await getOrderByNumber(db, normalizedNumber);
  if (!order || order.email.toLowerCase() !== normalizedEmail) return null;
  // an attempt whose payment is pending or failed was never an order to the shopper
  if (!PLACED_STATUSES.includes(order.status)) return null;
  return order;
}

/** Moving into these gives the stock and the coupon use back: a cancelled order, a payment that failed. */
const RELEASES_STOCK: readonly OrderStatus[] = ["cancelled", "payment_failed"];

export type OrderTransitionFields = Partial<
  Pick<
    Updateable<OrdersTable>,
    | "paidAt"
    | "paymentError"
    | "paymentReference"
    | "reservedUntil"
    | "refundedCents"
    | "disputedAt"
    | "paymentBrand"
    | "paymentLast4"
    | "carrier"
    | "trackingNumber"
  >
>;

export type TransitionResult = Result<
  { from: OrderStatus; to: OrderStatus },
  { code: "not-found" } | { code: "not-allowed"; from: OrderStatus }
>;

/**
 * Moves an order along the transition table. Cancelling (or a failed payment) puts the stock back
 * and gives the coupon use back, in the same transaction; the status update is guarded so two admins acting
 * at once cannot both succeed.
 */
export async function transitionOrder(
  db: Database,
  {
    orderId,
    to,
    actor,
    now = new Date(),
    inSameTransaction,
    set = {},
    from: expected,
  }: {
    orderId: number;
    to: OrderStatus;
    actor: string;
    now?: Date;
    /** more writes that must stand or fall with the transition (e.g. the admin audit entry) */
    inSameTransaction?: (
      trx: Transaction<DB>,
      change: { from: OrderStatus; to: OrderStatus },
    ) => Promise<void>;
    /** columns the transition sets besides the status (e.g. when it was paid) */
    set?: OrderTransitionFields;
    /** the status the caller knows the order is in (Place Order's hot path: no read first) */
    from?: OrderStatus;
  },
): Promise<TransitionResult> {
  return db.transaction().execute(async (trx): Promise<TransitionResult> => {
    const releases = RELEASES_STOCK.includes(to);
    const order =
      expected && !releases
        ? { status: expected, couponCode: null }
        : await trx
            .selectFrom("orders")
            .select(["status", "couponCode"])
            .where("id", "=", orderId)
            .executeTakeFirst();
    if (!order) return fail({ code: "not-found" });
    const from = order.status;
    if (!canTransition(from, to)) return fail({ code: "not-allowed", from });
    const at = now.toISOString();
    const updated = await trx
      .updateTable("orders")
      .set({ ...set, status: to, updatedAt: at })
      .where("id", "=", orderId)
      .where("status", "=", from)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return fail({ code: "not-allowed", from });
    if (releases) {
      // the variants bought get their units back (one that was deleted since has none to get);
      // variants first, then products, each by id (the lock order Place Order uses)
      const items = await trx
        .selectFrom("orderItems")
        .innerJoin("productVariants", "productVariants.id", "orderItems.variantId")
        .select(["orderItems.variantId", "productVariants.productId", "orderItems.quantity"])
        .where("orderItems.orderId", "=", orderId)
        .orderBy("orderItems.variantId")
        .execute();
      const returned = new Map<number, number>();
      for (const item of items) {
        await trx
          .updateTable("productVariants")
          .set((eb) => ({ stock: eb("stock", "+", item.quantity) }))
          .where("id", "=", item.variantId as number)
          .execute();
        returned.set(item.productId, (returned.get(item.productId) ?? 0) + item.quantity);
      }
      for (const productId of [...returned.keys()].sort((a, b) => a - b)) {
        await syncProductSummary(trx, productId);
        await trx.updateTable("products").set({ updatedAt: at }).where("id", "=", productId).execute();
      }
      if (order.couponCode) await releaseCoupon(trx, order.couponCode);
    }
    await trx
      .insertInto("orderEvents")
      .values({ orderId, fromStatus: from, toStatus: to, actor, createdAt: at })
      .execute();
    await inSameTransaction?.(trx, { from, to });
    return ok({ from, to });
  });
}
