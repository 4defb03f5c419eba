import { randomBytes } from "node:crypto";
import { logger } from "../../adapters/logger.server.ts";
import type { Mailer } from "../../adapters/mail/mail-message.ts";
import type { PaymentGateway } from "../../adapters/payments/payment-gateway.ts";
import type { Database } from "../../db/database.server.ts";
import { type Currency, currencyOf } from "../../lib/money.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { actorCan } from "../../lib/staff-roles.ts";
import { recordAudit, type StaffActor } from "../audit/audit-log.server.ts";
import { recordEvent } from "../integrations/webhook-outbox.server.ts";
import { giveBackStock } from "../inventory/inventory.server.ts";
import {
  type RefundError,
  refundRefusalMessage,
  refundReturn,
  unitsPerLine,
} from "../payments/refunds.server.ts";
import { canMoveReturn, RETURN_WINDOW_DAYS, type ReturnStatus } from "./return-status.ts";

/**
 * Returns within 30 days of delivery (issue 19): a shopper asks to send delivered lines back (the
 * route has checked it is their order), staff approve or reject it, mark it received (the units go
 * back into stock, through the inventory) and refund it — each returned line's share of what was
 * paid for the goods, through the refund workflow (payments/refunds.server.ts), which marks the
 * return refunded in the transaction that records the money; shipping is given back only for a
 * faulty, damaged or wrong item, as the returns page says. Every step is a guarded move along the
 * return's transition table (return-status.ts), e-mailed to the customer, audited. Staff moves need
 * the `returns` permission, checked here.
 */
const DAY_MS = 24 * 60 * 60_000;
const SHIPPING_BACK = new Set<string>(["Arrived damaged or faulty", "Wrong item sent"]);
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

function newReturnNumber(): string {
  let suffix = "";
  for (const byte of randomBytes(10)) suffix += ALPHABET[byte & 31];
  return `RT-${suffix}`;
}

export interface ReturnableOrder {
  orderId: number;
  email: string;
  /** the last day a return can be asked for (YYYY-MM-DD) */
  closesOn: string;
  lines: { itemId: number; name: string; variantTitle: string; returnable: number }[];
}

/** What of an order can still be returned now, or why nothing can. */
export async function returnableOrder(
  db: Database,
  orderNumber: string,
  now = new Date(),
): Promise<
  Result<ReturnableOrder, { code: "not-found" } | { code: "not-delivered" } | { code: "window-closed" }>
> {
  const order = await db
    .selectFrom("orders")
    .select(["id", "email", "status"])
    .where("number", "=", orderNumber)
    .executeTakeFirst();
  if (!order) return fail({ code: "not-found" });
  const delivered = await db
    .selectFrom("orderEvents")
    .select("createdAt")
    .where("orderId", "=", order.id)
    .where("toStatus", "=", "delivered")
    .orderBy("id", "desc")
    .executeTakeFirst();
  if (!delivered || !["delivered", "partially_refunded"].includes(order.status))
    return fail({ code: "not-delivered" });
  const closes = new Date(new Date(delivered.createdAt).getTime() + RETURN_WINDOW_DAYS * DAY_MS);
  if (now > closes) return fail({ code: "window-closed" });
  const items = await db
    .selectFrom("orderItems")
    .select(["id", "name", "variantTitle", "quantity", "refundedQuantity"])
    .select((eb) =>
      eb
        .selectFrom("returnItems")
        .innerJoin("returns", "returns.id", "returnItems.returnId")
        .select((inner) =>
          inner.fn.coalesce(inner.fn.sum<number>("returnItems.quantity"), inner.lit(0)).as("n"),
        )
        .whereRef("returnItems.orderItemId", "=", "orderItems.id")
        .where("returns.status", "not in", ["rejected", "refunded"])
        .as("requested"),
    )
    .where("orderId", "=", order.id)
    .orderBy("id")
    .execute();
  return ok({
    orderId: order.id,
    email: order.email,
    closesOn: closes.toISOString().slice(0, 10),
    lines: items.map((item) => ({
      itemId: item.id,
      name: item.name,
      variantTitle: item.variantTitle,
      returnable: Math.max(0, item.quantity - item.refundedQuantity - Number(item.requested ?? 0)),
    })),
  });
}

/** `return.requested` / `return.received` data (webhooks, decision 039): the return and its lines. */
export interface ReturnEventData {
  number: string;
  orderNumber: string;
  reason: string;
  items: { orderItemId: number; quantity: number }[];
}

export type ReturnRequestError =
  | { code: "not-found" }
  | { code: "not-delivered" }
  | { code: "window-closed" }
  | { code: "nothing-chosen" }
  | { code: "too-many"; name: string };

