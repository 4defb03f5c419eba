import { randomBytes } from "node:crypto";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { type ShopServer, startShop } from "../../bench/lib/shop.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { expect, test, visit } from "./fixtures.ts";
import { E2E_BUILD_DIR, ROOT } from "./shop-env.ts";

/**
 * Scaling out (architecture: "N identical app processes behind any load balancer, PostgreSQL,
 * nothing that matters held in process memory"): two shop processes on one PostgreSQL database
 * behind a proxy that sends each request to the other process in turn. A shopper's whole journey
 * — cart, checkout, order tracking, pages hydrating and navigating — and a rate limit must work as
 * on one process.
 */
const PRODUCT = { slug: "kestrel-x12-smartphone", name: "Kestrel X12 Smartphone" };

let database: TestDatabase | undefined;
let shops: ShopServer[] = [];
let proxy: Server | undefined;
let shopUrl = "";
/** requests each process answered */
const served = [0, 0];

/**
 * A round-robin proxy: request n goes to process n mod 2, as a load balancer without affinity
 * would. It listens first (the shops need its address as their PUBLIC_URL); `ports` fills later.
 */
function startProxy(ports: number[]): Promise<string> {
  let next = 0;
  const server = createServer((incoming, outgoing) => {
    const target = next++ % ports.length;
    served[target] = (served[target] ?? 0) + 1;
    const forwarded = httpRequest(
      {
        host: "127.0.0.1",
        port: ports[target],
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  proxy = server;
  return new Promise((done) => {
    server.listen(0, "127.0.0.1", () => done(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // ENGINES has PostgreSQL whenever one answers (with REQUIRE_POSTGRES=true its absence is an error)
  test.skip(!ENGINES.includes("postgres"), "no PostgreSQL here");
  database = await createTestDatabase("postgres");
  const shared = database.dir; // uploads and mail of both processes; removed with the database
  const ports: number[] = [];
  shopUrl = await startProxy(ports);
  const env = {
    DATABASE_URL: database.url,
    // the same for every process, as behind a load balancer
    SESSION_SECRET: "scale-out-test-secret-of-at-least-32-characters",
    PUBLIC_URL: shopUrl,
    FILE_STORE_URL: `file:${join(shared, "uploads")}`,
    MAIL_URL: `file:${join(shared, "mail")}`,
    SEED_ON_EMPTY: "true",
    PAYMENT_DELAY_MS: "0",
  };
  // both at once on the empty catalogue: the seed's lock makes them take turns
  shops = await Promise.all(
    ["a", "b"].map((name) => startShop(ROOT, E2E_BUILD_DIR, join(shared, `process-${name}`), [], env)),
  );
  ports.push(...shops.map((shop) => shop.port));
});

test.afterAll(async () => {
  await Promise.all(shops.map((shop) => shop.stop()));
  shops = [];
  await new Promise((r) => (proxy ? proxy.close(r) : r(null)));
  await database?.destroy();
});

/** A form post as a browser without JavaScript sends it, not following the redirect. */
const post = (api: APIRequestContext, path: string, form: Record<string, string>) =>
  api.post(`${shopUrl}${path}`, { form, headers: { origin: shopUrl }, maxRedirects: 0 });

const hidden = (html: string, name: string) =>
  new RegExp(`name="${name}"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="${name}"`)
    .exec(html)
    ?.slice(1)
    .find(Boolean);

test("cart, checkout and tracking work with every request going to the other process", async ({ page }) => {
  const api = page.request;
  const product = await api.get(`${shopUrl}/products/${PRODUCT.slug}`);
  expect(product.status()).toBe(200);
  const html = await product.text();
  const productId = /name="productId" value="(\d+)"/.exec(html)?.[1];
  const variantId = /name="variantId" value="(\d+)"/.exec(html)?.[1];
  expect(productId).toBeTruthy();
  expect(variantId).toBeTruthy();

  expect(
    (
      await post(api, "/cart", { intent: "add", productId: productId!, variantId: variantId!, quantity: "2" })
    ).status(),
  ).toBe(302);
  const cart = await api.get(`${shopUrl}/cart`);
  expect(await cart.text()).toContain(PRODUCT.name);

  const email = `scale.${randomBytes(4).toString("hex")}@example.com`;
  const shipping = await post(api, "/checkout", {
    intent: "shipping",
    firstName: "Grace",
    lastName: "Hopper",
    email,
    phone: "+1 555 0100",
    address: "1 Compiler Lane",
    city: "Arlington",
    state: "VA",
    zipCode: "22201",
    country: "US",
    shippingMethod: "standard",
  });
  expect(shipping.headers().location).toBe("/checkout?step=payment");
  const payment = await post(api, "/checkout", {
    intent: "payment",
    cardNumber: "4242424242424242",
    cardName: "Grace Hopper",
    expiryDate: "12/30",
    cvv: "123",
  });
  expect(payment.headers().location).toBe("/checkout?step=review");
  const review = await (await api.get(`${shopUrl}/checkout?step=review`)).text();
  const idempotencyKey = hidden(review, "idempotencyKey");
  const expectedTotalCents = hidden(review, "expectedTotalCents");
  expect(idempotencyKey && expectedTotalCents).toBeTruthy();
  const placing = {
    intent: "place-order",
    idempotencyKey: idempotencyKey!,
    expectedTotalCents: expectedTotalCents!,
  };
  expect((await post(api, "/checkout", placing)).headers().location).toBe("/checkout?step=confirmation");
  // the same submission again, answered by the other process: the same order, not a second one
  expect((await post(api, "/checkout", placing)).headers().location).toBe("/checkout?step=confirmation");
  const confirmation = await (await api.get(`${shopUrl}/checkout?step=confirmation`)).text();
  const number = /CW-[0-9A-Z]{10}/.exec(confirmation)?.[0];
  expect(number).toBeTruthy();
  expect(confirmation).toContain(email);

  const tracked = await post(api, "/orders/track", { orderNumber: number!, email });
  expect(tracked.status()).toBe(200);
  const trackedHtml = await tracked.text();
  expect(trackedHtml).toContain("Paid — preparing for shipment");
  expect(trackedHtml).toMatch(new RegExp(`2(<!-- -->)? x (<!-- -->)?${PRODUCT.name}`));

  // both processes answered, alternately
  expect(served[0]).toBeGreaterThanOrEqual(5);
  expect(served[1]).toBeGreaterThanOrEqual(5);
});

test("pages hydrate and navigate with their data requests split between the processes", async ({ page }) => {
  await visit(page, `${shopUrl}/`);
  await page.getByRole("link", { name: "Shop Now", exact: true }).click();
  await expect(page).toHaveURL(`${shopUrl}/products`);
  await visit(page, `${shopUrl}/products?q=kestrel`);
  await page.getByRole("link", { name: PRODUCT.name }).first().click();
  await expect(page).toHaveURL(`${shopUrl}/products/${PRODUCT.slug}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(PRODUCT.name);
});

test("failed sign-ins are counted across both processes", async ({ page }) => {
  const email = `nobody.${randomBytes(4).toString("hex")}@example.com`;
  const attempt = () =>
    post(page.request, "/account", { intent: "sign-in", email, password: "not-the-password" });
  for (let n = 1; n <= 5; n++)
    expect(await (await attempt()).text()).not.toContain("Too many sign-in attempts");
  expect(await (await attempt()).text()).toContain("Too many sign-in attempts");
});

test("the shop's settings and zones, saved once, show at once on both processes", async ({ page }) => {
  const home = async () => (await page.request.get(`${shopUrl}/`)).text();
  const before = [await home(), await home()];
  for (const html of before) expect(html).toMatch(/orders over (<!-- -->)?\$50/);
  const servedBefore = [...served];
  const db = database!.db;
  const methods = await db.selectFrom("shippingMethods").selectAll().execute();
  const moveRevision = () =>
    db
      .updateTable("markets")
      .set((eb) => ({ revision: eb("revision", "+", 1) }))
      .execute();
  await db
    .insertInto("shopSettings")
    .values({
      id: 1,
      shopName: "Scaled Shop",
      contactEmail: "hello@scaled.example",
      contactPhone: "+44 20 7946 0000",
      contactAddress: "1 Scale Street, London",
      facebookUrl: "",
      instagramUrl: "",
      xUrl: "",
      youtubeUrl: "",
      currency: "GBP",
      taxRateBasisPoints: 700,
      taxLabel: "Including VAT",
      standardShippingCents: 499,
      freeShippingThresholdCents: 5_000,
      expressShippingCents: 999,
      standardDaysMin: 4,
      standardDaysMax: 6,
      expressDaysMin: 1,
      expressDaysMax: 3,
      updatedAt: new Date().toISOString(),
    })
    .execute();
  // the zones as Admin → Settings → Zones saves them: the methods changed, the revision moved
  await db
    .updateTable("shippingMethods")
    .set({ freeOverCents: 2_500 })
    .where("code", "=", "standard")
    .execute();
  await db
    .updateTable("shippingMethods")
    .set({ daysMin: 1, daysMax: 1 })
    .where("code", "=", "express")
    .execute();
  await moveRevision();
  try {
    // the next request of each process: no restart, no waiting
    const after = [await home(), await home()];
    expect(served[0]! - servedBefore[0]!).toBeGreaterThanOrEqual(1);
    expect(served[1]! - servedBefore[1]!).toBeGreaterThanOrEqual(1);
    for (const html of after) {
      expect(html).toContain("Scaled Shop");
      expect(html).toMatch(/orders over (<!-- -->)?£25/);
      expect(html).toContain("express in 1 business day");
    }
  } finally {
    await db.deleteFrom("shopSettings").execute();
    for (const method of methods) {
      await db
        .updateTable("shippingMethods")
        .set({ freeOverCents: method.freeOverCents, daysMin: method.daysMin, daysMax: method.daysMax })
        .where("id", "=", method.id)
        .execute();
    }
    await moveRevision();
  }
});
