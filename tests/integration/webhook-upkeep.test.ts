import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SentWebhook } from "../../app/adapters/webhooks/webhook-sender.server.ts";
import { recordEvent } from "../../app/domain/integrations/webhook-outbox.server.ts";
import {
  FAILING_DISABLE_AFTER_MS,
  FAILING_MAIL_AFTER_MS,
  OUTBOX_RETENTION_MS,
  pruneWebhookOutbox,
  watchFailingEndpoints,
} from "../../app/domain/integrations/webhook-upkeep.server.ts";
import {
  addWebhookEndpoint,
  deliverWebhooks,
  enableWebhookEndpoint,
  hasWebhookWork,
  resendWebhookDelivery,
  sendTestWebhook,
} from "../../app/domain/integrations/webhooks.server.ts";
import { ENGINES } from "../db-utils.ts";
import { insertUser } from "../helpers/account-fixtures.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * Admin → Webhooks' commands and the delivery job's upkeep (decision 039), on both engines, with a
 * recording `send` and a clock the test moves: "send again" (same event, queued now), "send a test
 * event" (only that endpoint), an endpoint failing for a day (its owners e-mailed once) and for three
 * (disabled, until enabled again), and the outbox pruned after 30 days.
 */
const OWNER = { id: "owner-upkeep", email: "owner@upkeep.example", role: "owner" as const };
const STAFF = { id: "staff-upkeep", email: "staff@upkeep.example", role: "staff" as const };
const HOUR = 60 * 60_000;
const T0 = new Date("2026-11-29T08:00:00.000Z");
const MAIL_SHOP = { shopName: "Cartwheel", publicUrl: TEST_ORIGIN };