/** The shopper's request; the caller has checked the order is theirs. */
export async function requestReturn(
  db: Database,
  mail: Mailer,
  shop: { shopName: string; publicUrl: string },
  {
    orderNumber,
    lines,
    reason,
    now = new Date(),
  }: { orderNumber: string; lines: { itemId: number; quantity: number }[]; reason: string; now?: Date },
): Promise<Result<{ number: string }, ReturnRequestError>> {
  const order = await returnableOrder(db, orderNumber, now);
  if (!order.ok) return order;
  // each line once, its units summed, however the form named it
  const chosen = unitsPerLine(lines);
  if (chosen.length === 0) return fail({ code: "nothing-chosen" });
  for (const line of chosen) {
    const item = order.value.lines.find((l) => l.itemId === line.itemId);
    if (!item || line.quantity > item.returnable)
      return fail({ code: "too-many", name: item?.name ?? "this item" });
  }
  const number = newReturnNumber();
  const at = now.toISOString();
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("returns")
      .values({
        number,
        orderId: order.value.orderId,
        status: "requested",
        reason,
        createdAt: at,
        updatedAt: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("returnItems")
      .values(chosen.map((line) => ({ returnId: row.id, orderItemId: line.itemId, quantity: line.quantity })))
      .execute();
    const data: ReturnEventData = {
      number,
      orderNumber,
      reason,
      items: chosen.map((line) => ({ orderItemId: line.itemId, quantity: line.quantity })),
    };
    await recordEvent(trx, "return.requested", { subjectId: row.id, data, at: now });
  });
  const items = chosen
    .map((line) => `${line.quantity} x ${order.value.lines.find((l) => l.itemId === line.itemId)!.name}`)
    .join("\n");
  await send(mail, order.value.email, `${shop.shopName}: return ${number} for order ${orderNumber}`, [
    `We have your return request ${number} for order ${orderNumber}:`,
    items,
    `Reason: ${reason}`,
    "What happens next: we check the request within 2 business days and e-mail you. Once it is approved, pack the items with the return number on a note inside and send them to our returns address (see our returns page). When they arrive we refund them to the card you paid with.",
    `Returns page: ${new URL("/help/returns", shop.publicUrl).toString()}`,
  ]);
  return ok({ number });
}

export interface ReturnDetail {
  id: number;
  number: string;
  status: ReturnStatus;
  reason: string;
  rejectionReason: string | null;
  refundCents: number | null;
  createdAt: string;
  orderNumber: string;
  email: string;
  /** the order's currency (the refund is in it) */
  currency: Currency;
  items: {
    orderItemId: number;
    variantId: number | null;
    productId: number | null;
    name: string;
    variantTitle: string;
    quantity: number;
  }[];
}

export async function getReturn(db: Database, number: string): Promise<ReturnDetail | null> {
  const row = await db
    .selectFrom("returns")
    .innerJoin("orders", "orders.id", "returns.orderId")
    .select([
      "returns.id",
      "returns.number",
      "returns.status",
      "returns.reason",
      "returns.rejectionReason",
      "returns.refundCents",
      "returns.createdAt",
      "orders.number as orderNumber",
      "orders.email",
      "orders.currency",
    ])
    .where("returns.number", "=", number)
    .executeTakeFirst();
  if (!row) return null;
  const items = await db
    .selectFrom("returnItems")
    .innerJoin("orderItems", "orderItems.id", "returnItems.orderItemId")
    .select([
      "returnItems.orderItemId",
      "orderItems.variantId",
      "orderItems.productId",
      "orderItems.name",
      "orderItems.variantTitle",
      "returnItems.quantity",
    ])
    .where("returnItems.returnId", "=", row.id)
    .orderBy("returnItems.id")
    .execute();
  return { ...row, currency: currencyOf(row.currency), items };
}

export const RETURNS_PAGE_SIZE = 25;

/** Returns newest first, optionally of one status. */
export async function listReturns(
  db: Database,
  { status = null, page = 1 }: { status?: ReturnStatus | null; page?: number } = {},
) {
  const rows = await db
    .selectFrom("returns")
    .innerJoin("orders", "orders.id", "returns.orderId")
    .select([
      "returns.number",
      "returns.status",
      "returns.createdAt",
      "orders.number as orderNumber",
      "orders.email",
    ])
    .$if(status !== null, (q) => q.where("returns.status", "=", status!))
    .orderBy("returns.createdAt", "desc")
    .orderBy("returns.id", "desc")
    .limit(RETURNS_PAGE_SIZE + 1)
    .offset((Math.max(1, page) - 1) * RETURNS_PAGE_SIZE)
    .execute();
  return { returns: rows.slice(0, RETURNS_PAGE_SIZE), page, hasMore: rows.length > RETURNS_PAGE_SIZE };
}

