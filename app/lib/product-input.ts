import { z } from "zod";
import { TAX_CLASSES } from "./markets.ts";
import { discountPercent } from "./money.ts";
import { PRODUCT_LIMITS } from "./product-limits.ts";
import { MAX_WEIGHT_GRAMS } from "./weight.ts";

export { PRICE_TEXT, PRODUCT_LIMITS, STOCK_TEXT } from "./product-limits.ts";

/**
 * A product's own fields, declared once: what the admin form, the CSV import and the seed each
 * produce (from typed text, a CSV row, the demo data) and what the catalogue stores. The form and
 * the CSV word their refusals for their readers (beside a field; `FILE:LINE: message`); this
 * schema is the contract their results meet, and the seed's data is checked against it.
 * In lib/ (pure) so that the seed under db/ can use it without reaching up into the domain.
 */
/** Text with something in it (checked, not changed: the form and the CSV trim what they read). */
const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => value.trim() !== "");
const cents = z.number().int().min(0).max(PRODUCT_LIMITS.priceCents);

export const productInputSchema = z.object({
  name: text(PRODUCT_LIMITS.name),
  description: text(PRODUCT_LIMITS.description),
  brand: text(PRODUCT_LIMITS.brand),
  /** a top-level category's id (which ones exist is the catalogue's question) */
  categoryId: z.string().min(1),
  /** one of that category's subcategories, or none */
  subcategoryId: z.string().min(1).nullable(),
  /** the rate its lines bear in each zone (each zone sets a rate per class) */
  taxClass: z.enum(TAX_CLASSES),
  priceCents: cents,
  /** the price before the discount, if any */
  originalPriceCents: cents.nullable(),
  stock: z.number().int().min(0).max(PRODUCT_LIMITS.stock),
  /**
   * its one variant's weight in grams, as the price and stock are its one variant's; null: not
   * given here (a product sold in variants keeps each variant's own)
   */
  weightGrams: z.number().int().min(0).max(MAX_WEIGHT_GRAMS).nullable(),
  specifications: z
    .record(text(PRODUCT_LIMITS.specName), text(PRODUCT_LIMITS.specValue))
    .refine((specs) => Object.keys(specs).length <= PRODUCT_LIMITS.specifications),
  featured: z.boolean(),
  newArrival: z.boolean(),
  bestSeller: z.boolean(),
  /** a gift card (its variants the amounts; decision 036); left out: unchanged (not a gift card when new) */
  giftCard: z.boolean().optional(),
});

export type ProductInput = z.infer<typeof productInputSchema>;

/** The field names, in the order the admin form and the audit log list them. */
export const PRODUCT_INPUT_FIELDS = Object.keys(productInputSchema.shape) as (keyof ProductInput)[];

/** Only the product's own fields of a larger record (an audit snapshot of a stored product). */
export function productInputOf(product: ProductInput): ProductInput {
  return Object.fromEntries(PRODUCT_INPUT_FIELDS.map((field) => [field, product[field]])) as ProductInput;
}

/**
 * The products table's columns for a product's fields: the discount derived, JSON, flags 0/1. Not
 * the stock (a product's stock is its variants' sum, written by the inventory area) nor the weight
 * (a variant's).
 */
export function productColumns(input: ProductInput) {
  return {
    name: input.name,
    description: input.description,
    brand: input.brand,
    categoryId: input.categoryId,
    subcategoryId: input.subcategoryId,
    taxClass: input.taxClass,
    priceCents: input.priceCents,
    originalPriceCents: input.originalPriceCents,
    discountPercentage: discountPercent(input.priceCents, input.originalPriceCents),
    specifications: JSON.stringify(input.specifications),
    featured: input.featured ? 1 : 0,
    newArrival: input.newArrival ? 1 : 0,
    bestSeller: input.bestSeller ? 1 : 0,
    ...(input.giftCard === undefined ? {} : { giftCard: (input.giftCard ? 1 : 0) as 0 | 1 }),
  } as const;
}
