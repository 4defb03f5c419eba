import type { Transaction } from "kysely";
import { engineOf } from "../../db/database.server.ts";
import type { DB, OrderStatus, RefundKind } from "../../db/schema.ts";
import { type Currency, currencyOf } from "../../lib/money.ts";
import { refundShare } from "../../lib/order-calculator.ts";
import type { Actor } from "../audit/audit-log.server.ts";
import { takeBackSoldGiftCards } from "../gift-cards/gift-card-delivery.server.ts";
import { canTransition } from "../orders/order-status.ts";
import { findRefundByKey, type RefundRecord } from "./idempotency.server.ts";
import { refundById } from "./refund-settlement.server.ts";

/**
 * Steps 1 and 2 of a refund (refunds.server.ts, decision 025): the request checked whole against the
 * order as it is (lines normalised and summed per line, gift cards the order sold taken back) and
 * recorded `pending` in one short transaction with guarded updates — never past what is left to
 * refund, never more units of a line than bought less those refunded. Steps 3 and 4 are
 * refund-settlement.server.ts.
 */

/** Orders money can be given back for from the order page (a cancellation refunds a paid one). */
export const REFUNDABLE: readonly OrderStatus[] = ["paid", "delivered", "partially_refunded"];

export interface LineUnits {
  itemId: number;
  quantity: number;
}

export type RefundError =
  /** the acting staff member's role may not give money back */
  | { code: "forbidden" }
  | { code: "not-found" }
  | { code: "not-refundable"; status: OrderStatus }
  | { code: "nothing-chosen" }
  | { code: "too-much"; leftCents: number; currency: Currency }
  | { code: "line-too-much"; name: string }
  /** store credit asked for an order placed without an account */
  | { code: "no-account" }
  /** a gift card line whose cards were used (or are not issued yet): they cannot be taken back */
  | { code: "gift-card-used"; name: string }
  /** the gateway refused it: nothing was paid back */
  | { code: "gateway"; message: string }
  /** the gateway's answer is not known yet: recorded, and settled by the job */
  | { code: "pending" };

/**
 * Lines as the shop counts them: each line once, its units summed, whatever the form called it
 * (`qty.2` and `qty.02` are the same line). Lines of no units are dropped.
 */
export function unitsPerLine(lines: readonly LineUnits[]): LineUnits[] {
  const units = new Map<number, number>();
  for (const { itemId, quantity } of lines) {
    if (!Number.isSafeInteger(itemId) || !Number.isSafeInteger(quantity) || quantity < 0) continue;
    if (quantity > 0) units.set(itemId, (units.get(itemId) ?? 0) + quantity);
  }
  return [...units].sort(([a], [b]) => a - b).map(([itemId, quantity]) => ({ itemId, quantity }));
}

/** What a refund is, once checked: the record step 2 writes. */
interface PlannedRefund {
  kind: RefundKind;
  key: string;
  orderId: number;
  paymentId: string;
  amountCents: number;
  lines: (LineUnits | LinePaidBack)[];
  restock: boolean;
  includesShipping: boolean;
  reason: string;
  returnId: number | null;
  /** what goes back to gift cards or store credit rather than through the gateway */
  giftCardCents: number;
  toStoreCredit: boolean;
  actor: Actor;
  at: string;
}

export interface RunRequest {
  kind: "refund" | "cancel" | "return";
  number: string;
  key: string;
  lines: readonly LineUnits[];
  /** null: the lines' share; "rest": all that is left */
  amountCents: number | null | "rest";
  restock: boolean;
  plusShipping: boolean;
  reason: string;
  returnId: number | null;
  toStoreCredit: boolean;
  actor: Actor;
  now?: Date;
}

/** Thrown inside a transaction that found its refund's key recorded by a twin: rolled back. */
class KeyTaken extends Error {}

/** Thrown inside step 2's transaction to roll it back with the reason. */
export class Refused extends Error {
  readonly error: RefundError;
  constructor(error: RefundError) {
    super(error.code);
    this.error = error;
  }
}

