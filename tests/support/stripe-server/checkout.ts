import { invalidRequest, missingParam, resourceMissing } from "./errors.ts";
import {
  currencyParam,
  expandPaths,
  mergeMetadata,
  optionalArray,
  optionalEnum,
  optionalInteger,
  optionalObject,
  optionalString,
  rejectUnknown,
  requiredInteger,
  requiredString,
  urlParam,
} from "./params.ts";
import { CANCELABLE, cancelIntent } from "./payment-flow.ts";
import {
  type ApiContext,
  checkAmount,
  newId,
  nowSeconds,
  paginate,
  randomToken,
  type Store,
} from "./store.ts";
import type {
  CheckoutSessionObject,
  LineItemObject,
  Params,
  PaymentIntentObject,
  RequestInfo,
} from "./types.ts";

/**
 * Checkout Sessions in `payment` mode with the hosted page (`url`, served by hosted-pages.ts):
 * create, retrieve (expand[]=payment_intent, line_items), list, list line items, expire.
 */

/** Parameters Stripe accepts that this server takes without acting on them. */
const IGNORED = [
  "locale",
  "submit_type",
  "billing_address_collection",
  "customer_creation",
  "phone_number_collection",
  "shipping_address_collection",
  "allow_promotion_codes",
  "payment_method_types",
];
const CREATE = [
  ...IGNORED,
  "mode",
  "ui_mode",
  "line_items",
  "success_url",
  "cancel_url",
  "client_reference_id",
  "metadata",
  "payment_intent_data",
  "customer_email",
  "customer",
  "expires_at",
  "expand",
];

function lineItem(raw: Params, index: number): LineItemObject {
  const at = (name: string) => `line_items[${index}][${name}]`;
  rejectUnknown(raw, ["price_data", "quantity", "price"], `line_items[${index}]`);
  const price = optionalString(raw, "price", at("price"));
  if (price) throw resourceMissing("price", price, at("price"), 400);
  const priceData = optionalObject(raw, "price_data", at("price_data"));
  if (!priceData) throw missingParam(at("price_data"));
  rejectUnknown(
    priceData,
    ["currency", "unit_amount", "product_data", "product", "tax_behavior"],
    at("price_data"),
  );
  const product = optionalString(priceData, "product", `${at("price_data")}[product]`);
  if (product) throw resourceMissing("product", product, `${at("price_data")}[product]`, 400);
  const productData = optionalObject(priceData, "product_data", `${at("price_data")}[product_data]`);
  if (!productData) throw missingParam(`${at("price_data")}[product_data]`);
  rejectUnknown(
    productData,
    ["name", "description", "images", "metadata"],
    `${at("price_data")}[product_data]`,
  );
  const name = requiredString(productData, "name", `${at("price_data")}[product_data][name]`);
  const currency = currencyParam(priceData, "currency", `${at("price_data")}[currency]`);
  const unitAmount = requiredInteger(priceData, "unit_amount", `${at("price_data")}[unit_amount]`);
  if (unitAmount < 0)
    throw invalidRequest("Invalid non-negative integer", { param: `${at("price_data")}[unit_amount]` });
  const quantity = requiredInteger(raw, "quantity", at("quantity"));
  if (quantity < 1) throw invalidRequest("Invalid positive integer", { param: at("quantity") });
  return {
    id: newId("li"),
    object: "item",
    amount_discount: 0,
    amount_subtotal: unitAmount * quantity,
    amount_tax: 0,
    amount_total: unitAmount * quantity,
    currency,
    description: name,
    quantity,
    price: {
      id: newId("price"),
      object: "price",
      active: false,
      currency,
      product: newId("prod", 14),
      type: "one_time",
      unit_amount: unitAmount,
    },
  };
}

export function createSession(ctx: ApiContext): unknown {
  const { store, params } = ctx;
  rejectUnknown(params, CREATE);
  const mode = requiredString(params, "mode");
  if (mode !== "payment")
    throw invalidRequest("This test server supports only mode=payment.", { param: "mode" });
  optionalEnum(params, "ui_mode", ["hosted"]);
  const rawItems = optionalArray(params, "line_items") ?? [];
  if (rawItems.length === 0) throw missingParam("line_items");
  const items = rawItems.map((raw, index) => {
    if (typeof raw !== "object" || Array.isArray(raw))
      throw invalidRequest("Invalid object", { param: `line_items[${index}]` });
    return lineItem(raw, index);
  });
  const currency = (items[0] as LineItemObject).currency;
  if (items.some((item) => item.currency !== currency)) {
    throw invalidRequest("All line items must use the same currency.", { param: "line_items" });
  }
  const total = items.reduce((sum, item) => sum + item.amount_total, 0);
  checkAmount(total, currency, "line_items");
  const intentData = optionalObject(params, "payment_intent_data") ?? {};
  rejectUnknown(intentData, ["metadata", "description"], "payment_intent_data");
  const created = nowSeconds();
  const expiresAt = optionalInteger(params, "expires_at") ?? created + 24 * 3600;
  if (expiresAt < created + 30 * 60 || expiresAt > created + 24 * 3600) {
    throw invalidRequest("expires_at must be between 30 minutes and 24 hours from now.", {
      param: "expires_at",
    });
  }
  const id = newId("cs_test", 58);
  const session: CheckoutSessionObject = {
    id,
    object: "checkout.session",
    amount_subtotal: total,
    amount_total: total,
    cancel_url: urlParam(params, "cancel_url") ?? null,
    client_reference_id: optionalString(params, "client_reference_id") ?? null,
    created,
    currency,
    customer_details: null,
    customer_email: optionalString(params, "customer_email") ?? null,
    expires_at: expiresAt,
    livemode: false,
    metadata: mergeMetadata({}, params),
    mode: "payment",
    payment_intent: null,
    payment_method_types: ["card"],
    payment_status: "unpaid",
    status: "open",
    success_url: urlParam(params, "success_url") ?? null,
    ui_mode: "hosted",
    url: `${store.baseUrl}/checkout/${id}`,
  };
  store.sessions.set(id, session);
  store.sessionInternals.set(id, {
    lineItems: items,
    intentMetadata: mergeMetadata({}, intentData, "metadata"),
    intentDescription: optionalString(intentData, "description", "payment_intent_data[description]") ?? null,
    customer: null,
  });
  return renderSession(ctx, session);
}

