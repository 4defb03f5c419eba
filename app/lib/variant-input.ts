import { z } from "zod";
import { PRODUCT_LIMITS } from "./product-limits.ts";
import { MAX_OPTIONS } from "./variants.ts";
import { MAX_WEIGHT_GRAMS } from "./weight.ts";

/**
 * A product's options and variants, declared once (decision 019): what the admin's options
 * editor, the CSV import and the seed each produce, and what `writeProductVariants`
 * (db/variant-write.server.ts) stores. Like product-input.ts, the readers word their refusals for
 * their own readers; this schema is the contract their results meet.
 */
export const VARIANT_LIMITS = {
  options: MAX_OPTIONS,
  optionName: 40,
  optionValue: 40,
  valuesPerOption: 50,
  variants: 100,
  sku: 64,
  barcode: 64,
} as const;

/** A SKU: letters, digits and . _ - / (no spaces), starting with a letter or digit. */
export const SKU_TEXT = /^[A-Za-z0-9][A-Za-z0-9._\-/]{0,63}$/;
/** A barcode (EAN/UPC/GTIN or a shop's own): digits and letters, no spaces. */
export const BARCODE_TEXT = /^[A-Za-z0-9-]{1,64}$/;

const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => value.trim() !== "" && value.trim() === value);
const cents = z.number().int().min(0).max(PRODUCT_LIMITS.priceCents);
const fold = (value: string) => value.toLowerCase();

export const optionInputSchema = z.object({
  name: text(VARIANT_LIMITS.optionName),
  values: z
    .array(text(VARIANT_LIMITS.optionValue))
    .min(1)
    .max(VARIANT_LIMITS.valuesPerOption)
    .refine((values) => new Set(values.map(fold)).size === values.length, "values must differ"),
});

export const variantInputSchema = z.object({
  /** null: the writer gives it one (`CW-<product id>-<n>`) */
  sku: z.string().regex(SKU_TEXT).nullable(),
  /** one value per option, in the options' order */
  values: z.array(z.string()).max(MAX_OPTIONS),
  priceCents: cents,
  originalPriceCents: cents.nullable(),
  stock: z.number().int().min(0).max(PRODUCT_LIMITS.stock),
  barcode: z.string().regex(BARCODE_TEXT).nullable(),
  /** what weight-based shipping adds up, in grams */
  weightGrams: z.number().int().min(0).max(MAX_WEIGHT_GRAMS),
});

/**
 * The whole set: 0–3 options with distinct names, and the variants sold — one per combination
 * that exists (never two for one combination), each value one of its option's; without options,
 * exactly one variant (the default) with no values. SKUs differ within the product (the shop-wide
 * uniqueness is the database's to check).
 */
export const productVariantsInputSchema = z
  .object({
    options: z.array(optionInputSchema).max(MAX_OPTIONS),
    variants: z.array(variantInputSchema).min(1).max(VARIANT_LIMITS.variants),
  })
  .superRefine(({ options, variants }, ctx) => {
    if (new Set(options.map((o) => fold(o.name))).size !== options.length) {
      ctx.addIssue({ code: "custom", path: ["options"], message: "option names must differ" });
    }
    if (options.length === 0 && variants.length !== 1) {
      ctx.addIssue({
        code: "custom",
        path: ["variants"],
        message: "a product without options has one variant",
      });
    }
    const combinations = new Set<string>();
    const skus = new Set<string>();
    variants.forEach((variant, i) => {
      if (variant.values.length !== options.length) {
        ctx.addIssue({ code: "custom", path: ["variants", i, "values"], message: "one value per option" });
        return;
      }
      variant.values.forEach((value, slot) => {
        if (!options[slot]?.values.includes(value)) {
          ctx.addIssue({
            code: "custom",
            path: ["variants", i, "values", slot],
            message: `"${value}" is not a value of ${options[slot]?.name}`,
          });
        }
      });
      const combination = JSON.stringify(variant.values.map(fold));
      if (combinations.has(combination)) {
        ctx.addIssue({
          code: "custom",
          path: ["variants", i, "values"],
          message: "that combination is there twice",
        });
      }
      combinations.add(combination);
      if (variant.sku !== null) {
        if (skus.has(fold(variant.sku))) {
          ctx.addIssue({ code: "custom", path: ["variants", i, "sku"], message: "that SKU is there twice" });
        }
        skus.add(fold(variant.sku));
      }
    });
  });

export type OptionInput = z.infer<typeof optionInputSchema>;
export type VariantInput = z.infer<typeof variantInputSchema>;
export type ProductVariantsInput = z.infer<typeof productVariantsInputSchema>;

/** Every combination of the options' values, in order (the variant grid the editor generates). */
export function combinations(options: readonly Pick<OptionInput, "values">[]): string[][] {
  return options.reduce<string[][]>(
    (rows, option) => rows.flatMap((row) => option.values.map((value) => [...row, value])),
    [[]],
  );
}
