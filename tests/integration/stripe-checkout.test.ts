import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../app/api/api.server.ts";
import { createApiKey } from "../../app/domain/integrations/api-keys.server.ts";
import {
  HOSTED_PAYMENT,
  ORDER_COLUMNS,
  reconcilePayments,
  settlePayment,
} from "../../app/domain/payments/charges.server.ts";
import { refundOrder } from "../../app/domain/payments/refunds.server.ts";
import { providerCancelToken } from "../../app/http/checkout-session.server.ts";
import * as toasts from "../../app/http/toast.server.ts";
import { settleAfterResponseTasks } from "../../app/jobs/after-response.server.ts";
import * as cart from "../../app/routes/cart.tsx";
import * as checkout from "../../app/routes/checkout.tsx";
import * as checkoutReturn from "../../app/routes/checkout_.return.tsx";
import * as webhooks from "../../app/routes/webhooks.stripe.tsx";
import { cartwheelClient } from "../../clients/typescript/client.ts";
import { ENGINES } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { insertPendingOrder } from "../helpers/invoice-orders.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { Jar, postForm } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";
import { type StripeServer, startStripeServer } from "../support/stripe-server/index.ts";

/**
 * Checkout with PAYMENT_GATEWAY=stripe (issue 19, decision 020), through the real route modules and
 * the official SDK against the Stripe-compatible test server (tests/support/stripe-server), whose
 * webhooks are delivered to the shop's /webhooks/stripe action: the Payment Element's payment
 * method, 3-D Secure through the return URL, a decline, the hosted Checkout page without
 * JavaScript (paid and given up), the webhook and the return URL in either order, a bad signature,
 * a duplicate event, a refund made in Stripe's dashboard, a dispute, and the job giving up an
 * abandoned hosted page.
 */
