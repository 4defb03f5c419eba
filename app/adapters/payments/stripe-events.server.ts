import type Stripe from "stripe";
import type { PaymentEvent } from "./payment-gateway.ts";
import { ORDER_METADATA, refusalFor } from "./stripe-meaning.ts";

/**
 * Stripe's webhooks (`/webhooks/stripe`): the signature is checked on the raw body with the
 * endpoint's secret (`stripe.webhooks.constructEvent`), and the events the shop acts on are read
 * into PaymentEvent; any other event is acknowledged and left alone.
 */
export type StripeEventReading =
  | { status: "event"; event: PaymentEvent }
  /** signed and well formed, but nothing the shop acts on */
  | { status: "ignored"; id: string; type: string }
  /** not signed with the endpoint's secret, too old, or not an event */
  | { status: "invalid"; reason: string };

type StripeSdk = typeof import("stripe").default;
let sdk: Promise<InstanceType<StripeSdk>> | undefined;
/** constructEvent needs no API key; any instance of the SDK verifies signatures. */
const loadSdk = () => {
  sdk ??= import("stripe").then((module) => new module.default("sk_test_webhooks_only"));
  return sdk;
};

export async function readStripeEvent(
  rawBody: string,
  signature: string | null,
  webhookSecret: string,
): Promise<StripeEventReading> {
  if (!signature) return { status: "invalid", reason: "no Stripe-Signature header" };
  let event: Stripe.Event;
  try {
    event = (await loadSdk()).webhooks.constructEvent(rawBody, signature, webhookSecret);
  } catch (error) {
    return { status: "invalid", reason: error instanceof Error ? error.message : String(error) };
  }
  const read = paymentEventOf(event);
  return read ? { status: "event", event: read } : { status: "ignored", id: event.id, type: event.type };
}

const orderOf = (metadata: Stripe.Metadata | null | undefined) => metadata?.[ORDER_METADATA] ?? null;
const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === "string" ? value : (value?.id ?? null);

/** The shop's reading of a Stripe event, or null for one it does not act on. */
export function paymentEventOf(event: Stripe.Event): PaymentEvent | null {
  const { id } = event;
  switch (event.type) {
    case "payment_intent.succeeded": {
      const intent = event.data.object;
      return { id, kind: "payment-succeeded", paymentId: intent.id, orderNumber: orderOf(intent.metadata) };
    }
    case "payment_intent.payment_failed": {
      const intent = event.data.object;
      const error = intent.last_payment_error;
      return {
        id,
        kind: "payment-failed",
        paymentId: intent.id,
        orderNumber: orderOf(intent.metadata),
        message: refusalFor(error?.code, error?.decline_code).message,
      };
    }
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const session = event.data.object;
      return {
        id,
        kind: "hosted-completed",
        reference: session.id,
        orderNumber: session.client_reference_id ?? orderOf(session.metadata),
        paid: session.payment_status === "paid",
      };
    }
    case "checkout.session.expired":
    case "checkout.session.async_payment_failed": {
      const session = event.data.object;
      return {
        id,
        kind: "hosted-failed",
        reference: session.id,
        orderNumber: session.client_reference_id ?? orderOf(session.metadata),
      };
    }
    case "charge.refunded": {
      const paymentId = idOf(event.data.object.payment_intent);
      return paymentId ? { id, kind: "refunded", paymentId } : null;
    }
    case "charge.dispute.created": {
      const dispute = event.data.object;
      const paymentId = idOf(dispute.payment_intent);
      return paymentId ? { id, kind: "disputed", paymentId, reason: dispute.reason } : null;
    }
    default:
      return null;
  }
}
