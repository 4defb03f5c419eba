import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import {
  claimIdempotencyKey,
  recordAnswer,
  releaseClaim,
} from "../domain/integrations/api-idempotency.server.ts";
import type { ApiEnv } from "./api-auth.server.ts";
import { problem } from "./problem.ts";

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Set by an operation whose answer holds a secret shown once (a gift card's code): the answer is not
 * kept, so it is never stored in clear; the same key again runs the operation again, and the domain
 * command's own key (derived from the Idempotency-Key) answers it without the secret.
 */
export const SECRET_ANSWER_HEADER = "X-Cartwheel-Secret-Answer";

/**
 * Every POST carries an `Idempotency-Key` (decision 038): the first request with a key is answered
 * and its answer kept; the same key again within 24 hours gets that answer back
 * (`Idempotent-Replayed: true`), with a different request 422, while the first is still running
 * 409. A failure of ours (5xx) keeps nothing, so the same key can be sent again; nor does an answer
 * holding a secret (SECRET_ANSWER_HEADER).
 */
export function idempotency(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    if (c.req.method !== "POST") return next();
    const key = c.req.header("Idempotency-Key");
    if (!key || !KEY.test(key)) {
      return problem(
        400,
        "Send an Idempotency-Key header (1–255 visible characters, e.g. a UUID) with every POST.",
      );
    }
    const body = await c.req.raw.clone().text();
    const requestHash = createHash("sha256").update(`${c.req.method} ${c.req.path}\n${body}`).digest("hex");
    const db = c.get("db");
    const claim = await claimIdempotencyKey(db, { apiKeyId: c.get("caller").id, key, requestHash });
    if (claim.kind === "mismatch") {
      return problem(422, "This Idempotency-Key was used with a different request.");
    }
    if (claim.kind === "in-flight") {
      return problem(
        409,
        "A request with this Idempotency-Key is still being answered; send it again shortly.",
      );
    }
    if (claim.kind === "replay") {
      const type = claim.status >= 400 ? "application/problem+json" : "application/json";
      return new Response(claim.body, {
        status: claim.status,
        headers: { "Content-Type": type, "Idempotent-Replayed": "true", "Cache-Control": "no-store" },
      });
    }
    try {
      await next();
    } catch (error) {
      await releaseClaim(db, claim.id);
      throw error;
    }
    const secret = c.res.headers.has(SECRET_ANSWER_HEADER);
    if (secret) c.res.headers.delete(SECRET_ANSWER_HEADER);
    if (c.res.status >= 500 || secret) await releaseClaim(db, claim.id);
    else await recordAnswer(db, claim.id, c.res.status, await c.res.clone().text());
  };
}
