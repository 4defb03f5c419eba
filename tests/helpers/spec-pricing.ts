/**
 * The spec's order totals (§9), written from the spec and not from the shop's calculator, as the
 * oracle the tests check the shop against: a shop that changes nothing prices exactly so.
 * Tax is 7 % of the subtotal less its discount, rounded half up to the cent; standard shipping is
 * $4.99, free from a $50.00 subtotal (before the discount) and for an empty cart; express is $9.99.
 */
import type { OrderShop } from "../../app/domain/orders/place-order.server.ts";
import { DEFAULT_MARKETS } from "../../app/lib/markets.ts";
import { DEFAULT_CURRENCY } from "../../app/lib/money.ts";
import { DEFAULT_SHOP_SETTINGS } from "../../app/lib/shop-settings.ts";

/** The shop as the seed and the migrations leave it: the default zone, dollars, the default seller. */
export const SPEC_SHOP: OrderShop = {
  ...DEFAULT_SHOP_SETTINGS,
  currency: DEFAULT_CURRENCY,
  markets: DEFAULT_MARKETS,
};

export type SpecMethod = "standard" | "express";

export interface SpecTotals {
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
}

export function specTotals(
  subtotalCents: number,
  { method = "standard", discountCents = 0 }: { method?: SpecMethod; discountCents?: number } = {},
): SpecTotals {
  const discount = Math.min(Math.max(0, discountCents), subtotalCents);
  const taxable = subtotalCents - discount;
  const shippingCents = method === "express" ? 999 : subtotalCents >= 5000 || subtotalCents === 0 ? 0 : 499;
  const taxCents = Math.round((taxable * 7) / 100);
  return {
    subtotalCents,
    discountCents: discount,
    shippingCents,
    taxCents,
    totalCents: taxable + shippingCents + taxCents,
  };
}
