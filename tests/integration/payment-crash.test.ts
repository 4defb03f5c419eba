import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestGateway } from "../../app/adapters/payments/test-gateway.server.ts";
import {
  DEFAULT_RESERVATION_MS,
  GIFT_CARD_PAYMENT,
  reconcilePayments,
} from "../../app/domain/payments/charges.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";

/**
 * The crash test of decision 020: a process placing orders from six concurrent loops is killed
 * with SIGKILL, again and again, at random moments (between the reservation and the payment, in
 * the payment, before the order is marked paid); then the reconciliation job runs once the
 * reservations have lapsed. Afterwards every captured payment has a paid order and every paid order
 * a captured payment of its total less what its gift card paid (none when the card paid it whole),
 * every failed order's gift card got its part back, nothing is pending, no stock is stranded or
 * oversold, and no payment was taken twice.
 */
const SECRET = "payment-crash-test-secret-0123456789abcdef";
const ROUNDS = 6;
// more than six rounds of six loops can sell on a fast machine (they sold ~90 units a round of the
// 600 there were when this was 150 a product, and a sold-out load never said "ready")
const STOCK = 5_000;

// a load still running when the test ends (it timed out, say) is killed, never left to spin on a
// core through the rest of the suite
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
});

async function runAndKill(args: string[], afterReadyMs: number): Promise<void> {
  const child: ChildProcess = spawn(process.execPath, ["tests/helpers/order-load.ts", ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  running.add(child);
  const exited = once(child, "exit").finally(() => running.delete(child));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the order load exited (${code}) before it was placing`)));
  });
  await new Promise((resolve) => setTimeout(resolve, afterReadyMs));
  child.kill("SIGKILL");
  await exited;
}

describe.each(ENGINES)("kill -9 while orders are paid, on %s", (engine) => {
  let t: TestDatabase;
  const products: number[] = [];

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    for (let i = 0; i < 4; i++)
      products.push(await insertProduct(t.db, { stock: STOCK, priceCents: 1_000 + i }));
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("leaves every payment matched to a paid order, and every unit accounted for", {
    timeout: 120_000,
  }, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await runAndKill([t.url, SECRET, products.join(",")], 40 + Math.floor(Math.random() * 250));
    }
    const gateway = createTestGateway({ processingDelayMs: 0, secret: SECRET, db: t.db });
    const pendingBefore = await t.db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("status", "=", "pending_payment")
      .executeTakeFirstOrThrow();
    const settled = await reconcilePayments(t.db, gateway, {
      now: new Date(Date.now() + DEFAULT_RESERVATION_MS + 60_000),
      limit: 10_000,
    });

    const orders = await t.db
      .selectFrom("orders")
      .select(["id", "idempotencyKey", "status", "totalCents", "giftCardCents", "paymentReference"])
      .execute();
    const ledger = await t.db.selectFrom("testGatewayPayments").selectAll().execute();
    const byKey = new Map(ledger.map((row) => [row.idempotencyKey, row]));
    const paid = orders.filter((o) => o.status === "paid");
    expect(paid.length).toBeGreaterThan(0);
    expect(orders.filter((o) => o.status === "pending_payment")).toEqual([]);
    // every paid order: a captured payment of its total less its gift card's part under its key, or
    // none at all when the card paid it whole
    for (const order of paid) {
      if (order.giftCardCents === order.totalCents) {
        expect(order.paymentReference).toBe(GIFT_CARD_PAYMENT);
        expect(byKey.get(order.idempotencyKey)).toBeUndefined();
        continue;
      }
      expect(byKey.get(order.idempotencyKey)).toMatchObject({
        status: "captured",
        amountCents: order.totalCents - order.giftCardCents,
        authorizationId: order.paymentReference,
      });
    }
    // gift cards: a paid order kept its card's part, any other gave it back
    const cardNet = await t.db
      .selectFrom("giftCardMovements")
      .select(["orderId", (eb) => eb.fn.sum<number | string>("amountCents").as("net")])
      .where("orderId", "is not", null)
      .groupBy("orderId")
      .execute();
    const netOf = new Map(cardNet.map((row) => [row.orderId, Number(row.net)]));
    for (const order of orders) {
      expect([order.idempotencyKey, 0 - (netOf.get(order.id) ?? 0) || 0]).toEqual([
        order.idempotencyKey,
        order.status === "paid" ? order.giftCardCents : 0,
      ]);
    }
    expect(paid.filter((o) => o.giftCardCents > 0 && o.giftCardCents < o.totalCents).length).toBeGreaterThan(
      0,
    );
    expect(paid.filter((o) => o.giftCardCents === o.totalCents).length).toBeGreaterThan(0);
    // every captured payment: a paid order (none was taken for an order that failed)
    const paidKeys = new Set(paid.map((o) => o.idempotencyKey));
    const captured = ledger.filter((row) => row.status === "captured" && row.refundedCents === 0);
    expect(captured.filter((row) => !paidKeys.has(row.idempotencyKey))).toEqual([]);
    expect(captured).toHaveLength(paid.filter((o) => o.giftCardCents < o.totalCents).length);
    // one ledger row per key: a retried payment is the same payment
    expect(new Set(ledger.map((row) => row.idempotencyKey)).size).toBe(ledger.length);

    // stock: what is left plus what the paid orders hold is what there was
    const sold = await t.db
      .selectFrom("orderItems")
      .innerJoin("orders", "orders.id", "orderItems.orderId")
      .select(["orderItems.productId", (eb) => eb.fn.sum<number | string>("orderItems.quantity").as("units")])
      .where("orders.status", "=", "paid")
      .groupBy("orderItems.productId")
      .execute();
    for (const productId of products) {
      const left = await t.db
        .selectFrom("productVariants")
        .select("stock")
        .where("productId", "=", productId)
        .executeTakeFirstOrThrow();
      const units = Number(sold.find((row) => row.productId === productId)?.units ?? 0);
      expect(left.stock).toBeGreaterThanOrEqual(0);
      expect(left.stock + units).toBe(STOCK);
    }
    // the kills did leave work for the job (else this test proves nothing), and it did all of it
    expect(Number(pendingBefore.n)).toBeGreaterThan(0);
    expect(settled.paid + settled.failed).toBe(Number(pendingBefore.n));
  });
});
