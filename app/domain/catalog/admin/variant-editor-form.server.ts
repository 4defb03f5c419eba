import { z } from "zod";
import { toCents } from "../../../lib/money.ts";
import { PRICE_TEXT, PRODUCT_LIMITS, STOCK_TEXT } from "../../../lib/product-limits.ts";
import { BARCODE_TEXT, SKU_TEXT, VARIANT_LIMITS } from "../../../lib/variant-input.ts";
import { MAX_OPTIONS } from "../../../lib/variants.ts";
import { gramsFromKg } from "../../../lib/weight.ts";
import type { GridRow } from "./variant-editor.server.ts";

/**
 * The options editor's three forms (edit page, intents `options`, `variants`, `bulk-variants`):
 * what the browser posts, read into the typed input of variant-editor.server.ts. Each refusal is
 * worded for the field it stands beside (Conform names: `options[0].values`, `variants[2].sku`).
 */
export const VARIANT_EDITOR_MESSAGES = {
  optionsSaved: "Options saved",
  variantsSaved: "Variants saved",
  noChange: "No changes to save.",
  bulkSaved: "Selected variants updated",
  optionsInvalid: "Please correct the options.",
  variantsInvalid: "Please correct the variants marked below.",
  bulkInvalid: "Please choose variants and a price, stock or weight to set.",
  confirmRemoval: "Saving these options removes variants. Please confirm.",
  stale: "The variants changed since this page was loaded. Please check them and save again.",
  optionName: `Enter the option's name (up to ${VARIANT_LIMITS.optionName} characters), or clear its values.`,
  optionValues: `Enter the option's values, separated by commas (up to ${VARIANT_LIMITS.valuesPerOption}, each up to ${VARIANT_LIMITS.optionValue} characters).`,
  optionNameTwice: "Each option needs a name of its own.",
  tooManyVariants: `These options make more than ${VARIANT_LIMITS.variants} variants (every combination is one). Use fewer values.`,
  sku: "Enter a SKU: letters, digits and . _ - / (no spaces), up to 64 characters.",
  skuTwice: "This SKU is given to another variant of this product too.",
  price: "Enter an amount of 0 or more, in steps of 0.01",
  originalPrice: "Enter an amount of 0 or more, in steps of 0.01, or leave it empty",
  stock: `Enter a whole number from 0 to ${PRODUCT_LIMITS.stock}.`,
  barcode: "Enter a barcode of letters, digits and dashes (up to 64), or leave it empty.",
  weight: "Enter a weight in kg, like 0.25.",
  selectSome: "Select at least one variant (the Select boxes in the grid).",
  bulkValue: "Enter a price, a stock level or a weight (or more than one).",
} as const;

const M = VARIANT_EDITOR_MESSAGES;
const emptyToUndefined = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;
const id = z
  .string()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number);
const money = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(PRICE_TEXT, message)
    .transform((text) => toCents(text))
    .refine((cents) => cents <= PRODUCT_LIMITS.priceCents, message);
/** A weight in kg as typed (up to 3 decimals) → grams; empty: 0. */
const weight = z.string({ error: M.weight }).transform((text, ctx) => {
  const grams = text.trim() === "" ? 0 : gramsFromKg(text);
  if (grams === null) {
    ctx.addIssue({ code: "custom", message: M.weight });
    return z.NEVER;
  }
  return grams;
});
const stockLevel = z
  .string({ error: M.stock })
  .trim()
  .regex(STOCK_TEXT, M.stock)
  .transform(Number)
  .refine((n) => n <= PRODUCT_LIMITS.stock, M.stock);

/** Comma-separated values as typed: trimmed, empty ones dropped. */
export function splitValues(text: string): string[] {
  return text
    .split(",")
    .map((value) => value.trim().replace(/\s+/g, " "))
    .filter((value) => value !== "");
}

