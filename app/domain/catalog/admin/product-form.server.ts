import { z } from "zod";
import { CATEGORY_TREE } from "../../../lib/catalog-constants.ts";
import { TAX_CLASSES, type TaxClass } from "../../../lib/markets.ts";
import { toCents } from "../../../lib/money.ts";
import { type ProductInput, productInputSchema } from "../../../lib/product-input.ts";
import { PRICE_TEXT, PRODUCT_LIMITS, STOCK_TEXT } from "../../../lib/product-limits.ts";
import { fail, ok } from "../../../lib/result.ts";
import { gramsFromKg } from "../../../lib/weight.ts";
import {
  DEFAULT_TAX_CLASS,
  MAX_SPECIFICATIONS,
  PRODUCT_FORM_MESSAGES,
  type ProductField,
  type ProductFormResult,
  type ProductFormValues,
  REQUIRED_PRODUCT_FIELDS,
  readProductFormValues,
} from "./product-form.ts";

/**
 * The product form's checks and its zod schema (parsed by the routes through Conform). Server
 * only: building an object schema runs zod's eval probe, which the shop's CSP refuses in the
 * browser.
 */

const MAX_PRICE_CENTS = PRODUCT_LIMITS.priceCents;
const MAX_STOCK = PRODUCT_LIMITS.stock;
const LIMITS = PRODUCT_LIMITS;

function cents(value: string): number | null {
  if (!PRICE_TEXT.test(value)) return null;
  const amount = toCents(value);
  return amount <= MAX_PRICE_CENTS ? amount : null;
}

/** Checks the typed product fields (images are checked separately), with a message per field. */
export function checkProductValues(
  values: ProductFormValues,
  { withStock }: { withStock: boolean },
): ProductFormResult {
  if (!withStock) values.stock = "0";
  const missing = REQUIRED_PRODUCT_FIELDS.filter((field) => values[field] === "");
  const fieldErrors: Partial<Record<ProductField, string>> = {};
  for (const field of missing) fieldErrors[field] = "Required";
  if (missing.length > 0) {
    return fail({
      code: "missing",
      message: PRODUCT_FORM_MESSAGES.requiredPrefix + missing.join(", "),
      fieldErrors,
    });
  }
  if (values.name.length > LIMITS.name) fieldErrors.name = `At most ${LIMITS.name} characters`;
  if (values.description.length > LIMITS.description)
    fieldErrors.description = `At most ${LIMITS.description} characters`;
  if (values.brand.length > LIMITS.brand) fieldErrors.brand = `At most ${LIMITS.brand} characters`;
  const priceCents = cents(values.price);
  if (priceCents === null) fieldErrors.price = "Enter an amount of 0 or more, in steps of 0.01";
  let originalPriceCents: number | null = null;
  if (values.originalPrice !== "") {
    originalPriceCents = cents(values.originalPrice);
    if (originalPriceCents === null)
      fieldErrors.originalPrice = "Enter an amount of 0 or more, in steps of 0.01";
  }
  const stock = STOCK_TEXT.test(values.stock) ? Number(values.stock) : Number.NaN;
  if (!(stock >= 0 && stock <= MAX_STOCK)) fieldErrors.stock = "Enter a whole number of 0 or more";
  const category = CATEGORY_TREE.find((c) => c.id === values.category);
  if (!category) fieldErrors.category = "Choose one of the categories";
  let subcategoryId: string | null = null;
  if (values.subcategory !== "") {
    if (category?.subcategories.some((s) => s.id === values.subcategory)) subcategoryId = values.subcategory;
    else if (category) fieldErrors.subcategory = `Choose a subcategory of ${category.name}, or none`;
  }
  const taxClass = values.taxClass === "" ? DEFAULT_TAX_CLASS : values.taxClass;
  if (!(TAX_CLASSES as readonly string[]).includes(taxClass))
    fieldErrors.taxClass = PRODUCT_FORM_MESSAGES.taxClass;
  // no weight field (a product sold in variants): each variant keeps its own
  let weightGrams: number | null = null;
  if (values.weight !== null) {
    weightGrams = values.weight === "" ? 0 : gramsFromKg(values.weight);
    if (weightGrams === null) fieldErrors.weight = PRODUCT_FORM_MESSAGES.weight;
  }
  const specifications: Record<string, string> = {};
  if (values.specifications.length > MAX_SPECIFICATIONS) {
    fieldErrors.specifications = `At most ${MAX_SPECIFICATIONS} specifications`;
  }
  for (const row of values.specifications.slice(0, MAX_SPECIFICATIONS)) {
    if (!row.name || !row.value) {
      fieldErrors.specifications = "Every specification needs a name and a value";
    } else if (row.name.length > LIMITS.specName || row.value.length > LIMITS.specValue) {
      fieldErrors.specifications = `Names at most ${LIMITS.specName} and values at most ${LIMITS.specValue} characters`;
    } else if (row.name in specifications) {
      fieldErrors.specifications = `"${row.name}" is listed twice`;
    } else {
      specifications[row.name] = row.value;
    }
  }
  if (Object.keys(fieldErrors).length > 0) {
    return fail({ code: "invalid", message: PRODUCT_FORM_MESSAGES.invalid, fieldErrors });
  }
  // the product meets the one product contract (the CSV import and the seed meet it too)
  const value = productInputSchema.parse({
    name: values.name,
    description: values.description,
    brand: values.brand,
    categoryId: values.category,
    subcategoryId,
    taxClass: taxClass as TaxClass,
    priceCents: priceCents as number,
    originalPriceCents,
    stock,
    weightGrams,
    specifications,
    featured: values.featured,
    newArrival: values.newArrival,
    bestSeller: values.bestSeller,
    giftCard: values.giftCard,
  } satisfies ProductInput);
  return ok(value);
}

/**
 * The add form (withStock) or the edit form's details (stock changes apart), for Conform: the
 * product (meeting the one product schema), or a message per wrong field and the form's message
 * (the spec's "Please fill in all required fields: …", or "Please correct the highlighted fields.").
 */
export function productFormSchema({ withStock }: { withStock: boolean }) {
  return z.looseObject({}).transform((payload, ctx) => {
    const checked = checkProductValues(readProductFormValues(payload), { withStock });
    if (checked.ok) return checked.value;
    ctx.addIssue({ code: "custom", path: [], message: checked.error.message });
    for (const [field, message] of Object.entries(checked.error.fieldErrors)) {
      ctx.addIssue({ code: "custom", path: [field], message });
    }
    return z.NEVER;
  });
}
