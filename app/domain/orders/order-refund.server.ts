import { logger } from "../../adapters/logger.server.ts";
import type { Mailer } from "../../adapters/mail/mail-message.ts";
import type { PaymentGateway } from "../../adapters/payments/payment-gateway.ts";
import type { Database } from "../../db/database.server.ts";
import type { OrderStatus } from "../../db/schema.ts";
import { syncProductSummary } from "../../db/variant-summary.server.ts";
import { type Currency, currencyOf, formatMoney } from "../../lib/money.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { type Actor, recordAudit } from "../audit/audit-log.server.ts";
import { canTransition } from "./order-status.ts";

/**
 * Refunds from the admin (decision 020): all or part of a paid or delivered order, by line and
 * quantity (each line's share of what the shopper paid for the goods: its price less its share of
 * the discount, plus tax; shipping is not refunded by line) or by an amount no greater than what is
 * left, optionally putting the refunded units back in stock. The gateway refunds first, outside
 * any transaction, under the form's own key (a double click refunds once); one short transaction
 * then records it with guarded updates, so neither money nor units are ever refunded twice, under
 * concurrency too. The customer gets an e-mail; the audit log records it.
 */
export const REFUNDABLE: readonly OrderStatus[] = ["paid", "delivered", "partially_refunded"];

export interface RefundRequest {
  number: string;
  /** one per refund form shown */
  key: string;
  /** lines and quantities to refund; or none, with amountCents */
  lines: { itemId: number; quantity: number }[];
  amountCents: number | null;
  restock: boolean;
  /** also give the shipping back (once per order): a faulty, damaged or wrong item */
  plusShipping?: boolean;
  reason: string;
  actor: Actor;
  now?: Date;
}

export type RefundError =
  | { code: "not-found" }
  | { code: "not-refundable"; status: OrderStatus }
  | { code: "nothing-chosen" }
  | { code: "too-much"; leftCents: number; currency: Currency }
  | { code: "line-too-much"; name: string }
  | { code: "gateway"; message: string };

export type RefundOutcome = Result<
  /** `currency`: the order's, which the amounts are in */
  { amountCents: number; currency: Currency; status: OrderStatus; replayed: boolean },
  RefundError
>;

class RefundConflict extends Error {}

