import type { TaxClass } from "../../../lib/markets.ts";
import type { ProductInput } from "../../../lib/product-input.ts";
import { PRODUCT_LIMITS } from "../../../lib/product-limits.ts";
import type { Result } from "../../../lib/result.ts";

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
  weight: "Enter a weight in kg, like 0.25.",
  taxClass: "Choose one of the tax classes.",
  taxClassHint: "Each zone sets a rate per class (Admin → Settings → Zones).",
  weightHint:
    "In kg with up to 3 decimals, like 0.25; empty counts as 0. Weight-based shipping adds up the cart's weights.",
} as const;

/** The class a new product gets (and a form that names none). */
export const DEFAULT_TAX_CLASS: TaxClass = "standard";

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
  | "taxClass"
  | "weight"
  | "specifications";

export const MAX_SPECIFICATIONS = PRODUCT_LIMITS.specifications;
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
  /** a tax class's code ("" or left out: the default) */
  taxClass: string;
  /**
   * the one variant's weight in kg as typed ("" : 0); null when the form has no weight field (a
   * product sold in variants: each variant's is in the variant grid)
   */
  weight: string | null;
  specifications: { name: string; value: string }[];
  featured: boolean;
  newArrival: boolean;
  bestSeller: boolean;
  giftCard: boolean;
}

/** The typed product fields checked: the product, or the form's message and a message per wrong field. */
export type ProductFormResult = Result<
  ProductInput,
  { code: "missing" | "invalid"; message: string; fieldErrors: Partial<Record<ProductField, string>> }
>;

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
    taxClass: text(form, "taxClass", 20),
    weight: typeof form.weight === "string" ? text(form, "weight", 20) : null,
    specifications,
    featured: form.featured === "on",
    newArrival: form.newArrival === "on",
    bestSeller: form.bestSeller === "on",
    giftCard: form.giftCard === "on",
  };
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
  taxClass: DEFAULT_TAX_CLASS,
  weight: "",
  specifications: [],
  featured: false,
  newArrival: false,
  bestSeller: false,
  giftCard: false,
};