describe.each(ENGINES)("webhook upkeep on %s", (engine) => {
  let shop: TestShop;
  let sent: { url: string; id: string; type: string }[] = [];
  let answer = 200;

  beforeAll(async () => {
    shop = await createTestShop(engine);
    const owner = await insertUser(shop.db, "first-owner@upkeep.example");
    const other = await insertUser(shop.db, "second-owner@upkeep.example");
    await shop.db.updateTable("users").set({ role: "owner" }).where("id", "in", [owner, other]).execute();
  });
  afterAll(async () => {
    await shop?.destroy();
  });
  beforeEach(async () => {
    sent = [];
    answer = 200;
    await shop.db.deleteFrom("webhookEndpoints").execute();
  });

  const send = async (url: string, request: { headers: Record<string, string>; body: string }) => {
    sent.push({ url, id: request.headers["webhook-id"]!, type: JSON.parse(request.body).type });
    return { status: answer, excerpt: "", error: null, durationMs: 1 } satisfies SentWebhook;
  };
  const deliver = (now: Date) => deliverWebhooks(shop.db, { send, now: () => now });
  async function endpoint(path: string, events: string[] = ["product.updated"], now = T0) {
    const added = await addWebhookEndpoint(shop.db, {
      actor: OWNER,
      url: `https://93.184.215.14/${path}`,
      events,
      allowPrivate: false,
      now: new Date(now.getTime() - 1_000),
    });
    if (!added.ok) throw new Error(added.error.code);
    return added.value.id;
  }
  const event = (at: Date, subjectId = 1) =>
    shop.db
      .transaction()
      .execute((trx) => recordEvent(trx, "product.updated", { subjectId, data: { id: subjectId }, at }));
  const deliveryOf = (endpointId: number) =>
    shop.db
      .selectFrom("webhookDeliveries")
      .select(["id", "status", "eventId"])
      .where("endpointId", "=", endpointId)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();

  it("sends a delivered or given-up delivery again, now, with the same webhook-id", async () => {
    const id = await endpoint("again");
    await event(T0);
    await deliver(T0);
    const delivery = await deliveryOf(id);
    expect(delivery.status).toBe("delivered");
    // a waiting delivery is not queued twice; staff without the settings permission may not
    const later = new Date(T0.getTime() + 40 * HOUR);
    expect(await resendWebhookDelivery(shop.db, { actor: STAFF, deliveryId: delivery.id })).toEqual({
      ok: false,
      error: { code: "forbidden" },
    });
    expect(
      await resendWebhookDelivery(shop.db, { actor: OWNER, deliveryId: delivery.id, now: later }),
    ).toEqual({
      ok: true,
      value: { endpointId: id },
    });
    expect(
      await resendWebhookDelivery(shop.db, { actor: OWNER, deliveryId: delivery.id, now: later }),
    ).toEqual({
      ok: false,
      error: { code: "not-found" },
    });
    // sent again at once, a day and more after its event (a new day of retries): a 503, then a 200
    answer = 503;
    expect(await deliver(later)).toMatchObject({ retrying: 1, failed: 0 });
    answer = 200;
    expect(await deliver(new Date(later.getTime() + HOUR))).toMatchObject({ delivered: 1 });
    expect(sent.map((s) => s.id)).toEqual([
      `evt_${delivery.eventId}`,
      `evt_${delivery.eventId}`,
      `evt_${delivery.eventId}`,
    ]);
  });

  it("sends a test event to the one endpoint asked, never to another", async () => {
    const asked = await endpoint("asked");
    const other = await endpoint("other");
    const queued = await sendTestWebhook(shop.db, { actor: OWNER, endpointId: asked, now: T0 });
    if (!queued.ok) throw new Error(queued.error.code);
    expect(await hasWebhookWork(shop.db, T0)).toBe(true);
    await deliver(T0);
    await deliver(T0);
    expect(sent).toEqual([
      { url: "https://93.184.215.14/asked", id: `evt_${queued.value.eventId}`, type: "webhook.test" },
    ]);
    expect(
      await shop.db.selectFrom("webhookDeliveries").select("id").where("endpointId", "=", other).execute(),
    ).toEqual([]);
    expect(await sendTestWebhook(shop.db, { actor: OWNER, endpointId: 999_999 })).toEqual({
      ok: false,
      error: { code: "not-found" },
    });
  });

  it("an endpoint failing for a day: its owners e-mailed once; for three: disabled, until enabled", async () => {
    const id = await endpoint("failing");
    const before = (await readOutbox(shop.mailDir)).length;
    answer = 500;
    await event(T0);
    await deliver(T0);
    const failing = await shop.db
      .selectFrom("webhookEndpoints")
      .select(["failingSince", "enabled"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(failing).toEqual({ failingSince: T0.toISOString(), enabled: 1 });
    const watch = (now: Date) =>
      watchFailingEndpoints(shop.db, { mail: shop.services.mail, shop: MAIL_SHOP, now });
    // not yet a day: nothing; a day: both owners told, once
    expect(await watch(new Date(T0.getTime() + FAILING_MAIL_AFTER_MS - 1_000))).toEqual({
      mailed: 0,
      disabled: 0,
    });
    const day = new Date(T0.getTime() + FAILING_MAIL_AFTER_MS + 1_000);
    expect(await hasWebhookWork(shop.db, day)).toBe(true);
    expect(await watch(day)).toEqual({ mailed: 1, disabled: 0 });
    expect(await watch(day)).toEqual({ mailed: 0, disabled: 0 });
    const mails = (await readOutbox(shop.mailDir)).slice(before);
    expect(mails.map((m) => m.to).sort()).toEqual([
      "first-owner@upkeep.example",
      "second-owner@upkeep.example",
    ]);
    expect(mails[0]!.text).toContain("https://93.184.215.14/failing");
    expect(mails[0]!.text).toContain(`${TEST_ORIGIN}/admin/webhooks`);
    // three days of failures only: disabled (no more deliveries), and the page can enable it
    const third = new Date(T0.getTime() + FAILING_DISABLE_AFTER_MS + 1_000);
    expect(await watch(third)).toEqual({ mailed: 0, disabled: 1 });
    const disabled = await shop.db
      .selectFrom("webhookEndpoints")
      .select(["enabled", "disabledAt"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(disabled).toEqual({ enabled: 0, disabledAt: third.toISOString() });
    await event(third, 2);
    sent = [];
    await deliver(third);
    expect(sent).toEqual([]);
    expect(await sendTestWebhook(shop.db, { actor: OWNER, endpointId: id })).toEqual({
      ok: false,
      error: { code: "disabled" },
    });
    expect(await enableWebhookEndpoint(shop.db, { actor: OWNER, id, now: third })).toEqual({
      ok: true,
      value: undefined,
    });
    answer = 200;
    await event(new Date(third.getTime() + 1_000), 3);
    await deliver(new Date(third.getTime() + 2_000));
    // the delivery that waited while it was off goes too; the event made while it was off does not
    expect(sent.map((s) => s.type)).toEqual(["product.updated", "product.updated"]);
    expect(
      await shop.db
        .selectFrom("webhookEndpoints")
        .select(["enabled", "failingSince", "failureMailedAt"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ enabled: 1, failingSince: null, failureMailedAt: null });
  });

  it("a success clears the failing mark: an endpoint that answers again is never disabled", async () => {
    const id = await endpoint("flaky");
    answer = 500;
    await event(T0);
    await deliver(T0);
    answer = 200;
    await deliver(new Date(T0.getTime() + HOUR));
    const row = await shop.db
      .selectFrom("webhookEndpoints")
      .select("failingSince")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.failingSince).toBeNull();
    expect(
      await watchFailingEndpoints(shop.db, {
        mail: shop.services.mail,
        shop: MAIL_SHOP,
        now: new Date(T0.getTime() + FAILING_DISABLE_AFTER_MS * 2),
      }),
    ).toEqual({ mailed: 0, disabled: 0 });
  });

  it("prunes events older than 30 days whose deliveries ended, with their attempts; keeps the rest", async () => {
    const id = await endpoint("pruned", ["product.updated"], new Date(T0.getTime() - 40 * 24 * HOUR));
    const old = new Date(T0.getTime() - OUTBOX_RETENTION_MS - 24 * HOUR);
    await event(old, 11); // delivered
    await event(old, 12); // still waiting (its receiver fails)
    await event(new Date(T0.getTime() - OUTBOX_RETENTION_MS + 24 * HOUR), 13); // delivered, recent
    await deliverWebhooks(shop.db, {
      send: async (_url, request) => {
        const subject = JSON.parse(request.body).data.id;
        return { status: subject === 12 ? 500 : 200, excerpt: "", error: null, durationMs: 1 };
      },
      now: () => old,
    });
    const subjects = async () =>
      (
        await shop.db
          .selectFrom("webhookEvents")
          .select("subjectId")
          .where("subjectId", "in", [11, 12, 13])
          .orderBy("subjectId")
          .execute()
      ).map((r) => Number(r.subjectId));
    expect(await subjects()).toEqual([11, 12, 13]);
    const attemptsBefore = await shop.db.selectFrom("webhookAttempts").select("id").execute();
    expect(await pruneWebhookOutbox(shop.db, T0)).toBeGreaterThanOrEqual(1);
    expect(await subjects()).toEqual([12, 13]);
    const attemptsAfter = await shop.db.selectFrom("webhookAttempts").select("id").execute();
    expect(attemptsAfter.length).toBeLessThan(attemptsBefore.length);
    expect(
      (await shop.db.selectFrom("webhookDeliveries").select("id").where("endpointId", "=", id).execute())
        .length,
    ).toBe(2);
    // a second run finds nothing more
    expect(await pruneWebhookOutbox(shop.db, T0)).toBe(0);
  });
});
