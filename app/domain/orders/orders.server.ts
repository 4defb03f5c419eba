import type { Selectable, Transaction, Updateable } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { DB, OrderStatus, OrdersTable } from "../../db/schema.ts";
import { type Tracking, trackingOf } from "../../lib/carriers.ts";
import type { Totals } from "../../lib/markets.ts";
import { type Currency, currencyOf } from "../../lib/money.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { releaseGiftCards } from "../gift-cards/gift-card-spending.server.ts";
import { recordOrderEvent } from "../integrations/webhook-outbox.server.ts";
import { giveBackStock } from "../inventory/inventory.server.ts";
import { releasePromotions } from "../promotions/promotion-redemptions.server.ts";
import { canTransition, PLACED_STATUSES } from "./order-status.ts";

export interface OrderDetails {
  id: number;
  number: string;
  email: string;
  status: OrderStatus;
  createdAt: string;
  estimatedDelivery: string;
  /** the method's code in its zone, and its name when ordered */
  shippingMethod: string;
  shippingMethodName: string;
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
  /** as charged: the tax lines and label it was placed with */
  totals: Totals;
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
    .select(ORDER_ITEM_COLUMNS)
    .where("orderId", "=", row.id)
    .orderBy("id")
    .execute();
  const taxLines = await db
    .selectFrom("orderTaxLines")
    .select(["label", "basisPoints", "taxCents"])
    .where("orderId", "=", row.id)
    .orderBy("id")
    .execute();
  return orderDetailsOf(row, items, taxLines);
}

/** What an order's view shows of each line. */
const ORDER_ITEM_COLUMNS = [
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
] as const;

/** The order's columns its view is made of. */
export type OrderDetailsRow = Pick<
  Selectable<OrdersTable>,
  | "id"
  | "number"
  | "email"
  | "status"
  | "createdAt"
  | "estimatedDelivery"
  | "shippingMethod"
  | "shippingMethodName"
  | "firstName"
  | "lastName"
  | "phone"
  | "address"
  | "city"
  | "state"
  | "zipCode"
  | "country"
  | "paymentBrand"
  | "paymentLast4"
  | "carrier"
  | "trackingNumber"
  | "couponCode"
  | "currency"
  | "subtotalCents"
  | "discountCents"
  | "shippingCents"
  | "taxCents"
  | "totalCents"
  | "taxMode"
  | "taxLabel"
>;

/**
 * An order's view from its row, its lines (in the order written) and its tax lines (pure): what
 * `getOrderByNumber` reads, and what Place Order makes of the rows it has just written.
 */
