import Stripe from "stripe";
import type { DeliveryRecord, EventObject } from "./types.ts";

/**
 * Delivers events to one webhook endpoint the way Stripe does: a POST of the event's JSON with a
 * `Stripe-Signature` header (made by the SDK's own `webhooks.generateTestHeaderString`), retried
 * while the endpoint answers anything but 2xx. Unlike Stripe, which promises no order, events go
 * out one at a time in the order they happened, so tests are deterministic; `hold` and `release`
 * reorder them on purpose. Tests can also send an event again and wait until nothing is in flight.
 */

export const DEFAULT_WEBHOOK_EVENTS = [
  "payment_intent.succeeded",
  "payment_intent.payment_failed",
  "payment_intent.canceled",
  "charge.refunded",
  "checkout.session.completed",
  "charge.dispute.created",
] as const;

export interface WebhookOptions {
  url: string | undefined;
  secret: string;
  /** event types sent to the endpoint; `"*"` for all (every event is recorded in `state.events` either way) */
  enabledEvents: readonly string[] | "*";
  /** waits before each retry; its length is the number of retries */
  retryDelaysMs: readonly number[];
  timeoutMs: number;
}

export class WebhookSender {
  readonly deliveries: DeliveryRecord[] = [];
  readonly #options: WebhookOptions;
  /** deliveries run one after another, in the order the events happened */
  #tail: Promise<void> = Promise.resolve();
  #pending = 0;
  #held: Set<string> | "all" | null = null;
  readonly #queue: EventObject[] = [];
  #closed = false;

  constructor(options: WebhookOptions) {
    this.#options = { ...options };
  }

  /** Points deliveries at another endpoint (e.g. an app server started after this one). */
  setUrl(url: string | undefined): void {
    this.#options.url = url;
  }

  #wanted(event: EventObject): boolean {
    const enabled = this.#options.enabledEvents;
    return this.#options.url !== undefined && (enabled === "*" || enabled.includes(event.type));
  }

  #isHeld(event: EventObject): boolean {
    return this.#held === "all" || (this.#held?.has(event.type) ?? false);
  }

  /** Called for every new event. */
  enqueue(event: EventObject): void {
    if (!this.#wanted(event)) return;
    event.pending_webhooks = 1;
    if (this.#isHeld(event)) this.#queue.push(event);
    else this.#start(event);
  }

  /** Holds back deliveries (of the given types, else all) until `release()`. */
  hold(types?: readonly string[]): void {
    this.#held = types ? new Set(types) : "all";
  }

  /** Sends what was held back, in order, and resolves when those deliveries are done. */
  async release(): Promise<void> {
    this.#held = null;
    for (const event of this.#queue.splice(0)) this.#start(event);
    await this.settled();
  }

  /** Sends an event again, as Stripe may (same id, same payload); resolves when it is done. */
  async resend(event: EventObject): Promise<void> {
    await this.#start(event);
  }

  /** Resolves once no delivery is queued or in flight (held ones do not count). */
  async settled(): Promise<void> {
    while (this.#pending > 0) await this.#tail;
  }

  get heldEvents(): readonly EventObject[] {
    return this.#queue;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.settled();
  }

  #start(event: EventObject): Promise<void> {
    this.#pending += 1;
    const delivery = this.#tail
      .then(() => this.#deliver(event))
      .finally(() => {
        this.#pending -= 1;
      });
    this.#tail = delivery.catch(() => undefined);
    return delivery;
  }

  async #deliver(event: EventObject): Promise<void> {
    const url = this.#options.url;
    if (!url) return;
    const delays = this.#options.retryDelaysMs;
    for (let attempt = 1; attempt <= delays.length + 1 && !this.#closed; attempt++) {
      const ok = await this.#attempt(url, event, attempt);
      if (ok) {
        event.pending_webhooks = 0;
        return;
      }
      const delay = delays[attempt - 1];
      if (delay !== undefined) await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  async #attempt(url: string, event: EventObject, attempt: number): Promise<boolean> {
    const payload = JSON.stringify(event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: this.#options.secret });
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json; charset=utf-8",
          "stripe-signature": signature,
          "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
        },
        body: payload,
        signal: AbortSignal.timeout(this.#options.timeoutMs),
      });
      await response.arrayBuffer();
      this.deliveries.push({
        eventId: event.id,
        type: event.type,
        attempt,
        status: response.status,
        error: null,
      });
      return response.ok;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.deliveries.push({ eventId: event.id, type: event.type, attempt, status: null, error: message });
      return false;
    }
  }
}
