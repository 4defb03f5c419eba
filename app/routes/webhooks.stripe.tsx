import { data } from "react-router";
import { logger } from "../adapters/logger.server.ts";
import { readStripeEvent } from "../adapters/payments/stripe-events.server.ts";
import { mailShopFrom, servicesFrom } from "../context.ts";
import { handlePaymentEvent } from "../domain/payments/provider-events.server.ts";
import type { Route } from "./+types/webhooks.stripe";

/**
 * POST /webhooks/stripe: Stripe's events (decision 020). The signature is checked on the raw body
 * with STRIPE_WEBHOOK_SECRET; a bad one is 400 and changes nothing. A signed event is handled once
 * (payments/provider-events.server.ts) and answered 200 — also one the shop does not act on, or one about an
 * order it does not know, so Stripe stops sending it. A failure while handling is thrown: Stripe
 * sees a 500 and delivers the event again later. Only with PAYMENT_GATEWAY=stripe; else 404.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const services = servicesFrom(context);
  const secret = services.config.STRIPE_WEBHOOK_SECRET;
  if (services.config.PAYMENT_GATEWAY !== "stripe" || !secret) throw data("Not found", { status: 404 });
  const body = await request.text();
  const reading = await readStripeEvent(body, request.headers.get("Stripe-Signature"), secret);
  if (reading.status === "invalid") {
    logger.warn({ reason: reading.reason }, "refused a Stripe webhook");
    return data({ received: false, error: "The signature could not be verified." }, { status: 400 });
  }
  if (reading.status === "ignored") return data({ received: true, handled: false });
  const handled = await handlePaymentEvent(
    services.db,
    services.gateway,
    {
      mailer: services.mail,
      shop: await mailShopFrom(context),
    },
    reading.event,
  );
  return data({ received: true, handled });
}

export function loader() {
  throw data("Not found", { status: 404 });
}
