import { OpenAPIHono } from "@hono/zod-openapi";
import { cors } from "hono/cors";
import { etag } from "hono/etag";
import { HTTPException } from "hono/http-exception";
import { logger } from "../adapters/logger.server.ts";
import type { AppServices } from "../context.ts";
import { registerAdminMore } from "./admin-more.api.ts";
import { type ApiEnv, authenticate } from "./api-auth.server.ts";
import { idempotency } from "./idempotency.ts";
import { registerOrders } from "./orders.api.ts";
import { problem, validationProblem } from "./problem.ts";
import { registerProductWrites } from "./product-writes.api.ts";
import { registerProducts } from "./products.api.ts";
import { registerStoreCart } from "./store-cart.api.ts";
import { registerStoreCatalog } from "./store-catalog.api.ts";
import { registerStoreCheckout } from "./store-checkout.api.ts";

/** Where the API lives; its OpenAPI document is `${API_BASE}/openapi.json`. */
export const API_BASE = "/api/v1";

/**
 * The REST API (issue 32, decision 038): JSON over HTTP under /api/v1, each operation a route
 * declared with the zod schemas it parses (`createRoute`), so the OpenAPI 3.1 document is generated
 * from what the code checks. Operations call the same domain functions as the pages. Every
 * operation but the document needs a key (`authenticate`); the Admin API's also a scope, which the
 * document names in each operation's `x-scope` ("store": any key).
 */
export function createApi(getServices: () => Promise<AppServices>) {
  const api = new OpenAPIHono<ApiEnv>({
    // a request the operation's schema refuses: 400 with each field's message, as problem+json
    defaultHook: (result) => (result.success ? undefined : validationProblem(result.error)),
  }).basePath(API_BASE);

  api.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description:
      "An API key made in Admin → API keys: a secret key (cw_sk_…) for the Admin API within its scopes, or a publishable key (cw_pk_…) for the Store API.",
  });
  // made once, on first request: the operations are all registered by then
  let doc: ReturnType<typeof document> | null = null;
  api.get("/openapi.json", (c) => {
    c.header("Cache-Control", "public, max-age=300");
    doc ??= document(api);
    return c.json(doc);
  });

  // reads carry an ETag (weak: compression may change the bytes, not the meaning) and answer 304 to
  // If-None-Match; a key's answers are its own: private, revalidated each time
  api.use("*", etag({ weak: true }), async (c, next) => {
    await next();
    if (c.req.method === "GET" && c.res.ok && !c.res.headers.has("Cache-Control")) {
      c.res.headers.set("Cache-Control", "private, no-cache");
    }
  });
  // the Store API is called from browsers on other origins (headless storefronts): the key travels
  // in Authorization, never a cookie, so any origin may call it; the Admin API's secret keys are
  // for servers, so no browser on another origin gets its answers
  api.use(
    "/store/*",
    cors({
      origin: "*",
      allowMethods: ["GET", "POST", "DELETE"],
      allowHeaders: ["Authorization", "Content-Type", "Idempotency-Key", "If-None-Match"],
      exposeHeaders: ["ETag", "Retry-After", "Idempotent-Replayed", "WWW-Authenticate"],
      maxAge: 600,
    }),
  );
  api.use("/admin/*", authenticate(getServices), idempotency());
  api.use("/store/*", authenticate(getServices), idempotency());
  registerOrders(api);
  registerProducts(api);
  registerProductWrites(api);
  registerAdminMore(api);
  registerStoreCatalog(api);
  registerStoreCart(api);
  registerStoreCheckout(api);

  api.notFound(() => problem(404, "There is no such API operation."));
  api.onError((error, c) => {
    // the client's error, not ours: above all a body that is not JSON at all (the validator's refusal)
    if (error instanceof HTTPException && error.status < 500) {
      return problem(
        error.status,
        /json/i.test(error.message) ? "The request body is not valid JSON." : error.message,
      );
    }
    logger.error({ err: error, path: c.req.path }, "API operation failed");
    return problem(500, "The shop could not answer this request.");
  });
  return api;
}

function document(api: OpenAPIHono<ApiEnv>) {
  return api.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Cartwheel API",
      version: "1.0.0",
      description:
        "The shop's Admin API (orders, catalogue, stock… within a secret key's scopes) and Store API (catalogue, cart and checkout for headless storefronts). Errors are RFC 9457 problem details; money is integer minor units with its currency; lists are paged by cursor.",
    },
  });
}

/** The OpenAPI document of this API (the typed client is generated from it). */
export function openApiDocument(): unknown {
  return document(createApi(() => Promise.reject(new Error("no services: the document only"))));
}
