import { z } from "zod";
import { CATEGORY_TREE } from "../../../lib/catalog-constants.ts";
import { toCents } from "../../../lib/money.ts";
import {
  PRICE_TEXT,
  PRODUCT_LIMITS,
  type ProductInput,
  productInputSchema,
  STOCK_TEXT,
} from "../../../lib/product-input.ts";

export type { ProductInput } from "../../../lib/product-input.ts";

/**
 * The admin product form (add and edit): the spec's fields and messages, plus specifications
 * rows and the featured / new arrival / best seller flags. Pure: the server is the authority,
 * the same rules label the form.
 */
export const PRODUCT_FORM_MESSAGES = {
  noImages: "Please select at least one image",
  requiredPrefix: "Please fill in all required fields: ",
  rejectedFiles: "Some files were rejected. Only JPG, PNG, and GIF images are allowed.",
  added: "Product added successfully!",
  addFailed: "Failed to add product. Please try again.",
  deleteConfirm: "Are you sure you want to delete this product?",
  deleted: "Product deleted successfully",
  deleteFailed: "Failed to delete product",
  fetchFailed: "Failed to fetch products",
  invalid: "Please correct the highlighted fields.",
  fileTooLarge: "Each image must be 10 MB or smaller.",
  tooManyFiles: "Please select at most 10 images.",
  formTooLarge: "The form is too large.",
  unreadable: "The form could not be read. Please try again.",
  updated: "Product updated",
  updateFailed: "Failed to update product. Please try again.",
} as const;

/** Required in this order; the message names them as the spec's form does. */
export const REQUIRED_PRODUCT_FIELDS = [
  "name",
  "description",
  "price",
  "category",
  "brand",
  "stock",
] as const;
export type ProductField =
  | (typeof REQUIRED_PRODUCT_FIELDS)[number]
  | "originalPrice"
  | "subcategory"
  | "specifications";

export const MAX_SPECIFICATIONS = PRODUCT_LIMITS.specifications;
const MAX_PRICE_CENTS = PRODUCT_LIMITS.priceCents;
const MAX_STOCK = PRODUCT_LIMITS.stock;
const LIMITS = PRODUCT_LIMITS;

/** What the form shows again after a refusal (strings as typed). */
export interface ProductFormValues {
  name: string;
  description: string;
  price: string;
  originalPrice: string;
  category: string;
  subcategory: string;
  brand: string;
  stock: string;
  specifications: { name: string; value: string }[];
  featured: boolean;
  newArrival: boolean;
  bestSeller: boolean;
}

export type ProductFormResult =
  | { ok: true; value: ProductInput; values: ProductFormValues }
  | {
      ok: false;
      message: string;
      missing: string[];
      fieldErrors: Partial<Record<ProductField, string>>;
      values: ProductFormValues;
    };

/** A submitted form as Conform reads it: a field's value, or the values of a repeated field. */
type Payload = Record<string, unknown>;

const text = (form: Payload, name: string, max = 10_000) => {
  const value = form[name];
  return typeof value === "string" ? value.trim().slice(0, max) : "";
};
const all = (form: Payload, name: string): unknown[] => {
  const value = form[name];
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
};

/** The form's fields as typed (trimmed, bounded), to check and to show again after a refusal. */
export function readProductFormValues(form: Payload): ProductFormValues {
  const names = all(form, "specName");
  const values = all(form, "specValue");
  const specifications: { name: string; value: string }[] = [];
  for (let i = 0; i < Math.min(Math.max(names.length, values.length), MAX_SPECIFICATIONS + 1); i++) {
    const name = typeof names[i] === "string" ? (names[i] as string).trim() : "";
    const value = typeof values[i] === "string" ? (values[i] as string).trim() : "";
    if (name || value) specifications.push({ name, value });
  }
  return {
    name: text(form, "name", LIMITS.name + 1),
    description: text(form, "description", LIMITS.description + 1),
    price: text(form, "price", 20),
    originalPrice: text(form, "originalPrice", 20),
    category: text(form, "category", 50),
    subcategory: text(form, "subcategory", 50),
    brand: text(form, "brand", LIMITS.brand + 1),
    stock: text(form, "stock", 20),
    specifications,
    featured: form.featured === "on",
    newArrival: form.newArrival === "on",
    bestSeller: form.bestSeller === "on",
  };
}

function cents(value: string): number | null {
  if (!PRICE_TEXT.test(value)) return null;
  const amount = toCents(value);
  return amount <= MAX_PRICE_CENTS ? amount : null;
}

/** Checks the typed product fields (images are checked separately), with a message per field. */
function checkProductValues(
  values: ProductFormValues,
  { withStock }: { withStock: boolean },
): ProductFormResult {
  if (!withStock) values.stock = "0";
  const missing = REQUIRED_PRODUCT_FIELDS.filter((field) => values[field] === "");
  const fieldErrors: Partial<Record<ProductField, string>> = {};
  for (const field of missing) fieldErrors[field] = "Required";
  if (missing.length > 0) {
    return {
      ok: false,
      message: PRODUCT_FORM_MESSAGES.requiredPrefix + missing.join(", "),
      missing,
      fieldErrors,
      values,
    };
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
    return { ok: false, message: PRODUCT_FORM_MESSAGES.invalid, missing: [], fieldErrors, values };
  }
  // the product meets the one product contract (the CSV import and the seed meet it too)
  const value = productInputSchema.parse({
    name: values.name,
    description: values.description,
    brand: values.brand,
    categoryId: values.category,
    subcategoryId,
    priceCents: priceCents as number,
    originalPriceCents,
    stock,
    specifications,
    featured: values.featured,
    newArrival: values.newArrival,
    bestSeller: values.bestSeller,
  } satisfies ProductInput);
  return { ok: true, values, value };
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
    ctx.addIssue({ code: "custom", path: [], message: checked.message });
    for (const [field, message] of Object.entries(checked.fieldErrors)) {
      ctx.addIssue({ code: "custom", path: [field], message });
    }
    return z.NEVER;
  });
}

/** "Kestrel X12 Smartphone!" → "kestrel-x12-smartphone" (never only digits: those are ids). */
export function slugify(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  if (base === "" || /^\d+$/.test(base)) return `product-${base || "item"}`;
  return base;
}

export const EMPTY_PRODUCT_FORM: ProductFormValues = {
  name: "",
  description: "",
  price: "",
  originalPrice: "",
  category: "",
  subcategory: "",
  brand: "",
  stock: "",
  specifications: [],
  featured: false,
  newArrival: false,
  bestSeller: false,
};
