import { getEnv } from "../../env.server.ts";
import type { PaymentGateway } from "./payment-gateway.ts";
import { createTestGateway } from "./test-gateway.server.ts";

export type * from "./payment-gateway.ts";
export { PAYMENT_MESSAGES } from "./payment-gateway.ts";
export { mintTestToken, type TestOutcome } from "./test-gateway.server.ts";

let gateway: PaymentGateway | undefined;

/** The configured gateway (PAYMENT_GATEWAY; only "test" exists), built once per process. */
export function getPaymentGateway(): PaymentGateway {
  if (gateway) return gateway;
  const env = getEnv();
  switch (env.PAYMENT_GATEWAY) {
    case "test":
      gateway = createTestGateway({ processingDelayMs: env.PAYMENT_DELAY_MS, secret: env.SESSION_SECRET });
      return gateway;
  }
}
