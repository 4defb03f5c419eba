import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StripeServer, startStripeServer } from "../../../tests/support/stripe-server/index.ts";
import { PAYMENT_MESSAGES, type PaymentGateway } from "./payment-gateway.ts";
import { createStripeGateway } from "./stripe-gateway.server.ts";
import { IDEMPOTENCY_METADATA, TOKENIZE_UNSUPPORTED } from "./stripe-meaning.ts";

/**
 * The Stripe gateway against the Stripe-compatible test server (tests/support/stripe-server),
 * through the official SDK: what the gateway answers, and what the "provider" then holds.
 */

let server: StripeServer;
let gateway: PaymentGateway;

beforeAll(async () => {
  server = await startStripeServer();
  gateway = createStripeGateway({
    secretKey: "sk_test_cartwheel",
    ...server.stripeConfig,
    maxNetworkRetries: 0,
  });
});

afterAll(async () => {
  await server?.close();
});

let counter = 0;
const newKey = (label: string) => `${label}-${Date.now()}-${++counter}`;
const charge = (token: string, idempotencyKey: string, amountCents = 2599) =>
  ({ token, amountCents, currency: "USD", idempotencyKey }) as const;

/** The PaymentIntents the server holds for this idempotency key. */
const intentsFor = (key: string) =>
  [...server.state.paymentIntents.values()].filter((intent) => intent.metadata[IDEMPOTENCY_METADATA] === key);

async function authorized(key: string, amountCents = 2599): Promise<string> {
  const result = await gateway.authorize(charge("pm_card_visa", key, amountCents));
  if (!result.ok) throw new Error(`expected an authorization, got ${result.code}`);
  return result.authorizationId;
}

async function captured(key: string, amountCents: number): Promise<string> {
  const id = await authorized(key, amountCents);
  await gateway.capture(id);
  return id;
}

describe("authorize and capture", () => {
  it("authorizes a card, captures it, and answers its outcome at each step", async () => {
    const key = newKey("approve");
    const id = await authorized(key);
    expect(id).toMatch(/^pi_/);
    expect(server.state.paymentIntents.get(id)).toMatchObject({
      status: "requires_capture",
      capture_method: "manual",
      amount: 2599,
      currency: "usd",
      payment_method: "pm_card_visa",
      metadata: { [IDEMPOTENCY_METADATA]: key },
    });
    expect(await gateway.outcome(key)).toEqual({
      status: "authorized",
      authorizationId: id,
      amountCents: 2599,
    });

    await gateway.capture(id);
    expect(server.state.paymentIntents.get(id)).toMatchObject({ status: "succeeded", amount_received: 2599 });
    expect(await gateway.outcome(key)).toEqual({
      status: "captured",
      authorizationId: id,
      amountCents: 2599,
    });
    // capturing again (a retry) is fine; voiding a captured payment is not
    await expect(gateway.capture(id)).resolves.toBeUndefined();
    await expect(gateway.void(id)).rejects.toThrow(/cannot be voided \(succeeded\)/);
    await expect(gateway.capture("pi_unknown")).rejects.toThrow(/Unknown payment authorization/);
  });

  it.each([
    ["pm_card_chargeDeclined", "card_declined", PAYMENT_MESSAGES.card_declined],
    ["pm_card_chargeDeclinedInsufficientFunds", "insufficient_funds", PAYMENT_MESSAGES.insufficient_funds],
    ["pm_card_chargeDeclinedLostCard", "card_declined", PAYMENT_MESSAGES.card_declined],
    ["pm_card_chargeDeclinedExpiredCard", "card_declined", PAYMENT_MESSAGES.expired_card],
    ["pm_card_chargeDeclinedIncorrectCvc", "card_declined", PAYMENT_MESSAGES.invalid_cvc],
    ["pm_card_chargeDeclinedProcessingError", "processing_error", PAYMENT_MESSAGES.processing_error],
  ])("answers %s as %s, and its outcome as declined", async (card, code, message) => {
    const key = newKey("decline");
    expect(await gateway.authorize(charge(card, key))).toEqual({ ok: false, code, message });
    expect(await gateway.outcome(key)).toEqual({ status: "declined", code });
    const [intent] = intentsFor(key);
    expect(intent).toMatchObject({ status: "requires_payment_method", amount_capturable: 0 });
  });

  it("refuses what is not a PaymentMethod id of this account as invalid_token", async () => {
    const invalid = { ok: false, code: "invalid_token", message: PAYMENT_MESSAGES.invalid_token };
    expect(await gateway.authorize(charge("pm_card_doesNotExist", newKey("bad")))).toEqual(invalid);
    expect(await gateway.authorize(charge("tok_visa", newKey("bad")))).toEqual(invalid);
  });

  it("cannot tokenize: card details go to Stripe's Payment Element", async () => {
    await expect(
      gateway.tokenize({ number: "4242424242424242", expMonth: 12, expYear: 2040, cvv: "123", name: "A" }),
    ).rejects.toThrow(TOKENIZE_UNSUPPORTED);
  });

  it("cancels a payment that asks for 3-D Secure and answers processing_error", async () => {
    for (const card of ["pm_card_threeDSecure2Required", "pm_card_authenticationRequired"]) {
      const key = newKey("3ds");
      const refused = { ok: false, code: "processing_error", message: PAYMENT_MESSAGES.processing_error };
      expect(await gateway.authorize(charge(card, key))).toEqual(refused);
      const [intent] = intentsFor(key);
      expect(intent).toMatchObject({ status: "canceled", cancellation_reason: "abandoned" });
      expect(await gateway.outcome(key)).toEqual({
        status: "voided",
        authorizationId: intent?.id,
        amountCents: 2599,
      });
      // the same key again replays the first answer; the intent stays cancelled, and alone
      expect(await gateway.authorize(charge(card, key))).toEqual(refused);
      expect(intentsFor(key)).toHaveLength(1);
    }
  });
});

