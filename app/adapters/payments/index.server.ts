import type { Database } from "../../db/database.server.ts";
import type { Env } from "../../env.server.ts";
import type { PaymentGateway } from "./payment-gateway.ts";
import { createTestGateway } from "./test-gateway.server.ts";

export type * from "./payment-gateway.ts";
export { PAYMENT_MESSAGES } from "./payment-gateway.ts";
export { mintTestToken, type TestOutcome } from "./test-gateway.server.ts";

/** The configured gateway (PAYMENT_GATEWAY; only "test" exists). */
export function createPaymentGateway(
  config: Pick<Env, "PAYMENT_GATEWAY" | "PAYMENT_DELAY_MS" | "SESSION_SECRET">,
  db: Database,
): PaymentGateway {
  switch (config.PAYMENT_GATEWAY) {
    case "test":
      return createTestGateway({
        processingDelayMs: config.PAYMENT_DELAY_MS,
        secret: config.SESSION_SECRET,
        db,
      });
  }
}
