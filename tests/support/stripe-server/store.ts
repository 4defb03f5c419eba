import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { invalidRequest, resourceMissing } from "./errors.ts";
import { optionalInteger, optionalString } from "./params.ts";
import { TEST_CARDS } from "./test-cards.ts";
import type {
  ChargeObject,
  CheckoutSessionObject,
  DisputeObject,
  EventObject,
  LineItemObject,
  Metadata,
  Params,
  PaymentIntentObject,
  PaymentMethodObject,
  RefundObject,
  RequestInfo,
} from "./types.ts";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function randomToken(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return out;
}

export const newId = (prefix: string, length = 24) => `${prefix}_${randomToken(length)}`;
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** What a PaymentIntent needs beyond its Stripe shape. */
export interface IntentInternals {
  returnUrl: string | null;
  /** the token in the 3-D Secure page's URL; a new confirmation makes the old page stale */
  authenticationAttempt: string | null;
  checkoutSession: string | null;
  /** manual confirmation: authentication passed, so the next confirmation skips it */
  authenticated: boolean;
}

export interface SessionInternals {
  lineItems: LineItemObject[];
  /** `payment_intent_data`: copied onto the PaymentIntent made when the shopper pays */
  intentMetadata: Metadata;
  intentDescription: string | null;
  /** what the shopper typed on the Checkout page, kept across the 3-D Secure redirect */
  customer: { email: string; name: string | null } | null;
}

type EventListener = (event: EventObject) => void;

/**
 * Everything the server knows, in memory, in creation order. The objects in the maps are the
 * ones the API answers with (a copy is sent each time), so tests can read them directly.
 */
export class Store {
  readonly paymentIntents = new Map<string, PaymentIntentObject>();
  readonly charges = new Map<string, ChargeObject>();
  readonly refunds = new Map<string, RefundObject>();
  readonly sessions = new Map<string, CheckoutSessionObject>();
  readonly disputes = new Map<string, DisputeObject>();
  readonly paymentMethods = new Map<string, PaymentMethodObject>();
  readonly events: EventObject[] = [];
  readonly intentInternals = new Map<string, IntentInternals>();
  readonly sessionInternals = new Map<string, SessionInternals>();
  readonly baseUrl: string;
  readonly apiVersion: string;
  /** how many of the next payments that would succeed stay in `processing` instead */
  processingBudget = 0;
  #listeners: EventListener[] = [];

  constructor(baseUrl: string, apiVersion: string = Stripe.API_VERSION) {
    this.baseUrl = baseUrl;
    this.apiVersion = apiVersion;
  }

  onEvent(listener: EventListener): void {
    this.#listeners.push(listener);
  }

  /** Records an event with a snapshot of `object` as it is now, and hands it to the webhook sender. */
  emit(
    type: string,
    object: unknown,
    request: RequestInfo | null = null,
    previous?: Record<string, unknown>,
  ): EventObject {
    const event: EventObject = {
      id: newId("evt"),
      object: "event",
      api_version: this.apiVersion,
      created: nowSeconds(),
      data: { object: structuredClone(object), ...(previous ? { previous_attributes: previous } : {}) },
      livemode: false,
      pending_webhooks: 0,
      request: { id: request?.id ?? null, idempotency_key: request?.idempotencyKey ?? null },
      type,
    };
    this.events.push(event);
    for (const listener of this.#listeners) listener(event);
    return event;
  }

  paymentIntent(id: string, param = "intent", status: 400 | 404 = 404): PaymentIntentObject {
    const intent = this.paymentIntents.get(id);
    if (!intent) throw resourceMissing("payment_intent", id, param, status);
    return intent;
  }

  internals(intentId: string): IntentInternals {
    let internals = this.intentInternals.get(intentId);
    if (!internals) {
      internals = {
        returnUrl: null,
        authenticationAttempt: null,
        checkoutSession: null,
        authenticated: false,
      };
      this.intentInternals.set(intentId, internals);
    }
    return internals;
  }

  charge(id: string, param = "charge", status: 400 | 404 = 404): ChargeObject {
    const charge = this.charges.get(id);
    if (!charge) throw resourceMissing("charge", id, param, status);
    return charge;
  }

  session(id: string, param = "session"): CheckoutSessionObject {
    const session = this.sessions.get(id);
    if (!session) throw resourceMissing("checkout.session", id, param);
    return session;
  }

  /** One of Stripe's test payment methods (`pm_card_visa` …) as a PaymentMethod object. */
  paymentMethod(id: string, param = "payment_method", status: 400 | 404 = 400): PaymentMethodObject {
    const existing = this.paymentMethods.get(id);
    if (existing) return existing;
    const testCard = TEST_CARDS.get(id);
    if (!testCard) throw resourceMissing("PaymentMethod", id, param, status);
    const method: PaymentMethodObject = {
      id,
      object: "payment_method",
      created: nowSeconds(),
      customer: null,
      livemode: false,
      metadata: {},
      type: "card",
      card: { ...testCard.card },
    };
    this.paymentMethods.set(id, method);
    return method;
  }

  /** Any stored object by its id, for `expand[]`. */
  lookup(id: string): object | undefined {
    if (id.startsWith("pi_")) return this.paymentIntents.get(id);
    if (id.startsWith("ch_")) return this.charges.get(id);
    if (id.startsWith("re_")) return this.refunds.get(id);
    if (id.startsWith("cs_")) return this.sessions.get(id);
    if (id.startsWith("dp_")) return this.disputes.get(id);
    if (id.startsWith("pm_"))
      return this.paymentMethods.get(id) ?? (TEST_CARDS.has(id) ? this.paymentMethod(id) : undefined);
    return undefined;
  }

  /**
   * A copy of `object` for the response with each `expand[]` path replaced by the object it names:
   * `latest_charge`, `payment_intent.latest_charge`, `data.payment_intent` on lists.
   */
  render(
    object: object,
    paths: string[],
    extra?: (copy: Record<string, unknown>, path: string) => boolean,
  ): unknown {
    const copy = structuredClone(object) as Record<string, unknown>;
    for (const path of paths) {
      if (extra?.(copy, path)) continue;
      this.#expandPath(copy, path.split("."), path);
    }
    return copy;
  }

  #expandPath(target: Record<string, unknown>, segments: string[], path: string): void {
    const [field, ...rest] = segments;
    if (field === undefined) return;
    const value = target[field];
    if (field === "data" && Array.isArray(value)) {
      for (const item of value) this.#expandPath(item as Record<string, unknown>, rest, path);
      return;
    }
    if (value === null) return;
    if (typeof value === "string") {
      const found = this.lookup(value);
      if (!found) throw invalidRequest(`This property cannot be expanded (${path}).`, { param: "expand" });
      const copy = structuredClone(found) as Record<string, unknown>;
      target[field] = copy;
      this.#expandPath(copy, rest, path);
      return;
    }
    if (typeof value === "object" && value !== null && rest.length > 0) {
      this.#expandPath(value as Record<string, unknown>, rest, path);
      return;
    }
    throw invalidRequest(`This property cannot be expanded (${path}).`, { param: "expand" });
  }
}

