/**
 * A child process for the refund crash test (tests/integration/refund-crash.test.ts): refunds and
 * cancels the given paid orders from several concurrent loops until it is killed, through the real
 * refund workflow (payments/refunds.server.ts) and the test gateway's ledger. The gateway answers
 * after a few milliseconds on each side of its own write, as a provider over the network does, so a
 * kill often lands between the refund being recorded and it being settled. Prints "ready" once it
 * is refunding.
 *
 *   node tests/helpers/refund-load.ts <database url> <gateway secret> <order numbers, comma-separated>
 */
import { randomUUID } from "node:crypto";
import type { PaymentGateway } from "../../app/adapters/payments/payment-gateway.ts";
import { createTestGateway } from "../../app/adapters/payments/test-gateway.server.ts";
import { createDatabase } from "../../app/db/database.server.ts";
import { advanceOrder } from "../../app/domain/orders/order-admin.server.ts";
import { refundOrder } from "../../app/domain/payments/refunds.server.ts";

const [url, secret, numbers] = process.argv.slice(2) as [string, string, string];
const orders = numbers.split(",");
const db = createDatabase(url, url.startsWith("file:") ? {} : { poolSize: 8 });
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const base = createTestGateway({ processingDelayMs: 0, secret, db });
const gateway: PaymentGateway = {
  ...base,
  async refund(input) {
    await wait(2);
    const answer = await base.refund(input);
    await wait(2);
    return answer;
  },
};
const mail = { send: async () => ({ messageId: "none" }) };
const shop = { shopName: "Crash Shop", publicUrl: "http://shop.test" };
const actor = { id: "crash-owner", email: "owner@example.com", role: "owner" as const };

async function loop(worker: number) {
  for (let n = 0; ; n++) {
    const number = orders[Math.floor(Math.random() * orders.length)]!;
    const kind = (worker + n) % 4;
    if (kind === 3) {
      await advanceOrder({ db, gateway, mail, shop }, { number, to: "cancelled", actor, confirmed: true });
      continue;
    }
    const items = await db
      .selectFrom("orderItems")
      .innerJoin("orders", "orders.id", "orderItems.orderId")
      .select(["orderItems.id", "orderItems.quantity"])
      .where("orders.number", "=", number)
      .execute();
    const item = items[n % Math.max(1, items.length)];
    await refundOrder(
      { db, gateway, mail, shop },
      {
        number,
        key: randomUUID(),
        lines: kind === 0 && item ? [{ itemId: item.id, quantity: 1 }] : [],
        amountCents: kind === 0 ? null : 100 + Math.floor(Math.random() * 900),
        restock: kind === 0,
        reason: "crash test",
        actor,
      },
    );
  }
}

const loops = Array.from({ length: 6 }, (_, worker) => loop(worker));
process.stdout.write("ready\n");
await Promise.all(loops);
