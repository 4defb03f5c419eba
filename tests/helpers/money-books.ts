import { sql } from "kysely";
import type { Database } from "../../app/db/database.server.ts";

/**
 * The money invariant of issue 28, read off a database that uses the built-in test gateway (whose
 * ledger is the provider's books): for every payment, what the gateway paid back equals what the
 * shop's refunds that succeeded say, and never passes what was paid; for every order, its refunded
 * total is the sum of its refunds that succeeded and never passes its total; nothing is left
 * promised by a pending refund. With gift cards (issue 31): the gateway took the total less what
 * the cards paid, and paid back the refunds less their gift card parts; the cards got back exactly
 * the refunds' gift card parts (movements `refunded`), and a paid order's cards paid what the order
 * says they did. Returns every difference (none: the books balance) and the number
 * of refunds it looked at.
 */
export async function moneyBookDifferences(
  db: Database,
  { allowPending = false }: { allowPending?: boolean } = {},
): Promise<{ differences: string[]; refunds: number }> {
  const differences: string[] = [];
  const payments = await db
    .selectFrom("testGatewayPayments")
    .select(["authorizationId", "amountCents", "refundedCents", "status"])
    .execute();
  const booked = await db
    .selectFrom("orderRefunds")
    .select(["paymentId", sql<number>`sum(amount_cents - gift_card_cents)`.as("total")])
    .where("status", "=", "succeeded")
    .groupBy("paymentId")
    .execute();
  const bookedOf = new Map(booked.map((row) => [row.paymentId, Number(row.total)]));
  for (const payment of payments) {
    const books = bookedOf.get(payment.authorizationId) ?? 0;
    if (payment.refundedCents !== books) {
      differences.push(
        `payment ${payment.authorizationId}: the gateway paid back ${payment.refundedCents}, the books say ${books}`,
      );
    }
    if (payment.refundedCents > payment.amountCents) {
      differences.push(
        `payment ${payment.authorizationId}: ${payment.refundedCents} paid back of ${payment.amountCents}`,
      );
    }
  }
  const orders = await db
    .selectFrom("orders")
    .leftJoin(
      db
        .selectFrom("orderRefunds")
        .select([
          "orderId",
          sql<number>`sum(amount_cents)`.as("total"),
          sql<number>`sum(gift_card_cents)`.as("toCards"),
        ])
        .where("status", "=", "succeeded")
        .groupBy("orderId")
        .as("refunds"),
      "refunds.orderId",
      "orders.id",
    )
    .leftJoin(
      db
        .selectFrom("giftCardMovements")
        .select([
          "orderId",
          sql<number>`sum(case when reason = 'refunded' then amount_cents else 0 end)`.as("refunded"),
          sql<number>`-sum(case when reason in ('redeemed', 'released') then amount_cents else 0 end)`.as(
            "kept",
          ),
        ])
        .groupBy("orderId")
        .as("cards"),
      "cards.orderId",
      "orders.id",
    )
    .leftJoin("testGatewayPayments", "testGatewayPayments.authorizationId", "orders.paymentReference")
    .select([
      "orders.number",
      "orders.totalCents",
      "orders.refundedCents",
      "orders.refundPendingCents",
      "orders.giftCardCents",
      "orders.status",
      "refunds.total",
      "refunds.toCards",
      "cards.refunded",
      "cards.kept",
      "testGatewayPayments.amountCents as charged",
    ])
    .execute();
  for (const order of orders) {
    const refunded = Number(order.total ?? 0);
    if (order.refundedCents !== refunded) {
      differences.push(
        `order ${order.number}: refunded ${order.refundedCents}, its refunds add up to ${refunded}`,
      );
    }
    if (order.refundedCents > order.totalCents) {
      differences.push(`order ${order.number}: refunded ${order.refundedCents} of ${order.totalCents}`);
    }
    if (Number(order.refunded ?? 0) !== Number(order.toCards ?? 0)) {
      differences.push(
        `order ${order.number}: gift cards got back ${Number(order.refunded ?? 0)}, its refunds' gift card parts are ${Number(order.toCards ?? 0)}`,
      );
    }
    const paid =
      !["pending_payment", "payment_failed"].includes(order.status) && order.status !== "cancelled";
    if (paid && Number(order.kept ?? 0) !== order.giftCardCents) {
      differences.push(
        `order ${order.number}: its gift cards paid ${Number(order.kept ?? 0)}, the order says ${order.giftCardCents}`,
      );
    }
    if (order.charged !== null && order.charged !== order.totalCents - order.giftCardCents) {
      differences.push(
        `order ${order.number}: the gateway took ${order.charged} of ${order.totalCents} less ${order.giftCardCents} by gift card`,
      );
    }
    if (!allowPending && order.refundPendingCents !== 0) {
      differences.push(
        `order ${order.number}: ${order.refundPendingCents} still promised by pending refunds`,
      );
    }
  }
  const counted = await db
    .selectFrom("orderRefunds")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return { differences, refunds: Number(counted.n) };
}
