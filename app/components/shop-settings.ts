import { useRouteLoaderData } from "react-router";
import { type Currency, formatMoney } from "../lib/money.ts";
import { DEFAULT_STOREFRONT, type Storefront } from "../lib/shop-settings.ts";
import type { loader as rootLoader } from "../root.tsx";

/**
 * The shop's settings on every page (the root loader's; the defaults only in an error page
 * rendered without it): currency, the home market's tax and shipping terms, the countries an
 * address may be in, name and contact details.
 */
export function useShopSettings(): Storefront {
  return useRouteLoaderData<typeof rootLoader>("root")?.shop ?? DEFAULT_STOREFRONT;
}

/**
 * Writes amounts in the shop's currency, or in `currency` (an order's, which keeps the one it was
 * placed in): `const money = useMoney(); money(12999)` → "$129.99".
 */
export function useMoney(currency?: Currency): (cents: number) => string {
  const shopCurrency = useShopSettings().currency;
  const used = currency ?? shopCurrency;
  return (cents) => formatMoney(cents, used);
}
