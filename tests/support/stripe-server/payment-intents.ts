import { invalidRequest, unexpectedState } from "./errors.ts";
import {
  currencyParam,
  expandPaths,
  mergeMetadata,
  optionalArray,
  optionalBoolean,
  optionalEnum,
  optionalInteger,
  optionalObject,
  optionalString,
  rejectUnknown,
  requiredInteger,
  requiredString,
  urlParam,
} from "./params.ts";
import { cancelIntent, captureIntent, confirmIntent } from "./payment-flow.ts";
import { parseSearchQuery } from "./search-query.ts";
import { type ApiContext, checkAmount, newId, nowSeconds, paginate, randomToken } from "./store.ts";
import type { Params, PaymentIntentObject } from "./types.ts";

/** The PaymentIntents API: create, retrieve, update, confirm, cancel, capture, list, search. */

/** Parameters Stripe accepts that this server takes without acting on them. */
const IGNORED = [
  "shipping",
  "statement_descriptor",
  "statement_descriptor_suffix",
  "setup_future_usage",
  "payment_method_options",
];

const CREATE = [
  ...IGNORED,
  "amount",
  "currency",
  "metadata",
  "automatic_payment_methods",
  "payment_method",
  "payment_method_types",
  "confirm",
  "return_url",
  "off_session",
  "capture_method",
  "confirmation_method",
  "description",
  "receipt_email",
  "customer",
  "expand",
];
const UPDATE = [
  ...IGNORED,
  "amount",
  "currency",
  "metadata",
  "payment_method",
  "capture_method",
  "description",
  "receipt_email",
  "customer",
  "expand",
];
const CONFIRM = [
  ...IGNORED,
  "payment_method",
  "return_url",
  "off_session",
  "receipt_email",
  "capture_method",
  "expand",
];
const CAPTURE_METHODS = ["automatic", "automatic_async", "manual"] as const;
const CANCELLATION_REASONS = ["abandoned", "duplicate", "fraudulent", "requested_by_customer"] as const;

function respond(ctx: ApiContext, intent: PaymentIntentObject): unknown {
  return ctx.store.render(intent, expandPaths(ctx.params));
}

export function createPaymentIntent(ctx: ApiContext): unknown {
  const { store, params } = ctx;
  rejectUnknown(params, CREATE);
  const amount = requiredInteger(params, "amount");
  const currency = currencyParam(params);
  checkAmount(amount, currency);
  const confirm = optionalBoolean(params, "confirm") ?? false;
  const returnUrl = urlParam(params, "return_url");
  if (returnUrl && !confirm) {
    throw invalidRequest("You can only pass in a return_url when confirm is true.", { param: "return_url" });
  }
  const paymentMethod = optionalString(params, "payment_method");
  if (paymentMethod) store.paymentMethod(paymentMethod);
  const intent: PaymentIntentObject = {
    id: newId("pi"),
    object: "payment_intent",
    amount,
    amount_capturable: 0,
    amount_received: 0,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: optionalEnum(params, "capture_method", CAPTURE_METHODS) ?? "automatic_async",
    client_secret: null,
    confirmation_method: optionalEnum(params, "confirmation_method", ["automatic", "manual"]) ?? "automatic",
    created: nowSeconds(),
    currency,
    customer: optionalString(params, "customer") ?? null,
    description: optionalString(params, "description") ?? null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: mergeMetadata({}, params),
    next_action: null,
    payment_method: paymentMethod ?? null,
    payment_method_types: ["card"],
    receipt_email: optionalString(params, "receipt_email") ?? null,
    status: paymentMethod ? "requires_confirmation" : "requires_payment_method",
  };
  intent.client_secret = `${intent.id}_secret_${randomToken(25)}`;
  setPaymentMethodTypes(intent, params);
  store.paymentIntents.set(intent.id, intent);
  store.emit("payment_intent.created", intent, ctx.request);
  if (confirm) {
    const offSession = optionalBoolean(params, "off_session") ?? false;
    confirmIntent(store, intent, { returnUrl, offSession, request: ctx.request });
  }
  return respond(ctx, intent);
}

