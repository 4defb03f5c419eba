import { invalidRequest, resourceMissing } from "./errors.ts";
import {
  expandPaths,
  mergeMetadata,
  optionalEnum,
  optionalInteger,
  optionalString,
  rejectUnknown,
} from "./params.ts";
import { type ApiContext, formatAmount, newId, nowSeconds, paginate, type Store } from "./store.ts";
import type { ChargeObject, DisputeObject, RefundObject } from "./types.ts";

/**
 * Refunds, and the read-only resources around a payment: charges, disputes, payment methods
 * and events. A refund never exceeds what was captured less what was refunded already.
 */

const REASONS = ["duplicate", "fraudulent", "requested_by_customer"] as const;

/** The charge money can be refunded from: the PaymentIntent's captured, succeeded latest charge. */
function refundableCharge(
  store: Store,
  paymentIntentId: string | undefined,
  chargeId: string | undefined,
): ChargeObject {
  if (paymentIntentId && chargeId) {
    throw invalidRequest("You may only specify one of these parameters: charge, payment_intent.", {
      param: "charge",
    });
  }
  if (chargeId) return checkCaptured(store.charge(chargeId, "charge", 400));
  if (!paymentIntentId) {
    throw invalidRequest(
      "One of the following params should be provided for this request: payment_intent or charge.",
      {
        code: "parameter_missing",
        param: "payment_intent",
      },
    );
  }
  const intent = store.paymentIntent(paymentIntentId, "payment_intent", 400);
  const charge = intent.latest_charge ? store.charges.get(intent.latest_charge) : undefined;
  if (!charge || intent.status !== "succeeded") {
    throw invalidRequest(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, {
      code: "charge_not_refundable",
      param: "payment_intent",
    });
  }
  return checkCaptured(charge);
}

function checkCaptured(charge: ChargeObject): ChargeObject {
  if (charge.status !== "succeeded" || !charge.captured) {
    throw invalidRequest(`Charge ${charge.id} has not been captured and cannot be refunded.`, {
      code: "charge_not_refundable",
      param: "charge",
    });
  }
  return charge;
}

export function createRefund(ctx: ApiContext): unknown {
  const { store, params } = ctx;
  rejectUnknown(params, [
    "payment_intent",
    "charge",
    "amount",
    "reason",
    "metadata",
    "expand",
    "instructions_email",
  ]);
  const charge = refundableCharge(
    store,
    optionalString(params, "payment_intent"),
    optionalString(params, "charge"),
  );
  const remaining = charge.amount_captured - charge.amount_refunded;
  if (charge.disputed) {
    throw invalidRequest(`Charge ${charge.id} has been charged back; cannot issue a refund.`, {
      code: "charge_disputed",
      param: "charge",
    });
  }
  if (remaining <= 0) {
    throw invalidRequest(`Charge ${charge.id} has already been refunded.`, {
      code: "charge_already_refunded",
    });
  }
  const amount = optionalInteger(params, "amount") ?? remaining;
  if (amount < 1) {
    throw invalidRequest("Invalid positive integer", { code: "parameter_invalid_integer", param: "amount" });
  }
  if (amount > remaining) {
    throw invalidRequest(
      `Refund amount (${formatAmount(amount, charge.currency)}) is greater than unrefunded amount on charge (${formatAmount(remaining, charge.currency)})`,
      { code: "amount_too_large", param: "amount" },
    );
  }
  const refund: RefundObject = {
    id: newId("re"),
    object: "refund",
    amount,
    charge: charge.id,
    created: nowSeconds(),
    currency: charge.currency,
    metadata: mergeMetadata({}, params),
    payment_intent: charge.payment_intent,
    reason: optionalEnum(params, "reason", REASONS) ?? null,
    status: "succeeded",
  };
  const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
  charge.amount_refunded += amount;
  charge.refunded = charge.amount_refunded >= charge.amount_captured;
  store.refunds.set(refund.id, refund);
  store.emit("refund.created", refund, ctx.request);
  store.emit("charge.refunded", charge, ctx.request, previous);
  return store.render(refund, expandPaths(params));
}

