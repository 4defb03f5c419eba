import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_MESSAGES as M } from "../../app/domain/integrations/webhook-form.ts";
import { deliverWebhooks } from "../../app/domain/integrations/webhooks.server.ts";
import { markPaid } from "../../app/domain/payments/charges.server.ts";
import * as route from "../../app/routes/admin.webhooks.tsx";
import { ENGINES } from "../db-utils.ts";
import { signedInStaff } from "../helpers/account-fixtures.ts";
import { insertPendingOrder } from "../helpers/invoice-orders.ts";
import { callRoute } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * Admin → Webhooks (decision 039) as the owner's browser uses it: an endpoint refused beside its
 * field (no URL, a private address, no event), one added with its secret shown once, a new secret,
 * the endpoint's latest attempts listed once the delivery job has sent an event, "Send again" and
 * "Send a test event", and an endpoint the job disabled shown with its "Enable" button.
 */
describe.each(ENGINES)("Admin → Webhooks on %s", (engine) => {
  let shop: TestShop;
  let owner = "";
  const URL = `${TEST_ORIGIN}/admin/webhooks`;

  beforeAll(async () => {
    shop = await createTestShop(engine);
    owner = await signedInStaff(shop, "owner@hooks.example");
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  const post = (fields: Record<string, string>) =>
    callRoute(route, "action", URL, { cookie: owner, fields, context: shop.context() });
  const page = async () =>
    (await callRoute(route, "loader", URL, { cookie: owner, context: shop.context() }))
      .data as unknown as Awaited<ReturnType<typeof route.loader>>;
  const redirected = (answer: Awaited<ReturnType<typeof post>>) => [
    answer.response?.status,
    answer.response?.headers.get("Location"),
  ];
  const errorsOf = (answer: Awaited<ReturnType<typeof post>>) =>
    (answer.data as unknown as { result: { error: Record<string, string[]> } }).result.error;

  it("refuses an endpoint without a URL, inside a private network or without events, storing nothing", async () => {
    for (const [fields, field, message] of [
      [{ intent: "add", url: "", events: "order.paid" }, "url", M.url],
      [{ intent: "add", url: "ftp://example.com/x", events: "order.paid" }, "url", M.url],
      [
        { intent: "add", url: "http://169.254.169.254/latest", events: "order.paid" },
        "url",
        M.privateAddress,
      ],
      [{ intent: "add", url: "http://127.0.0.1:9/x", events: "order.paid" }, "url", M.privateAddress],
      [{ intent: "add", url: "https://93.184.215.14/hooks" }, "events", M.events],
    ] as const) {
      const answer = await post(fields);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(errorsOf(answer)[field]).toEqual([message]);
    }
    expect((await page()).endpoints).toEqual([]);
  });

  it("adds an endpoint with its secret shown once, rotates it, and lists what was sent to it", async () => {
    const added = await post({ intent: "add", url: "https://93.184.215.14/hooks", events: "order.paid" });
    const { secret } = added.data as unknown as { secret: { value: string } };
    expect(secret.value).toMatch(/^whsec_/);
    const listed = await page();
    expect(listed.endpoints.map((e) => [e.url, e.events])).toEqual([
      ["https://93.184.215.14/hooks", ["order.paid"]],
    ]);
    expect(JSON.stringify(listed)).not.toContain(secret.value);
    const rotated = await post({ intent: "rotate", id: String(listed.endpoints[0]!.id) });
    expect((rotated.data as unknown as { secret: { value: string } }).secret.value).not.toBe(secret.value);

    // an order paid, the job run (its network here: an answer of 202)
    const order = await insertPendingOrder(shop.db);
    await markPaid(shop.db, order.id, order.paymentReference);
    await deliverWebhooks(shop.db, {
      send: async () => ({ status: 202, excerpt: "accepted", error: null, durationMs: 3 }),
    });
    const [endpoint] = (await page()).endpoints;
    expect(endpoint).toMatchObject({ delivered: 1, pending: 0, failed: 0 });
    expect(endpoint!.attempts.map((a) => [a.eventType, a.statusCode, a.excerpt])).toEqual([
      ["order.paid", 202, "accepted"],
    ]);

    // "Send again" on that delivery, "Send a test event": each answered with a toast, then sent
    const again = await post({ intent: "resend", deliveryId: String(endpoint!.attempts[0]!.deliveryId) });
    expect(redirected(again)).toEqual([302, "/admin/webhooks"]);
    const tested = await post({ intent: "test", id: String(endpoint!.id) });
    expect(redirected(tested)).toEqual([302, "/admin/webhooks"]);
    const types: string[] = [];
    await deliverWebhooks(shop.db, {
      send: async (_url, request) => {
        types.push(JSON.parse(request.body).type);
        return { status: 200, excerpt: "ok", error: null, durationMs: 2 };
      },
    });
    expect(types.sort()).toEqual(["order.paid", "webhook.test"]);
    // a delivery that does not exist (or waits already) is refused beside the page's form
    const missing = await post({ intent: "resend", deliveryId: "999999" });
    expect([missing.status, errorsOf(missing)[""]]).toEqual([404, [M.deliveryNotFound]]);
  });

  it("shows an endpoint the job disabled, with an Enable button that turns it back on", async () => {
    const added = await post({ intent: "add", url: "https://93.184.215.14/down", events: "order.paid" });
    expect(added.status).toBe(200);
    const id = (await page()).endpoints.find((e) => e.url === "https://93.184.215.14/down")!.id;
    await shop.db
      .updateTable("webhookEndpoints")
      .set({ enabled: 0, disabledAt: "2026-11-20T10:00:00.000Z", failingSince: "2026-11-17T10:00:00.000Z" })
      .where("id", "=", id)
      .execute();
    const shown = (await page()).endpoints.find((e) => e.id === id)!;
    expect([shown.enabled, shown.disabledAt !== null]).toEqual([false, true]);
    // a test event is refused while it is off
    const test = await post({ intent: "test", id: String(id) });
    expect([test.status, errorsOf(test)[""]]).toEqual([409, [M.testDisabled]]);
    const enabled = await post({ intent: "enable", id: String(id) });
    expect(redirected(enabled)).toEqual([302, "/admin/webhooks"]);
    expect((await page()).endpoints.find((e) => e.id === id)).toMatchObject({
      enabled: true,
      disabledAt: null,
      failingSince: null,
    });
  });
});