/**
 * Since API version 2023-08-16 automatic payment methods are on unless `payment_method_types` is
 * given; this server only has cards either way.
 */
function setPaymentMethodTypes(intent: PaymentIntentObject, params: Params): void {
  const automatic = optionalObject(params, "automatic_payment_methods");
  const types = optionalArray(params, "payment_method_types");
  if (automatic && types) {
    throw invalidRequest(
      "You may only specify one of these parameters: automatic_payment_methods, payment_method_types.",
      { param: "automatic_payment_methods" },
    );
  }
  if (types) {
    for (const [index, type] of types.entries()) {
      if (type !== "card") {
        throw invalidRequest(
          `This test server supports only the payment method type "card", not "${String(type)}".`,
          {
            code: "payment_method_invalid_parameter",
            param: `payment_method_types[${index}]`,
          },
        );
      }
    }
    return;
  }
  if (!automatic) {
    intent.automatic_payment_methods = { enabled: true, allow_redirects: "always" };
    return;
  }
  rejectUnknown(automatic, ["enabled", "allow_redirects"], "automatic_payment_methods");
  const enabled = optionalBoolean(automatic, "enabled", "automatic_payment_methods[enabled]");
  if (enabled === undefined)
    throw invalidRequest("Missing required param: automatic_payment_methods[enabled].", {
      code: "parameter_missing",
      param: "automatic_payment_methods[enabled]",
    });
  const allowRedirects =
    optionalEnum(
      automatic,
      "allow_redirects",
      ["always", "never"],
      "automatic_payment_methods[allow_redirects]",
    ) ?? "always";
  intent.automatic_payment_methods = enabled ? { enabled: true, allow_redirects: allowRedirects } : null;
}

export function retrievePaymentIntent(ctx: ApiContext, id: string): unknown {
  rejectUnknown(ctx.params, ["expand", "client_secret"]);
  return respond(ctx, ctx.store.paymentIntent(id));
}

export function updatePaymentIntent(ctx: ApiContext, id: string): unknown {
  const { store, params } = ctx;
  rejectUnknown(params, UPDATE);
  const intent = store.paymentIntent(id);
  const paymentFields = ["amount", "currency", "payment_method", "capture_method"].filter(
    (key) => key in params,
  );
  const open = ["requires_payment_method", "requires_confirmation", "requires_action"];
  if (paymentFields.length > 0 && !open.includes(intent.status)) {
    throw unexpectedState(
      `You cannot update ${paymentFields.join(", ")} of this PaymentIntent because it has a status of ${intent.status}.`,
    );
  }
  const amount = optionalInteger(params, "amount") ?? intent.amount;
  const currency = "currency" in params ? currencyParam(params) : intent.currency;
  checkAmount(amount, currency);
  const paymentMethod = optionalString(params, "payment_method");
  if (paymentMethod) store.paymentMethod(paymentMethod);
  const metadata = mergeMetadata(intent.metadata, params);
  intent.amount = amount;
  intent.currency = currency;
  intent.metadata = metadata;
  intent.capture_method = optionalEnum(params, "capture_method", CAPTURE_METHODS) ?? intent.capture_method;
  intent.description = optionalString(params, "description") ?? intent.description;
  intent.receipt_email = optionalString(params, "receipt_email") ?? intent.receipt_email;
  intent.customer = optionalString(params, "customer") ?? intent.customer;
  if (paymentMethod !== undefined) intent.payment_method = paymentMethod || null;
  if (paymentFields.length > 0) {
    intent.next_action = null;
    store.internals(intent.id).authenticationAttempt = null;
    intent.status = intent.payment_method ? "requires_confirmation" : "requires_payment_method";
  }
  return respond(ctx, intent);
}

