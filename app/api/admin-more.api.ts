import type { OpenAPIHono } from "@hono/zod-openapi";
import { registerAdminCustomers } from "./admin-customers.api.ts";
import { registerAdminGiftCards } from "./admin-gift-cards.api.ts";
import { registerAdminPromotions } from "./admin-promotions.api.ts";
import { registerAdminRefunds } from "./admin-refunds.api.ts";
import { registerAdminReturns } from "./admin-returns.api.ts";
import { registerAdminSettings } from "./admin-settings.api.ts";
import type { ApiEnv } from "./api-auth.server.ts";

/**
 * The rest of the Admin API (issue 32): refunds, returns, customers and groups, promotions and
 * codes, gift cards, settings read — each calling the pages' own domain functions, one file an area.
 */
export function registerAdminMore(api: OpenAPIHono<ApiEnv>): void {
  registerAdminRefunds(api);
  registerAdminReturns(api);
  registerAdminCustomers(api);
  registerAdminPromotions(api);
  registerAdminGiftCards(api);
  registerAdminSettings(api);
}
