import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openForm, postForm, RETURN_URL, rejection, startHarness } from "./harness.ts";
import { parseForm } from "./params.ts";

/**
 * The test server's API driven only through the official SDK (and plain fetch for the 3-D Secure
 * page). Checkout, webhooks and outages: stripe-server-checkout.test.ts.
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

const paid = (amount?: number, metadata?: Record<string, string>) => harness.paid(amount, metadata);

describe("form encoding", () => {
  it("unfolds nested brackets, indexed and empty-bracket arrays", () => {
    expect(
      parseForm(
        "metadata[order_id]=123&line_items[0][price_data][unit_amount]=500&line_items[0][quantity]=2&expand[]=payment_intent&expand[]=line_items",
      ),
    ).toEqual({
      metadata: { order_id: "123" },
      line_items: [{ price_data: { unit_amount: "500" }, quantity: "2" }],
      expand: ["payment_intent", "line_items"],
    });
  });
});

describe("PaymentIntents", () => {
  it("creates and confirms a payment that succeeds, with its charge", async () => {
    const created = await stripe.paymentIntents.create({
      amount: 2500,
      currency: "EUR",
      metadata: { order_id: "A1" },
    });
    expect(created.status).toBe("requires_payment_method");
    expect(created.client_secret).toMatch(new RegExp(`^${created.id}_secret_\\w+$`));
    expect(created.automatic_payment_methods).toEqual({ enabled: true, allow_redirects: "always" });

    const updated = await stripe.paymentIntents.update(created.id, { payment_method: "pm_card_visa" });
    expect(updated.status).toBe("requires_confirmation");
    // automatic payment methods may redirect, so Stripe wants a return_url
    const noReturn = await rejection(stripe.paymentIntents.confirm(created.id));
    expect(noReturn).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(noReturn.param).toBe("return_url");

    const confirmed = await stripe.paymentIntents.confirm(created.id, { return_url: RETURN_URL });
    expect(confirmed).toMatchObject({ status: "succeeded", amount_received: 2500, currency: "eur" });
    const withCharge = await stripe.paymentIntents.retrieve(created.id, { expand: ["latest_charge"] });
    const charge = withCharge.latest_charge as Stripe.Charge;
    expect(charge).toMatchObject({
      object: "charge",
      amount_captured: 2500,
      captured: true,
      status: "succeeded",
    });
    expect(charge.payment_method_details?.card?.last4).toBe("4242");
  });

  it("surfaces declines as StripeCardError (402) and leaves the intent ready for another card", async () => {
    const declined = await rejection(
      stripe.paymentIntents.create({
        amount: 1999,
        currency: "eur",
        payment_method: "pm_card_chargeDeclined",
        confirm: true,
        return_url: RETURN_URL,
      }),
    );
    expect(declined).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(declined).toMatchObject({
      statusCode: 402,
      code: "card_declined",
      decline_code: "generic_decline",
    });
    const intentId = declined.payment_intent?.id as string;
    const afterDecline = await stripe.paymentIntents.retrieve(intentId);
    expect(afterDecline.status).toBe("requires_payment_method");
    expect(afterDecline.payment_method).toBeNull();
    expect(afterDecline.last_payment_error).toMatchObject({ type: "card_error", code: "card_declined" });

    const insufficient = await rejection(
      stripe.paymentIntents.confirm(intentId, { payment_method: "pm_card_chargeDeclinedInsufficientFunds" }),
    );
    expect(insufficient).toMatchObject({
      type: "StripeCardError",
      code: "card_declined",
      decline_code: "insufficient_funds",
      message: "Your card has insufficient funds.",
    });
    const recovered = await stripe.paymentIntents.confirm(intentId, { payment_method: "pm_card_visa" });
    expect(recovered.status).toBe("succeeded");
    const charges = await stripe.charges.list({ payment_intent: intentId });
    expect(charges.data.map((charge) => charge.status)).toEqual(["succeeded", "failed", "failed"]);
  });

  it("captures a manual authorisation in part and cancels only what may be canceled", async () => {
    const authorised = await stripe.paymentIntents.create({
      amount: 2000,
      currency: "eur",
      capture_method: "manual",
      payment_method: "pm_card_visa",
      confirm: true,
      return_url: RETURN_URL,
    });
    expect(authorised).toMatchObject({ status: "requires_capture", amount_capturable: 2000 });
    const captured = await stripe.paymentIntents.capture(authorised.id, { amount_to_capture: 1500 });
    expect(captured).toMatchObject({ status: "succeeded", amount_received: 1500, amount_capturable: 0 });

    const open = await stripe.paymentIntents.create({ amount: 700, currency: "eur" });
    const canceled = await stripe.paymentIntents.cancel(open.id, { cancellation_reason: "abandoned" });
    expect(canceled).toMatchObject({ status: "canceled", cancellation_reason: "abandoned" });
    const again = await rejection(stripe.paymentIntents.cancel(open.id));
    expect(again).toMatchObject({ statusCode: 400, code: "payment_intent_unexpected_state" });
  });

  it("lists newest first with limit and cursor, and searches by metadata", async () => {
    const tag = `search-${Date.now()}`;
    const first = await paid(1000, { order_id: `${tag}-1`, batch: tag });
    const second = await stripe.paymentIntents.create({
      amount: 1100,
      currency: "eur",
      metadata: { order_id: `${tag}-2`, batch: tag },
    });
    const page = await stripe.paymentIntents.list({ limit: 2 });
    expect(page.data.map((intent) => intent.id)).toEqual([second.id, first.id]);
    expect(page.has_more).toBe(true);
    const next = await stripe.paymentIntents.list({ limit: 1, starting_after: first.id });
    expect(next.data[0]?.id).not.toBe(first.id);

    const byOrder = await stripe.paymentIntents.search({ query: `metadata['order_id']:'${tag}-1'` });
    expect(byOrder.data.map((intent) => intent.id)).toEqual([first.id]);
    const succeededInBatch = await stripe.paymentIntents.search({
      query: `metadata["batch"]:"${tag}" AND status:'succeeded'`,
    });
    expect(succeededInBatch.data.map((intent) => intent.id)).toEqual([first.id]);
    const bad = await rejection(stripe.paymentIntents.search({ query: "nonsense" }));
    expect(bad).toMatchObject({ statusCode: 400, param: "query" });
  });

  it("holds a payment in processing until it is settled", async () => {
    harness.server.processNextPayments(1);
    const processing = await paid(3100);
    expect(processing.status).toBe("processing");
    harness.server.settlePayment(processing.id, "succeeded");
    expect((await stripe.paymentIntents.retrieve(processing.id)).status).toBe("succeeded");
  });
});

describe("3-D Secure", () => {
  async function requiringAction(paymentMethod: string) {
    const intent = await stripe.paymentIntents.create({
      amount: 4200,
      currency: "eur",
      payment_method: paymentMethod,
      confirm: true,
      return_url: RETURN_URL,
    });
    expect(intent.status).toBe("requires_action");
    expect(intent.next_action?.type).toBe("redirect_to_url");
    expect(intent.next_action?.redirect_to_url?.return_url).toBe(RETURN_URL);
    const url = intent.next_action?.redirect_to_url?.url as string;
    expect(url.startsWith(`${harness.server.url}/3ds/${intent.id}`)).toBe(true);
    return { intent, url };
  }

  it("completes authentication on the page and returns with Stripe's redirect parameters", async () => {
    const { intent, url } = await requiringAction("pm_card_authenticationRequired");
    const form = await openForm(url);
    expect(form.response.status).toBe(200);
    expect(form.html).toContain("Complete authentication");
    expect(form.html).toContain("Fail authentication");

    const answer = await postForm(form.action, { ...form.hidden, outcome: "complete" });
    expect(answer.status).toBe(303);
    const back = new URL(answer.headers.get("location") as string);
    expect(`${back.origin}${back.pathname}`).toBe("http://shop.test/checkout/return");
    expect(Object.fromEntries(back.searchParams)).toEqual({
      order: "7",
      payment_intent: intent.id,
      payment_intent_client_secret: intent.client_secret,
      redirect_status: "succeeded",
    });
    const after = await stripe.paymentIntents.retrieve(intent.id);
    expect(after.status).toBe("succeeded");
    expect(after.latest_charge).toMatch(/^ch_/);
    expect((await fetch(url)).status).toBe(410);
  });

  it("fails authentication back to requires_payment_method", async () => {
    const { intent, url } = await requiringAction("pm_card_threeDSecure2Required");
    const form = await openForm(url);
    const answer = await postForm(form.action, { ...form.hidden, outcome: "fail" });
    expect(new URL(answer.headers.get("location") as string).searchParams.get("redirect_status")).toBe(
      "failed",
    );
    const after = await stripe.paymentIntents.retrieve(intent.id);
    expect(after.status).toBe("requires_payment_method");
    expect(after.last_payment_error?.code).toBe("payment_intent_authentication_failure");
  });

  it("declines after a passed authentication when the card has no funds", async () => {
    const { intent, url } = await requiringAction(
      "pm_card_authenticationRequiredChargeDeclinedInsufficientFunds",
    );
    const form = await openForm(url);
    const answer = await postForm(form.action, { ...form.hidden, outcome: "complete" });
    expect(new URL(answer.headers.get("location") as string).searchParams.get("redirect_status")).toBe(
      "failed",
    );
    expect((await stripe.paymentIntents.retrieve(intent.id)).last_payment_error?.decline_code).toBe(
      "insufficient_funds",
    );
  });
});

describe("idempotency", () => {
  it("replays the stored response for the same key and body, and refuses another body", async () => {
    const key = `order-${Date.now()}`;
    const params = { amount: 1234, currency: "eur", metadata: { idem: key } };
    const first = await stripe.paymentIntents.create(params, { idempotencyKey: key });
    const replay = await stripe.paymentIntents.create(params, { idempotencyKey: key });
    expect(replay.id).toBe(first.id);
    expect(replay.lastResponse.headers["idempotent-replayed"]).toBe("true");
    expect(
      [...harness.server.state.paymentIntents.values()].filter((pi) => pi.metadata.idem === key),
    ).toHaveLength(1);

    const mismatch = await rejection(
      stripe.paymentIntents.create({ ...params, amount: 4321 }, { idempotencyKey: key }),
    );
    expect(mismatch).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(mismatch.statusCode).toBe(400);
  });

  it("replays a decline instead of charging the card again", async () => {
    const intent = await stripe.paymentIntents.create({ amount: 1500, currency: "eur" });
    const confirm = () =>
      stripe.paymentIntents.confirm(
        intent.id,
        { payment_method: "pm_card_chargeDeclined", return_url: RETURN_URL },
        { idempotencyKey: `confirm-${intent.id}` },
      );
    const first = await rejection(confirm());
    const second = await rejection(confirm());
    expect(second).toMatchObject({ code: first.code, charge: first.charge, statusCode: 402 });
    expect((await stripe.charges.list({ payment_intent: intent.id })).data).toHaveLength(1);
  });
});

describe("refunds", () => {
  it("refunds in part, then the rest, then refuses more", async () => {
    const intent = await paid(5000);
    const part = await stripe.refunds.create({
      payment_intent: intent.id,
      amount: 2000,
      reason: "requested_by_customer",
    });
    expect(part).toMatchObject({ status: "succeeded", amount: 2000, payment_intent: intent.id });
    const rest = await stripe.refunds.create({ payment_intent: intent.id, metadata: { note: "rest" } });
    expect(rest.amount).toBe(3000);
    const charge = await stripe.charges.retrieve(intent.latest_charge as string);
    expect(charge).toMatchObject({ amount_refunded: 5000, refunded: true });
    const more = await rejection(stripe.refunds.create({ payment_intent: intent.id, amount: 1 }));
    expect(more).toMatchObject({ statusCode: 400, code: "charge_already_refunded" });
    const listed = await stripe.refunds.list({ payment_intent: intent.id });
    expect(listed.data.map((refund) => refund.id)).toEqual([rest.id, part.id]);
    expect((await stripe.refunds.retrieve(part.id)).amount).toBe(2000);
  });

  it("refuses a refund above what is left, and refunds of unpaid intents", async () => {
    const intent = await paid(5000);
    await stripe.refunds.create({ payment_intent: intent.id, amount: 4000 });
    const tooMuch = await rejection(stripe.refunds.create({ payment_intent: intent.id, amount: 1001 }));
    expect(tooMuch).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(tooMuch).toMatchObject({ code: "amount_too_large", param: "amount" });
    expect(tooMuch.message).toBe(
      "Refund amount (€10.01) is greater than unrefunded amount on charge (€10.00)",
    );
    const unpaid = await stripe.paymentIntents.create({ amount: 900, currency: "eur" });
    expect(await rejection(stripe.refunds.create({ payment_intent: unpaid.id }))).toMatchObject({
      statusCode: 400,
    });
  });
});

describe("errors", () => {
  it("answers 401 without a test secret key", async () => {
    const live = new Stripe("sk_live_not_here", { ...harness.server.stripeConfig, maxNetworkRetries: 0 });
    const refused = await rejection(live.paymentIntents.list());
    expect(refused).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(refused.statusCode).toBe(401);
    const anonymous = await fetch(`${harness.server.url}/v1/payment_intents`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { type: string } }).error.type).toBe(
      "invalid_request_error",
    );
  });

  it("answers 404 resource_missing for unknown ids", async () => {
    const missing = await rejection(stripe.paymentIntents.retrieve("pi_doesnotexist"));
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({ statusCode: 404, code: "resource_missing", param: "intent" });
    expect(await rejection(stripe.refunds.retrieve("re_nope"))).toMatchObject({ statusCode: 404 });
    expect(await rejection(stripe.checkout.sessions.retrieve("cs_test_nope"))).toMatchObject({
      statusCode: 404,
    });
  });

  it("answers 400 for missing, invalid and unknown parameters", async () => {
    const noAmount = await rejection(
      stripe.paymentIntents.create({ currency: "eur" } as Stripe.PaymentIntentCreateParams),
    );
    expect(noAmount).toMatchObject({ statusCode: 400, code: "parameter_missing", param: "amount" });
    const tooSmall = await rejection(stripe.paymentIntents.create({ amount: 10, currency: "eur" }));
    expect(tooSmall).toMatchObject({ code: "amount_too_small", param: "amount" });
    const unknownPm = await rejection(
      stripe.paymentIntents.create({ amount: 900, currency: "eur", payment_method: "pm_nope" }),
    );
    expect(unknownPm).toMatchObject({ statusCode: 400, code: "resource_missing", param: "payment_method" });
    const unknown = await rejection(
      stripe.paymentIntents.create({
        amount: 900,
        currency: "eur",
        colour: "red",
      } as Stripe.PaymentIntentCreateParams),
    );
    expect(unknown).toMatchObject({ code: "parameter_unknown", param: "colour" });
  });
});
