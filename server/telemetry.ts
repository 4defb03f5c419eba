import type { MiddlewareHandler } from "hono";
import { metricsEnabled, recordHttpRequest } from "../app/infra/metrics.server.ts";
import { inSpan, tracing } from "../app/infra/tracing.server.ts";

/** The server's own routes, named as themselves (the rest by React Router's pattern). */
function serverRoute(path: string): string | null {
  if (path === "/healthz" || path === "/readyz" || path === "/metrics") return path;
  if (path.startsWith("/assets/")) return "/assets/*";
  if (path.startsWith("/images/")) return "/images/*";
  return null;
}

const headerGetter = {
  get: (headers: Headers, key: string) => headers.get(key) ?? undefined,
  keys: (headers: Headers) => [...headers.keys()],
};

/**
 * Each request counted and timed by route pattern and status (metrics on), and run inside a server
 * span named `METHOD /pattern` that continues the caller's `traceparent` (tracing on), so the
 * database's and the payment gateway's spans are its children (decision 027). Undefined — not
 * mounted at all — when both are off.
 */
export function requestTelemetry(patternOf: (path: string) => string): MiddlewareHandler | undefined {
  const metrics = metricsEnabled();
  const traced = tracing();
  if (!metrics && !traced) return undefined;
  return async (c, next) => {
    const started = performance.now();
    const route = serverRoute(c.req.path) ?? patternOf(c.req.path);
    const method = c.req.method;
    const answer = async () => {
      await next();
      if (metrics) recordHttpRequest(route, method, c.res.status, (performance.now() - started) / 1000);
    };
    if (!traced) return answer();
    const { api } = traced;
    const parent = api.propagation.extract(api.context.active(), c.req.raw.headers, headerGetter);
    await inSpan(
      `${method} ${route}`,
      {
        kind: api.SpanKind.SERVER,
        parent,
        attributes: { "http.request.method": method, "http.route": route, "url.path": c.req.path },
      },
      async (span) => {
        await answer();
        span?.setAttribute("http.response.status_code", c.res.status);
        if (c.res.status >= 500) span?.setStatus({ code: api.SpanStatusCode.ERROR });
      },
    );
  };
}
