import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintTestToken } from "../../app/adapters/payments/test-gateway.server.ts";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import { enableMetrics } from "../../app/infra/metrics.server.ts";
import { settleAfterResponseTasks } from "../../app/jobs/after-response.server.ts";
import { everyTurn, jobTurn } from "../../app/jobs/job-schedule.server.ts";
import * as adminOrder from "../../app/routes/admin.orders.$number.tsx";
import * as cart from "../../app/routes/cart.tsx";
import * as checkout from "../../app/routes/checkout.tsx";
import { metricsHandler } from "../../server/metrics.ts";
import { ENGINES } from "../db-utils.ts";
import { cookieHeader } from "../helpers/account-fixtures.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { Scrape } from "../helpers/prometheus.ts";
import { callRoute, Jar, postForm } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * The shop's counters (decision 027) move with what really happens: an order placed and paid
 * through the checkout route, one declined by the gateway at Place Order, a refund through the
 * admin's order page, the confirmation e-mail, the database's statements, a background job's turn.
 * Each check reads /metrics's exposition text through a parser of the Prometheus text format.
 */
const TOKEN = "metrics-test-token-0123456789";
const metricsApp = new Hono().get("/metrics", metricsHandler(TOKEN));

async function scrape(): Promise<Scrape> {
  const response = await metricsApp.request("/metrics", { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return new Scrape(await response.text());
}

beforeAll(async () => {
  await enableMetrics();
});

describe.each(ENGINES)("metrics after real requests, on %s", (engine) => {
  let shop: TestShop;
  let productId: number;
  let ownerCookie: string;

  beforeAll(async () => {
    shop = await createTestShop(engine);
    productId = await insertProduct(shop.db, { name: "Metered Lamp", stock: 10, priceCents: 5_000 });
    const { auth } = shop.services;
    await createOrUpdateUser(
      { auth, db: shop.db },
      { email: "owner@metrics.example", password: "correct horse", role: "owner" },
    );
    const { headers } = await auth.api.signInEmail({
      body: { email: "owner@metrics.example", password: "correct horse" },
      returnHeaders: true,
    });
    ownerCookie = cookieHeader(headers);
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  /** A shopper through cart → shipping → payment → review; Place Order's fields. */
  async function toReview(jar: Jar, email: string) {
    const post = (module: typeof cart | typeof checkout, path: string, fields: Record<string, string>) =>
      postForm(module, `${TEST_ORIGIN}${path}`, fields, jar, shop.context());
    await post(cart, "/cart", { intent: "add", productId: String(productId), quantity: "1" });
    await post(checkout, "/checkout", {
      intent: "shipping",
      firstName: "Ada",
      lastName: "Lovelace",
      email,
      phone: "+1 555 0100",
      address: "1 Analytical Way",
      city: "Springfield",
      state: "IL",
      zipCode: "62701",
      country: "US",
      shippingMethod: "standard",
    });
    const paid = (await post(checkout, "/checkout", {
      intent: "payment",
      cardNumber: "4242 4242 4242 4242",
      cardName: "Ada Lovelace",
      expiryDate: "12/30",
      cvv: "123",
    })) as Response;
    expect(paid.headers.get("Location")).toBe("/checkout?step=review");
    const review = await callRoute(checkout, "loader", `${TEST_ORIGIN}/checkout?step=review`, {
      cookie: jar.header(),
      context: shop.context(),
    });
    const data = review.data as unknown as { idempotencyKey: string; totals: { totalCents: number } };
    return {
      // the answer, once the work it left for after it (the confirmation e-mail) is done
      placeOrder: async () => {
        const answer = (await postForm(
          checkout,
          `${TEST_ORIGIN}/checkout`,
          {
            intent: "place-order",
            idempotencyKey: data.idempotencyKey,
            expectedTotalCents: String(data.totals.totalCents),
          },
          jar,
          shop.context(),
        )) as Response;
        await settleAfterResponseTasks();
        return answer;
      },
    };
  }

  it("counts an order placed and paid, its e-mail and its statements", async () => {
    const before = await scrape();
    const { placeOrder } = await toReview(new Jar(), "ada@metrics.example");
    const placed = await placeOrder();
    expect(placed.headers.get("Location")).toBe("/checkout?step=confirmation");
    const after = await scrape();

    expect(after.value("cartwheel_orders_total", { event: "placed" })).toBe(
      before.value("cartwheel_orders_total", { event: "placed" }) + 1,
    );
    expect(after.value("cartwheel_orders_total", { event: "paid" })).toBe(
      before.value("cartwheel_orders_total", { event: "paid" }) + 1,
    );
    // the confirmation went out through the mailer
    for (const outcome of ["queued", "sent"]) {
      expect(after.value("cartwheel_emails_total", { outcome })).toBe(
        before.value("cartwheel_emails_total", { outcome }) + 1,
      );
    }
    // the order's statements were timed by kind (the reservation's inserts, the payment's update)
    expect(after.count("cartwheel_db_query_duration_seconds", { kind: "insert" })).toBeGreaterThan(
      before.count("cartwheel_db_query_duration_seconds", { kind: "insert" }),
    );
    expect(after.count("cartwheel_db_query_duration_seconds", { kind: "select" })).toBeGreaterThan(
      before.count("cartwheel_db_query_duration_seconds", { kind: "select" }),
    );
    // Node's own metrics are there too: memory and event-loop lag
    expect(after.family("process_resident_memory_bytes")?.type).toBe("GAUGE");
    expect(after.family("nodejs_eventloop_lag_seconds")?.type).toBe("GAUGE");
  });

  it("counts a payment the gateway declines at Place Order, by its reason", async () => {
    const jar = new Jar();
    const { placeOrder } = await toReview(jar, "grace@metrics.example");
    // the card passed the payment step, but the bank refuses the charge (as Stripe may answer)
    await shop.db
      .updateTable("checkoutProgress")
      .set({ paymentToken: mintTestToken("insufficient_funds") })
      .where("paymentToken", "is not", null)
      .execute();
    const before = await scrape();
    const answer = await placeOrder();
    // back to the payment step with the bank's message
    expect(answer.headers.get("Location")).toBe("/checkout?step=payment");
    const after = await scrape();
    expect(after.value("cartwheel_orders_total", { event: "failed" })).toBe(
      before.value("cartwheel_orders_total", { event: "failed" }) + 1,
    );
    expect(after.value("cartwheel_payment_failures_total", { reason: "insufficient_funds" })).toBe(
      before.value("cartwheel_payment_failures_total", { reason: "insufficient_funds" }) + 1,
    );
  });

  it("counts a refund made from the admin's order page", async () => {
    const order = await shop.db
      .selectFrom("orders")
      .select("number")
      .where("status", "=", "paid")
      .executeTakeFirstOrThrow();
    const before = await scrape();
    const outcome = await callRoute(adminOrder, "action", `${TEST_ORIGIN}/admin/orders/${order.number}`, {
      cookie: ownerCookie,
      fields: { intent: "refund", key: crypto.randomUUID(), amount: "5.00" },
      params: { number: order.number },
      context: shop.context(),
    });
    expect(outcome.response?.status).toBe(302);
    const after = await scrape();
    expect(after.value("cartwheel_refunds_total", { outcome: "succeeded" })).toBe(
      before.value("cartwheel_refunds_total", { outcome: "succeeded" }) + 1,
    );
    // the customer is told: one more e-mail
    expect(after.value("cartwheel_emails_total", { outcome: "sent" })).toBe(
      before.value("cartwheel_emails_total", { outcome: "sent" }) + 1,
    );
  });

  it("counts and times a background job's turn, and the turn a second process finds done", async () => {
    const before = await scrape();
    let runs = 0;
    const job = async () => {
      runs++;
      return { done: 1 };
    };
    const attempt = jobTurn(async () => shop.db, `metrics-${engine}`, { ttlMs: 60_000 }, job);
    expect(await attempt(7)).toBe("settled");
    expect(await attempt(7)).toBe("settled"); // the same turn again: done already, skipped
    expect(runs).toBe(1);
    const after = await scrape();
    const name = `metrics-${engine}`;
    expect(after.value("cartwheel_job_runs_total", { job: name, outcome: "ran" })).toBe(
      before.value("cartwheel_job_runs_total", { job: name, outcome: "ran" }) + 1,
    );
    expect(after.value("cartwheel_job_runs_total", { job: name, outcome: "skipped" })).toBe(
      before.value("cartwheel_job_runs_total", { job: name, outcome: "skipped" }) + 1,
    );
    expect(after.count("cartwheel_job_duration_seconds", { job: name })).toBe(
      before.count("cartwheel_job_duration_seconds", { job: name }) + 2,
    );
    // the scheduler's stop leaves nothing behind
    everyTurn(60_000, attempt)();
  });
});

it("answers 401 without the bearer token, or with another one", async () => {
  expect((await metricsApp.request("/metrics")).status).toBe(401);
  const wrong = await metricsApp.request("/metrics", {
    headers: { Authorization: "Bearer not-the-token-at-all" },
  });
  expect(wrong.status).toBe(401);
  expect(wrong.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
  const basic = await metricsApp.request("/metrics", { headers: { Authorization: `Basic ${TOKEN}` } });
  expect(basic.status).toBe(401);
  expect(await (await metricsApp.request("/metrics")).text()).not.toContain("cartwheel_");
});
