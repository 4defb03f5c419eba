import { cardError, invalidRequest, unexpectedState } from "./errors.ts";
import { newId, nowSeconds, randomToken, type Store } from "./store.ts";
import { AUTHENTICATION_FAILED, type Decline, type Outcome, TEST_CARDS } from "./test-cards.ts";
import type { ChargeObject, PaymentIntentObject, RequestInfo } from "./types.ts";

/**
 * What happens to a PaymentIntent when it is confirmed, authenticated, captured or settled:
 * the state machine shared by the API, the 3-D Secure page and the Checkout page.
 *
 * requires_payment_method → requires_confirmation → (requires_action) → (processing) →
 * succeeded | requires_capture; a decline goes back to requires_payment_method with
 * last_payment_error and a failed charge.
 */

const RETURN_URL_REQUIRED =
  "A `return_url` must be specified because this Payment Intent is configured to automatically accept the payment methods enabled in the Dashboard, some of which may require a full page redirect to succeed. If you do not want to accept redirect-based payment methods, set `automatic_payment_methods[enabled]` to `true` and `automatic_payment_methods[allow_redirects]` to `never` when creating Setup Intents and Payment Intents.";

const AUTHENTICATION_REQUIRED: Decline = {
  code: "authentication_required",
  decline_code: "authentication_required",
  message: "Your card was declined. This transaction requires authentication.",
};

export interface ConfirmOptions {
  returnUrl?: string;
  offSession?: boolean;
  request: RequestInfo | null;
}

/**
 * Confirms `intent` with its payment method. A decline is thrown as Stripe's 402 card_error
 * (carrying the updated PaymentIntent) when `throwOnDecline`, else left on the intent.
 */
export function confirmIntent(
  store: Store,
  intent: PaymentIntentObject,
  options: ConfirmOptions,
  throwOnDecline = true,
) {
  const confirmable = ["requires_payment_method", "requires_confirmation", "requires_action"];
  if (!confirmable.includes(intent.status)) {
    throw unexpectedState(
      `You cannot confirm this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be confirmed: ${confirmable.join(", ")}.`,
    );
  }
  if (!intent.payment_method) {
    throw unexpectedState(
      "You cannot confirm this PaymentIntent because it's missing a payment method. You can either update the PaymentIntent with a payment method and then confirm it again, or confirm it again directly with a payment method.",
    );
  }
  const internals = store.internals(intent.id);
  if (options.returnUrl) internals.returnUrl = options.returnUrl;
  const automatic = intent.automatic_payment_methods;
  if (automatic?.enabled && automatic.allow_redirects !== "never" && !internals.returnUrl) {
    throw invalidRequest(RETURN_URL_REQUIRED, { param: "return_url" });
  }
  intent.last_payment_error = null;
  intent.next_action = null;
  internals.authenticationAttempt = null;
  const paymentMethod = store.paymentMethod(intent.payment_method);
  const testCard = TEST_CARDS.get(paymentMethod.id);
  if (!testCard)
    throw invalidRequest(`No such PaymentMethod: '${paymentMethod.id}'`, { code: "resource_missing" });
  let outcome: Outcome = testCard.outcome;
  if (outcome.kind === "authenticate" && internals.authenticated) outcome = outcome.afterwards;
  internals.authenticated = false;
  const declined = attempt(store, intent, outcome, options.offSession ?? false, options.request);
  if (declined && throwOnDecline) {
    throw cardError(declined, {
      charge: intent.latest_charge ?? undefined,
      payment_intent: structuredClone(intent),
      payment_method: structuredClone(paymentMethod),
    });
  }
}

/** Runs one payment attempt; returns the decline when the attempt failed. */
function attempt(
  store: Store,
  intent: PaymentIntentObject,
  outcome: Outcome,
  offSession: boolean,
  request: RequestInfo | null,
): Decline | null {
  if (outcome.kind === "authenticate") {
    if (offSession) return fail(store, intent, AUTHENTICATION_REQUIRED, request);
    requireAction(store, intent, request);
    return null;
  }
  if (outcome.kind === "decline") return fail(store, intent, outcome.decline, request);
  const charge = newCharge(store, intent, "pending");
  intent.latest_charge = charge.id;
  if (store.processingBudget > 0) {
    store.processingBudget -= 1;
    intent.status = "processing";
    store.emit("payment_intent.processing", intent, request);
    return null;
  }
  succeedCharge(store, intent, charge, request);
  return null;
}

