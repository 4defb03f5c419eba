import type { IncomingMessage, ServerResponse } from "node:http";
import {
  createSession,
  expireSessionRoute,
  listSessionLineItems,
  listSessions,
  retrieveSession,
} from "./checkout.ts";
import { authenticationError, idempotencyError, outageError, StripeApiError } from "./errors.ts";
import { handlePage } from "./hosted-pages.ts";
import { canonical, parseForm } from "./params.ts";
import {
  cancelPaymentIntent,
  capturePaymentIntent,
  confirmPaymentIntent,
  createPaymentIntent,
  listPaymentIntents,
  retrievePaymentIntent,
  searchPaymentIntents,
  updatePaymentIntent,
} from "./payment-intents.ts";
import {
  createRefund,
  listCharges,
  listEvents,
  listRefunds,
  retrieveCharge,
  retrieveDispute,
  retrieveEvent,
  retrievePaymentMethod,
  retrieveRefund,
  updateRefund,
} from "./refunds.ts";
import { type ApiContext, newId, type Store } from "./store.ts";
import type { Params, RequestLogEntry } from "./types.ts";

type ApiHandler = (ctx: ApiContext, id: string) => unknown;

const ROUTES: Array<[string, RegExp, ApiHandler]> = [
  ["POST", /^\/v1\/payment_intents$/, createPaymentIntent],
  ["GET", /^\/v1\/payment_intents$/, listPaymentIntents],
  ["GET", /^\/v1\/payment_intents\/search$/, searchPaymentIntents],
  ["GET", /^\/v1\/payment_intents\/([^/]+)$/, retrievePaymentIntent],
  ["POST", /^\/v1\/payment_intents\/([^/]+)$/, updatePaymentIntent],
  ["POST", /^\/v1\/payment_intents\/([^/]+)\/confirm$/, confirmPaymentIntent],
  ["POST", /^\/v1\/payment_intents\/([^/]+)\/cancel$/, cancelPaymentIntent],
  ["POST", /^\/v1\/payment_intents\/([^/]+)\/capture$/, capturePaymentIntent],
  ["POST", /^\/v1\/refunds$/, createRefund],
  ["GET", /^\/v1\/refunds$/, listRefunds],
  ["GET", /^\/v1\/refunds\/([^/]+)$/, retrieveRefund],
  ["POST", /^\/v1\/refunds\/([^/]+)$/, updateRefund],
  ["GET", /^\/v1\/charges$/, listCharges],
  ["GET", /^\/v1\/charges\/([^/]+)$/, retrieveCharge],
  ["POST", /^\/v1\/checkout\/sessions$/, createSession],
  ["GET", /^\/v1\/checkout\/sessions$/, listSessions],
  ["GET", /^\/v1\/checkout\/sessions\/([^/]+)$/, retrieveSession],
  ["GET", /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/, listSessionLineItems],
  ["POST", /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/, expireSessionRoute],
  ["GET", /^\/v1\/payment_methods\/([^/]+)$/, retrievePaymentMethod],
  ["GET", /^\/v1\/disputes\/([^/]+)$/, retrieveDispute],
  ["GET", /^\/v1\/events$/, listEvents],
  ["GET", /^\/v1\/events\/([^/]+)$/, retrieveEvent],
];

/** A simulated outage (see `failNextRequest`). */
export interface Failure {
  /** an HTTP status answered with Stripe's error envelope, or "drop" to close the connection unanswered */
  kind: number | "drop";
  /** fail after the request did its work (and was stored for its idempotency key): a lost response */
  afterProcessing: boolean;
  /** only requests whose path starts with this, e.g. "/v1/refunds" */
  path: string | undefined;
  remaining: number;
}

interface StoredResponse {
  method: string;
  path: string;
  params: string;
  status: number;
  body: string;
}

const MAX_BODY = 1024 * 1024;

export class ApiServer {
  readonly requests: RequestLogEntry[] = [];
  readonly failures: Failure[] = [];
  readonly #store: Store;
  readonly #secretKey: string | undefined;
  readonly #idempotent = new Map<string, StoredResponse>();

  constructor(store: Store, secretKey: string | undefined) {
    this.#store = store;
    this.#secretKey = secretKey;
  }

