import type { MiddlewareHandler } from "hono";
import type { AppServices } from "../context.ts";
import type { Database } from "../db/database.server.ts";
import type { StaffActor } from "../domain/audit/audit-log.server.ts";
import { type ApiCaller, authenticateApiKey } from "../domain/integrations/api-keys.server.ts";
import { hitRateLimit } from "../infra/rate-limit.server.ts";
import { type ApiAccess, type ApiArea, scopeAllows } from "../lib/api-scopes.ts";
import type { Permission } from "../lib/staff-roles.ts";
import { problem } from "./problem.ts";

export type ApiEnv = { Variables: { caller: ApiCaller; services: AppServices; db: Database } };

/**
 * Requests a key may make in a minute (API_RATE_LIMIT_PER_MINUTE, 600 by default), counted in the
 * database so every process shares them.
 */
export const API_RATE_WINDOW_MS = 60_000;

const REFUSALS = {
  missing: "Send an API key as Authorization: Bearer <key>.",
  unknown: "This API key is not valid.",
  revoked: "This API key has been revoked.",
  expired: "This API key has expired.",
} as const;

/**
 * Who is calling: the key in `Authorization: Bearer …`, checked against the database on every
 * request (a revoked key stops everywhere at once), then its rate limit. 401 without a working key,
 * 429 with `Retry-After` past the limit.
 */
export function authenticate(getServices: () => Promise<AppServices>): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const header = c.req.header("Authorization") ?? "";
    // no header: none sent; a header that is not one bearer token: not a key of ours
    const secret = header ? (/^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? "") : null;
    const services = await getServices();
    const database = services.db;
    const caller = await authenticateApiKey(database, secret);
    if (!caller.ok) {
      const refused = problem(401, REFUSALS[caller.error.code]);
      refused.headers.set("WWW-Authenticate", 'Bearer realm="cartwheel"');
      return refused;
    }
    const limited = await hitRateLimit(database, `api-key:${caller.value.id}`, {
      limit: services.config.API_RATE_LIMIT_PER_MINUTE,
      windowMs: API_RATE_WINDOW_MS,
    });
    if (!limited.allowed) {
      const refused = problem(429, "Too many requests with this API key; try again shortly.");
      refused.headers.set("Retry-After", String(limited.retryAfterSeconds));
      return refused;
    }
    c.set("caller", caller.value);
    c.set("services", services);
    c.set("db", database);
    await next();
  };
}

/**
 * What an Admin API operation declares besides its own: the key it takes, the scope it needs (the
 * document's `x-scope`, which the contract test and the reference page read) and the check of it —
 * spread into its `createRoute`.
 */
export function adminAccess<A extends ApiArea, X extends ApiAccess>(area: A, access: X) {
  return {
    security: [{ apiKey: [] as string[] }],
    "x-scope": `${area}:${access}` as const,
    middleware: requireScope(area, access),
  };
}

/** The Admin API's operations in `area`: a secret key holding the scope (403 without it). */
export function requireScope(area: ApiArea, access: ApiAccess): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const caller = c.get("caller");
    if (caller.kind !== "secret") {
      return problem(403, "A publishable key reaches the Store API only.");
    }
    if (!scopeAllows(caller.scopes, area, access)) {
      return problem(403, `This API key lacks the ${area}:${access} scope.`);
    }
    await next();
  };
}

/**
 * An API key as the actor of a domain command (decision 038): the permissions its write scopes
 * grant decide (`actorCan`), its role is a customer's, and the audit log names it.
 */
export function keyActor(caller: ApiCaller): StaffActor {
  const grants = caller.scopes
    .filter((scope) => scope.endsWith(":write"))
    .map((scope) => scope.split(":")[0]);
  return {
    id: `api-key:${caller.id}`,
    email: `API key ${caller.name}`,
    role: "customer",
    grants: grants as Permission[],
  };
}
