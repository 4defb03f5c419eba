/**
 * Order pricing (spec §9), in integer cents with one rounding point (tax). The fees, threshold,
 * tax and delivery days are the shop's settings (admin → Settings); the spec's constants are the
 * defaults. Table-tested.
 */

import { type Currency, DEFAULT_CURRENCY } from "./money.ts";

export type ShippingMethod = "standard" | "express";
export const SHIPPING_METHOD_IDS: readonly ShippingMethod[] = ["standard", "express"];

/** Business days from order to delivery, inclusive bounds. */
export interface DayRange {
  min: number;
  max: number;
}

/** What prices an order: the part of the shop's settings the totals and delivery dates follow. */
export interface Pricing {
  /** the shop's currency: every amount is in it */
  currency: Currency;
  /** 700 = 7 % */
  taxRateBasisPoints: number;
  taxLabel: string;
  standardShippingCents: number;
  /** standard shipping is free from this subtotal on */
  freeShippingThresholdCents: number;
  expressShippingCents: number;
  standardDays: DayRange;
  expressDays: DayRange;
}

export const DEFAULT_PRICING: Pricing = {
  currency: DEFAULT_CURRENCY,
  taxRateBasisPoints: 700,
  taxLabel: "Including VAT",
  standardShippingCents: 499,
  freeShippingThresholdCents: 5000,
  expressShippingCents: 999,
  standardDays: { min: 4, max: 6 },
  expressDays: { min: 1, max: 3 },
};

export interface ShippingMethodInfo {
  label: string;
  /** "4-6 business days" */
  days: string;
  /** days added to the order date for its estimated delivery: the range's middle (5 and 2 by default) */
  deliveryDays: number;
}

export const SHIPPING_METHOD_LABELS: Record<ShippingMethod, string> = {
  standard: "Standard Shipping",
  express: "Express Shipping",
};

/** "4-6 business days", "2 business days", "1 business day". */
export function formatDayRange({ min, max }: DayRange): string {
  if (min === max) return `${min} business ${min === 1 ? "day" : "days"}`;
  return `${min}-${max} business days`;
}

export function shippingMethod(pricing: Pricing, method: ShippingMethod): ShippingMethodInfo {
  const range = method === "express" ? pricing.expressDays : pricing.standardDays;
  return {
    label: SHIPPING_METHOD_LABELS[method],
    days: formatDayRange(range),
    deliveryDays: Math.round((range.min + range.max) / 2),
  };
}

/** A rate in basis points as the shop writes it: 700 → "7%", 825 → "8.25%". */
export function formatTaxRate(basisPoints: number): string {
  const whole = Math.floor(basisPoints / 100);
  const fraction = basisPoints % 100;
  if (fraction === 0) return `${whole}%`;
  return `${whole}.${String(fraction).padStart(2, "0").replace(/0$/, "")}%`;
}

export interface Totals {
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
}

/** Standard shipping is free from the threshold (and for an empty cart), else its fee; express is flat. */
export function shippingCents(
  pricing: Pricing,
  subtotalCents: number,
  method: ShippingMethod = "standard",
): number {
  if (method === "express") return pricing.expressShippingCents;
  return subtotalCents >= pricing.freeShippingThresholdCents || subtotalCents === 0
    ? 0
    : pricing.standardShippingCents;
}

/** The tax rate of the (discounted) subtotal, rounded half up to the cent. */
export function taxCents(pricing: Pricing, taxableCents: number): number {
  return Math.round((Math.max(0, taxableCents) * pricing.taxRateBasisPoints) / 10_000);
}

/**
 * Subtotal − discount (never below 0) + tax on what remains + shipping. The free-shipping
 * threshold looks at the subtotal before discount.
 */
export function calculateTotals(
  pricing: Pricing,
  subtotalCents: number,
  { method = "standard", discountCents = 0 }: { method?: ShippingMethod; discountCents?: number } = {},
): Totals {
  const discount = Math.min(Math.max(0, discountCents), subtotalCents);
  const taxable = subtotalCents - discount;
  const shipping = shippingCents(pricing, subtotalCents, method);
  const tax = taxCents(pricing, taxable);
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
