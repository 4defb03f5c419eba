import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openForm, postForm, rejection, startHarness, unlabelledInputs } from "./harness.ts";

/**
 * The hosted Checkout page, webhook delivery and simulated outages, driven through the official
 * SDK and plain fetch for the pages (as a browser without JavaScript would post them).
 */

let harness: Awaited<ReturnType<typeof startHarness>>;
let stripe: Stripe;

beforeAll(async () => {
  harness = await startHarness();
  stripe = harness.stripe;
});

afterAll(async () => {
  await harness?.close();
});

const SUCCESS_URL = "http://shop.test/checkout/done?session_id={CHECKOUT_SESSION_ID}";
const CARD = { email: "ada@example.com", name: "Ada Lovelace", card_expiry: "12 / 34", card_cvc: "123" };

function createSession(orderId: string) {
  return stripe.checkout.sessions.create({
    mode: "payment",
    line_items: [
      {
        price_data: { currency: "eur", unit_amount: 1250, product_data: { name: "Linen shirt" } },
        quantity: 2,
      },
      { price_data: { currency: "eur", unit_amount: 499, product_data: { name: "Shipping" } }, quantity: 1 },
    ],
    success_url: SUCCESS_URL,
    cancel_url: "http://shop.test/cart",
    client_reference_id: orderId,
    metadata: { order_id: orderId },
    payment_intent_data: { metadata: { order_id: orderId } },
  });
}

describe("Checkout Sessions", () => {
  it("shows an accessible form, refuses a declined card on the page, then pays and redirects", async () => {
    const session = await createSession("CW-1");
    expect(session).toMatchObject({
      status: "open",
      payment_status: "unpaid",
      amount_total: 2999,
      payment_intent: null,
    });
    expect(session.url?.startsWith(`${harness.server.url}/checkout/${session.id}`)).toBe(true);

    const page = await openForm(session.url as string);
    expect(page.response.status).toBe(200);
    expect(page.html).toContain('<html lang="en">');
    expect(page.html).toContain("Linen shirt");
    expect(page.html).not.toContain("<script");
    expect(unlabelledInputs(page.html)).toEqual([]);
    expect(page.html).toContain('href="http://shop.test/cart"');

    const declined = await postForm(page.action, { ...CARD, card_number: "4000 0000 0000 0002" });
    expect(declined.status).toBe(402);
    const declinedHtml = await declined.text();
    expect(declinedHtml).toContain('role="alert"');
    expect(declinedHtml).toContain("Your card was declined.");
    expect(unlabelledInputs(declinedHtml)).toEqual([]);
    const stillOpen = await stripe.checkout.sessions.retrieve(session.id, { expand: ["payment_intent"] });
    expect(stillOpen.status).toBe("open");
    expect((stillOpen.payment_intent as Stripe.PaymentIntent).status).toBe("requires_payment_method");

    const accepted = await postForm(page.action, { ...CARD, card_number: "4242 4242 4242 4242" });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("location")).toBe(`http://shop.test/checkout/done?session_id=${session.id}`);
    const done = await stripe.checkout.sessions.retrieve(session.id, {
      expand: ["payment_intent", "line_items"],
    });
    expect(done).toMatchObject({
      status: "complete",
      payment_status: "paid",
      client_reference_id: "CW-1",
      url: null,
    });
    expect(done.customer_details?.email).toBe("ada@example.com");
    const intent = done.payment_intent as Stripe.PaymentIntent;
    expect(intent).toMatchObject({
      status: "succeeded",
      amount_received: 2999,
      metadata: { order_id: "CW-1" },
    });
    expect(done.line_items?.data.map((item) => [item.description, item.quantity, item.amount_total])).toEqual(
      [
        ["Linen shirt", 2, 2500],
        ["Shipping", 1, 499],
      ],
    );

    await harness.server.webhooks.settled();
    expect(harness.deliveredFor(session.id).map((event) => event.type)).toEqual([
      "checkout.session.completed",
    ]);
  });

  it("marks invalid fields and keeps what the shopper typed", async () => {
    const session = await createSession("CW-2");
    const response = await postForm(session.url as string, {
      email: "ada@example.com",
      card_number: "4242 4242 4242 4241",
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Your card number is invalid.");
    expect(html).toMatch(
      /id="card-number"[^>]*aria-describedby="card-number-hint card-number-error"[^>]*aria-invalid="true"/,
    );
    expect(html).toContain('value="ada@example.com"');
  });

  it("sends a 3-D Secure card through the authentication page before the success URL", async () => {
    const session = await createSession("CW-3");
    const toChallenge = await postForm(session.url as string, { ...CARD, card_number: "4000002760003184" });
    expect(toChallenge.status).toBe(303);
    const challenge = await openForm(toChallenge.headers.get("location") as string);
    const back = await postForm(challenge.action, { ...challenge.hidden, outcome: "complete" });
    const completeUrl = back.headers.get("location") as string;
    expect(completeUrl.startsWith(`${harness.server.url}/checkout/${session.id}/complete`)).toBe(true);
    const toShop = await fetch(completeUrl, { redirect: "manual" });
    expect(toShop.headers.get("location")).toBe(`http://shop.test/checkout/done?session_id=${session.id}`);
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe("complete");
  });

  it("expires an open session, after which its page is gone", async () => {
    const session = await createSession("CW-4");
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ status: "expired", url: null });
    expect((await fetch(session.url as string)).status).toBe(410);
    expect(await rejection(stripe.checkout.sessions.expire(session.id))).toMatchObject({ statusCode: 400 });
  });
});

