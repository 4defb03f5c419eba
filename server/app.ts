import { getConnInfo } from "@hono/node-server/conninfo";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono, type MiddlewareHandler } from "hono";
import { compress } from "hono/compress";
import { requestId } from "hono/request-id";
import { NONCE, secureHeaders } from "hono/secure-headers";
import type { Logger } from "pino";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { CSP_DIRECTIVES } from "../app/http/content-security.server.ts";
import { recordPageCache } from "../app/infra/metrics.server.ts";
import { PageCache, withSharedCacheRules } from "../app/infra/page-cache.server.ts";
import type { AppEntry } from "./app-entry.ts";
import { metricsHandler } from "./metrics.ts";
import { requestGuard } from "./request-guard.ts";
import { routePatterns } from "./route-pattern.ts";
import { requestTelemetry } from "./telemetry.ts";

export interface ServerAppOptions {
  build: ServerBuild;
  entry: AppEntry;
  logger: Logger;
  clientDir: string;
  mode?: "production" | "development";
  /** GET /metrics on this app, behind this bearer token (decision 027); unset: no /metrics here */
  metricsToken?: string;
}

const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * serveStatic with a Cache-Control on the files it serves. (@hono/node-server 2 calls `onFound`
 * after the response exists, so a header set there is lost; set it on the response instead.)
 */
function staticFiles(root: string, cacheControl: string, precompressed = false): MiddlewareHandler {
  const serve = serveStatic({ root, precompressed });
  return async (c, next) => {
    const result = await serve(c, next);
    if (result instanceof Response) {
      result.headers.set("Cache-Control", cacheControl);
      return result;
    }
  };
}

/** The HTTP layer: security headers, compression, static files, images, health, then React Router (through the page cache). */
export function createServerApp({
  build,
  entry,
  logger,
  clientDir,
  mode = "production",
  metricsToken,
}: ServerAppOptions) {
  const app = new Hono<{ Variables: { requestId: string; secureHeadersNonce?: string } }>();
  const handleRequest = createRequestHandler(build, mode);
  const pages = new PageCache({ dataStamp: () => entry.dataStamp() });

  // metrics and traces of each request, when either is on (nothing is mounted otherwise)
  const telemetry = requestTelemetry(routePatterns(build));
  if (telemetry) app.use(telemetry);
  app.use(requestId());
  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    // requestId() sets its header before the route runs; a raw Response (React Router's) drops it.
    if (!c.res.headers.has("X-Request-Id")) c.header("X-Request-Id", c.get("requestId"));
    const log = { requestId: c.get("requestId"), method: c.req.method, path: c.req.path };
    const ms = Math.round((performance.now() - started) * 10) / 10;
    // An operator is paged by errors: only a failure of ours (5xx) is one; a refused request is not.
    if (c.res.status >= 500) logger.error({ ...log, status: c.res.status, ms }, "request failed");
    else logger.info({ ...log, status: c.res.status, ms }, "request");
  });
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        ...Object.fromEntries(Object.entries(CSP_DIRECTIVES).map(([name, sources]) => [name, [...sources]])),
        scriptSrc: [...CSP_DIRECTIVES.scriptSrc, NONCE],
      },
      referrerPolicy: "strict-origin-when-cross-origin",
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: "max-age=31536000; includeSubDomains",
      permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
      // a route's own, stricter header wins (e.g. same-origin on the password-reset page)
      overwrite: false,
    }),
  );
  app.use(compress());

  app.use(requestGuard());

  app.get("/healthz", async (c) => {
    const health = await entry.checkHealth();
    c.header("Cache-Control", "no-store");
    return c.json(health, health.ok ? 200 : 503);
  });

  // ready for traffic: started, the database answers, every migration applied (503 says what is missing)
  app.get("/readyz", async (c) => {
    const readiness = await entry.checkReadiness();
    c.header("Cache-Control", "no-store");
    return c.json(readiness, readiness.ok ? 200 : 503);
  });

  if (metricsToken) app.get("/metrics", metricsHandler(metricsToken));

  // the REST API (issue 32): JSON, its own errors (problem+json), never the page cache
  app.all("/api/v1", (c) => entry.handleApi(c.req.raw));
  app.all("/api/v1/*", (c) => entry.handleApi(c.req.raw));

  // Vite's hashed assets never change under the same name: cache them for a year.
  app.use("/assets/*", staticFiles(clientDir, IMMUTABLE, true));
  app.get("/images/:key{[a-z0-9][a-z0-9/_.-]*\\.webp}", async (c) => {
    const { files } = await entry.getServices();
    const key = c.req.param("key");
    if (key.includes("..")) return c.notFound();
    const bytes = await files.get(key);
    if (!bytes) return c.text("Not found", 404);
    c.header("Content-Type", "image/webp");
    c.header("Cache-Control", IMMUTABLE);
    return c.body(bytes as Uint8Array<ArrayBuffer>);
  });
  app.use("*", staticFiles(clientDir, "public, max-age=3600"));

  app.all("*", async (c) => {
    const nonce = c.get("secureHeadersNonce") ?? "";
    const request = asVisitorSentIt(c.req.raw);
    const { response, outcome } = await pages.serve(request, nonce, () => {
      const context = new RouterContextProvider();
      context.set(entry.requestInfoContext, {
        nonce,
        requestId: c.get("requestId"),
        clientIp: clientIp(c.req.header("X-Forwarded-For"), () => getConnInfo(c).remote.address),
      });
      return handleRequest(request, context);
    });
    recordPageCache(outcome);
    if (outcome !== "BYPASS") response.headers.set("X-Cache", outcome);
    return withSharedCacheRules(request, response);
  });

  app.onError((error, c) => {
    logger.error({ err: error, requestId: c.get("requestId") }, "unhandled server error");
    return c.text("Internal Server Error", 500);
  });

  return app;
}

/**
 * The request as the visitor sent it: behind a trusted reverse proxy that ends TLS
 * (TRUST_PROXY=true), with the scheme the proxy names last in X-Forwarded-Proto (nginx's $scheme,
 * Caddy's own) — so the URL React Router compares a form post's Origin with is the
 * https://shop… the browser used, not the proxy's plain http hop (which it refuses with 400).
 */
export function asVisitorSentIt(request: Request): Request {
  if (process.env.TRUST_PROXY !== "true") return request;
  const proto = request.headers.get("X-Forwarded-Proto")?.split(",").at(-1)?.trim().toLowerCase();
  if (proto !== "https" && proto !== "http") return request;
  const url = new URL(request.url);
  if (url.protocol === `${proto}:`) return request;
  url.protocol = `${proto}:`;
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
    // a streamed body goes along as it is
    ...(request.body ? { duplex: "half" } : {}),
  } as RequestInit);
}

/**
 * The visitor's address for rate limits: the socket's peer, or, behind a trusted reverse proxy
 * (TRUST_PROXY=true), the client the proxy names last in X-Forwarded-For.
 */
function clientIp(forwardedFor: string | undefined, socketAddress: () => string | undefined): string {
  if (process.env.TRUST_PROXY === "true" && forwardedFor) {
    const hops = forwardedFor
      .split(",")
      .map((hop) => hop.trim())
      .filter(Boolean);
    const last = hops.at(-1);
    if (last) return last.slice(0, 64);
  }
  try {
    return socketAddress() ?? "unknown";
  } catch {
    return "unknown";
  }
}
