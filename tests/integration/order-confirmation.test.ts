import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/db/database.server.ts";
import {
  CONFIRMATION_RETRY,
  sendPendingConfirmations,
  sendPlacedOrderConfirmation,
} from "../../app/domain/orders/order-confirmation.server.ts";
import type { Mailer, MailMessage } from "../../app/services/mailer.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertOrder } from "../helpers/account-fixtures.ts";

const SHOP = { shopName: "Cartwheel", publicUrl: "http://shop.test" };
const NOW = new Date("2026-11-23T12:00:00.000Z");
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();

/** A mailer that keeps what it sends, or fails while `down` is set. */
function fakeMailer() {
  const sent: MailMessage[] = [];
  const mailer: Mailer & { sent: MailMessage[]; down: boolean } = {
    sent,
    down: false,
    async send(message) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (mailer.down) throw new Error("connect ECONNREFUSED 127.0.0.1:25");
      sent.push(message);
      return { messageId: `<${sent.length}@test>` };
    },
  };
  return mailer;
}

describe.each(ENGINES)("order confirmation e-mails on %s", (engine) => {
  let t: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
    db = t.db;
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const stateOf = (number: string) =>
    db
      .selectFrom("orders")
      .select(["confirmationSentAt", "confirmationAttempts"])
      .where("number", "=", number)
      .executeTakeFirstOrThrow();
  /** an order whose confirmation has not gone out (as Place Order leaves it after a failed send) */
  async function unconfirmedOrder(createdAt: string, status: "paid" | "cancelled" = "paid") {
    const number = await insertOrder(db, { userId: null, createdAt, status });
    await db
      .updateTable("orders")
      .set({ confirmationSentAt: null, confirmationAttempts: 1 })
      .where("number", "=", number)
      .execute();
    return number;
  }
  const clearPending = () =>
    db
      .updateTable("orders")
      .set({ confirmationSentAt: NOW.toISOString() })
      .where("confirmationSentAt", "is", null)
      .execute();

  it("Place Order's own send leaves the order confirmed, and a failed one leaves it for the job", async () => {
    const mailer = fakeMailer();
    const ok = await insertOrder(db, { userId: null, createdAt: minutesAgo(0) });
    await db
      .updateTable("orders")
      .set({ confirmationSentAt: minutesAgo(0), confirmationAttempts: 1 })
      .where("number", "=", ok)
      .execute();
    expect(await sendPlacedOrderConfirmation(db, mailer, SHOP, ok)).toBe("sent");
    expect(mailer.sent.map((m) => [m.to, m.subject.includes(ok)])).toEqual([["buyer@example.com", true]]);
    expect((await stateOf(ok)).confirmationSentAt).not.toBeNull();

    mailer.down = true;
    const failed = await insertOrder(db, { userId: null, createdAt: minutesAgo(0) });
    await db
      .updateTable("orders")
      .set({ confirmationSentAt: minutesAgo(0), confirmationAttempts: 1 })
      .where("number", "=", failed)
      .execute();
    expect(await sendPlacedOrderConfirmation(db, mailer, SHOP, failed)).toBe("failed");
    expect(await stateOf(failed)).toEqual({ confirmationSentAt: null, confirmationAttempts: 1 });

    // the job leaves it alone during the grace minute, then sends it once the mail server is back
    mailer.down = false;
    const soon = new Date(NOW.getTime() + 30_000);
    expect(await sendPendingConfirmations(db, mailer, SHOP, soon)).toEqual({ sent: 0, failed: 0 });
    const later = new Date(Date.parse(minutesAgo(0)) + CONFIRMATION_RETRY.graceMs + 1_000);
    expect(await sendPendingConfirmations(db, mailer, SHOP, later)).toEqual({ sent: 1, failed: 0 });
    expect(mailer.sent.map((m) => m.subject.includes(failed))).toEqual([false, true]);
    expect(await stateOf(failed)).toEqual({
      confirmationSentAt: later.toISOString(),
      confirmationAttempts: 2,
    });
    expect(await sendPendingConfirmations(db, mailer, SHOP, later)).toEqual({ sent: 0, failed: 0 });
    expect(mailer.sent).toHaveLength(2);
  });

  it("retries a failing confirmation up to the attempt limit, and never a cancelled, too old or too young order", async () => {
    await clearPending();
    const mailer = fakeMailer();
    mailer.down = true;
    const failing = await unconfirmedOrder(minutesAgo(10));
    const cancelled = await unconfirmedOrder(minutesAgo(10), "cancelled");
    const tooOld = await unconfirmedOrder(minutesAgo(4 * 24 * 60));
    const tooYoung = await unconfirmedOrder(minutesAgo(0.5));
    for (let run = 2; run <= CONFIRMATION_RETRY.maxAttempts; run++) {
      expect(await sendPendingConfirmations(db, mailer, SHOP, NOW)).toEqual({ sent: 0, failed: 1 });
      expect((await stateOf(failing)).confirmationAttempts).toBe(run);
    }
    expect(await sendPendingConfirmations(db, mailer, SHOP, NOW)).toEqual({ sent: 0, failed: 0 });
    mailer.down = false;
    expect(await sendPendingConfirmations(db, mailer, SHOP, NOW)).toEqual({ sent: 0, failed: 0 });
    for (const number of [failing, cancelled, tooOld, tooYoung]) {
      expect((await stateOf(number)).confirmationSentAt, number).toBeNull();
    }
    expect((await stateOf(cancelled)).confirmationAttempts).toBe(1);
    expect((await stateOf(tooOld)).confirmationAttempts).toBe(1);
    expect((await stateOf(tooYoung)).confirmationAttempts).toBe(1);
    expect(mailer.sent).toEqual([]);
  });

  it("sends each pending confirmation once when several processes run the job at the same time", async () => {
    await clearPending();
    const numbers = [];
    for (let i = 0; i < 6; i++) numbers.push(await unconfirmedOrder(minutesAgo(5 + i)));
    const mailer = fakeMailer();
    const runs = await Promise.all(
      Array.from({ length: 4 }, () => sendPendingConfirmations(db, mailer, SHOP, NOW)),
    );
    expect(runs.reduce((sum, r) => sum + r.sent, 0)).toBe(6);
    expect(mailer.sent).toHaveLength(6);
    for (const number of numbers) {
      expect(mailer.sent.filter((m) => m.subject.includes(number))).toHaveLength(1);
      expect(await stateOf(number)).toEqual({
        confirmationSentAt: NOW.toISOString(),
        confirmationAttempts: 2,
      });
    }
  });
});
