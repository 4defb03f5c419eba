import type { Database } from "../../db/database.server.ts";
import type { Env } from "../../env.server.ts";
import type { PaymentGateway } from "./payment-gateway.ts";
import { createStripeGateway, type StripeGatewayOptions } from "./stripe-gateway.server.ts";
import { createTestGateway } from "./test-gateway.server.ts";
import { tracedGateway } from "./traced-gateway.server.ts";

export type * from "./payment-gateway.ts";
export { PAYMENT_MESSAGES } from "./payment-gateway.ts";
export { mintTestToken, type TestOutcome } from "./test-gateway.server.ts";

/** The configured gateway (PAYMENT_GATEWAY): the built-in test gateway or Stripe; traced when tracing is on. */
export function createPaymentGateway(
  config: Pick<
    Env,
    | "PAYMENT_GATEWAY"
    | "PAYMENT_DELAY_MS"
    | "SESSION_SECRET"
    | "STRIPE_SECRET_KEY"
    | "STRIPE_PUBLISHABLE_KEY"
    | "STRIPE_API_URL"
  >,
  db: Database,
): PaymentGateway {
  return tracedGateway(configuredGateway(config, db));
}

function configuredGateway(config: Parameters<typeof createPaymentGateway>[0], db: Database): PaymentGateway {
  switch (config.PAYMENT_GATEWAY) {
    case "test":
      return createTestGateway({
        processingDelayMs: config.PAYMENT_DELAY_MS,
        secret: config.SESSION_SECRET,
        db,
      });
    case "stripe":
      // parseEnv refuses PAYMENT_GATEWAY=stripe without the key; this guards hand-made configs
      if (!config.STRIPE_SECRET_KEY) throw new Error("PAYMENT_GATEWAY=stripe needs STRIPE_SECRET_KEY");
      return createStripeGateway({
        secretKey: config.STRIPE_SECRET_KEY,
        publishableKey: config.STRIPE_PUBLISHABLE_KEY,
        ...stripeApiAddress(config.STRIPE_API_URL),
      });
  }
}

/** STRIPE_API_URL as the SDK's host, port and protocol (nothing: api.stripe.com). */
export function stripeApiAddress(
  url: string | undefined,
): Pick<StripeGatewayOptions, "host" | "port" | "protocol"> {
  if (!url) return {};
  const parsed = new URL(url);
  const protocol = parsed.protocol === "http:" ? "http" : "https";
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : protocol === "http" ? 80 : 443,
    protocol,
  };
}
