import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isBlockedAddress, sendWebhook } from "../../app/adapters/webhooks/webhook-sender.server.ts";
import type { StaffActor } from "../../app/domain/audit/audit-log.server.ts";
import {
  addWebhookEndpoint,
  deliverWebhooks,
  GIVE_UP_MS,
  hasWebhookWork,
  retryDelayMs,
  rotateWebhookSecret,
} from "../../app/domain/integrations/webhooks.server.ts";
import { moveOrder, transitionOrder } from "../../app/domain/orders/orders.server.ts";
import { markPaid } from "../../app/domain/payments/charges.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertPendingOrder } from "../helpers/invoice-orders.ts";

/**
 * Webhooks (decision 039) on each engine, against a receiver the test starts on 127.0.0.1 (allowed
 * here as WEBHOOKS_ALLOW_PRIVATE allows it): an order's events reach it signed per Standard Webhooks
 * (verified with the `standardwebhooks` package), a rolled-back change sends nothing, a receiver that
 * fails gets the same event again later with the same webhook-id, a rotated secret signs beside the
 * old one, and private addresses are refused at save and at send.
 */
const OWNER: StaffActor = { id: "owner-1", email: "owner@example.com", role: "owner" };

type Received = { headers: Record<string, string>; body: string };

describe.each(ENGINES)("webhooks on %s", (engine) => {
  let t: TestDatabase;
  let server: Server;
  let url = "";
  let received: Received[] = [];
  let answer = 200;

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    server = createServer(async (request: IncomingMessage, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      received.push({
        headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString("utf8"),
      });
      response.writeHead(answer).end(answer === 200 ? "ok" : "down for maintenance");
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    server?.close();
    await t?.destroy();
  });
  beforeEach(async () => {
    received = [];
    answer = 200;
    await t.db.deleteFrom("webhookEndpoints").execute();
  });

  const send = (target: string, request: { headers: Record<string, string>; body: string }) =>
    sendWebhook(target, request, { allowPrivate: true, timeoutMs: 5_000 });
  async function endpoint(events: string[]) {
    const added = await addWebhookEndpoint(t.db, { actor: OWNER, url, events, allowPrivate: true });
    if (!added.ok) throw new Error(added.error.code);
    return added.value;
  }
  async function paidOrder() {
    const order = await insertPendingOrder(t.db);
    const paid = await markPaid(t.db, order.id, order.paymentReference);
    expect(paid.status).toBe("paid");
    return order;
  }

  it("sends an order's events signed per Standard Webhooks, each once, in the order they happened", async () => {
    const { secret } = await endpoint(["order.paid", "order.fulfilled"]);
    const order = await paidOrder();
    const shipped = await transitionOrder(t.db, { orderId: order.id, to: "shipped", actor: "test" });
    expect(shipped.ok).toBe(true);
    // work found by reads alone (the job runs every few seconds and writes only when there is some)
    expect(await hasWebhookWork(t.db)).toBe(true);
    expect(await deliverWebhooks(t.db, { send })).toMatchObject({ queued: 2, delivered: 2 });
    expect(await hasWebhookWork(t.db)).toBe(false);
    expect(await deliverWebhooks(t.db, { send })).toMatchObject({ queued: 0, delivered: 0 });
    const verifier = new Webhook(secret);
    const events = received.map(
      ({ headers, body }) =>
        verifier.verify(body, headers) as { type: string; data: { number: string; status: string } },
    );
    const number = (
      await t.db.selectFrom("orders").select("number").where("id", "=", order.id).executeTakeFirstOrThrow()
    ).number;
    expect(events.map((e) => [e.type, e.data.number, e.data.status])).toEqual([
      ["order.paid", number, "paid"],
      ["order.fulfilled", number, "shipped"],
    ]);
    // a tampered body does not verify
    expect(() => verifier.verify(received[0]!.body.replace("paid", "PAID"), received[0]!.headers)).toThrow();
  });

  it("writes no event for a change that was rolled back, and one for each that committed", async () => {
    const order = await insertPendingOrder(t.db);
    const before = await t.db.selectFrom("webhookEvents").select("id").execute();
    await expect(
      t.db.transaction().execute(async (trx) => {
        const moved = await moveOrder(trx, { orderId: order.id, to: "paid", actor: "test" });
        expect(moved.ok).toBe(true);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await t.db.selectFrom("webhookEvents").select("id").execute()).toHaveLength(before.length);
    await markPaid(t.db, order.id, order.paymentReference);
    const events = await t.db
      .selectFrom("webhookEvents")
      .select(["type", "subjectId"])
      .where("subjectId", "=", order.id)
      .execute();
    expect(events).toEqual([{ type: "order.paid", subjectId: order.id }]);
  });

  it("tries a failing receiver again later with the same webhook-id, logging each attempt", async () => {
    await endpoint(["order.paid"]);
    await paidOrder();
    answer = 503;
    const start = new Date();
    expect(await deliverWebhooks(t.db, { send, now: () => start })).toMatchObject({
      delivered: 0,
      retrying: 1,
    });
    // not yet due: nothing sent
    expect(await deliverWebhooks(t.db, { send, now: () => start })).toMatchObject({
      delivered: 0,
      retrying: 0,
    });
    answer = 200;
    const later = new Date(start.getTime() + 2 * retryDelayMs(1, () => 1));
    expect(await deliverWebhooks(t.db, { send, now: () => later })).toMatchObject({ delivered: 1 });
    expect(received.map((r) => r.headers["webhook-id"])).toEqual([
      received[0]!.headers["webhook-id"],
      received[0]!.headers["webhook-id"],
    ]);
    const attempts = await t.db
      .selectFrom("webhookAttempts")
      .select(["statusCode", "responseExcerpt"])
      .orderBy("id", "desc")
      .limit(2)
      .execute();
    expect(attempts.reverse()).toEqual([
      { statusCode: 503, responseExcerpt: "down for maintenance" },
      { statusCode: 200, responseExcerpt: "ok" },
    ]);
  });

  it("gives up about a day after the event, with its attempts spaced out", async () => {
    await endpoint(["order.paid"]);
    await paidOrder();
    answer = 500;
    let now = new Date();
    const started = now.getTime();
    let tries = 0;
    for (; tries < 40; tries++) {
      const run = await deliverWebhooks(t.db, { send, now: () => now });
      if (run.failed === 1) break;
      const due = await t.db
        .selectFrom("webhookDeliveries")
        .select("nextAttemptAt")
        .where("status", "=", "pending")
        .executeTakeFirstOrThrow();
      now = new Date(due.nextAttemptAt);
    }
    expect(tries).toBeGreaterThan(8);
    expect(now.getTime() - started).toBeLessThanOrEqual(GIVE_UP_MS);
    expect(now.getTime() - started).toBeGreaterThan(12 * 60 * 60_000);
  });

  it("signs with the old secret beside the new one after a rotation", async () => {
    const { id, secret: old } = await endpoint(["order.paid"]);
    const rotated = await rotateWebhookSecret(t.db, { actor: OWNER, id });
    if (!rotated.ok) throw new Error(rotated.error.code);
    await paidOrder();
    await deliverWebhooks(t.db, { send });
    const [{ headers, body }] = received as [Received];
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(() => new Webhook(old).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(rotated.value.secret).verify(body, headers)).not.toThrow();
  });

  it("refuses endpoints inside the shop's network, at save and at send", async () => {
    for (const target of [
      "http://127.0.0.1:8080/x",
      "http://localhost/x",
      "http://10.1.2.3/x",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/x",
      "http://[::ffff:127.0.0.1]/x",
      "http://192.168.0.10/x",
    ]) {
      const added = await addWebhookEndpoint(t.db, {
        actor: OWNER,
        url: target,
        events: ["order.paid"],
        allowPrivate: false,
      });
      expect(added, target).toEqual({ ok: false, error: { code: "private-address" } });
    }
    for (const target of ["ftp://example.com/x", "http://user:pw@example.com/x", "not a url"]) {
      const added = await addWebhookEndpoint(t.db, {
        actor: OWNER,
        url: target,
        events: ["order.paid"],
        allowPrivate: false,
      });
      expect(added, target).toEqual({ ok: false, error: { code: "invalid-url" } });
    }
    expect(
      await addWebhookEndpoint(t.db, {
        actor: { ...OWNER, role: "admin" },
        url,
        events: ["order.paid"],
        allowPrivate: true,
      }),
    ).toEqual({ ok: false, error: { code: "forbidden" } });
    // at send: a name that resolves to loopback is refused in the connection's own lookup
    const sent = await sendWebhook(
      url.replace("127.0.0.1", "localhost"),
      { headers: {}, body: "{}" },
      { allowPrivate: false },
    );
    expect(sent.status).toBeNull();
    expect(sent.error).toMatch(/private network/);
    expect(received).toEqual([]);
    expect(["8.8.8.8", "2606:4700::1111"].map(isBlockedAddress)).toEqual([false, false]);
    expect(["127.0.0.1", "::1", "fd00::1", "fe80::1", "100.64.0.1", "0.0.0.0"].map(isBlockedAddress)).toEqual(
      [true, true, true, true, true, true],
    );
  });
});