describe.each(ENGINES)("checkout with Stripe on %s", (engine) => {
  let server: StripeServer;
  let receiver: Server;
  let shop: TestShop;
  let stripe: Stripe;
  let productId: number;
  /** what the shop's webhook answered, in delivery order */
  const answered: number[] = [];

  beforeAll(async () => {
    receiver = createServer((incoming, outgoing) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", async () => {
        const request = new Request(`${TEST_ORIGIN}/webhooks/stripe`, {
          method: "POST",
          headers: {
            "Content-Type": String(incoming.headers["content-type"]),
            "Stripe-Signature": String(incoming.headers["stripe-signature"] ?? ""),
          },
          body: Buffer.concat(chunks),
        });
        let status = 200;
        try {
          const result = (await webhooks.action({
            request,
            params: {},
            context: shop.context(),
          } as never)) as {
            init?: { status?: number };
          };
          status = result.init?.status ?? 200;
        } catch {
          status = 500;
        }
        answered.push(status);
        outgoing.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const { port } = receiver.address() as AddressInfo;
    server = await startStripeServer({
      webhookUrl: `http://127.0.0.1:${port}/webhooks/stripe`,
      webhookRetryDelaysMs: [5, 5],
      enabledEvents: "*",
    });
    shop = await createTestShop(engine, {
      PAYMENT_GATEWAY: "stripe",
      STRIPE_SECRET_KEY: "sk_test_cartwheel",
      STRIPE_PUBLISHABLE_KEY: "pk_test_cartwheel",
      STRIPE_WEBHOOK_SECRET: server.webhookSecret,
      STRIPE_API_URL: server.url,
    });
    stripe = new Stripe("sk_test_cartwheel", { ...server.stripeConfig, maxNetworkRetries: 0 });
    productId = await insertProduct(shop.db, { name: "Trail Backpack", stock: 50, priceCents: 4_000 });
  });

  afterAll(async () => {
    await server?.close();
    await new Promise<void>((resolve) => receiver?.close(() => resolve()));
    await shop?.destroy();
  });

  const post = (module: { action: (args: never) => unknown }, fields: Record<string, string>, jar: Jar) =>
    postForm(module, `${TEST_ORIGIN}/${module === cart ? "cart" : "checkout"}`, fields, jar, shop.context());

  async function toastIn(jar: Jar) {
    const { toast } = await toasts.getToast(new Request(TEST_ORIGIN, { headers: { Cookie: jar.header() } }));
    jar.cookies.delete("cw_toast");
    return toast && { type: toast.type, message: toast.message };
  }

  /** The checkout page's data (or where it redirects), with the response's headers. */
  async function load(search: string, jar: Jar): Promise<Record<string, unknown>> {
    const request = new Request(`${TEST_ORIGIN}/checkout${search}`, { headers: { Cookie: jar.header() } });
    try {
      const result = (await checkout.loader({ request, params: {}, context: shop.context() } as never)) as {
        data: Record<string, unknown>;
        init?: { headers?: Headers };
      };
      return { ...result.data, headers: new Headers(result.init?.headers) };
    } catch (thrown) {
      if (thrown instanceof Response) return { redirect: thrown.headers.get("Location") };
      throw thrown;
    }
  }

  /** GET /checkout/return as the provider sends the shopper there: where it redirects. */
  /** a hosted page (Checkout Session) as the provider keeps it */
  const session = (reference: string) => {
    const found = server.state.sessions.get(reference);
    if (!found?.cancel_url) throw new Error(`no hosted page ${reference} with a cancel address`);
    return { ...found, cancel_url: found.cancel_url };
  };

  async function comeBack(url: string, jar: Jar) {
    const request = new Request(url, { headers: { Cookie: jar.header() } });
    try {
      await checkoutReturn.loader({ request, params: {}, context: shop.context() } as never);
    } catch (thrown) {
      if (thrown instanceof Response) {
        jar.store(thrown);
        return thrown.headers.get("Location");
      }
      throw thrown;
    }
    throw new Error("the return page did not redirect");
  }

  /** A shopper with two backpacks in the cart and the shipping step done. */
  async function shopper(email = "ada@example.com") {
    const jar = new Jar();
    await post(cart, { intent: "add", productId: String(productId), quantity: "2" }, jar);
    await post(
      checkout,
      {
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
      },
      jar,
    );
    await toastIn(jar);
    return jar;
  }

  /** Place Order from the review step: where it sends the shopper. */
  async function placeOrder(jar: Jar) {
    const review = await load("?step=review", jar);
    const response = (await post(
      checkout,
      {
        intent: "place-order",
        idempotencyKey: String(review.idempotencyKey),
        expectedTotalCents: String((review.totals as { totalCents: number }).totalCents),
      },
      jar,
    )) as Response;
    return { location: response.headers.get("Location") ?? "", key: String(review.idempotencyKey) };
  }

  const orderOf = (key: string) =>
    shop.db.selectFrom("orders").selectAll().where("idempotencyKey", "=", key).executeTakeFirstOrThrow();
  const stockLeft = async () =>
    (
      await shop.db
        .selectFrom("products")
        .select("stock")
        .where("id", "=", productId)
        .executeTakeFirstOrThrow()
    ).stock;
  const mailTo = async (email: string) =>
    (await readOutbox(shop.mailDir)).filter((message) => message.to.toLowerCase().includes(email));

  /** A page of the test server, fetched as the browser would (no redirect followed). */
  async function submitPage(url: string, fields: Record<string, string>) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
      redirect: "manual",
    });
    return { status: response.status, location: response.headers.get("Location") ?? "" };
  }

  it("opens Stripe's origins in the checkout's policy (and there only)", async () => {
    const jar = await shopper("csp@example.com");
    const request = new Request(`${TEST_ORIGIN}/checkout?step=payment`, {
      headers: { Cookie: jar.header() },
    });
    const context = shop.context();
    // the server's nonce, as server/app.ts hands it over
    const { requestInfoContext } = await import("../../app/lib/request-context.ts");
    context.set(requestInfoContext, { nonce: "abc", requestId: "t", clientIp: "203.0.113.9" });
    const result = (await checkout.loader({ request, params: {}, context } as never)) as {
      data: { provider: unknown };
      init: { headers: Headers };
    };
    expect(result.data.provider).toEqual({ publishableKey: "pk_test_cartwheel" });
    const policy = new Headers(result.init.headers).get("Content-Security-Policy") ?? "";
    expect(policy).toContain("script-src 'self' 'nonce-abc' https://js.stripe.com");
    expect(policy).toContain("frame-src https://js.stripe.com https://hooks.stripe.com");
    expect(policy).toContain("connect-src 'self' https://api.stripe.com");
    expect(policy).toContain(
      `form-action 'self' https://checkout.stripe.com https://hooks.stripe.com ${server.url}`,
    );
    // the other steps carry it too (a policy comes with its document; the steps share one)
    const shipping = (await checkout.loader({
      request: new Request(`${TEST_ORIGIN}/checkout`, { headers: { Cookie: jar.header() } }),
      params: {},
      context,
    } as never)) as { init: { headers: Headers } };
    expect(new Headers(shipping.init.headers).get("Content-Security-Policy")).toBe(policy);
    // the shop's other pages keep the server's own policy (server/app.ts): no route sets one
    const cartPage = (await cart.loader({
      request: new Request(`${TEST_ORIGIN}/cart`, { headers: { Cookie: jar.header() } }),
      params: {},
      context,
    } as never)) as { init?: { headers?: Headers } };
    expect(new Headers(cartPage.init?.headers).get("Content-Security-Policy")).toBeNull();
  });

  it("Payment Element: the browser's payment method is reviewed, placed and paid at once", async () => {
    const jar = await shopper("element@example.com");
    const before = await stockLeft();
    const chosen = (await post(
      checkout,
      { intent: "payment", paymentMethodId: "pm_card_visa" },
      jar,
    )) as Response;
    expect(chosen.headers.get("Location")).toBe("/checkout?step=review");
    const review = await load("?step=review", jar);
    expect(review.card).toMatchObject({ brand: "Visa", last4: "4242", hosted: false });
    const { location, key } = await placeOrder(jar);
    expect(location).toBe("/checkout?step=confirmation");
    const order = await orderOf(key);
    expect(order).toMatchObject({ status: "paid", paymentBrand: "Visa", paymentLast4: "4242" });
    expect(order.paymentReference).toMatch(/^pi_/);
    const intent = server.state.paymentIntents.get(order.paymentReference);
    expect(intent).toMatchObject({ status: "succeeded", amount: order.totalCents });
    expect(intent?.metadata).toMatchObject({ order_number: order.number, idempotency_key: key });
    expect(await stockLeft()).toBe(before - 2);
    expect(await load("", jar)).toEqual({ redirect: "/cart" }); // the cart is empty
    await server.webhooks.settled();
    await settleAfterResponseTasks(); // the confirmation goes out right after the answer
    expect(await mailTo("element@example.com")).toHaveLength(1);
  });

  it("a payment method Stripe does not know is refused at the payment step", async () => {
    const jar = await shopper("unknown-pm@example.com");
    await post(checkout, { intent: "payment", paymentMethodId: "pm_nothing_here" }, jar);
    expect(await toastIn(jar)).toEqual({
      type: "error",
      message: "Your payment details could not be used. Please enter your card again.",
    });
    expect(await load("?step=review", jar)).toEqual({ redirect: "/checkout?step=payment" });
  });

  it("a declined card goes back to the payment step with Stripe's reason, its stock given back", async () => {
    const jar = await shopper("declined@example.com");
    const before = await stockLeft();
    await post(
      checkout,
      { intent: "payment", paymentMethodId: "pm_card_chargeDeclinedInsufficientFunds" },
      jar,
    );
    const { location, key } = await placeOrder(jar);
    expect(location).toBe("/checkout?step=payment");
    expect(await toastIn(jar)).toEqual({
      type: "error",
      message: "Your card has insufficient funds. Please use a different card.",
    });
    expect((await orderOf(key)).status).toBe("payment_failed");
    expect(await stockLeft()).toBe(before);
  });

  it("3-D Secure: Place Order sends the shopper to the bank; coming back completes the order", async () => {
    const jar = await shopper("three-ds@example.com");
    const before = await stockLeft();
    await post(checkout, { intent: "payment", paymentMethodId: "pm_card_threeDSecure2Required" }, jar);
    const { location, key } = await placeOrder(jar);
    expect(location.startsWith(`${server.url}/3ds/`)).toBe(true);
    const pending = await orderOf(key);
    expect(pending.status).toBe("pending_payment");
    expect(pending.paymentReference).toMatch(/^pi_/);
    expect(await stockLeft()).toBe(before - 2); // reserved meanwhile

    // the event comes after the shopper: the return URL settles the order
    server.webhooks.hold();
    const page = await fetch(location);
    const attempt = /name="attempt" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
    const bank = await submitPage(`${server.url}/3ds/${pending.paymentReference}`, {
      attempt,
      outcome: "complete",
    });
    expect(bank.status).toBe(303);
    expect(bank.location.startsWith(`${TEST_ORIGIN}/checkout/return`)).toBe(true);
    expect(await comeBack(bank.location, jar)).toBe("/checkout?step=confirmation");
    const order = await orderOf(key);
    expect(order).toMatchObject({ status: "paid", paymentReference: pending.paymentReference });
    expect((await load("?step=confirmation", jar)).order).toMatchObject({ number: order.number });
    expect(await mailTo("three-ds@example.com")).toHaveLength(1);

    // the event arrives now: nothing more happens, and it is stored as handled
    await server.webhooks.release();
    await server.webhooks.settled();
    expect((await orderOf(key)).status).toBe("paid");
    expect(await mailTo("three-ds@example.com")).toHaveLength(1);
    const succeeded = server.state.events.find(
      (event) =>
        event.type === "payment_intent.succeeded" &&
        (event.data.object as { id: string }).id === pending.paymentReference,
    );
    const stored = await shop.db
      .selectFrom("paymentEvents")
      .selectAll()
      .where("id", "=", succeeded!.id)
      .executeTakeFirst();
    expect(stored).toMatchObject({ type: "payment-succeeded", orderNumber: order.number });
  });

  it("3-D Secure: the event first, then the shopper — paid once, e-mailed once, the cart emptied", async () => {
    const jar = await shopper("event-first@example.com");
    await post(checkout, { intent: "payment", paymentMethodId: "pm_card_threeDSecure2Required" }, jar);
    const { location, key } = await placeOrder(jar);
    const pending = await orderOf(key);
    const attempt = /name="attempt" value="([^"]+)"/.exec(await (await fetch(location)).text())?.[1] ?? "";
    const bank = await submitPage(`${server.url}/3ds/${pending.paymentReference}`, {
      attempt,
      outcome: "complete",
    });
    await server.webhooks.settled();
    expect((await orderOf(key)).status).toBe("paid");
    // the cart is still full: the shopper has not come back yet
    expect((await load("?step=review", jar)).step).toBe("review");
    expect(await comeBack(bank.location, jar)).toBe("/checkout?step=confirmation");
    expect(await load("", jar)).toEqual({ redirect: "/cart" });
    expect(await mailTo("event-first@example.com")).toHaveLength(1);
  });

  /** A cart built through the Store API with a publishable key: two backpacks, priced for the address. */
  async function apiCart() {
    const made = await createApiKey(shop.db, {
      actor: { id: "owner-1", email: "owner@example.com", role: "owner" },
      input: { name: "App", kind: "publishable", scopes: [], expiresAt: null },
    });
    if (!made.ok) throw new Error(made.error.code);
    const api = createApi(async () => shop.services);
    const client = cartwheelClient({
      baseUrl: TEST_ORIGIN,
      apiKey: made.value.secret,
      fetch: (request) => Promise.resolve(api.fetch(request)),
    });
    const header = () => ({ "idempotency-key": randomUUID() });
    const created = await client.POST("/api/v1/store/carts", { params: { header: header() } });
    const cartId = created.data?.id ?? "";
    await client.POST("/api/v1/store/carts/{cartId}/lines", {
      params: { path: { cartId }, header: header() },
      body: { productId, quantity: 2 },
    });
    const quote = await client.GET("/api/v1/store/carts/{cartId}/quote", {
      params: { path: { cartId }, query: { country: "US", region: "IL", shippingMethod: "standard" } },
    });
    const checkoutWith = (token: string, email: string, returnUrl?: string) =>
      client.POST("/api/v1/store/carts/{cartId}/checkout", {
        params: { path: { cartId }, header: header() },
        body: {
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
          payment: { token },
          expectedTotal: quote.data?.totals.total.amount ?? 0,
          ...(returnUrl ? { returnUrl } : {}),
        },
      });
    return { client, cartId, checkoutWith, header };
  }

  it("Store API: a PaymentMethod made with Stripe's SDK is charged by Place Order, paid at once", async () => {
    const { client, checkoutWith, header } = await apiCart();
    // the card is never sent to the shop: the provider's SDK makes the payment method
    const tokens = await client.POST("/api/v1/store/payment-tokens", {
      params: { header: header() },
      body: { cardNumber: "4242424242424242", cardName: "Ada", expiryDate: "12/30", cvv: "123" },
    });
    expect(tokens.response.status).toBe(409);
    const unknown = await checkoutWith("pm_unknown", "api-unknown@example.com");
    expect(unknown.response.status).toBe(402);

    const before = await stockLeft();
    const placed = await checkoutWith("pm_card_visa", "api-stripe@example.com");
    expect(placed.response.status).toBe(201);
    expect(placed.data?.redirectUrl).toBeNull();
    const order = await shop.db
      .selectFrom("orders")
      .selectAll()
      .where("number", "=", placed.data?.order.number ?? "")
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ status: "paid", paymentBrand: "Visa", paymentLast4: "4242" });
    expect(order.paymentReference).toMatch(/^pi_/);
    const intent = server.state.paymentIntents.get(order.paymentReference ?? "");
    expect(intent).toMatchObject({ amount: order.totalCents, status: "succeeded" });
    expect(await stockLeft()).toBe(before - 2);
    await settleAfterResponseTasks();
    expect(await mailTo("api-stripe@example.com")).toHaveLength(1);
  });

  it("Store API: 3-D Secure sends the shopper to the bank from redirectUrl; the provider's event settles the order", async () => {
    const refused = await (await apiCart()).checkoutWith(
      "pm_card_threeDSecure2Required",
      "api-no-return@example.com",
    );
    // no returnUrl: a payment that asks for the bank cannot be completed, and is declined
    expect(refused.response.status).toBe(402);

    const { checkoutWith } = await apiCart();
    const placed = await checkoutWith(
      "pm_card_threeDSecure2Required",
      "api-3ds@example.com",
      "https://app.example/orders/done",
    );
    expect(placed.response.status).toBe(201);
    const location = placed.data?.redirectUrl ?? "";
    expect(location.startsWith(`${server.url}/3ds/`)).toBe(true);
    const pending = await shop.db
      .selectFrom("orders")
      .selectAll()
      .where("number", "=", placed.data?.order.number ?? "")
      .executeTakeFirstOrThrow();
    expect(pending.status).toBe("pending_payment");
    const attempt = /name="attempt" value="([^"]+)"/.exec(await (await fetch(location)).text())?.[1] ?? "";
    const bank = await submitPage(`${server.url}/3ds/${pending.paymentReference}`, {
      attempt,
      outcome: "complete",
    });
    expect(bank.location.startsWith("https://app.example/orders/done")).toBe(true);
    await server.webhooks.settled();
    expect(
      (
        await shop.db
          .selectFrom("orders")
          .select("status")
          .where("id", "=", pending.id)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe("paid");
    await settleAfterResponseTasks();
    expect(await mailTo("api-3ds@example.com")).toHaveLength(1);
  });

  it("3-D Secure failed: back to the payment step, the stock given back", async () => {
    const jar = await shopper("three-ds-fail@example.com");
    const before = await stockLeft();
    await post(checkout, { intent: "payment", paymentMethodId: "pm_card_threeDSecure2Required" }, jar);
    const { location, key } = await placeOrder(jar);
    const pending = await orderOf(key);
    const attempt = /name="attempt" value="([^"]+)"/.exec(await (await fetch(location)).text())?.[1] ?? "";
    const bank = await submitPage(`${server.url}/3ds/${pending.paymentReference}`, {
      attempt,
      outcome: "fail",
    });
    expect(await comeBack(bank.location, jar)).toBe("/checkout?step=payment");
    expect((await toastIn(jar))?.type).toBe("error");
    expect((await orderOf(key)).status).toBe("payment_failed");
    expect(await stockLeft()).toBe(before);
  });

  it("without JavaScript: the hosted Checkout page, paid, then the confirmation", async () => {
    const jar = await shopper("hosted@example.com");
    const chosen = (await post(checkout, { intent: "payment" }, jar)) as Response;
    expect(chosen.headers.get("Location")).toBe("/checkout?step=review");
    expect((await load("?step=review", jar)).card).toMatchObject({ hosted: true });
    const { location, key } = await placeOrder(jar);
    expect(location.startsWith(`${server.url}/checkout/cs_`)).toBe(true);
    const pending = await orderOf(key);
    expect(pending).toMatchObject({ status: "pending_payment" });
    const session = server.state.sessions.get(pending.paymentReference);
    expect(session).toMatchObject({ amount_total: pending.totalCents, client_reference_id: pending.number });

    const paid = await submitPage(location, {
      email: "hosted@example.com",
      name: "Ada Lovelace",
      card_number: "4242 4242 4242 4242",
      card_expiry: "12 / 34",
      card_cvc: "123",
    });
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(`${TEST_ORIGIN}/checkout/return?session_id=${pending.paymentReference}`);
    expect(await comeBack(paid.location, jar)).toBe("/checkout?step=confirmation");
    const order = await orderOf(key);
    expect(order).toMatchObject({ status: "paid", paymentBrand: "Visa", paymentLast4: "4242" });
    expect(order.paymentReference).toMatch(/^pi_/);
    await server.webhooks.settled();
    expect(await mailTo("hosted@example.com")).toHaveLength(1);
  });

  it("a hosted page asked for a moment after the order was made still lives the provider's minimum", async () => {
    // the provider counts its 30 minutes from when it is asked, in whole seconds: a page timed to
    // exactly 30 minutes from the order's creation was refused whenever a second ticked in between
    // (the hosted checkout failed now and then); here the page is asked for 20 s after
    const placed = await insertPendingOrder(shop.db, { createdAt: new Date(Date.now() - 20_000) });
    const order = await shop.db
      .selectFrom("orders")
      .select(ORDER_COLUMNS)
      .where("id", "=", placed.id)
      .executeTakeFirstOrThrow();
    const settled = await settlePayment(shop.db, shop.services.gateway, {
      order,
      token: HOSTED_PAYMENT,
      provider: {
        returnUrl: `${TEST_ORIGIN}/checkout/return`,
        successUrl: `${TEST_ORIGIN}/checkout/return?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${TEST_ORIGIN}/checkout/return?cancelled=1`,
      },
    });
    expect(settled).toMatchObject({ status: "redirect" });
    const page = server.state.sessions.get((await orderOf(placed.idempotencyKey)).paymentReference);
    expect(page?.expires_at).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + 30 * 60);
  });

  it("the hosted page given up: the order fails, its page is closed, the stock is back", async () => {
    const jar = await shopper("hosted-cancel@example.com");
    const before = await stockLeft();
    await post(checkout, { intent: "payment" }, jar);
    const { key } = await placeOrder(jar);
    const pending = await orderOf(key);
    // a link from anywhere (no value signed for this checkout) gives nothing up
    expect(await comeBack(`${TEST_ORIGIN}/checkout/return?cancelled=1`, jar)).toBe("/cart");
    expect(
      await comeBack(`${TEST_ORIGIN}/checkout/return?cancelled=${providerCancelToken(`${key}x`)}`, jar),
    ).toBe("/cart");
    expect((await orderOf(key)).status).toBe("pending_payment");
    expect(server.state.sessions.get(pending.paymentReference)?.status).toBe("open");
    // the provider's cancel address, which Place Order gave it, does
    expect(session(pending.paymentReference).cancel_url).toBe(
      `${TEST_ORIGIN}/checkout/return?cancelled=${providerCancelToken(key)}`,
    );
    expect(await comeBack(session(pending.paymentReference).cancel_url, jar)).toBe("/checkout?step=payment");
    expect(await toastIn(jar)).toEqual({
      type: "error",
      message: "The payment was not completed. Please choose how to pay again.",
    });
    expect((await orderOf(key)).status).toBe("payment_failed");
    expect(server.state.sessions.get(pending.paymentReference)?.status).toBe("expired");
    expect(await stockLeft()).toBe(before);
    // and only once: the value is worthless after the order is settled
    expect(await comeBack(session(pending.paymentReference).cancel_url, jar)).toBe("/cart");
  });

  it("a return address for someone else's order settles only the shopper's own", async () => {
    const victim = await shopper("victim@example.com");
    await post(checkout, { intent: "payment" }, victim);
    const { key } = await placeOrder(victim);
    const intruder = new Jar();
    const reference = (await orderOf(key)).paymentReference;
    expect(
      await comeBack(`${TEST_ORIGIN}/checkout/return?session_id=${reference}&cancelled=1`, intruder),
    ).toBe("/cart");
    expect((await orderOf(key)).status).toBe("pending_payment");
  });

  it("the job gives up an abandoned hosted page once the reservation lapsed, and closes it", async () => {
    const jar = await shopper("abandoned@example.com");
    await post(checkout, { intent: "payment" }, jar);
    const { key } = await placeOrder(jar);
    const pending = await orderOf(key);
    const later = new Date(Date.parse(String(pending.reservedUntil)) + 60_000);
    const settled = await reconcilePayments(shop.db, shop.services.gateway, { now: later });
    expect(settled.failed).toBeGreaterThanOrEqual(1);
    expect((await orderOf(key)).status).toBe("payment_failed");
    expect(server.state.sessions.get(pending.paymentReference)?.status).toBe("expired");
  });

  it("refuses an event without a valid signature and changes nothing", async () => {
    const body = JSON.stringify({ id: "evt_forged", type: "payment_intent.succeeded", data: { object: {} } });
    const request = (signature: string) =>
      new Request(`${TEST_ORIGIN}/webhooks/stripe`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
        body,
      });
    for (const signature of [
      "",
      "t=1,v1=deadbeef",
      stripe.webhooks.generateTestHeaderString({ payload: body, secret: "whsec_other" }),
    ]) {
      const result = (await webhooks.action({
        request: request(signature),
        params: {},
        context: shop.context(),
      } as never)) as {
        init: { status: number };
      };
      expect(result.init.status).toBe(400);
    }
    expect(
      await shop.db
        .selectFrom("paymentEvents")
        .select("id")
        .where("id", "=", "evt_forged")
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it("handles an event delivered twice once", async () => {
    const jar = await shopper("twice@example.com");
    await post(checkout, { intent: "payment", paymentMethodId: "pm_card_visa" }, jar);
    const { key } = await placeOrder(jar);
    await server.webhooks.settled();
    const order = await orderOf(key);
    const event = server.state.events.find(
      (e) =>
        e.type === "payment_intent.succeeded" &&
        (e.data.object as { id: string }).id === order.paymentReference,
    )!;
    const rowsBefore = await shop.db
      .selectFrom("paymentEvents")
      .select("id")
      .where("id", "=", event.id)
      .execute();
    expect(rowsBefore).toHaveLength(1);
    const answersBefore = answered.length;
    await server.webhooks.resend(event.id);
    expect(answered.slice(answersBefore)).toEqual([200]);
    const rowsAfter = await shop.db
      .selectFrom("paymentEvents")
      .select("id")
      .where("id", "=", event.id)
      .execute();
    expect(rowsAfter).toHaveLength(1);
  });

  it("records a refund made in Stripe's dashboard, and a dispute, on the order", async () => {
    const jar = await shopper("dashboard@example.com");
    await post(checkout, { intent: "payment", paymentMethodId: "pm_card_visa" }, jar);
    const { key } = await placeOrder(jar);
    await server.webhooks.settled();
    const order = await orderOf(key);

    await stripe.refunds.create({ payment_intent: order.paymentReference, amount: 1_000 });
    await server.webhooks.settled();
    // and the same event again changes nothing
    const refundedEvent = server.state.events.filter((e) => e.type === "charge.refunded").at(-1)!;
    await server.webhooks.resend(refundedEvent.id);
    const after = await orderOf(key);
    expect(after).toMatchObject({ status: "partially_refunded", refundedCents: 1_000 });
    const refunds = await shop.db
      .selectFrom("orderRefunds")
      .selectAll()
      .where("orderId", "=", order.id)
      .execute();
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amountCents: 1_000, actor: "payment-provider" });
    expect((await mailTo("dashboard@example.com")).some((m) => m.subject.includes("$10.00 refunded"))).toBe(
      true,
    );

    // a refund the shop makes goes through Stripe too; its event does not count it twice
    const refunded = await refundOrder(
      {
        db: shop.db,
        gateway: shop.services.gateway,
        mail: shop.services.mail,
        shop: { shopName: "Cartwheel", publicUrl: "http://shop.test" },
      },
      {
        number: order.number,
        key: "admin-refund-1",
        lines: [],
        amountCents: 500,
        restock: false,
        reason: "Goodwill",
        actor: { id: "admin", email: "admin@example.com", role: "owner" },
      },
    );
    expect(refunded).toMatchObject({ ok: true, value: { amountCents: 500, status: "partially_refunded" } });
    await server.webhooks.settled();
    expect(await orderOf(key)).toMatchObject({ refundedCents: 1_500 });
    expect(
      await shop.db
        .selectFrom("orderRefunds")
        .select("amountCents")
        .where("orderId", "=", order.id)
        .execute(),
    ).toHaveLength(2);
    const charge = server.state.charges.get(
      String(server.state.paymentIntents.get(order.paymentReference)?.latest_charge),
    );
    expect(charge?.amount_refunded).toBe(1_500);

    server.createDispute(order.paymentReference);
    await server.webhooks.settled();
    expect((await orderOf(key)).disputedAt).not.toBeNull();
    const audit = await shop.db
      .selectFrom("auditLog")
      .select(["action", "summary"])
      .where("entityId", "=", order.number)
      .execute();
    expect(audit.map((entry) => entry.action).sort()).toEqual([
      "order.dispute",
      "order.refund",
      "order.refund",
    ]);
  });

  it("a payment completed for an order given up meanwhile is refunded", async () => {
    const jar = await shopper("late@example.com");
    await post(checkout, { intent: "payment", paymentMethodId: "pm_card_threeDSecure2Required" }, jar);
    const { location, key } = await placeOrder(jar);
    const pending = await orderOf(key);
    // the order is given up while the shopper is at the bank (made to look lapsed), but the
    // payment cannot be cancelled at Stripe (an outage), so the shopper can still complete it
    server.failNextRequest(500, { path: `/v1/payment_intents/${pending.paymentReference}/cancel`, times: 3 });
    await reconcilePayments(shop.db, shop.services.gateway, {
      now: new Date(Date.parse(String(pending.reservedUntil)) + 60_000),
    });
    expect((await orderOf(key)).status).toBe("payment_failed");
    const attempt = /name="attempt" value="([^"]+)"/.exec(await (await fetch(location)).text())?.[1] ?? "";
    await submitPage(`${server.url}/3ds/${pending.paymentReference}`, { attempt, outcome: "complete" });
    await server.webhooks.settled();
    const intent = server.state.paymentIntents.get(pending.paymentReference)!;
    expect(intent.status).toBe("succeeded");
    const charge = server.state.charges.get(String(intent.latest_charge));
    expect(charge).toMatchObject({ amount_refunded: intent.amount, refunded: true });
    expect((await orderOf(key)).status).toBe("payment_failed");
  });
});
