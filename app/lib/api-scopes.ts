import type { Permission } from "./staff-roles.ts";

/**
 * What an API key may reach (issue 32, decision 038). A secret key's scopes map onto the staff
 * permissions: `<area>:read` and `<area>:write` for each area the Admin API opens, `write` implying
 * `read`; the settings can only be read. A publishable key has no scopes: it reaches the Store API
 * (the catalogue and its own cart) and nothing else.
 */
export const API_AREAS = [
  "products",
  "orders",
  "refunds",
  "returns",
  "discounts",
  "customers",
  "settings",
] as const satisfies readonly Permission[];
export type ApiArea = (typeof API_AREAS)[number];

export type ApiAccess = "read" | "write";
export type ApiScope = `${ApiArea}:${ApiAccess}`;

/** Every scope a key can hold, in the admin form's order. */
export const API_SCOPES: readonly ApiScope[] = API_AREAS.flatMap((area) =>
  area === "settings" ? [`${area}:read` as const] : [`${area}:read` as const, `${area}:write` as const],
);

export const API_AREA_LABELS: Record<ApiArea, string> = {
  products: "Products and stock",
  orders: "Orders and fulfilment",
  refunds: "Refunds and gift cards",
  returns: "Returns",
  discounts: "Promotions and codes",
  customers: "Customers and groups",
  settings: "Settings",
};

export function isApiScope(value: string): value is ApiScope {
  return (API_SCOPES as readonly string[]).includes(value);
}

/** Whether a key holding `scopes` may do `access` in `area` (write implies read). */
export function scopeAllows(scopes: readonly ApiScope[], area: ApiArea, access: ApiAccess): boolean {
  return (
    scopes.includes(`${area}:${access}` as ApiScope) ||
    (access === "read" && scopes.includes(`${area}:write` as ApiScope))
  );
}
