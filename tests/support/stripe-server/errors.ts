/**
 * Stripe's error envelope, `{ error: { type, code, decline_code?, message, param? } }`, and the
 * statuses the API answers it with (https://docs.stripe.com/api/errors): 400 invalid_request_error,
 * 401 bad key, 402 card_error, 404 resource_missing, 500 api_error.
 */

export type StripeErrorType = "invalid_request_error" | "card_error" | "api_error" | "idempotency_error";

export interface StripeErrorBody {
  type: StripeErrorType;
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  charge?: string;
  payment_intent?: unknown;
  payment_method?: unknown;
}

export class StripeApiError extends Error {
  readonly status: number;
  readonly body: StripeErrorBody;
  constructor(status: number, body: StripeErrorBody) {
    super(body.message);
    this.status = status;
    this.body = body;
  }
  /** whether the idempotency layer keeps this answer: Stripe saves none for a request that failed validation */
  get saved(): boolean {
    return !(this.status === 400 && this.body.type === "invalid_request_error");
  }
}

const docUrl = (code: string) => `https://docs.stripe.com/error-codes/${code.replaceAll("_", "-")}`;

export function invalidRequest(message: string, options: { code?: string; param?: string } = {}) {
  return new StripeApiError(400, {
    type: "invalid_request_error",
    message,
    ...(options.code ? { code: options.code, doc_url: docUrl(options.code) } : {}),
    ...(options.param ? { param: options.param } : {}),
  });
}

export function missingParam(param: string) {
  return invalidRequest(`Missing required param: ${param}.`, { code: "parameter_missing", param });
}

export function unknownParam(param: string) {
  return invalidRequest(
    `Received unknown parameter: ${param}. This test server models only part of the Stripe API; see tests/support/stripe-server/README.md.`,
    { code: "parameter_unknown", param },
  );
}

/** 404 for an id in the URL; an unknown id given as a parameter is a 400 with the same code. */
export function resourceMissing(kind: string, id: string, param: string, status: 400 | 404 = 404) {
  return new StripeApiError(status, {
    type: "invalid_request_error",
    code: "resource_missing",
    doc_url: docUrl("resource_missing"),
    message: `No such ${kind}: '${id}'`,
    param,
  });
}

export function unexpectedState(message: string) {
  return invalidRequest(message, { code: "payment_intent_unexpected_state" });
}

export function cardError(
  details: { code: string; decline_code?: string; message: string },
  extra: { charge?: string; payment_intent?: unknown; payment_method?: unknown } = {},
) {
  return new StripeApiError(402, {
    type: "card_error",
    code: details.code,
    ...(details.decline_code ? { decline_code: details.decline_code } : {}),
    message: details.message,
    doc_url: docUrl(details.code),
    ...extra,
  });
}

export function idempotencyError(message: string) {
  return new StripeApiError(400, { type: "idempotency_error", message });
}

/** The simulated outage of `failNextRequest`: 5xx is api_error, 429 is Stripe's rate limit. */
export function outageError(status: number) {
  if (status === 429) {
    return new StripeApiError(429, {
      type: "invalid_request_error",
      code: "rate_limit",
      message: "Too many requests hit the API too quickly. (simulated by the test server)",
    });
  }
  return new StripeApiError(status, {
    type: "api_error",
    message: `An unknown error occurred (simulated ${status} from the test server).`,
  });
}

export function authenticationError(message: string) {
  return new StripeApiError(401, { type: "invalid_request_error", message });
}