function requireAction(store: Store, intent: PaymentIntentObject, request: RequestInfo | null): void {
  const internals = store.internals(intent.id);
  const token = randomToken(20);
  internals.authenticationAttempt = token;
  const url = `${store.baseUrl}/3ds/${intent.id}?attempt=${token}`;
  intent.status = "requires_action";
  intent.next_action = internals.returnUrl
    ? { type: "redirect_to_url", redirect_to_url: { url, return_url: internals.returnUrl } }
    : { type: "use_stripe_sdk", use_stripe_sdk: { type: "three_d_secure_redirect", stripe_js: url } };
  store.emit("payment_intent.requires_action", intent, request);
}

function newCharge(store: Store, intent: PaymentIntentObject, status: ChargeObject["status"]): ChargeObject {
  const paymentMethod = store.paymentMethod(intent.payment_method as string);
  const charge: ChargeObject = {
    id: newId("ch"),
    object: "charge",
    amount: intent.amount,
    amount_captured: 0,
    amount_refunded: 0,
    captured: false,
    created: nowSeconds(),
    currency: intent.currency,
    description: intent.description,
    disputed: false,
    failure_code: null,
    failure_message: null,
    livemode: false,
    metadata: { ...intent.metadata },
    paid: false,
    receipt_email: intent.receipt_email,
    refunded: false,
    status,
    payment_intent: intent.id,
    payment_method: paymentMethod.id,
    payment_method_details: { type: "card", card: { ...paymentMethod.card } },
  };
  store.charges.set(charge.id, charge);
  return charge;
}

function succeedCharge(
  store: Store,
  intent: PaymentIntentObject,
  charge: ChargeObject,
  request: RequestInfo | null,
) {
  charge.status = "succeeded";
  charge.paid = true;
  if (intent.capture_method === "manual") {
    intent.status = "requires_capture";
    intent.amount_capturable = intent.amount;
    store.emit("charge.succeeded", charge, request);
    store.emit("payment_intent.amount_capturable_updated", intent, request);
    return;
  }
  charge.captured = true;
  charge.amount_captured = intent.amount;
  intent.status = "succeeded";
  intent.amount_received = intent.amount;
  store.emit("charge.succeeded", charge, request);
  store.emit("payment_intent.succeeded", intent, request);
}

function fail(
  store: Store,
  intent: PaymentIntentObject,
  decline: Decline,
  request: RequestInfo | null,
  charge: ChargeObject = newCharge(store, intent, "failed"),
): Decline {
  const paymentMethod = store.paymentMethod(intent.payment_method as string);
  charge.status = "failed";
  charge.failure_code = decline.code;
  charge.failure_message = decline.message;
  intent.latest_charge = charge.id;
  intent.status = "requires_payment_method";
  intent.payment_method = null;
  intent.next_action = null;
  intent.last_payment_error = {
    type: "card_error",
    code: decline.code as NonNullable<PaymentIntentObject["last_payment_error"]>["code"],
    decline_code: decline.decline_code,
    message: decline.message,
    charge: charge.id,
    doc_url: `https://docs.stripe.com/error-codes/${decline.code.replaceAll("_", "-")}`,
    payment_method: structuredClone(paymentMethod),
  };
  store.emit("charge.failed", charge, request);
  store.emit("payment_intent.payment_failed", intent, request);
  return decline;
}

/**
 * The 3-D Secure page's answer. A stale attempt (the intent was confirmed again, or already
 * answered) changes nothing.
 */