describe("webhooks", () => {
  it("delivers signed events that constructEvent verifies on the raw body", async () => {
    const intent = await harness.paid(2100);
    await harness.server.webhooks.settled();
    const [event] = harness.deliveredFor(intent.id);
    expect(event).toMatchObject({
      type: "payment_intent.succeeded",
      data: { object: { id: intent.id, status: "succeeded" } },
    });
    const raw = harness.receiver.received.find((item) => item.body.includes(event?.id as string));
    expect(() =>
      stripe.webhooks.constructEvent(raw?.body as string, raw?.signature as string, "whsec_wrong"),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(() =>
      stripe.webhooks.constructEvent(`${raw?.body} `, raw?.signature as string, harness.server.webhookSecret),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });

  it("retries while the endpoint fails", async () => {
    harness.receiver.statuses.push(500, 503);
    const intent = await harness.paid(2200);
    await harness.server.webhooks.settled();
    const event = harness.server.state.events.find(
      (item) =>
        item.type === "payment_intent.succeeded" && (item.data.object as { id: string }).id === intent.id,
    );
    const attempts = harness.server.state.deliveries.filter((delivery) => delivery.eventId === event?.id);
    expect(attempts.map((delivery) => delivery.status)).toEqual([500, 503, 200]);
    expect(harness.deliveredFor(intent.id)).toHaveLength(3);
  });

  it("holds deliveries back until released, and sends an event twice on request", async () => {
    harness.server.webhooks.hold();
    const intent = await harness.paid(2300);
    await harness.server.webhooks.settled();
    expect(harness.deliveredFor(intent.id)).toEqual([]);
    expect(harness.server.webhooks.held.map((event) => event.type)).toEqual(["payment_intent.succeeded"]);
    await harness.server.webhooks.release();
    const [delivered] = harness.deliveredFor(intent.id);
    expect(delivered?.type).toBe("payment_intent.succeeded");

    await harness.server.webhooks.resend(delivered?.id as string);
    expect(harness.deliveredFor(intent.id).map((event) => event.id)).toEqual([delivered?.id, delivered?.id]);
  });

  it("delivers refunds, failures, cancellations, disputes and emitted events", async () => {
    const intent = await harness.paid(2400);
    await stripe.refunds.create({ payment_intent: intent.id, amount: 400 });
    const dispute = harness.server.createDispute(intent.id);
    const refused = await rejection(stripe.refunds.create({ payment_intent: intent.id, amount: 100 }));
    expect(refused).toMatchObject({ code: "charge_disputed" });
    const declined = await rejection(
      stripe.paymentIntents.create({
        amount: 900,
        currency: "eur",
        payment_method: "pm_card_chargeDeclined",
        confirm: true,
        return_url: "http://shop.test/r",
      }),
    );
    const canceled = await stripe.paymentIntents.cancel(declined.payment_intent?.id as string);
    harness.server.emit("payment_intent.succeeded", { ...intent, metadata: { replayed: "yes" } });
    await harness.server.webhooks.settled();

    const refund = harness.deliveredFor(intent.latest_charge as string);
    expect(refund.map((event) => event.type)).toEqual(["charge.refunded"]);
    expect(refund[0]?.data.object).toMatchObject({ object: "charge", amount_refunded: 400, refunded: false });
    expect(harness.deliveredFor(dispute.id).map((event) => event.type)).toEqual(["charge.dispute.created"]);
    expect(harness.deliveredFor(canceled.id).map((event) => event.type)).toEqual([
      "payment_intent.payment_failed",
      "payment_intent.canceled",
    ]);
    const succeeded = harness
      .deliveredFor(intent.id)
      .map((event) => (event.data.object as Stripe.PaymentIntent).metadata);
    expect(succeeded).toEqual([{}, { replayed: "yes" }]);
  });
});

describe("outages", () => {
  it("answers the next request with a 500 api_error, then works again", async () => {
    harness.server.failNextRequest(500);
    const outage = await rejection(stripe.paymentIntents.list({ limit: 1 }));
    expect(outage).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(outage.statusCode).toBe(500);
    expect((await stripe.paymentIntents.list({ limit: 1 })).object).toBe("list");
  });

  it("loses a response after the work is done; the SDK's retry with the same key gets it replayed", async () => {
    const tag = `lost-${Date.now()}`;
    harness.server.failNextRequest("drop", { afterProcessing: true, path: "/v1/payment_intents" });
    const intent = await stripe.paymentIntents.create({ amount: 1300, currency: "eur", metadata: { tag } });
    const created = [...harness.server.state.paymentIntents.values()].filter((pi) => pi.metadata.tag === tag);
    expect(created.map((pi) => pi.id)).toEqual([intent.id]);
    const attempts = harness.server.state.requests.filter(
      (r) => r.idempotencyKey === intent.lastResponse.idempotencyKey,
    );
    expect(attempts.map((r) => [r.status, r.replayed])).toEqual([
      [0, false],
      [200, true],
    ]);
  });

  it("drops every try: the SDK gives up, and search finds what was created (reconciliation)", async () => {
    const tag = `crash-${Date.now()}`;
    harness.server.failNextRequest("drop", { afterProcessing: true, times: 2 });
    const failure = await rejection(
      stripe.paymentIntents.create({ amount: 1400, currency: "eur", metadata: { tag } }),
    );
    expect(failure).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    const found = await stripe.paymentIntents.search({ query: `metadata['tag']:'${tag}'` });
    expect(found.data).toHaveLength(1);
  });
});