  readonly listener = (req: IncomingMessage, res: ServerResponse): void => {
    this.#handle(req, res).catch((error: unknown) => {
      console.error("stripe test server:", error);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end("internal error");
    });
  };

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    if (body === null) {
      res.writeHead(413, { "content-type": "text/plain" }).end("request body too large");
      return;
    }
    const url = new URL(req.url ?? "/", this.#store.baseUrl);
    const method = req.method ?? "GET";
    if (!url.pathname.startsWith("/v1/")) {
      const result = handlePage(this.#store, method, url, new URLSearchParams(method === "POST" ? body : ""));
      if (!result) {
        res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found");
        return;
      }
      const headers: Record<string, string> = { "cache-control": "no-store" };
      if (result.location) headers.location = result.location;
      if (result.html) headers["content-type"] = "text/html; charset=utf-8";
      res.writeHead(result.status, headers).end(result.html ?? "");
      return;
    }

    const requestId = newId("req", 14);
    const idempotencyKey = method === "POST" ? (headerValue(req, "idempotency-key") ?? null) : null;
    const log = (status: number, replayed = false) =>
      this.requests.push({ method, path: url.pathname, status, idempotencyKey, replayed });
    const send = (status: number, payload: string, extra: Record<string, string> = {}) => {
      res
        .writeHead(status, {
          "content-type": "application/json",
          "request-id": requestId,
          "stripe-version": headerValue(req, "stripe-version") ?? this.#store.apiVersion,
          ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
          ...extra,
        })
        .end(payload);
    };
    const sendError = (error: StripeApiError) => send(error.status, errorJson(error));

    const apiKey = this.#authenticate(req);
    if (apiKey instanceof StripeApiError) {
      log(apiKey.status);
      sendError(apiKey);
      return;
    }
    const failure = this.#takeFailure(url.pathname);
    if (failure && !failure.afterProcessing) {
      log(failure.kind === "drop" ? 0 : failure.kind);
      if (failure.kind === "drop") req.socket.destroy();
      else sendError(outageError(failure.kind));
      return;
    }

    let status: number;
    let payload: string;
    let replayed = false;
    try {
      const params = parseForm(method === "POST" ? body : url.search.slice(1));
      // idempotency keys are scoped to the API key, as at Stripe
      const scopedKey = idempotencyKey ? `${apiKey}:${idempotencyKey}` : null;
      const stored = scopedKey ? this.#replay(scopedKey, method, url.pathname, params) : undefined;
      if (stored) {
        ({ status, body: payload } = stored);
        replayed = true;
      } else {
        const request = { id: requestId, idempotencyKey };
        ({ status, payload } = this.#dispatch(method, url.pathname, params, request, scopedKey));
      }
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      status = error.status;
      payload = errorJson(error);
    }

    if (failure) {
      log(failure.kind === "drop" ? 0 : failure.kind, replayed);
      if (failure.kind === "drop") req.socket.destroy();
      else sendError(outageError(failure.kind));
      return;
    }
    log(status, replayed);
    send(status, payload, replayed ? { "idempotent-replayed": "true" } : {});
  }

  #dispatch(
    method: string,
    path: string,
    params: Params,
    request: { id: string; idempotencyKey: string | null },
    storeKey: string | null,
  ): { status: number; payload: string } {
    let status = 200;
    let payload: string;
    let saved = true;
    try {
      const route = ROUTES.find(([routeMethod, pattern]) => routeMethod === method && pattern.test(path));
      if (!route) {
        throw new StripeApiError(404, {
          type: "invalid_request_error",
          message: `Unrecognized request URL (${method}: ${path}). This test server implements only part of the Stripe API.`,
        });
      }
      const id = decodeURIComponent(path.match(route[1])?.[1] ?? "");
      payload = JSON.stringify(route[2]({ store: this.#store, params, request }, id), null, 2);
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      status = error.status;
      payload = errorJson(error);
      saved = error.saved;
    }
    if (storeKey && saved)
      this.#idempotent.set(storeKey, { method, path, params: canonical(params), status, body: payload });
    return { status, payload };
  }

  /** The stored answer for a repeated idempotency key; a key reused for another request is refused. */
  #replay(key: string, method: string, path: string, params: Params): StoredResponse | undefined {
    const stored = this.#idempotent.get(key);
    if (!stored) return undefined;
    const bareKey = key.slice(key.indexOf(":") + 1);
    if (stored.method !== method || stored.path !== path) {
      throw idempotencyError(
        `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${stored.method} ${stored.path}' vs '${method} ${path}'). Try using a key other than '${bareKey}' if you meant to execute a different request.`,
      );
    }
    if (stored.params !== canonical(params)) {
      throw idempotencyError(
        `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${bareKey}' if you meant to execute a different request.`,
      );
    }
    return stored;
  }

  #authenticate(req: IncomingMessage): string | StripeApiError {
    const header = headerValue(req, "authorization");
    if (!header) {
      return authenticationError(
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      );
    }
    const key = header.match(/^Bearer\s+(\S+)$/i)?.[1];
    const masked = key ? `${key.slice(0, 8)}${"*".repeat(Math.max(0, key.length - 12))}${key.slice(-4)}` : "";
    if (
      !key ||
      !/^(sk|rk)_test_\w+$/.test(key) ||
      (this.#secretKey !== undefined && key !== this.#secretKey)
    ) {
      return authenticationError(`Invalid API Key provided: ${masked || "(none)"}`);
    }
    return key;
  }

  #takeFailure(path: string): Failure | undefined {
    const index = this.failures.findIndex((failure) => !failure.path || path.startsWith(failure.path));
    const failure = this.failures[index];
    if (!failure) return undefined;
    failure.remaining -= 1;
    if (failure.remaining <= 0) this.failures.splice(index, 1);
    return failure;
  }
}

function errorJson(error: StripeApiError): string {
  return JSON.stringify({ error: error.body }, null, 2);
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
