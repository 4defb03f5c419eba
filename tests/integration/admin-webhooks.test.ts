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
 * and the endpoint's latest attempts listed once the delivery job has sent an event.
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
  });
});