function lineItemList(store: Store, session: CheckoutSessionObject) {
  return {
    object: "list" as const,
    data: store.sessionInternals.get(session.id)?.lineItems ?? [],
    has_more: false,
    url: `/v1/checkout/sessions/${session.id}/line_items`,
  };
}

function renderSession(ctx: ApiContext, session: CheckoutSessionObject): unknown {
  return ctx.store.render(session, expandPaths(ctx.params), (copy, path) => {
    if (path !== "line_items") return false;
    copy.line_items = structuredClone(lineItemList(ctx.store, session));
    return true;
  });
}

export function retrieveSession(ctx: ApiContext, id: string): unknown {
  rejectUnknown(ctx.params, ["expand"]);
  return renderSession(ctx, ctx.store.session(id));
}

export function listSessions(ctx: ApiContext): unknown {
  const { store, params } = ctx;
  rejectUnknown(params, ["payment_intent", "status", "limit", "starting_after", "ending_before", "expand"]);
  const paymentIntent = optionalString(params, "payment_intent");
  const status = optionalEnum(params, "status", ["open", "complete", "expired"]);
  const items = [...store.sessions.values()].filter(
    (session) =>
      (!paymentIntent || session.payment_intent === paymentIntent) && (!status || session.status === status),
  );
  return store.render(paginate(items, params, "/v1/checkout/sessions"), expandPaths(params));
}

export function listSessionLineItems(ctx: ApiContext, id: string): unknown {
  rejectUnknown(ctx.params, ["limit", "starting_after", "ending_before", "expand"]);
  const session = ctx.store.session(id);
  const items = [...lineItemList(ctx.store, session).data].reverse();
  return paginate(items, ctx.params, `/v1/checkout/sessions/${id}/line_items`);
}

export function expireSessionRoute(ctx: ApiContext, id: string): unknown {
  rejectUnknown(ctx.params, ["expand"]);
  const session = ctx.store.session(id);
  expireSession(ctx.store, session, ctx.request);
  return renderSession(ctx, session);
}

export function expireSession(
  store: Store,
  session: CheckoutSessionObject,
  request: RequestInfo | null,
): void {
  if (session.status !== "open") {
    throw invalidRequest(
      `Only Checkout Sessions with a status in ["open"] can be expired. This session has a status of ${session.status}.`,
      {
        param: "session",
      },
    );
  }
  session.status = "expired";
  session.url = null;
  const intent = session.payment_intent ? store.paymentIntents.get(session.payment_intent) : undefined;
  if (intent && CANCELABLE.includes(intent.status)) cancelIntent(store, intent, "abandoned", request);
  store.emit("checkout.session.expired", session, request);
}

/** The PaymentIntent a session pays with, made on the shopper's first attempt. */
export function sessionIntent(
  store: Store,
  session: CheckoutSessionObject,
  email: string,
): PaymentIntentObject {
  const existing = session.payment_intent ? store.paymentIntents.get(session.payment_intent) : undefined;
  if (existing) return existing;
  const internals = store.sessionInternals.get(session.id);
  const id = newId("pi");
  const intent: PaymentIntentObject = {
    id,
    object: "payment_intent",
    amount: session.amount_total ?? 0,
    amount_capturable: 0,
    amount_received: 0,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic_async",
    client_secret: `${id}_secret_${randomToken(25)}`,
    confirmation_method: "automatic",
    created: nowSeconds(),
    currency: session.currency ?? "usd",
    customer: null,
    description: internals?.intentDescription ?? null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: { ...(internals?.intentMetadata ?? {}) },
    next_action: null,
    payment_method: null,
    payment_method_types: ["card"],
    receipt_email: email || null,
    status: "requires_payment_method",
  };
  store.paymentIntents.set(id, intent);
  store.internals(id).checkoutSession = session.id;
  session.payment_intent = id;
  store.emit("payment_intent.created", intent, null);
  return intent;
}

/** `unpaid` when the payment is still processing: `checkout.session.async_payment_*` follows. */
export function completeSession(
  store: Store,
  session: CheckoutSessionObject,
  details: { email: string | null; name: string | null },
  paymentStatus: "paid" | "unpaid",
): void {
  session.status = "complete";
  session.payment_status = paymentStatus;
  session.url = null;
  session.customer_details = details;
  store.emit("checkout.session.completed", session, null);
}

/** Where the shopper goes after paying: success_url with `{CHECKOUT_SESSION_ID}` filled in. */
export function successUrl(store: Store, session: CheckoutSessionObject): string {
  if (!session.success_url) return `${store.baseUrl}/checkout/${session.id}/success`;
  return session.success_url.replaceAll("{CHECKOUT_SESSION_ID}", session.id);
}
