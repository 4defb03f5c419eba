import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestGateway } from "../../app/adapters/payments/test-gateway.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { issueGiftCard } from "../../app/domain/gift-cards/gift-cards.server.ts";
import { checkStockLedger } from "../../app/domain/inventory/stock-ledger.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { REFUND_SETTLE_GRACE_MS, settlePendingRefunds } from "../../app/domain/payments/refunds.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { moneyBookDifferences } from "../helpers/money-books.ts";
import { SPEC_SHOP, specTotals } from "../helpers/spec-pricing.ts";

/**
 * The crash test of decision 025: a process refunding and cancelling paid orders from six
 * concurrent loops (refunds by line with restock, by amount, cancellations) is killed with SIGKILL,
 * again and again, at random moments — before the gateway is asked, while it answers, after it has
 * paid back but before the shop recorded it. Then the refund job runs once. Afterwards, for every
 * order and every payment, what the gateway paid back equals what the books say and never passes
 * what was paid, nothing is left pending, and the stock ledger balances. Every other order was
 * paid $20 by a gift card, so its refunds split (the gateway first, the rest back to the card): the
 * cards get back exactly the refunds' gift card parts, and their balances equal their ledgers.
 */
const SECRET = "refund-crash-test-secret-0123456789abcdef";
const ROUNDS = 6;
const SHIPPING = {
  firstName: "Crash",
  lastName: "Test",
  email: "crash@example.com",
  phone: "+1 555 0100",
  address: "1 Crash Lane",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
  country: "US",
};

// a load still running when the test ends (it timed out, say) is killed, never left to spin on a
// core through the rest of the suite
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
});

async function runAndKill(
  args: string[],
  afterReadyMs: number,
  refundsRecorded: () => Promise<number>,
): Promise<void> {
  const recordedBefore = await refundsRecorded();
  const child: ChildProcess = spawn(process.execPath, ["tests/helpers/refund-load.ts", ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  running.add(child);
  const exited = once(child, "exit").finally(() => running.delete(child));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
    child.once("exit", (code) =>
      reject(new Error(`the refund load exited (${code}) before it was refunding`)),
    );
  });
  // killed once it has recorded a few refunds more (however busy the machine), at a random moment after
  const until = Date.now() + 20_000;
  while ((await refundsRecorded()) < recordedBefore + 4 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await new Promise((resolve) => setTimeout(resolve, afterReadyMs));
  child.kill("SIGKILL");
  await exited;
}

describe.each(ENGINES)("kill -9 while orders are refunded and cancelled, on %s", (engine) => {
  let t: TestDatabase;
  const numbers: string[] = [];

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    const gateway = createTestGateway({ processingDelayMs: 0, secret: SECRET, db: t.db });
    const products = [
      await insertProduct(t.db, { stock: 500, priceCents: 2_500 }),
      await insertProduct(t.db, { stock: 500, priceCents: 4_000 }),
    ];
    for (let n = 0; n < 40; n++) {
      const cartId = newCartId();
      await addToCart(t.db, { cartId, productId: products[0]!, quantity: 1 + (n % 3) });
      await addToCart(t.db, { cartId, productId: products[1]!, quantity: 1 });
      const cart = await getCart(t.db, cartId, SPEC_SHOP);
      const card = await gateway.tokenize({
        number: "4242424242424242",
        expMonth: 12,
        expYear: 2031,
        cvv: "123",
        name: "Crash Test",
      });
      if (!card.ok) throw new Error("tokenize failed");
      const gift =
        n % 2 === 0
          ? await issueGiftCard(t.db, {
              input: {
                amountCents: 2_000,
                currency: "USD",
                expiresAt: null,
                recipientEmail: null,
                recipientName: null,
                message: null,
                key: `crash-gift-${n}`,
              },
              actor: { id: "owner", email: "owner@crash.example", role: "owner" },
            })
          : null;
      if (gift && !gift.ok) throw new Error("gift card not issued");
      const placed = await placeOrder(t.db, gateway, {
        cartId,
        idempotencyKey: `crash-order-${n}`,
        shipping: SHIPPING,
        method: "standard",
        shop: SPEC_SHOP,
        payment: { token: card.token, brand: card.brand, last4: card.last4 },
        expectedTotalCents: specTotals(cart.totals.subtotalCents).totalCents,
        giftCardIds: gift?.ok ? [gift.value.card.id] : [],
        expectedGiftCardCents: gift ? 2_000 : 0,
      });
      if (!placed.ok) throw new Error(`order not placed: ${placed.error.code}`);
      numbers.push(placed.value.order.number);
    }
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("leaves the gateway's refunds and the books equal for every order, and every unit accounted for", {
    timeout: 120_000,
  }, async () => {
    let pendingSeen = 0;
    for (let round = 0; round < ROUNDS; round++) {
      await runAndKill([t.url, SECRET, numbers.join(",")], Math.floor(Math.random() * 60), async () => {
        const recorded = await t.db
          .selectFrom("orderRefunds")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow();
        return Number(recorded.n);
      });
      const pending = await t.db
        .selectFrom("orderRefunds")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("status", "=", "pending")
        .executeTakeFirstOrThrow();
      pendingSeen += Number(pending.n);
    }
    // the kills left refunds pending (else this test proves nothing), and the books wait for them
    expect(pendingSeen).toBeGreaterThan(0);
    const gateway = createTestGateway({ processingDelayMs: 0, secret: SECRET, db: t.db });
    const settled = await settlePendingRefunds(
      {
        db: t.db,
        gateway,
        mail: { send: async () => ({ messageId: "none" }) },
        shop: { shopName: "Crash", publicUrl: "http://x" },
      },
      { now: new Date(Date.now() + REFUND_SETTLE_GRACE_MS + 1_000), limit: 10_000 },
    );
    expect(settled.waiting).toBe(0);

    const books = await moneyBookDifferences(t.db);
    expect(books.differences).toEqual([]);
    expect(books.refunds).toBeGreaterThan(20);
    // and some of them went back to gift cards
    const toCards = await t.db
      .selectFrom("giftCardMovements")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("reason", "=", "refunded")
      .executeTakeFirstOrThrow();
    expect(Number(toCards.n)).toBeGreaterThan(0);
    const refundsLeft = await t.db
      .selectFrom("orderRefunds")
      .select("idempotencyKey")
      .where("status", "=", "pending")
      .execute();
    expect(refundsLeft).toEqual([]);
    // some orders were cancelled in full, and each of those holds its whole total refunded
    const cancelled = await t.db
      .selectFrom("orders")
      .select(["refundedCents", "totalCents"])
      .where("status", "=", "cancelled")
      .execute();
    for (const order of cancelled) expect(order.refundedCents).toBe(order.totalCents);
    // stock: every level is its ledger's sum, none below 0, and no unit came back twice
    const drift = await checkStockLedger(t.db);
    expect(drift.variants).toEqual([]);
    expect(drift.products).toEqual([]);
    const lines = await t.db
      .selectFrom("orderItems")
      .select(["quantity", "refundedQuantity", "restockedQuantity"])
      .execute();
    for (const line of lines) {
      expect(line.refundedQuantity).toBeLessThanOrEqual(line.quantity);
      expect(line.restockedQuantity).toBeLessThanOrEqual(line.quantity);
    }
    const variants = await t.db.selectFrom("productVariants").select("stock").execute();
    for (const variant of variants) expect(variant.stock).toBeGreaterThanOrEqual(0);
  });
});