describe("idempotency", () => {
  it("gives the same authorization for the same key, with one PaymentIntent at Stripe", async () => {
    const key = newKey("twice");
    const first = await authorized(key);
    expect(await authorized(key)).toBe(first);
    expect(intentsFor(key)).toHaveLength(1);
    // the key's first answer stands: another card under it is the same payment
    expect(await gateway.authorize(charge("pm_card_mastercard", key))).toEqual({
      ok: true,
      authorizationId: first,
    });
    // another amount under it is refused, and charges nothing
    expect(await gateway.authorize(charge("pm_card_visa", key, 9999))).toMatchObject({
      ok: false,
      code: "processing_error",
    });
    expect(intentsFor(key)).toHaveLength(1);
  });

  it("replays a decline for the same key without a second attempt on the card", async () => {
    const key = newKey("decline-twice");
    const first = await gateway.authorize(charge("pm_card_chargeDeclined", key));
    expect(await gateway.authorize(charge("pm_card_chargeDeclined", key))).toEqual(first);
    const [intent] = intentsFor(key);
    const charges = [...server.state.charges.values()].filter((c) => c.payment_intent === intent?.id);
    expect(charges).toHaveLength(1);
  });

  it("finds a key holding quotes and backslashes", async () => {
    const key = newKey(`it's a \\ key`);
    const id = await authorized(key);
    expect(await gateway.outcome(key)).toEqual({
      status: "authorized",
      authorizationId: id,
      amountCents: 2599,
    });
  });
});

describe("void and outcome", () => {
  it("voids an authorization (again: a no-op) and then answers voided", async () => {
    const key = newKey("void");
    const id = await authorized(key, 1800);
    await gateway.void(id);
    await expect(gateway.void(id)).resolves.toBeUndefined();
    expect(server.state.paymentIntents.get(id)?.status).toBe("canceled");
    expect(await gateway.outcome(key)).toEqual({ status: "voided", authorizationId: id, amountCents: 1800 });
    await expect(gateway.capture(id)).rejects.toThrow(/cannot be captured \(canceled\)/);
  });

  it("answers none for a key Stripe never saw", async () => {
    expect(await gateway.outcome(newKey("never"))).toEqual({ status: "none" });
  });

  it("lists recent PaymentIntents when the account cannot search", async () => {
    const key = newKey("no-search");
    const id = await authorized(key);
    server.failNextRequest(400, { path: "/v1/payment_intents/search" });
    expect(await gateway.outcome(key)).toEqual({
      status: "authorized",
      authorizationId: id,
      amountCents: 2599,
    });
    const searches = server.state.requests.filter((r) => r.path.startsWith("/v1/payment_intents/search"));
    expect(searches.at(-1)?.status).toBe(400);
    server.failNextRequest(400, { path: "/v1/payment_intents/search" });
    expect(await gateway.outcome(newKey("no-search-never"))).toEqual({ status: "none" });
  });
});

