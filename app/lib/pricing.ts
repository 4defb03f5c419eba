/** Order pricing (spec §9), in integer cents with one rounding point (tax). Table-tested. */

export const FREE_SHIPPING_THRESHOLD_CENTS = 5000;
export const STANDARD_SHIPPING_CENTS = 499;
export const EXPRESS_SHIPPING_CENTS = 999;
export const TAX_RATE_PERCENT = 7;
export const TAX_LABEL = "Including VAT";

export type ShippingMethod = "standard" | "express";

export const SHIPPING_METHODS: Record<ShippingMethod, { label: string; days: string; deliveryDays: number }> =
  {
    standard: { label: "Standard Shipping", days: "4-6 business days", deliveryDays: 5 },
    express: { label: "Express Shipping", days: "1-3 business days", deliveryDays: 2 },
  };

export interface Totals {
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
}

/** Standard shipping is free from a $50 subtotal, else $4.99; express is $9.99 flat. */
export function shippingCents(subtotalCents: number, method: ShippingMethod = "standard"): number {
  if (method === "express") return EXPRESS_SHIPPING_CENTS;
  return subtotalCents >= FREE_SHIPPING_THRESHOLD_CENTS || subtotalCents === 0 ? 0 : STANDARD_SHIPPING_CENTS;
}

/** 7 % of the (discounted) subtotal, rounded half up to the cent. */
export function taxCents(taxableCents: number): number {
  return Math.round((Math.max(0, taxableCents) * TAX_RATE_PERCENT) / 100);
}

/**
 * Subtotal − discount (never below 0) + tax on what remains + shipping. The free-shipping
 * threshold looks at the subtotal before discount.
 */
export function calculateTotals(
  subtotalCents: number,
  { method = "standard", discountCents = 0 }: { method?: ShippingMethod; discountCents?: number } = {},
): Totals {
  const discount = Math.min(Math.max(0, discountCents), subtotalCents);
  const taxable = subtotalCents - discount;
  const shipping = shippingCents(subtotalCents, method);
  const tax = taxCents(taxable);
  return {
    subtotalCents,
    discountCents: discount,
    shippingCents: shipping,
    taxCents: tax,
    totalCents: taxable + shipping + tax,
  };
}

export function lineTotalCents(unitPriceCents: number, quantity: number): number {
  return unitPriceCents * quantity;
}