function refund(store: Store, id: string): RefundObject {
  const found = store.refunds.get(id);
  if (!found) throw resourceMissing("refund", id, "refund");
  return found;
}

export function retrieveRefund(ctx: ApiContext, id: string): unknown {
  rejectUnknown(ctx.params, ["expand"]);
  return ctx.store.render(refund(ctx.store, id), expandPaths(ctx.params));
}

export function updateRefund(ctx: ApiContext, id: string): unknown {
  rejectUnknown(ctx.params, ["metadata", "expand"]);
  const found = refund(ctx.store, id);
  found.metadata = mergeMetadata(found.metadata, ctx.params);
  return ctx.store.render(found, expandPaths(ctx.params));
}

export function listRefunds(ctx: ApiContext): unknown {
  const { store, params } = ctx;
  rejectUnknown(params, ["payment_intent", "charge", "limit", "starting_after", "ending_before", "expand"]);
  const paymentIntent = optionalString(params, "payment_intent");
  const charge = optionalString(params, "charge");
  const items = [...store.refunds.values()].filter(
    (item) =>
      (!paymentIntent || item.payment_intent === paymentIntent) && (!charge || item.charge === charge),
  );
  return store.render(paginate(items, params, "/v1/refunds"), expandPaths(params));
}

export function retrieveCharge(ctx: ApiContext, id: string): unknown {
  rejectUnknown(ctx.params, ["expand"]);
  return ctx.store.render(ctx.store.charge(id), expandPaths(ctx.params));
}

export function listCharges(ctx: ApiContext): unknown {
  const { store, params } = ctx;
  rejectUnknown(params, ["payment_intent", "limit", "starting_after", "ending_before", "expand"]);
  const paymentIntent = optionalString(params, "payment_intent");
  const items = [...store.charges.values()].filter(
    (item) => !paymentIntent || item.payment_intent === paymentIntent,
  );
  return store.render(paginate(items, params, "/v1/charges"), expandPaths(params));
}

export function retrievePaymentMethod(ctx: ApiContext, id: string): unknown {
  rejectUnknown(ctx.params, ["expand"]);
  return ctx.store.render(ctx.store.paymentMethod(id, "payment_method", 404), []);
}

export function retrieveDispute(ctx: ApiContext, id: string): unknown {
  rejectUnknown(ctx.params, ["expand"]);
  const dispute = ctx.store.disputes.get(id);
  if (!dispute) throw resourceMissing("dispute", id, "dispute");
  return ctx.store.render(dispute, expandPaths(ctx.params));
}

/** Test hook: the shopper's bank disputes the PaymentIntent's charge (`charge.dispute.created`). */
export function createDispute(store: Store, paymentIntentId: string): DisputeObject {
  const intent = store.paymentIntents.get(paymentIntentId);
  const charge = intent?.latest_charge ? store.charges.get(intent.latest_charge) : undefined;
  if (!charge?.captured) throw new Error(`createDispute: ${paymentIntentId} has no captured charge`);
  const dispute: DisputeObject = {
    id: newId("dp"),
    object: "dispute",
    amount: charge.amount_captured - charge.amount_refunded,
    charge: charge.id,
    created: nowSeconds(),
    currency: charge.currency,
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: charge.payment_intent,
    reason: "fraudulent",
    status: "needs_response",
  };
  charge.disputed = true;
  store.disputes.set(dispute.id, dispute);
  store.emit("charge.dispute.created", dispute, null);
  return dispute;
}

export function retrieveEvent(ctx: ApiContext, id: string): unknown {
  rejectUnknown(ctx.params, ["expand"]);
  const event = ctx.store.events.find((item) => item.id === id);
  if (!event) throw resourceMissing("event", id, "id");
  return event;
}

export function listEvents(ctx: ApiContext): unknown {
  const { store, params } = ctx;
  rejectUnknown(params, ["type", "limit", "starting_after", "ending_before"]);
  const type = optionalString(params, "type");
  // `type` may end in a wildcard: `payment_intent.*`
  const escaped = type?.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*");
  const pattern = escaped ? new RegExp(`^${escaped}$`) : null;
  const items = store.events.filter((event) => !pattern || pattern.test(event.type));
  return paginate(items, params, "/v1/events");
}