/** Step 1 and 2: the request checked against the order as it is, and recorded pending. */
export async function recordPending(
  trx: Transaction<DB>,
  request: RunRequest,
  now: Date,
): Promise<{ refund: RefundRecord; replayed: boolean }> {
  let lockOrder = trx
    .selectFrom("orders")
    .select([
      "id",
      "status",
      "subtotalCents",
      "shippingCents",
      "shippingTaxCents",
      "taxMode",
      "totalCents",
      "refundedCents",
      "refundPendingCents",
      "paymentReference",
      "currency",
      "giftCardCents",
      "userId",
    ])
    .where("number", "=", request.number);
  // refunds of one order take turns (SQLite's write transactions already do)
  if (engineOf<DB>(trx) === "postgres") lockOrder = lockOrder.forUpdate();
  const order = await lockOrder.executeTakeFirst();
  if (!order) throw new Refused({ code: "not-found" });
  // a twin that waited for the lock finds the refund recorded
  const twin = await findRefundByKey(trx, request.key);
  if (twin) return { refund: twin, replayed: true };
  const currency = currencyOf(order.currency);
  const allowed =
    request.kind === "cancel" ? canTransition(order.status, "cancelled") : REFUNDABLE.includes(order.status);
  if (!allowed || !order.paymentReference)
    throw new Refused({ code: "not-refundable", status: order.status });
  const leftCents = order.totalCents - order.refundedCents - order.refundPendingCents;

  const shares = await linesPaidBack(trx, order, unitsPerLine(request.lines));
  // an amount given (or "all that is left") is what goes back; the lines are then only units
  const lines =
    request.amountCents === null
      ? shares
      : shares.map(({ itemId, quantity }) => ({ itemId, quantity, amountCents: null, taxCents: null }));
  let amountCents =
    request.amountCents === "rest"
      ? leftCents
      : (request.amountCents ?? shares.reduce((sum, line) => sum + (line.amountCents ?? 0), 0));
  let includesShipping = false;
  // shipping as the shopper paid it: with its tax when the tax was added on top
  const shippingPaid = order.shippingCents + (order.taxMode === "exclusive" ? order.shippingTaxCents : 0);
  if (request.plusShipping && shippingPaid > 0) {
    const given = await trx
      .selectFrom("orderRefunds")
      .select("id")
      .where("orderId", "=", order.id)
      .where("includesShipping", "=", 1)
      .where("status", "!=", "failed")
      .executeTakeFirst();
    if (!given) {
      amountCents += shippingPaid;
      includesShipping = true;
    }
  }
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new Refused({ code: "nothing-chosen" });
  if (amountCents > leftCents) throw new Refused({ code: "too-much", leftCents, currency });
  if (request.toStoreCredit && !order.userId) throw new Refused({ code: "no-account" });
  // gift cards the order sold come back with their lines (a cancellation: all that is left of them)
  const cardsBack = await takeBackSoldGiftCards(trx, {
    orderId: order.id,
    lines: request.kind === "cancel" ? await unitsLeft(trx, order.id) : lines,
    at: now.toISOString(),
  });
  if (cardsBack) throw new Refused({ code: "gift-card-used", name: await itemName(trx, cardsBack.itemId) });
  const giftCardCents = await giftCardPartOf(trx, order, amountCents, request.toStoreCredit);
  const id = await insertPending(trx, {
    kind: request.kind,
    key: request.key,
    orderId: order.id,
    paymentId: order.paymentReference,
    amountCents,
    lines,
    restock: request.restock && lines.length > 0,
    includesShipping,
    reason: request.reason,
    returnId: request.returnId,
    giftCardCents,
    toStoreCredit: request.toStoreCredit,
    actor: request.actor,
    at: now.toISOString(),
  });
  if (id === null) throw new Refused({ code: "too-much", leftCents, currency });
  return { refund: (await refundById(trx, id))!, replayed: false };
}

/**
 * What of a refund goes back to gift cards or store credit: all of it as store credit when staff
 * choose so; else the gateway pays back first, up to what it took less what refunds not failed
 * already ask of it, and the gift cards the rest (so neither ever pays back more than it took).
 */
async function giftCardPartOf(
  trx: Transaction<DB>,
  order: { id: number; totalCents: number; giftCardCents: number },
  amountCents: number,
  toStoreCredit: boolean,
): Promise<number> {
  if (toStoreCredit) return amountCents;
  if (order.giftCardCents === 0) return 0;
  const asked = await trx
    .selectFrom("orderRefunds")
    .select((eb) =>
      eb.fn
        .coalesce(eb.fn.sum<number>(eb("amountCents", "-", eb.ref("giftCardCents"))), eb.lit(0))
        .as("cents"),
    )
    .where("orderId", "=", order.id)
    .where("status", "!=", "failed")
    .executeTakeFirstOrThrow();
  const gatewayLeft = Math.max(0, order.totalCents - order.giftCardCents - Number(asked.cents));
  return amountCents - Math.min(amountCents, gatewayLeft);
}

/** Every line's units not refunded yet (what a cancellation takes back). */
async function unitsLeft(trx: Transaction<DB>, orderId: number): Promise<LineUnits[]> {
  const items = await trx
    .selectFrom("orderItems")
    .select(["id", "quantity", "refundedQuantity"])
    .where("orderId", "=", orderId)
    .execute();
  return items
    .map((item) => ({ itemId: item.id, quantity: item.quantity - item.refundedQuantity }))
    .filter((line) => line.quantity > 0);
}