export async function refundOrder(
  db: Database,
  gateway: PaymentGateway,
  mail: Mailer,
  shop: { shopName: string },
  request: RefundRequest,
): Promise<RefundOutcome> {
  const order = await db
    .selectFrom("orders")
    .select([
      "id",
      "email",
      "status",
      "subtotalCents",
      "discountCents",
      "shippingCents",
      "totalCents",
      "refundedCents",
      "paymentReference",
      "currency",
    ])
    .where("number", "=", request.number)
    .executeTakeFirst();
  if (!order) return fail({ code: "not-found" });
  const replay = await db
    .selectFrom("orderRefunds")
    .select("amountCents")
    .where("idempotencyKey", "=", request.key)
    .executeTakeFirst();
  const currency = currencyOf(order.currency);
  if (replay) return ok({ amountCents: replay.amountCents, currency, status: order.status, replayed: true });
  if (!REFUNDABLE.includes(order.status)) return fail({ code: "not-refundable", status: order.status });

  const items = await db
    .selectFrom("orderItems")
    .select(["id", "name", "quantity", "refundedQuantity", "unitPriceCents", "variantId", "productId"])
    .where("orderId", "=", order.id)
    .execute();
  const chosen = request.lines.filter((line) => line.quantity > 0);
  let amountCents = request.amountCents ?? 0;
  if (chosen.length > 0) {
    // what the shopper paid for the goods, shared by their prices: less the discount, plus the tax
    const goodsPaid = order.totalCents - order.shippingCents;
    let value = 0;
    for (const line of chosen) {
      const item = items.find((i) => i.id === line.itemId);
      if (!item || line.quantity > item.quantity - item.refundedQuantity) {
        return fail({ code: "line-too-much", name: item?.name ?? String(line.itemId) });
      }
      value += item.unitPriceCents * line.quantity;
    }
    amountCents = order.subtotalCents > 0 ? Math.floor((value * goodsPaid) / order.subtotalCents) : 0;
  }
  let shippingBack = false;
  if (request.plusShipping && order.shippingCents > 0) {
    const given = await db
      .selectFrom("orderRefunds")
      .select("id")
      .where("orderId", "=", order.id)
      .where("includesShipping", "=", 1)
      .executeTakeFirst();
    if (!given) {
      amountCents += order.shippingCents;
      shippingBack = true;
    }
  }
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) return fail({ code: "nothing-chosen" });
  const leftCents = order.totalCents - order.refundedCents;
  if (amountCents > leftCents) return fail({ code: "too-much", leftCents, currency });

  const refund = await gateway.refund({
    authorizationId: order.paymentReference,
    amountCents,
    idempotencyKey: `refund:${request.key}`,
  });
  if (!refund.ok) {
    return refund.code === "amount_too_large"
      ? fail({ code: "too-much", leftCents, currency })
      : fail({ code: "gateway", message: refund.message });
  }

  const at = (request.now ?? new Date()).toISOString();
  let status: OrderStatus | null;
  try {
    status = await db.transaction().execute(async (trx): Promise<OrderStatus | null> => {
      // the refund's row first: a twin submission of the same form waits for this one, then stops here
      const recorded = await trx
        .insertInto("orderRefunds")
        .values({
          orderId: order.id,
          idempotencyKey: request.key,
          amountCents,
          reason: request.reason,
          restocked: request.restock && chosen.length > 0 ? 1 : 0,
          includesShipping: shippingBack ? 1 : 0,
          gatewayRefundId: refund.refundId,
          actor: request.actor.id,
          createdAt: at,
        })
        .onConflict((oc) => oc.column("idempotencyKey").doNothing())
        .executeTakeFirst();
      if (Number(recorded.numInsertedOrUpdatedRows ?? 0) === 0) return null;
      const taken = await trx
        .updateTable("orders")
        .set((eb) => ({ refundedCents: eb("refundedCents", "+", amountCents), updatedAt: at }))
        .where("id", "=", order.id)
        .where("status", "in", REFUNDABLE)
        .where((eb) => eb(eb("refundedCents", "+", amountCents), "<=", eb.ref("totalCents")))
        .returning(["status", "refundedCents", "totalCents"])
        .executeTakeFirst();
      if (!taken) throw new RefundConflict("the order changed meanwhile");
      const to: OrderStatus = taken.refundedCents === taken.totalCents ? "refunded" : "partially_refunded";
      if (!canTransition(taken.status, to)) throw new RefundConflict(`${taken.status} → ${to}`);
      await trx.updateTable("orders").set({ status: to }).where("id", "=", order.id).execute();
      await trx
        .insertInto("orderEvents")
        .values({
          orderId: order.id,
          fromStatus: taken.status,
          toStatus: to,
          actor: request.actor.id,
          createdAt: at,
        })
        .execute();
      const returned = new Set<number>();
      for (const line of chosen) {
        const counted = await trx
          .updateTable("orderItems")
          .set((eb) => ({ refundedQuantity: eb("refundedQuantity", "+", line.quantity) }))
          .where("id", "=", line.itemId)
          .where((eb) => eb(eb("refundedQuantity", "+", line.quantity), "<=", eb.ref("quantity")))
          .executeTakeFirst();
        if (Number(counted.numUpdatedRows) !== 1) throw new RefundConflict("a line was refunded meanwhile");
        const item = items.find((i) => i.id === line.itemId)!;
        if (request.restock && item.variantId !== null) {
          await trx
            .updateTable("productVariants")
            .set((eb) => ({ stock: eb("stock", "+", line.quantity) }))
            .where("id", "=", item.variantId)
            .execute();
          if (item.productId !== null) returned.add(item.productId);
        }
      }
      for (const productId of [...returned].sort((a, b) => a - b)) await syncProductSummary(trx, productId);

      await recordAudit(trx, {
        actor: request.actor,
        action: "order.refund",
        entityType: "order",
        entityId: request.number,
        summary: `Order ${request.number}: ${formatMoney(amountCents, currency)} refunded${returned.size > 0 ? " (stock restored)" : ""}${request.reason ? ` — ${request.reason}` : ""}`,
        before: { status: taken.status, refundedCents: taken.refundedCents - amountCents },
        after: { status: to, refundedCents: taken.refundedCents },
        now: request.now,
      });
      return to;
    });
  } catch (error) {
    if (!(error instanceof RefundConflict)) throw error;
    // the gateway refunded, the order could not record it: staff must see it in the log
    logger.error(
      { err: error, order: request.number, amountCents },
      "a refund went through but was not recorded",
    );
    return fail({
      code: "gateway",
      message: `The refund went through but the order changed meanwhile: ${error.message}`,
    });
  }
  if (status === null) {
    const current = await db
      .selectFrom("orders")
      .select("status")
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    return ok({ amountCents, currency, status: current.status, replayed: true });
  }
  await mail
    .send({
      to: order.email,
      subject: `${shop.shopName}: ${formatMoney(amountCents, currency)} refunded for order ${request.number}`,
      text: [
        `We have refunded ${formatMoney(amountCents, currency)} for your order ${request.number}.`,
        request.reason ? `Reason: ${request.reason}` : "",
        "It goes back to the card you paid with and usually shows within 5–10 business days.",
      ]
        .filter(Boolean)
        .join("\n\n"),
    })
    .catch((error: unknown) => logger.warn({ err: error, order: request.number }, "refund e-mail failed"));
  return ok({ amountCents, currency, status, replayed: false });
}