export type MoveReturnError =
  | { code: "forbidden" }
  | { code: "not-found" }
  | { code: "not-allowed"; from: ReturnStatus }
  | { code: "refund"; message: string }
  /** the refund waits for the payment provider's answer: the return becomes refunded with it */
  | { code: "refund-pending" };

/**
 * Staff move a return: approve, reject (with a reason for the customer), receive (its units go
 * back into stock) or refund (through the refund workflow, under the return's own key: a retry
 * refunds once, and the return becomes refunded with its money).
 */
export async function moveReturn(
  db: Database,
  services: { gateway: PaymentGateway; mail: Mailer; shop: { shopName: string; publicUrl: string } },
  {
    number,
    to,
    actor,
    rejectionReason = null,
    now = new Date(),
  }: { number: string; to: ReturnStatus; actor: StaffActor; rejectionReason?: string | null; now?: Date },
): Promise<Result<{ from: ReturnStatus; to: ReturnStatus }, MoveReturnError>> {
  if (!actorCan(actor, "returns")) return fail({ code: "forbidden" });
  const found = await getReturn(db, number);
  if (!found) return fail({ code: "not-found" });
  const from = found.status;
  if (!canMoveReturn(from, to)) return fail({ code: "not-allowed", from });
  if (to === "refunded") {
    const refund = await refundReturn(
      { db, ...services },
      {
        number: found.orderNumber,
        returnId: found.id,
        returnNumber: found.number,
        lines: found.items.map((item) => ({ itemId: item.orderItemId, quantity: item.quantity })),
        // the returns page: a faulty, damaged or wrong item also gets its shipping back
        plusShipping: SHIPPING_BACK.has(found.reason),
        actor,
        now,
      },
    );
    if (!refund.ok) {
      if (refund.error.code === "forbidden") return fail({ code: "forbidden" });
      if (refund.error.code === "pending") return fail({ code: "refund-pending" });
      return fail({ code: "refund", message: refundMessage(refund.error) });
    }
    return ok({ from, to });
  }
  const at = now.toISOString();
  const moved = await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("returns")
      .set({ status: to, updatedAt: at, ...(to === "rejected" ? { rejectionReason } : {}) })
      .where("id", "=", found.id)
      .where("status", "=", from)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    if (to === "received") {
      await giveBackStock(
        trx,
        found.items.flatMap((item) =>
          item.variantId === null ? [] : [{ variantId: item.variantId, quantity: item.quantity }],
        ),
        { reason: "return_received", actor: actor.id, returnId: found.id, now },
      );
      for (const item of found.items) {
        await trx
          .updateTable("orderItems")
          .set((eb) => ({ restockedQuantity: eb("restockedQuantity", "+", item.quantity) }))
          .where("id", "=", item.orderItemId)
          .where((eb) => eb(eb("restockedQuantity", "+", item.quantity), "<=", eb.ref("quantity")))
          .execute();
      }
      const data: ReturnEventData = {
        number,
        orderNumber: found.orderNumber,
        reason: found.reason,
        items: found.items.map((item) => ({ orderItemId: item.orderItemId, quantity: item.quantity })),
      };
      await recordEvent(trx, "return.received", { subjectId: found.id, data, at: now });
    }
    await recordAudit(trx, {
      actor,
      action: "return.update",
      entityType: "return",
      entityId: number,
      summary: `Return ${number} (order ${found.orderNumber}): ${from} → ${to}${to === "received" ? " (stock restored)" : ""}`,
      before: { status: from },
      after: { status: to },
      now,
    });
    return true;
  });
  if (!moved) {
    const current = await getReturn(db, number);
    return fail({ code: "not-allowed", from: current?.status ?? from });
  }
  const subject = `${services.shop.shopName}: return ${number} ${to === "approved" ? "approved" : to === "rejected" ? "not accepted" : "received"}`;
  const body =
    to === "approved"
      ? [
          "Your return is approved. Pack the items with the return number on a note inside and send them to our returns address (see our returns page).",
        ]
      : to === "rejected"
        ? ["We cannot accept this return.", rejectionReason ? `Why: ${rejectionReason}` : ""]
        : ["Your items have arrived. The refund follows shortly."];
  await send(services.mail, found.email, subject, [
    `Return ${number} for order ${found.orderNumber}.`,
    ...body,
  ]);
  return ok({ from, to });
}

function refundMessage(error: RefundError): string {
  return error.code === "gateway" ? error.message : refundRefusalMessage(error);
}

async function send(mail: Mailer, to: string, subject: string, paragraphs: string[]) {
  await mail
    .send({ to, subject, text: paragraphs.filter(Boolean).join("\n\n") })
    .catch((error: unknown) => logger.warn({ err: error, subject }, "return e-mail failed"));
}