export function orderDetailsOf(
  row: OrderDetailsRow,
  items: readonly OrderDetails["items"][number][],
  taxLines: readonly Totals["taxLines"][number][],
): OrderDetails {
  return {
    id: row.id,
    number: row.number,
    email: row.email,
    status: row.status,
    createdAt: row.createdAt,
    estimatedDelivery: row.estimatedDelivery,
    shippingMethod: row.shippingMethod,
    shippingMethodName: row.shippingMethodName,
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
      taxIncluded: row.taxMode === "inclusive",
      taxLabel: row.taxLabel,
      taxLines: taxLines.map(({ label, basisPoints, taxCents }) => ({ label, basisPoints, taxCents })),
    },
    // only the view's columns (a caller may hand over the whole rows it wrote)
    items: items.map(
      ({
        productId,
        productSlug,
        name,
        variantTitle,
        sku,
        brand,
        imageKey,
        unitPriceCents,
        quantity,
        lineTotalCents,
      }) => ({
        productId,
        productSlug,
        name,
        variantTitle,
        sku,
        brand,
        imageKey,
        unitPriceCents,
        quantity,
        lineTotalCents,
      }),
    ),
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

/** Moving into these gives the stock and the promotions' uses back: a cancelled order, a payment that failed. */
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

export interface OrderMove {
  orderId: number;
  to: OrderStatus;
  /** who moved it: a staff member's id, or checkout, payment-provider, system */
  actor: string;
  now?: Date;
  /** columns the transition sets besides the status (e.g. when it was paid) */
  set?: OrderTransitionFields;
  /** the status the caller knows the order is in (Place Order's hot path: no read first) */
  from?: OrderStatus;
  /** the refund that moved it (a cancellation's), for the stock ledger */
  refundId?: number;
}

/**
 * Moves an order along the transition table inside the caller's transaction. Cancelling (or a
 * failed payment) gives back, through the inventory, the units not given back already (a refund's
 * restock, a return) and its promotions' uses (its code's among them). The status update is guarded, so two staff acting at once
 * cannot both succeed; an order whose cancellation is being refunded does not ship meanwhile.
 */
export async function moveOrder(
  trx: Transaction<DB>,
  { orderId, to, actor, now = new Date(), set = {}, from: expected, refundId }: OrderMove,
): Promise<TransitionResult> {
  const releases = RELEASES_STOCK.includes(to);
  const order =
    expected && !releases
      ? { status: expected }
      : await trx.selectFrom("orders").select(["status"]).where("id", "=", orderId).executeTakeFirst();
  if (!order) return fail({ code: "not-found" });
  const from = order.status;
  if (!canTransition(from, to)) return fail({ code: "not-allowed", from });
  const at = now.toISOString();
  const updated = await trx
    .updateTable("orders")
    .set({ ...set, status: to, updatedAt: at })
    .where("id", "=", orderId)
    .where("status", "=", from)
    .$if(to === "shipped", (q) =>
      q.where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("orderRefunds")
              .select("orderRefunds.id")
              .whereRef("orderRefunds.orderId", "=", "orders.id")
              .where("orderRefunds.kind", "=", "cancel")
              .where("orderRefunds.status", "=", "pending"),
          ),
        ),
      ),
    )
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return fail({ code: "not-allowed", from });
  if (releases) {
    // the units bought and not given back yet (a deleted variant has none to get)
    const items = await trx
      .selectFrom("orderItems")
      .select(["variantId", "quantity", "restockedQuantity"])
      .where("orderId", "=", orderId)
      .execute();
    await giveBackStock(
      trx,
      items.flatMap((item) =>
        item.variantId === null || item.quantity <= item.restockedQuantity
          ? []
          : [{ variantId: item.variantId, quantity: item.quantity - item.restockedQuantity }],
      ),
      {
        reason: to === "cancelled" ? "cancellation" : "payment_failed",
        actor,
        orderId,
        refundId: refundId ?? null,
        now,
      },
    );
    await trx
      .updateTable("orderItems")
      .set((eb) => ({ restockedQuantity: eb.ref("quantity") }))
      .where("orderId", "=", orderId)
      .execute();
    await releasePromotions(trx, orderId, now);
    // an order never paid gives its gift cards back; a paid one's come back with its refunds
    if (from === "pending_payment") await releaseGiftCards(trx, orderId, now);
  }
  await trx
    .insertInto("orderEvents")
    .values({ orderId, fromStatus: from, toStatus: to, actor, createdAt: at })
    .execute();
  // its webhook event (paid, fulfilled, delivered, cancelled, refunded), committed with the move
  await recordOrderEvent(trx, { orderId, to, at });
  return ok({ from, to });
}

/**
 * moveOrder in a transaction of its own, with `inSameTransaction`: more writes that must stand or
 * fall with the transition (e.g. the admin audit entry).
 */
export async function transitionOrder(
  db: Database,
  {
    inSameTransaction,
    ...move
  }: OrderMove & {
    inSameTransaction?: (
      trx: Transaction<DB>,
      change: { from: OrderStatus; to: OrderStatus },
    ) => Promise<void>;
  },
): Promise<TransitionResult> {
  return db.transaction().execute(async (trx): Promise<TransitionResult> => {
    const moved = await moveOrder(trx, move);
    if (moved.ok) await inSameTransaction?.(trx, moved.value);
    return moved;
  });
}
