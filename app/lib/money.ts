/** Money is integer cents everywhere; these are the only conversions. */
import { groupThousands } from "../infra/format.ts";

/** "129.99" or 129.99 → 12999. Throws on anything that is not a non-negative amount. */
export function toCents(amount: string | number): number {
  const text = typeof amount === "number" ? amount.toFixed(2) : amount.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(text)) throw new RangeError(`Not a money amount: ${amount}`);
  const [whole, fraction = ""] = text.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

/** 12999 → "$129.99", -500 → "-$5.00" (prices shown in dollars with 2 decimals; no `Intl`, see format.ts). */
export function formatCents(cents: number): string {
  const whole = Math.round(Math.abs(cents));
  const sign = cents < 0 && whole > 0 ? "-" : "";
  return `${sign}$${groupThousands(Math.floor(whole / 100))}.${String(whole % 100).padStart(2, "0")}`;
}

/** Whole percent saved from original to current price, or null when there is no saving. */
export function discountPercent(priceCents: number, originalPriceCents: number | null): number | null {
  if (originalPriceCents === null || originalPriceCents <= priceCents || originalPriceCents === 0) {
    return null;
  }
  return Math.round(((originalPriceCents - priceCents) / originalPriceCents) * 100);
}