/** Up to three rows of name + "values, separated by commas"; a row left empty is no option. */
export const optionsFormSchema = z
  .object({
    intent: z.literal("options"),
    options: z
      .array(
        z.object({
          name: z.preprocess(emptyToUndefined, z.string().trim().optional()),
          values: z.preprocess(emptyToUndefined, z.string().optional()),
        }),
      )
      .max(MAX_OPTIONS)
      .default([]),
    /** the removals the admin confirmed (ids, comma-separated): see saveProductOptions */
    removing: z.preprocess(emptyToUndefined, z.string().max(2000).optional()),
  })
  .transform((form, ctx) => {
    const options: { name: string; values: string[] }[] = [];
    const names = new Set<string>();
    let last = 0;
    form.options.forEach((row, i) => {
      if (row.name === undefined && row.values === undefined) return;
      last = i;
      const values = splitValues(row.values ?? "");
      const name = (row.name ?? "").replace(/\s+/g, " ");
      if (name === "" || name.length > VARIANT_LIMITS.optionName) {
        ctx.addIssue({ code: "custom", path: ["options", i, "name"], message: M.optionName });
      } else if (names.has(name.toLowerCase())) {
        ctx.addIssue({ code: "custom", path: ["options", i, "name"], message: M.optionNameTwice });
      }
      names.add(name.toLowerCase());
      const seen = new Set<string>();
      const twice = values.find((v) => seen.size === seen.add(v.toLowerCase()).size);
      if (
        values.length === 0 ||
        values.length > VARIANT_LIMITS.valuesPerOption ||
        values.some((v) => v.length > VARIANT_LIMITS.optionValue)
      ) {
        ctx.addIssue({ code: "custom", path: ["options", i, "values"], message: M.optionValues });
      } else if (twice !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["options", i, "values"],
          message: `"${twice}" is there twice: give each value once.`,
        });
      }
      options.push({ name, values });
    });
    const count = options.reduce((n, option) => n * Math.max(option.values.length, 1), 1);
    if (count > VARIANT_LIMITS.variants) {
      ctx.addIssue({ code: "custom", path: ["options", last, "values"], message: M.tooManyVariants });
    }
    const removing = (form.removing ?? "")
      .split(",")
      .filter((part) => /^[1-9]\d{0,9}$/.test(part))
      .map(Number);
    return { intent: form.intent, options, removing };
  });

const row = z
  .object({
    id,
    /** the stock the page showed: the change typed is applied to the stock as it is now */
    shownStock: z.string().regex(STOCK_TEXT).transform(Number),
    sku: z.string({ error: M.sku }).trim().regex(SKU_TEXT, M.sku),
    price: money(M.price),
    originalPrice: z.preprocess(emptyToUndefined, money(M.originalPrice).optional()),
    stock: stockLevel,
    barcode: z.preprocess(emptyToUndefined, z.string().trim().regex(BARCODE_TEXT, M.barcode).optional()),
    /** kg; empty: 0; left out (a page from before weights): kept */
    weight: weight.optional(),
    image: z.preprocess(emptyToUndefined, id.optional()),
  })
  .transform(
    (r): GridRow => ({
      id: r.id,
      shownStock: r.shownStock,
      sku: r.sku,
      priceCents: r.price,
      originalPriceCents: r.originalPrice ?? null,
      stock: r.stock,
      barcode: r.barcode ?? null,
      imageId: r.image ?? null,
      weightGrams: r.weight ?? null,
    }),
  );

/** The whole grid: every live variant's row (the variants in the order the page listed them). */
export const variantGridFormSchema = z
  .object({
    intent: z.literal("variants"),
    variants: z.array(row).min(1).max(VARIANT_LIMITS.variants),
  })
  .superRefine(({ variants }, ctx) => {
    const skus = new Set<string>();
    variants.forEach((variant, i) => {
      const key = variant.sku.toLowerCase();
      if (skus.has(key)) {
        ctx.addIssue({ code: "custom", path: ["variants", i, "sku"], message: M.skuTwice });
      }
      skus.add(key);
    });
  });

/** "Apply to selected": the variants ticked in the grid, a price, a stock level and/or a weight for all of them. */
export const bulkVariantsFormSchema = z
  .object({
    intent: z.literal("bulk-variants"),
    selected: z.preprocess(
      (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
      z.array(id).max(VARIANT_LIMITS.variants),
    ),
    price: z.preprocess(emptyToUndefined, money(M.price).optional()),
    stock: z.preprocess(emptyToUndefined, stockLevel.optional()),
    weight: z.preprocess(emptyToUndefined, weight.optional()),
  })
  .superRefine((form, ctx) => {
    if (form.selected.length === 0) {
      ctx.addIssue({ code: "custom", path: ["selected"], message: M.selectSome });
    }
    if (form.price === undefined && form.stock === undefined && form.weight === undefined) {
      ctx.addIssue({ code: "custom", path: ["price"], message: M.bulkValue });
    }
  });

export const VARIANT_EDITOR_FORMS = {
  options: optionsFormSchema,
  variants: variantGridFormSchema,
  "bulk-variants": bulkVariantsFormSchema,
} as const;

export type VariantEditorIntent = keyof typeof VARIANT_EDITOR_FORMS;
export type VariantEditorForm =
  | z.output<typeof optionsFormSchema>
  | z.output<typeof variantGridFormSchema>
  | z.output<typeof bulkVariantsFormSchema>;

/** The form's own message when its fields are refused. */
export const INVALID_MESSAGE: Record<VariantEditorIntent, string> = {
  options: M.optionsInvalid,
  variants: M.variantsInvalid,
  "bulk-variants": M.bulkInvalid,
};