export function confirmPaymentIntent(ctx: ApiContext, id: string): unknown {
  const { store, params } = ctx;
  rejectUnknown(params, CONFIRM);
  const intent = store.paymentIntent(id);
  const paymentMethod = optionalString(params, "payment_method");
  const returnUrl = urlParam(params, "return_url");
  const offSession = optionalBoolean(params, "off_session") ?? false;
  if (paymentMethod) store.paymentMethod(paymentMethod);
  if (
    paymentMethod &&
    ["requires_payment_method", "requires_confirmation", "requires_action"].includes(intent.status)
  ) {
    intent.payment_method = paymentMethod;
  }
  intent.capture_method = optionalEnum(params, "capture_method", CAPTURE_METHODS) ?? intent.capture_method;
  intent.receipt_email = optionalString(params, "receipt_email") ?? intent.receipt_email;
  confirmIntent(store, intent, { returnUrl, offSession, request: ctx.request });
  return respond(ctx, intent);
}

export function cancelPaymentIntent(ctx: ApiContext, id: string): unknown {
  rejectUnknown(ctx.params, ["cancellation_reason", "expand"]);
  const intent = ctx.store.paymentIntent(id);
  const reason = optionalEnum(ctx.params, "cancellation_reason", CANCELLATION_REASONS) ?? null;
  cancelIntent(ctx.store, intent, reason, ctx.request);
  return respond(ctx, intent);
}

export function capturePaymentIntent(ctx: ApiContext, id: string): unknown {
  rejectUnknown(ctx.params, ["amount_to_capture", "metadata", "expand", "statement_descriptor_suffix"]);
  const intent = ctx.store.paymentIntent(id);
  const amount = optionalInteger(ctx.params, "amount_to_capture");
  const metadata = mergeMetadata(intent.metadata, ctx.params);
  captureIntent(ctx.store, intent, amount, ctx.request);
  intent.metadata = metadata;
  return respond(ctx, intent);
}

export function listPaymentIntents(ctx: ApiContext): unknown {
  const { store, params } = ctx;
  rejectUnknown(params, ["limit", "starting_after", "ending_before", "created", "customer", "expand"]);
  const customer = optionalString(params, "customer");
  const created = createdFilter(params);
  const items = [...store.paymentIntents.values()].filter(
    (intent) => (!customer || intent.customer === customer) && created(intent.created),
  );
  return store.render(paginate(items, params, "/v1/payment_intents"), expandPaths(params));
}

/** `created=<ts>` or `created[gt|gte|lt|lte]=<ts>`. */
function createdFilter(params: Params): (created: number) => boolean {
  const value = params.created;
  if (value === undefined) return () => true;
  if (typeof value === "string") {
    const exact = requiredInteger(params, "created");
    return (created) => created === exact;
  }
  const range = optionalObject(params, "created") ?? {};
  rejectUnknown(range, ["gt", "gte", "lt", "lte"], "created");
  const bound = (key: string) => optionalInteger(range, key, `created[${key}]`);
  const [gt, gte, lt, lte] = [bound("gt"), bound("gte"), bound("lt"), bound("lte")];
  return (created) =>
    (gt === undefined || created > gt) &&
    (gte === undefined || created >= gte) &&
    (lt === undefined || created < lt) &&
    (lte === undefined || created <= lte);
}

export function searchPaymentIntents(ctx: ApiContext): unknown {
  const { store, params } = ctx;
  rejectUnknown(params, ["query", "limit", "page", "expand"]);
  const query = requiredString(params, "query");
  const limit = optionalInteger(params, "limit") ?? 10;
  if (limit < 1 || limit > 100)
    throw invalidRequest("Invalid limit: must be between 1 and 100", { param: "limit" });
  const page = optionalString(params, "page");
  const offset = page ? Number(Buffer.from(page, "base64url").toString("utf8")) : 0;
  if (!Number.isInteger(offset) || offset < 0) throw invalidRequest("Invalid page", { param: "page" });
  const matches = parseSearchQuery(query, {
    amount: "number",
    created: "number",
    currency: "string",
    customer: "string",
    status: "string",
  });
  const found = [...store.paymentIntents.values()]
    .reverse()
    .filter((intent) => matches(intent as unknown as Record<string, unknown>));
  const data = found.slice(offset, offset + limit);
  const more = offset + data.length < found.length;
  const result = {
    object: "search_result",
    data,
    has_more: more,
    next_page: more ? Buffer.from(String(offset + data.length)).toString("base64url") : null,
    url: "/v1/payment_intents/search",
  };
  return store.render(result, expandPaths(params));
}
