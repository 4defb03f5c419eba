import { inSpan, tracing } from "../../infra/tracing.server.ts";
import type { BrowserPayments, PaymentGateway } from "./payment-gateway.ts";

const GATEWAY_CALLS = [
  "tokenize",
  "describeToken",
  "authorize",
  "capture",
  "void",
  "outcome",
  "refund",
  "refundOutcome",
] as const;
const BROWSER_CALLS = [
  "describe",
  "startHostedPayment",
  "report",
  "closeHostedPayment",
  "refundsOf",
] as const;

/**
 * The gateway with each call in a client span of its own, `payment.<call>` (decision 027), a child
 * of the request's or job's span; the arguments are not recorded (they hold tokens and amounts of
 * customers). The gateway itself when tracing is off.
 */
export function tracedGateway(gateway: PaymentGateway): PaymentGateway {
  const t = tracing();
  if (!t) return gateway;
  const attributes = { "payment.gateway": gateway.name };
  const wrap = <O extends object>(target: O, names: readonly string[], prefix: string): O => {
    const traced = Object.create(target) as Record<string, unknown>;
    for (const name of names) {
      const call = (target as Record<string, unknown>)[name];
      if (typeof call !== "function") continue;
      traced[name] = (...args: unknown[]) =>
        inSpan(`${prefix}.${name}`, { kind: t.api.SpanKind.CLIENT, attributes }, () =>
          Promise.resolve(call.apply(target, args)),
        );
    }
    return traced as O;
  };
  const browser: BrowserPayments | null = gateway.browser
    ? wrap(gateway.browser, BROWSER_CALLS, "payment.browser")
    : null;
  return Object.assign(wrap(gateway, GATEWAY_CALLS, "payment"), { browser }) as PaymentGateway;
}
