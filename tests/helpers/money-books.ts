import { sql } from "kysely";
import type { Database } from "../../app/db/database.server.ts";

/**
 * The money invariant of issue 28, read off a database that uses the built-in test gateway (whose
 * ledger is the provider's books): for every payment, what the gateway paid back equals what the
 * shop's refunds that succeeded say, and never passes what was paid; for every order, its refunded
 * total is the sum of its refunds that succeeded and never passes its total; nothing is left
 * promised by a pending refund. Returns every difference (none: the books balance) and the number
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
    .select(["paymentId", sql<number>`sum(amount_cents)`.as("total")])
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
        .select(["orderId", sql<number>`sum(amount_cents)`.as("total")])
        .where("status", "=", "succeeded")
        .groupBy("orderId")
        .as("refunds"),
      "refunds.orderId",
      "orders.id",
    )
    .select([
      "orders.number",
      "orders.totalCents",
      "orders.refundedCents",
      "orders.refundPendingCents",
      "refunds.total",
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
