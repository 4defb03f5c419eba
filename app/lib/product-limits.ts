/**
 * A product's limits and the shapes of typed amounts, shared by the admin form, the CSV import and
 * the seed (lib/product-input.ts, the schema, builds on them). Without zod: the admin pages'
 * browser code reads these, and building an object schema there would run zod's eval probe,
 * which the shop's CSP refuses.
 */
export const PRODUCT_LIMITS = {
  name: 200,
  description: 5000,
  brand: 100,
  specifications: 30,
  specName: 100,
  specValue: 500,
  /** $1,000,000.00 */
  priceCents: 100_000_000,
  stock: 1_000_000,
} as const;

/** An amount as typed (form, CSV): up to 7 digits and 2 decimals. */
export const PRICE_TEXT = /^\d{1,7}(\.\d{1,2})?$/;
/** A stock level as typed: a whole number of up to 7 digits. */
export const STOCK_TEXT = /^\d{1,7}$/;