describe("provider outages", () => {
  it("throws when Stripe fails before the work, and the outcome is then none", async () => {
    const key = newKey("outage");
    server.failNextRequest(500);
    const error = await gateway.authorize(charge("pm_card_visa", key)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(intentsFor(key)).toHaveLength(0);
    expect(await gateway.outcome(key)).toEqual({ status: "none" });
    // the shopper's retry with the same key goes through
    const id = await authorized(key);
    expect(await gateway.outcome(key)).toEqual({
      status: "authorized",
      authorizationId: id,
      amountCents: 2599,
    });
  });

  it("throws when the answer is lost after Stripe authorized, and the outcome says authorized", async () => {
    const key = newKey("lost");
    server.failNextRequest(500, { afterProcessing: true, path: "/v1/payment_intents" });
    await expect(gateway.authorize(charge("pm_card_visa", key))).rejects.toBeInstanceOf(
      Stripe.errors.StripeAPIError,
    );
    const [intent] = intentsFor(key);
    expect(intent?.status).toBe("requires_capture");
    expect(await gateway.outcome(key)).toEqual({
      status: "authorized",
      authorizationId: intent?.id,
      amountCents: 2599,
    });
    // a retry with the key is the same payment
    expect(await authorized(key)).toBe(intent?.id);
    expect(intentsFor(key)).toHaveLength(1);
  });

  it("throws on a dropped connection, a rate limit or a bad API key — never a decline", async () => {
    server.failNextRequest("drop", { times: 2 }); // the SDK retries a dropped connection once
    await expect(gateway.authorize(charge("pm_card_chargeDeclined", newKey("drop")))).rejects.toBeInstanceOf(
      Stripe.errors.StripeConnectionError,
    );
    server.failNextRequest(429);
    await expect(gateway.authorize(charge("pm_card_visa", newKey("busy")))).rejects.toBeInstanceOf(
      Stripe.errors.StripeRateLimitError,
    );
    const wrongKey = createStripeGateway({ secretKey: "sk_live_elsewhere", ...server.stripeConfig });
    await expect(wrongKey.authorize(charge("pm_card_visa", newKey("auth")))).rejects.toBeInstanceOf(
      Stripe.errors.StripeAuthenticationError,
    );
  });

  it("throws from outcome, capture and refund when Stripe cannot answer", async () => {
    const key = newKey("outcome-outage");
    const id = await authorized(key, 1000);
    server.failNextRequest(500);
    await expect(gateway.outcome(key)).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
    server.failNextRequest(503);
    await expect(gateway.capture(id)).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(await gateway.outcome(key)).toMatchObject({ status: "authorized" });
    await gateway.capture(id);
    server.failNextRequest(500, { path: "/v1/refunds" });
    await expect(
      gateway.refund({ authorizationId: id, amountCents: 100, idempotencyKey: `${key}:refund` }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(await gateway.outcome(key)).toMatchObject({ status: "captured", amountCents: 1000 });
  });
});

describe("refunds", () => {
  const refund = (authorizationId: string, amountCents: number, idempotencyKey: string) =>
    gateway.refund({ authorizationId, amountCents, idempotencyKey });
  const refundsOf = (id: string) => [...server.state.refunds.values()].filter((r) => r.payment_intent === id);

  it("refunds in part, then the rest, then refuses more; one refund per key", async () => {
    const key = newKey("refund");
    const id = await captured(key, 5000);
    const part = await refund(id, 2000, `${key}:r1`);
    expect(part).toMatchObject({ ok: true, refundId: expect.stringMatching(/^re_/) });
    expect(await refund(id, 2000, `${key}:r1`)).toEqual(part);
    expect(refundsOf(id).map((r) => r.amount)).toEqual([2000]);
    expect(await refund(id, 3000, `${key}:r2`)).toMatchObject({ ok: true });
    expect(await refund(id, 1, `${key}:r3`)).toMatchObject({ ok: false, code: "amount_too_large" });
    expect(refundsOf(id).map((r) => r.amount)).toEqual([2000, 3000]);
    expect(server.state.charges.get(server.state.paymentIntents.get(id)?.latest_charge ?? "")).toMatchObject({
      amount_refunded: 5000,
      refunded: true,
    });
  });

  it("refuses more than what is left, an uncaptured payment, and a key reused for another refund", async () => {
    const key = newKey("refund-refused");
    const id = await captured(key, 1000);
    expect(await refund(id, 1001, `${key}:big`)).toEqual({
      ok: false,
      code: "amount_too_large",
      message: "The refund is more than what is left of the payment.",
    });
    expect(await refund(id, 400, `${key}:r`)).toMatchObject({ ok: true });
    expect(await refund(id, 500, `${key}:r`)).toMatchObject({ ok: false, code: "key_reused" });
    expect(refundsOf(id).map((r) => r.amount)).toEqual([400]);

    const held = await authorized(newKey("refund-uncaptured"), 1000);
    expect(await refund(held, 100, `${key}:held`)).toMatchObject({ ok: false, code: "not_captured" });
    expect(refundsOf(held)).toHaveLength(0);
    await expect(refund("pi_unknown", 100, `${key}:unknown`)).rejects.toThrow(
      /Unknown payment authorization/,
    );
  });
});
