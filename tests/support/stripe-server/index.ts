import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ApiServer, type Failure } from "./http-server.ts";
import { settleProcessing } from "./payment-flow.ts";
import { createDispute } from "./refunds.ts";
import { Store } from "./store.ts";
import type {
  ChargeObject,
  CheckoutSessionObject,
  DeliveryRecord,
  DisputeObject,
  EventObject,
  PaymentIntentObject,
  RefundObject,
  RequestLogEntry,
} from "./types.ts";
import { DEFAULT_WEBHOOK_EVENTS, WebhookSender } from "./webhooks.ts";

export type * from "./types.ts";
export { DEFAULT_WEBHOOK_EVENTS } from "./webhooks.ts";

/**
 * A stateful Stripe-compatible server for tests: the official `stripe` SDK pointed at it with
 * `new Stripe(key, { ...server.stripeConfig })` works against it as against api.stripe.com's
 * test mode, for the parts listed in README.md beside this file.
 */

export interface StripeServerOptions {
  /** where events are POSTed (also settable later with `webhooks.setUrl`) */
  webhookUrl?: string;
  /** the endpoint's signing secret; a random `whsec_…` by default */
  webhookSecret?: string;
  /** event types delivered to the endpoint (default DEFAULT_WEBHOOK_EVENTS), or "*" */
  enabledEvents?: readonly string[] | "*";
  /** waits before each webhook retry (default [50, 200, 500]: three retries) */
  webhookRetryDelaysMs?: readonly number[];
  /** accept only this secret key (default: any `sk_test_…` or `rk_test_…`) */
  secretKey?: string;
  /** 0 (default) picks a free port */
  port?: number;
}

export interface FailureOptions {
  /** how many requests in a row fail (default 1) */
  times?: number;
  /** do the work, then fail: the response is lost, but the idempotency key replays it */
  afterProcessing?: boolean;
  /** only requests whose path starts with this, e.g. "/v1/refunds" */
  path?: string;
}

export interface StripeServerState {
  paymentIntents: ReadonlyMap<string, PaymentIntentObject>;
  charges: ReadonlyMap<string, ChargeObject>;
  refunds: ReadonlyMap<string, RefundObject>;
  sessions: ReadonlyMap<string, CheckoutSessionObject>;
  disputes: ReadonlyMap<string, DisputeObject>;
  /** every event, oldest first, delivered or not */
  events: readonly EventObject[];
  /** every API request answered (pages not included) */
  requests: readonly RequestLogEntry[];
  /** every webhook delivery attempt */
  deliveries: readonly DeliveryRecord[];
}

export interface WebhookControls {
  /** hold deliveries (of these types, else all) back until `release()` */
  hold(types?: readonly string[]): void;
  /** send what was held back; resolves once delivered (or out of retries) */
  release(): Promise<void>;
  /** deliver an event again, same id and payload; resolves once delivered */
  resend(eventId: string): Promise<void>;
  /** resolves once no delivery is in flight */
  settled(): Promise<void>;
  setUrl(url: string | undefined): void;
  /** events waiting behind `hold()` */
  readonly held: readonly EventObject[];
}

export interface StripeServer {
  url: string;
  host: string;
  port: number;
  protocol: "http";
  webhookSecret: string;
  /** spread into the SDK's config: `new Stripe(key, { ...server.stripeConfig, maxNetworkRetries: 0 })` */
  stripeConfig: { host: string; port: number; protocol: "http" };
  state: StripeServerState;
  webhooks: WebhookControls;
  /** records an event with this object and delivers it like any other */
  emit(type: string, object: object): EventObject;
  /** the shopper's bank disputes the PaymentIntent's charge: `charge.dispute.created` */
  createDispute(paymentIntentId: string): DisputeObject;
  /** the next API request(s) fail: a status answered with Stripe's error envelope (default 500), or "drop" */
  failNextRequest(failure?: number | "drop", options?: FailureOptions): void;
  /** the next `count` payments that would succeed stay in `processing` until `settlePayment` */
  processNextPayments(count?: number): void;
  settlePayment(paymentIntentId: string, result: "succeeded" | "failed"): PaymentIntentObject;
  close(): Promise<void>;
}

export async function startStripeServer(options: StripeServerOptions = {}): Promise<StripeServer> {
  const host = "127.0.0.1";
  let api: ApiServer | undefined;
  const server = createServer((req, res) => api?.listener(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  const store = new Store(url);
  api = new ApiServer(store, options.secretKey);
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(24).toString("hex")}`;
  const sender = new WebhookSender({
    url: options.webhookUrl,
    secret: webhookSecret,
    enabledEvents: options.enabledEvents ?? DEFAULT_WEBHOOK_EVENTS,
    retryDelaysMs: options.webhookRetryDelaysMs ?? [50, 200, 500],
    timeoutMs: 5_000,
  });
  store.onEvent((event) => sender.enqueue(event));
  const apiServer = api;

  const event = (id: string): EventObject => {
    const found = store.events.find((item) => item.id === id);
    if (!found) throw new Error(`No such event: ${id}`);
    return found;
  };

  return {
    url,
    host,
    port,
    protocol: "http",
    webhookSecret,
    stripeConfig: { host, port, protocol: "http" },
    state: {
      paymentIntents: store.paymentIntents,
      charges: store.charges,
      refunds: store.refunds,
      sessions: store.sessions,
      disputes: store.disputes,
      events: store.events,
      requests: apiServer.requests,
      deliveries: sender.deliveries,
    },
    webhooks: {
      hold: (types) => sender.hold(types),
      release: () => sender.release(),
      resend: (eventId) => sender.resend(event(eventId)),
      settled: () => sender.settled(),
      setUrl: (next) => sender.setUrl(next),
      get held() {
        return sender.heldEvents;
      },
    },
    emit: (type, object) => store.emit(type, object),
    createDispute: (paymentIntentId) => createDispute(store, paymentIntentId),
    failNextRequest(failure = 500, failureOptions = {}) {
      const entry: Failure = {
        kind: failure,
        afterProcessing: failureOptions.afterProcessing ?? false,
        path: failureOptions.path,
        remaining: failureOptions.times ?? 1,
      };
      apiServer.failures.push(entry);
    },
    processNextPayments(count = 1) {
      store.processingBudget += count;
    },
    settlePayment(paymentIntentId, result) {
      const intent = store.paymentIntent(paymentIntentId);
      settleProcessing(store, intent, result);
      return intent;
    },
    async close() {
      await sender.close();
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
