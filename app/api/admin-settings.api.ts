import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { SOCIAL_NETWORKS } from "../lib/shop-settings.ts";
import { type ApiEnv, adminAccess } from "./api-auth.server.ts";
import { problemResponses } from "./problem.ts";

/**
 * The Admin API's settings, read only (issue 32, `settings:read`): what an integration needs to
 * agree with the shop — its name and contact details, currency, time zone (the admin's dates),
 * how prices carry tax, the invoices' legal details and the zones it sells to — as the settings
 * service hands them to every page. No secret is among them (keys, passwords and provider
 * credentials live in the environment, never in these settings).
 */

const settingsSchema = z
  .object({
    shopName: z.string(),
    contact: z.object({ email: z.string(), phone: z.string(), address: z.string() }),
    currency: z.string().length(3).openapi({ description: "every amount is in it", example: "USD" }),
    timeZone: z.string().openapi({ description: "IANA: the admin's dates and schedules are on its clocks" }),
    tax: z.object({
      mode: z
        .enum(["exclusive", "inclusive"])
        .openapi({ description: "prices are entered excluding tax, or including it" }),
      rounding: z.enum(["per-order", "per-line"]),
    }),
    legal: z.object({ name: z.string(), address: z.string(), taxId: z.string() }),
    socialLinks: z.object(
      Object.fromEntries(SOCIAL_NETWORKS.map((network) => [network, z.string()])) as Record<
        (typeof SOCIAL_NETWORKS)[number],
        z.ZodString
      >,
    ),
    estimateCountry: z
      .string()
      .openapi({ description: "where the cart estimates shipping and tax until told" }),
    zones: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        countries: z.array(z.string()),
        taxLabel: z.string(),
        shippingMethods: z.array(z.string()),
      }),
    ),
  })
  .openapi("ShopSettings");

const getSettings = createRoute({
  method: "get",
  path: "/admin/settings",
  operationId: "getSettings",
  tags: ["Admin: settings"],
  summary: "The shop's settings an integration needs (name, currency, time zone, tax…; never a secret)",
  ...adminAccess("settings", "read"),
  responses: {
    200: { description: "The settings", content: { "application/json": { schema: settingsSchema } } },
    ...problemResponses(400, 401, 403, 429),
  },
});

export function registerAdminSettings(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(getSettings, async (c) => {
    const shop = await c.get("services").settings.current();
    return c.json(
      {
        shopName: shop.shopName,
        contact: { email: shop.contactEmail, phone: shop.contactPhone, address: shop.contactAddress },
        currency: shop.currency,
        timeZone: shop.timeZone,
        tax: { mode: shop.markets.taxMode, rounding: shop.markets.rounding },
        legal: { name: shop.legalName, address: shop.legalAddress, taxId: shop.taxId },
        socialLinks: shop.socialLinks,
        estimateCountry: shop.markets.estimateCountry,
        zones: shop.markets.zones.map((zone) => ({
          id: zone.id,
          name: zone.name,
          countries: zone.countries,
          taxLabel: zone.taxLabel,
          shippingMethods: zone.methods.map((method) => method.code),
        })),
      },
      200,
    );
  });
}
