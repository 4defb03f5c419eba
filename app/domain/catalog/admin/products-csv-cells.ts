import { TAX_CLASSES, type TaxClass } from "../../../lib/markets.ts";
import { toCents } from "../../../lib/money.ts";
import { PRICE_TEXT, PRODUCT_LIMITS, STOCK_TEXT } from "../../../lib/product-input.ts";
import { gramsFromKg, MAX_WEIGHT_GRAMS } from "../../../lib/weight.ts";

/**
 * Reading and writing the products CSV's amounts, counts, weights and tax classes (the product's
 * and its variants').
 */

/** "129.99" → 12999; empty → null (a problem when required). */
export function readMoney(text: string, field: string, problems: string[], required: boolean): number | null {
  if (text === "") {
    if (required) problems.push(`${field} is required`);
    return null;
  }
  const cents = PRICE_TEXT.test(text) ? toCents(text) : Number.NaN;
  if (!(cents <= PRODUCT_LIMITS.priceCents)) {
    problems.push(`${field} must be an amount from 0 to 1000000 with at most 2 decimals (got "${text}")`);
    return null;
  }
  return cents;
}

/** "12" → 12; a problem when empty or not a whole number in range. */
export function readStock(text: string, field: string, problems: string[]): number {
  if (text === "") {
    problems.push(`${field} is required`);
    return Number.NaN;
  }
  const stock = STOCK_TEXT.test(text) ? Number(text) : Number.NaN;
  if (!(stock <= PRODUCT_LIMITS.stock)) {
    problems.push(`${field} must be a whole number from 0 to ${PRODUCT_LIMITS.stock} (got "${text}")`);
    return Number.NaN;
  }
  return stock;
}

export const dollars = (cents: number) => (cents / 100).toFixed(2);

/**
 * "0.25" (kg) → 250 g; empty → null (the column is optional: an existing variant keeps its weight,
 * a new one weighs 0); a problem when not a weight in kg with at most 3 decimals.
 */
export function readWeight(text: string, field: string, problems: string[]): number | null {
  if (text === "") return null;
  const grams = gramsFromKg(text);
  if (grams === null) {
    problems.push(
      `${field} must be a weight in kg from 0 to ${MAX_WEIGHT_GRAMS / 1000} with at most 3 decimals, like 0.25 (got "${text}")`,
    );
  }
  return grams;
}

/**
 * "reduced" (any letter case) → "reduced"; empty → null (the column is optional: an existing product
 * keeps its class, a new one is standard); a problem when not one of the classes.
 */
export function readTaxClass(text: string, field: string, problems: string[]): TaxClass | null {
  if (text === "") return null;
  const taxClass = TAX_CLASSES.find((c) => c === text.toLowerCase());
  if (!taxClass) problems.push(`${field} must be one of ${TAX_CLASSES.join(", ")} (got "${text}")`);
  return taxClass ?? null;
}