export function completeAuthentication(
  store: Store,
  intent: PaymentIntentObject,
  attemptToken: string,
  passed: boolean,
) {
  const internals = store.internals(intent.id);
  if (intent.status !== "requires_action" || internals.authenticationAttempt !== attemptToken) return;
  internals.authenticationAttempt = null;
  intent.next_action = null;
  const testCard = TEST_CARDS.get(intent.payment_method ?? "");
  if (!passed || !testCard) {
    const paymentMethod = intent.payment_method ? store.paymentMethod(intent.payment_method) : undefined;
    intent.status = "requires_payment_method";
    intent.payment_method = null;
    intent.last_payment_error = {
      ...AUTHENTICATION_FAILED,
      ...(paymentMethod ? { payment_method: paymentMethod } : {}),
    };
    store.emit("payment_intent.payment_failed", intent, null);
    return;
  }
  if (intent.confirmation_method === "manual") {
    // manual confirmation: the server confirms again, and that attempt skips authentication
    internals.authenticated = true;
    intent.status = "requires_confirmation";
    return;
  }
  const outcome = testCard.outcome.kind === "authenticate" ? testCard.outcome.afterwards : testCard.outcome;
  attempt(store, intent, outcome, false, null);
}

/** `redirect_status` for the return URL after authentication. */
export function redirectStatus(intent: PaymentIntentObject): "succeeded" | "processing" | "failed" {
  if (["succeeded", "requires_capture", "requires_confirmation"].includes(intent.status)) return "succeeded";
  if (intent.status === "processing") return "processing";
  return "failed";
}

/** Ends a payment left in `processing` (see `processNextPayments`). */
export function settleProcessing(store: Store, intent: PaymentIntentObject, result: "succeeded" | "failed") {
  if (intent.status !== "processing") {
    throw new Error(`settlePayment: ${intent.id} is ${intent.status}, not processing`);
  }
  const charge = store.charge(intent.latest_charge as string);
  if (result === "succeeded") succeedCharge(store, intent, charge, null);
  else {
    const decline = {
      code: "card_declined",
      decline_code: "generic_decline",
      message: "Your card was declined.",
    };
    fail(store, intent, decline, null, charge);
  }
  // a Checkout Session completed while the payment was processing learns the outcome
  const session = store.sessions.get(store.internals(intent.id).checkoutSession ?? "");
  if (session?.status === "complete" && session.payment_status === "unpaid") {
    if (result === "succeeded") session.payment_status = "paid";
    store.emit(
      `checkout.session.async_payment_${result === "succeeded" ? "succeeded" : "failed"}`,
      session,
      null,
    );
  }
}

export function captureIntent(
  store: Store,
  intent: PaymentIntentObject,
  amount: number | undefined,
  request: RequestInfo,
) {
  if (intent.status !== "requires_capture") {
    throw unexpectedState(
      `This PaymentIntent could not be captured because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`,
    );
  }
  const toCapture = amount ?? intent.amount_capturable;
  if (toCapture < 1 || toCapture > intent.amount_capturable) {
    throw invalidRequest(
      `The amount_to_capture (${toCapture}) must be between 1 and the amount_capturable (${intent.amount_capturable}).`,
      { code: "amount_too_large", param: "amount_to_capture" },
    );
  }
  const charge = store.charge(intent.latest_charge as string);
  charge.captured = true;
  charge.amount_captured = toCapture;
  intent.amount_capturable = 0;
  intent.amount_received = toCapture;
  intent.status = "succeeded";
  store.emit("charge.captured", charge, request);
  store.emit("payment_intent.succeeded", intent, request);
}

export const CANCELABLE = [
  "requires_payment_method",
  "requires_capture",
  "requires_confirmation",
  "requires_action",
];

export function cancelIntent(
  store: Store,
  intent: PaymentIntentObject,
  reason: PaymentIntentObject["cancellation_reason"],
  request: RequestInfo | null,
) {
  if (!CANCELABLE.includes(intent.status)) {
    throw unexpectedState(
      `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(", ")}.`,
    );
  }
  if (intent.status === "requires_capture" && intent.latest_charge) {
    // the authorisation is released: Stripe shows the uncaptured charge as refunded
    const charge = store.charge(intent.latest_charge);
    charge.amount_refunded = charge.amount;
    charge.refunded = true;
  }
  intent.status = "canceled";
  intent.amount_capturable = 0;
  intent.next_action = null;
  intent.canceled_at = nowSeconds();
  intent.cancellation_reason = reason;
  store.internals(intent.id).authenticationAttempt = null;
  store.emit("payment_intent.canceled", intent, request);
}
