import { toCents } from "../../../lib/money.ts";
import { PRICE_TEXT, PRODUCT_LIMITS, STOCK_TEXT } from "../../../lib/product-input.ts";

/** Reading and writing the products CSV's amounts and counts (the product's and its variants'). */

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
