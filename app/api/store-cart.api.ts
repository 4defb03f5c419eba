import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "./api-auth.server.ts";

/** The Store API's cart and checkout (issue 32): the cart's own functions and Place Order. */
export function registerStoreCart(_api: OpenAPIHono<ApiEnv>): void {}