/**
 * A Stripe list page: newest first, `limit` (1–100, default 10), `starting_after` / `ending_before`.
 */
export function paginate<T extends { id: string }>(
  itemsOldestFirst: Iterable<T>,
  params: Params,
  url: string,
): { object: "list"; data: T[]; has_more: boolean; url: string } {
  const limit = optionalInteger(params, "limit") ?? 10;
  if (limit < 1 || limit > 100) {
    throw invalidRequest("Invalid limit: must be between 1 and 100", {
      code: "parameter_invalid_integer",
      param: "limit",
    });
  }
  const items = [...itemsOldestFirst].reverse();
  const after = optionalString(params, "starting_after");
  const before = optionalString(params, "ending_before");
  let start = 0;
  let end = items.length;
  if (after) {
    const index = items.findIndex((item) => item.id === after);
    if (index < 0)
      throw invalidRequest(`No such object: '${after}'`, {
        code: "resource_missing",
        param: "starting_after",
      });
    start = index + 1;
  } else if (before) {
    const index = items.findIndex((item) => item.id === before);
    if (index < 0)
      throw invalidRequest(`No such object: '${before}'`, {
        code: "resource_missing",
        param: "ending_before",
      });
    end = index;
    start = Math.max(0, end - limit);
  }
  const data = items.slice(start, Math.min(end, start + limit));
  const hasMore = before ? start > 0 : start + data.length < end;
  return { object: "list", data, has_more: hasMore, url };
}

/** Stripe's smallest chargeable amounts for a few currencies (in the currency's minor unit). */
const MINIMUM_AMOUNTS: Record<string, number> = {
  usd: 50,
  eur: 50,
  gbp: 30,
  chf: 50,
  cad: 50,
  aud: 50,
  jpy: 50,
};
const ZERO_DECIMAL = new Set(["jpy", "krw", "vnd", "clp", "isk", "ugx", "xaf", "xof"]);

export function formatAmount(amount: number, currency: string): string {
  const units = ZERO_DECIMAL.has(currency) ? amount : amount / 100;
  const symbols: Record<string, string> = { usd: "$", eur: "€", gbp: "£" };
  const number = units.toFixed(ZERO_DECIMAL.has(currency) ? 0 : 2);
  return symbols[currency] ? `${symbols[currency]}${number}` : `${number} ${currency.toUpperCase()}`;
}

export function checkAmount(amount: number, currency: string, param = "amount"): void {
  if (amount < 1)
    throw invalidRequest("This value must be greater than or equal to 1.", {
      code: "parameter_invalid_integer",
      param,
    });
  const minimum = MINIMUM_AMOUNTS[currency] ?? 50;
  if (amount < minimum) {
    throw invalidRequest(`Amount must be at least ${formatAmount(minimum, currency)} ${currency}`, {
      code: "amount_too_small",
      param,
    });
  }
  if (amount > 99_999_999) {
    throw invalidRequest("Amount must be no more than 999,999.99", { code: "amount_too_large", param });
  }
}

/** What an API handler gets: the store, the request's parameters, and the request for events. */
export interface ApiContext {
  store: Store;
  params: Params;
  request: RequestInfo;
}