async function itemName(trx: Transaction<DB>, itemId: number): Promise<string> {
  const item = await trx.selectFrom("orderItems").select("name").where("id", "=", itemId).executeTakeFirst();
  return item?.name ?? String(itemId);
}

/** A line of a refund: its units, and what they pay back with the tax in it (null: an amount was given). */
interface LinePaidBack extends LineUnits {
  amountCents: number | null;
  taxCents: number | null;
}

/**
 * Each line's units checked against what is left of it, and their share of what the shopper paid
 * for it by the figures the order kept (its rates, its discount's share: `refundShare`). An order
 * placed before it kept them (migration 2026-11-28T0400) shares what was paid for the goods by
 * their prices, as refunds did then.
 */
async function linesPaidBack(
  trx: Transaction<DB>,
  order: { id: number; subtotalCents: number; totalCents: number; shippingCents: number },
  lines: readonly LineUnits[],
): Promise<LinePaidBack[]> {
  if (lines.length === 0) return [];
  const items = await trx
    .selectFrom("orderItems")
    .select(["id", "name", "quantity", "refundedQuantity", "unitPriceCents", "grossCents", "taxCents"])
    .where("orderId", "=", order.id)
    .execute();
  const goodsPaid = order.totalCents - order.shippingCents;
  return lines.map((line) => {
    const item = items.find((i) => i.id === line.itemId);
    if (!item || line.quantity > item.quantity - item.refundedQuantity) {
      throw new Refused({ code: "line-too-much", name: item?.name ?? String(line.itemId) });
    }
    if (item.grossCents !== null && item.taxCents !== null) {
      const share = refundShare(
        { quantity: item.quantity, grossCents: item.grossCents, taxCents: item.taxCents },
        item.refundedQuantity,
        line.quantity,
      );
      return { ...line, ...share };
    }
    const value = item.unitPriceCents * line.quantity;
    const amountCents = order.subtotalCents > 0 ? Math.floor((value * goodsPaid) / order.subtotalCents) : 0;
    return { ...line, amountCents, taxCents: null };
  });
}

/**
 * The pending refund's row, its lines' units counted as refunded and its amount as promised, each
 * with a guarded update; null when a guard refuses (the caller rolls back) or the key is taken.
 */
export async function insertPending(trx: Transaction<DB>, plan: PlannedRefund): Promise<number | null> {
  const promised = await trx
    .updateTable("orders")
    .set((eb) => ({
      refundPendingCents: eb("refundPendingCents", "+", plan.amountCents),
      updatedAt: plan.at,
    }))
    .where("id", "=", plan.orderId)
    .where((eb) =>
      eb(
        eb(eb("refundedCents", "+", eb.ref("refundPendingCents")), "+", plan.amountCents),
        "<=",
        eb.ref("totalCents"),
      ),
    )
    .executeTakeFirst();
  if (Number(promised.numUpdatedRows) !== 1) return null;
  const row = await trx
    .insertInto("orderRefunds")
    .values({
      orderId: plan.orderId,
      idempotencyKey: plan.key,
      amountCents: plan.amountCents,
      reason: plan.reason,
      restocked: plan.restock ? 1 : 0,
      includesShipping: plan.includesShipping ? 1 : 0,
      gatewayRefundId: "",
      actor: plan.actor.id,
      createdAt: plan.at,
      status: "pending",
      kind: plan.kind,
      returnId: plan.returnId,
      paymentId: plan.paymentId,
      giftCardCents: plan.giftCardCents,
      toStoreCredit: plan.toStoreCredit ? 1 : 0,
    })
    .onConflict((oc) => oc.column("idempotencyKey").doNothing())
    .returning("id")
    .executeTakeFirst();
  // the key is taken: a twin recorded this refund (the caller rolls back and finds it)
  if (!row) throw new KeyTaken();
  for (const line of plan.lines) {
    const counted = await trx
      .updateTable("orderItems")
      .set((eb) => ({ refundedQuantity: eb("refundedQuantity", "+", line.quantity) }))
      .where("id", "=", line.itemId)
      .where("orderId", "=", plan.orderId)
      .where((eb) => eb(eb("refundedQuantity", "+", line.quantity), "<=", eb.ref("quantity")))
      .executeTakeFirst();
    if (Number(counted.numUpdatedRows) !== 1) return null;
  }
  if (plan.lines.length > 0) {
    await trx
      .insertInto("orderRefundItems")
      .values(
        plan.lines.map((line) => ({
          refundId: row.id,
          orderItemId: line.itemId,
          quantity: line.quantity,
          amountCents: "amountCents" in line ? line.amountCents : null,
          taxCents: "taxCents" in line ? line.taxCents : null,
        })),
      )
      .execute();
  }
  return row.id;
}
