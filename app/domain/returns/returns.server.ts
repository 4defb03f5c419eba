import { randomBytes } from "node:crypto";
import { logger } from "../../adapters/logger.server.ts";
import type { Mailer } from "../../adapters/mail/mail-message.ts";
import type { PaymentGateway } from "../../adapters/payments/payment-gateway.ts";
import type { Database } from "../../db/database.server.ts";
import { syncProductSummary } from "../../db/variant-summary.server.ts";
import { type Currency, currencyOf, formatMoney } from "../../lib/money.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { type Actor, recordAudit } from "../audit/audit-log.server.ts";
import { type RefundError, refundOrder } from "../orders/order-refund.server.ts";
import { canMoveReturn, RETURN_WINDOW_DAYS, type ReturnStatus } from "./return-status.ts";

/**
 * Returns within 30 days of delivery (issue 19): a shopper asks to send delivered lines back (the
 * route has checked it is their order), staff approve or reject it, mark it received (the units go
 * back into stock) and refund it — each returned line's share of what was paid for the goods, as a
 * refund by line does (order-refund.server.ts); shipping is given back only for a faulty, damaged
 * or wrong item, as the returns page says. Every step is a guarded
 * move along the return's transition table (return-status.ts), e-mailed to the customer, audited.
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
  const chosen = lines.filter((line) => line.quantity > 0);
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
  | { code: "not-found" }
  | { code: "not-allowed"; from: ReturnStatus }
  | { code: "refund"; message: string };

/**
 * Staff move a return: approve, reject (with a reason for the customer), receive (its units go
 * back into stock) or refund (through refundOrder, under the return's own key: a retry refunds once).
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
  }: { number: string; to: ReturnStatus; actor: Actor; rejectionReason?: string | null; now?: Date },
): Promise<Result<{ from: ReturnStatus; to: ReturnStatus }, MoveReturnError>> {
  const found = await getReturn(db, number);
  if (!found) return fail({ code: "not-found" });
  const from = found.status;
  if (!canMoveReturn(from, to)) return fail({ code: "not-allowed", from });
  let refundCents: number | null = null;
  if (to === "refunded") {
    const refund = await refundOrder(db, services.gateway, services.mail, services.shop, {
      number: found.orderNumber,
      key: `return:${found.number}`,
      lines: found.items.map((item) => ({ itemId: item.orderItemId, quantity: item.quantity })),
      amountCents: null,
      restock: false, // received: already back in stock
      // the returns page: a faulty, damaged or wrong item also gets its shipping back
      plusShipping: SHIPPING_BACK.has(found.reason),
      reason: `Return ${found.number}`,
      actor,
      now,
    });
    if (!refund.ok) return fail({ code: "refund", message: refundMessage(refund.error, found.currency) });
    refundCents = refund.value.amountCents;
  }
  const at = now.toISOString();
  const moved = await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("returns")
      .set({
        status: to,
        updatedAt: at,
        ...(to === "rejected" ? { rejectionReason } : {}),
        ...(refundCents !== null ? { refundCents } : {}),
      })
      .where("id", "=", found.id)
      .where("status", "=", from)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    if (to === "received") {
      const products = new Set<number>();
      for (const item of found.items) {
        if (item.variantId === null) continue;
        await trx
          .updateTable("productVariants")
          .set((eb) => ({ stock: eb("stock", "+", item.quantity) }))
          .where("id", "=", item.variantId)
          .execute();
        if (item.productId !== null) products.add(item.productId);
      }
      for (const productId of [...products].sort((a, b) => a - b)) await syncProductSummary(trx, productId);
    }
    await recordAudit(trx, {
      actor,
      action: "return.update",
      entityType: "return",
      entityId: number,
      summary: `Return ${number} (order ${found.orderNumber}): ${from} → ${to}${to === "received" ? " (stock restored)" : ""}${refundCents !== null ? `, ${formatMoney(refundCents, found.currency)} refunded` : ""}`,
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
  const subject = `${services.shop.shopName}: return ${number} ${to === "approved" ? "approved" : to === "rejected" ? "not accepted" : to === "received" ? "received" : "refunded"}`;
  const body =
    to === "approved"
      ? [
          "Your return is approved. Pack the items with the return number on a note inside and send them to our returns address (see our returns page).",
        ]
      : to === "rejected"
        ? ["We cannot accept this return.", rejectionReason ? `Why: ${rejectionReason}` : ""]
        : to === "received"
          ? ["Your items have arrived. The refund follows shortly."]
          : [`We have refunded ${formatMoney(refundCents ?? 0, found.currency)} to the card you paid with.`];
  await send(services.mail, found.email, subject, [
    `Return ${number} for order ${found.orderNumber}.`,
    ...body,
  ]);
  return ok({ from, to });
}

function refundMessage(error: RefundError, currency: Currency): string {
  switch (error.code) {
    case "gateway":
      return error.message;
    case "too-much":
      return `at most ${formatMoney(error.leftCents, currency)} can be refunded`;
    case "not-refundable":
      return `the order is ${error.status.replace("_", " ")}`;
    default:
      return "the order's lines cannot be refunded";
  }
}

async function send(mail: Mailer, to: string, subject: string, paragraphs: string[]) {
  await mail
    .send({ to, subject, text: paragraphs.filter(Boolean).join("\n\n") })
    .catch((error: unknown) => logger.warn({ err: error, subject }, "return e-mail failed"));
}
