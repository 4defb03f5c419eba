import { createHash, timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { metricsExposition } from "../app/infra/metrics.server.ts";

/**
 * GET /metrics in the Prometheus text format (decision 027). With a token, a request must carry
 * `Authorization: Bearer <token>` (compared in constant time, as SHA-256 digests of equal length),
 * else 401; without one the handler is only mounted on the metrics port's own listener (127.0.0.1
 * by default), never on the shop's.
 */
export function metricsHandler(token: string | undefined) {
  const expected = token ? createHash("sha256").update(token).digest() : null;
  return async (c: Context) => {
    c.header("Cache-Control", "no-store");
    if (expected) {
      const given = /^Bearer +(\S+)$/i.exec(c.req.header("Authorization") ?? "")?.[1] ?? "";
      if (!timingSafeEqual(createHash("sha256").update(given).digest(), expected)) {
        c.header("WWW-Authenticate", 'Bearer realm="metrics"');
        return c.text("Unauthorized", 401);
      }
    }
    const exposition = await metricsExposition();
    if (!exposition) return c.text("Not found", 404);
    c.header("Content-Type", exposition.contentType);
    return c.body(exposition.text);
  };
}
