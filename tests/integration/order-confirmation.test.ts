import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Mailer, MailMessage } from "../../app/adapters/mail/mail-message.ts";
import type { Database } from "../../app/db/database.server.ts";
import {
  CONFIRMATION_RETRY,
  sendPendingConfirmations,
  sendPlacedOrderConfirmation,
} from "../../app/domain/orders/order-confirmation.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertOrder } from "../helpers/account-fixtures.ts";

const SHOP = { shopName: "Cartwheel", taxLabel: "Including VAT", publicUrl: "http://shop.test" };
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
  /** an order as Place Order leaves it before its send finishes: attempt 1 claimed when it was created */
  async function unconfirmedOrder(createdAt: string, status: "paid" | "cancelled" = "paid") {
    const number = await insertOrder(db, { userId: null, createdAt, status });
    await db
      .updateTable("orders")
      .set({ confirmationSentAt: null, confirmationAttempts: 1, confirmationClaimedAt: createdAt })
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
  /** the moment the job may take up an attempt claimed at `claimedAt` */
  const afterGrace = (claimedAt: string | Date, extraMs = 1_000) =>
    new Date(new Date(claimedAt).getTime() + CONFIRMATION_RETRY.graceMs + extraMs);

  it("Place Order's own send marks the order sent; a failed one is sent by the job after the grace time", async () => {
    const mailer = fakeMailer();
    const ok = await unconfirmedOrder(minutesAgo(0));
    expect(await sendPlacedOrderConfirmation(db, mailer, SHOP, ok)).toBe("sent");
    expect(mailer.sent.map((m) => [m.to, m.subject.includes(ok)])).toEqual([["buyer@example.com", true]]);
    expect((await stateOf(ok)).confirmationSentAt).not.toBeNull();

    mailer.down = true;
    const failed = await unconfirmedOrder(minutesAgo(0));
    expect(await sendPlacedOrderConfirmation(db, mailer, SHOP, failed)).toBe("failed");
    expect(await stateOf(failed)).toEqual({ confirmationSentAt: null, confirmationAttempts: 1 });

    // the job leaves it alone during the grace time, then sends it once the mail server is back
    mailer.down = false;
    const soon = new Date(NOW.getTime() + 30_000);
    expect(await sendPendingConfirmations(db, mailer, SHOP, soon)).toEqual({ sent: 0, failed: 0 });
    const later = afterGrace(minutesAgo(0));
    expect(await sendPendingConfirmations(db, mailer, SHOP, later)).toEqual({ sent: 1, failed: 0 });
    expect(mailer.sent.map((m) => m.subject.includes(failed))).toEqual([false, true]);
    expect(await stateOf(failed)).toEqual({
      confirmationSentAt: later.toISOString(),
      confirmationAttempts: 2,
    });
    expect(await sendPendingConfirmations(db, mailer, SHOP, afterGrace(later))).toEqual({
      sent: 0,
      failed: 0,
    });
    expect(mailer.sent).toHaveLength(2);
  });

  it("sends the confirmation of an order whose process died between the commit and the send", async () => {
    await clearPending();
    const mailer = fakeMailer();
    // placed (attempt 1 claimed in the order's transaction), then nothing: the process is gone
    const orphan = await unconfirmedOrder(minutesAgo(0));
    expect(await sendPendingConfirmations(db, mailer, SHOP, NOW)).toEqual({ sent: 0, failed: 0 });
    const later = afterGrace(minutesAgo(0));
    expect(await sendPendingConfirmations(db, mailer, SHOP, later)).toEqual({ sent: 1, failed: 0 });
    expect(mailer.sent.map((m) => m.subject.includes(orphan))).toEqual([true]);
    expect(await stateOf(orphan)).toEqual({
      confirmationSentAt: later.toISOString(),
      confirmationAttempts: 2,
    });
  });

  it("retries a failing confirmation up to the attempt limit, and never a cancelled, too old or too young order", async () => {
    await clearPending();
    const mailer = fakeMailer();
    mailer.down = true;
    const failing = await unconfirmedOrder(minutesAgo(10));
    const cancelled = await unconfirmedOrder(minutesAgo(10), "cancelled");
    const tooOld = await unconfirmedOrder(minutesAgo(4 * 24 * 60));
    const tooYoung = await unconfirmedOrder(minutesAgo(0.5));
    expect(await sendPendingConfirmations(db, mailer, SHOP, NOW)).toEqual({ sent: 0, failed: 1 });
    expect((await stateOf(failing)).confirmationAttempts).toBe(2);
    expect((await stateOf(tooYoung)).confirmationAttempts).toBe(1);
    // its own request sends it meanwhile
    await db
      .updateTable("orders")
      .set({ confirmationSentAt: NOW.toISOString() })
      .where("number", "=", tooYoung)
      .execute();

    // a retry claimed a moment ago is not repeated before its grace time is over
    expect(await sendPendingConfirmations(db, mailer, SHOP, NOW)).toEqual({ sent: 0, failed: 0 });
    let time = NOW;
    for (let attempt = 3; attempt <= CONFIRMATION_RETRY.maxAttempts; attempt++) {
      time = afterGrace(time);
      expect(await sendPendingConfirmations(db, mailer, SHOP, time)).toEqual({ sent: 0, failed: 1 });
      expect((await stateOf(failing)).confirmationAttempts).toBe(attempt);
    }
    time = afterGrace(time);
    expect(await sendPendingConfirmations(db, mailer, SHOP, time)).toEqual({ sent: 0, failed: 0 });
    mailer.down = false;
    expect(await sendPendingConfirmations(db, mailer, SHOP, afterGrace(time))).toEqual({
      sent: 0,
      failed: 0,
    });
    for (const number of [failing, cancelled, tooOld]) {
      expect((await stateOf(number)).confirmationSentAt, number).toBeNull();
    }
    expect((await stateOf(cancelled)).confirmationAttempts).toBe(1);
    expect((await stateOf(tooOld)).confirmationAttempts).toBe(1);
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
