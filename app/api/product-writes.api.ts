import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { addProduct } from "../domain/catalog/admin/add-product.server.ts";
import { EDIT_MESSAGES } from "../domain/catalog/admin/edit-product.server.ts";
import { checkProductValues } from "../domain/catalog/admin/product-form.server.ts";
import { PRODUCT_FORM_MESSAGES, type ProductFormValues } from "../domain/catalog/admin/product-form.ts";
import { getAdminProduct } from "../domain/catalog/admin/product-list.server.ts";
import { setStockBySku, updateProduct } from "../domain/catalog/admin/product-write.server.ts";
import {
  type GridRow,
  saveProductOptions,
  saveVariantGrid,
} from "../domain/catalog/admin/variant-editor.server.ts";
import {
  optionsFormSchema,
  VARIANT_EDITOR_MESSAGES,
} from "../domain/catalog/admin/variant-editor-form.server.ts";
import { PRODUCT_LIMITS } from "../lib/product-limits.ts";
import { BARCODE_TEXT, SKU_TEXT } from "../lib/variant-input.ts";
import { MAX_WEIGHT_GRAMS } from "../lib/weight.ts";
import { type ApiEnv, adminAccess, keyActor } from "./api-auth.server.ts";
import { idempotencyHeaders } from "./conventions.ts";
import { problemOf, problemResponses, validationProblemOf } from "./problem.ts";

/**
 * The Admin API's catalogue writes (issue 32): a product added or its details saved — the add and
 * edit pages' own checks (`checkProductValues`, so the same message stands beside the same field)
 * and commands (`addProduct`, `updateProduct`) — and stock levels set by SKU, a warehouse's count
 * (`setStockBySku`), and a variant's SKU, prices, barcode or weight saved as the variant grid does
 * (`saveVariantGrid`, with every other variant as it is). Images come as base64 in the JSON (the add page's rules: 1 to 4 here, each a
 * JPG, PNG or GIF, checked by content), so a request may be larger than the API's other ones.
 */

/** An image's largest size here: four of them as base64 and the fields fit the request guard's 22 MB. */
const MAX_IMAGE_BYTES = 4 * 1024 * 1024;

const money = z.object({
  amount: z.number().int().min(0).openapi({ description: "minor units (cents)" }),
  currency: z.string().length(3).optional().openapi({ description: "the shop's (others are refused)" }),
});

const details = {
  name: z.string().max(PRODUCT_LIMITS.name + 1),
  description: z.string().max(PRODUCT_LIMITS.description + 1),
  brand: z.string().max(PRODUCT_LIMITS.brand + 1),
  category: z.string().max(50).openapi({ description: "a top-level category's id, e.g. electronics" }),
  subcategory: z.string().max(50).nullable().optional(),
  taxClass: z
    .string()
    .max(20)
    .optional()
    .openapi({ description: "standard (default), reduced, zero or exempt" }),
  price: money,
  originalPrice: money.nullable().optional().openapi({ description: "the price before a discount" }),
  weightGrams: z
    .number()
    .int()
    .min(0)
    .optional()
    .openapi({ description: "the one variant's weight (a product sold in variants: set per variant)" }),
  specifications: z.record(z.string().max(200), z.string().max(2000)).optional(),
  featured: z.boolean().optional(),
  newArrival: z.boolean().optional(),
  bestSeller: z.boolean().optional(),
};

const newProduct = z
  .object({
    ...details,
    stock: z.number().int().min(0),
    images: z
      .array(
        z.object({
          filename: z.string().min(1).max(200),
          data: z
            .base64()
            .max(Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 4, "Each image must be 4 MB or smaller."),
        }),
      )
      .min(1, PRODUCT_FORM_MESSAGES.noImages)
      .max(4),
  })
  .strict()
  .openapi("NewProduct");

const productDetails = z.object(details).strict().openapi("ProductDetails");

const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

const createProduct = createRoute({
  method: "post",
  path: "/admin/products",
  operationId: "createProduct",
  tags: ["Admin: catalogue"],
  summary: "Add a product (one variant, its images), as the Add Product page does",
  ...adminAccess("products", "write"),
  request: {
    headers: idempotencyHeaders,
    body: { required: true, content: { "application/json": { schema: newProduct } } },
  },
  responses: {
    201: {
      description: "Added",
      content: { "application/json": { schema: z.object({ id: z.number().int(), slug: z.string() }) } },
    },
    ...problemResponses(400, 401, 403, 409, 422, 429),
  },
});

const updateProductRoute = createRoute({
  method: "post",
  path: "/admin/products/{id}",
  operationId: "updateProduct",
  tags: ["Admin: catalogue"],
  summary: "Save a product's details (every field, as the edit page's form; stock and images apart)",
  ...adminAccess("products", "write"),
  request: {
    params: idParam,
    headers: idempotencyHeaders,
    body: { required: true, content: { "application/json": { schema: productDetails } } },
  },
  responses: {
    200: {
      description: "Saved",
      content: { "application/json": { schema: z.object({ id: z.number().int() }) } },
    },
    ...problemResponses(400, 401, 403, 404, 409, 422, 429),
  },
});

const setLevels = createRoute({
  method: "post",
  path: "/admin/inventory/levels",
  operationId: "setStockLevels",
  tags: ["Admin: catalogue"],
  summary: "Set variants' stock to the levels counted, by SKU (all or nothing)",
  description:
    "Each level is written under its row lock, in the stock ledger and the audit log. An SKU the shop does not sell (or has archived) refuses the whole count.",
  ...adminAccess("products", "write"),
  request: {
    headers: idempotencyHeaders,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({
              levels: z
                .array(
                  z.object({
                    sku: z.string().min(1).max(64),
                    stock: z.number().int().min(0).max(PRODUCT_LIMITS.stock),
                  }),
                )
                .min(1)
                .max(500)
                .refine(
                  (levels) => new Set(levels.map((l) => l.sku)).size === levels.length,
                  "An SKU is listed twice.",
                ),
            })
            .strict()
            .openapi("StockLevels"),
        },
      },
    },
  },
  responses: {
    200: {
      description: "What changed, and the SKUs already at their level",
      content: {
        "application/json": {
          schema: z.object({
            changed: z.array(
              z.object({ sku: z.string(), before: z.number().int(), after: z.number().int() }),
            ),
            unchanged: z.array(z.string()),
          }),
        },
      },
    },
    ...problemResponses(400, 401, 403, 409, 422, 429),
  },
});

const updateVariant = createRoute({
  method: "post",
  path: "/admin/products/{id}/variants/{variantId}",
  operationId: "updateVariant",
  tags: ["Admin: catalogue"],
  summary: "Save a variant's SKU, prices, barcode or weight (what is left out is kept), as the variant grid",
  description: "Stock is changed by POST …/stock or set by POST /admin/inventory/levels.",
  ...adminAccess("products", "write"),
  request: {
    params: idParam.extend({ variantId: z.coerce.number().int().positive().max(2_147_483_647) }),
    headers: idempotencyHeaders,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({
              sku: z.string().trim().regex(SKU_TEXT, VARIANT_EDITOR_MESSAGES.sku).optional(),
              price: money.optional(),
              originalPrice: money.nullable().optional(),
              barcode: z
                .string()
                .trim()
                .regex(BARCODE_TEXT, VARIANT_EDITOR_MESSAGES.barcode)
                .nullable()
                .optional(),
              weightGrams: z.number().int().min(0).max(MAX_WEIGHT_GRAMS).optional(),
            })
            .strict()
            .openapi("VariantChange"),
        },
      },
    },
  },
  responses: {
    200: {
      description: "Saved (changed: 0 when it already was so)",
      content: { "application/json": { schema: z.object({ changed: z.number().int() }) } },
    },
    ...problemResponses(400, 401, 403, 404, 409, 422, 429),
  },
});

const setOptions = createRoute({
  method: "post",
  path: "/admin/products/{id}/options",
  operationId: "setProductOptions",
  tags: ["Admin: catalogue"],
  summary: "Set a product's options (0–3) and so its variants, one per combination, as the variant editor",
  description:
    "Variants kept by a combination keep their id, SKU, prices and stock; new ones start at the product's lowest price with no stock. Variants no combination keeps are removed only when removeVariants names exactly them (else 409 lists them).",
  ...adminAccess("products", "write"),
  request: {
    params: idParam,
    headers: idempotencyHeaders,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({
              options: z
                .array(
                  z.object({
                    name: z.string().max(200),
                    values: z
                      .array(
                        z
                          .string()
                          .max(200)
                          .refine((v) => !v.includes(","), "A value cannot hold a comma."),
                      )
                      .max(200),
                  }),
                )
                .max(10),
              removeVariants: z.array(z.number().int().positive()).max(1000).optional(),
            })
            .strict()
            .openapi("ProductOptions"),
        },
      },
    },
  },
  responses: {
    200: {
      description: "The variants now",
      content: {
        "application/json": {
          schema: z.object({
            added: z.number().int(),
            deleted: z.number().int(),
            archived: z.number().int(),
            variants: z.number().int(),
          }),
        },
      },
    },
    ...problemResponses(400, 401, 403, 404, 409, 422, 429),
  },
});

/** Minor units as the form's amount text ("19.90"). */
const amountText = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

/** The JSON's fields as the form's values, so the form's own checks decide. */
function formValues(body: z.infer<typeof productDetails> & { stock?: number }): ProductFormValues {
  return {
    name: body.name.trim(),
    description: body.description.trim(),
    brand: body.brand.trim(),
    category: body.category.trim(),
    subcategory: body.subcategory?.trim() ?? "",
    taxClass: body.taxClass?.trim() ?? "",
    price: amountText(body.price.amount),
    originalPrice: body.originalPrice ? amountText(body.originalPrice.amount) : "",
    stock: String(body.stock ?? 0),
    weight: body.weightGrams === undefined ? null : String(body.weightGrams / 1000),
    specifications: Object.entries(body.specifications ?? {}).map(([name, value]) => ({
      name: name.trim(),
      value: value.trim(),
    })),
    featured: body.featured ?? false,
    newArrival: body.newArrival ?? false,
    bestSeller: body.bestSeller ?? false,
    giftCard: false,
  };
}

/** The fields refused, as the form shows them beside each. */
const fieldErrorsOf = (errors: Record<string, string | undefined>) =>
  Object.entries(errors).flatMap(([field, message]) => (message ? [{ field, message }] : []));

export function registerProductWrites(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(createProduct, async (c) => {
    const body = c.req.valid("json");
    const services = c.get("services");
    const { currency } = await services.settings.current();
    if ([body.price, body.originalPrice].some((m) => m?.currency && m.currency !== currency)) {
      return problemOf(c, 400, `Prices are in the shop's currency, ${currency}.`);
    }
    const checked = checkProductValues(formValues(body), { withStock: true });
    if (!checked.ok)
      return problemOf(c, 400, checked.error.message, fieldErrorsOf(checked.error.fieldErrors));
    const added = await addProduct(services, {
      input: checked.value,
      uploads: body.images.map((image) => ({
        filename: image.filename,
        bytes: new Uint8Array(Buffer.from(image.data, "base64")),
      })),
      actor: keyActor(c.get("caller")),
    });
    if (added.ok) return c.json({ id: added.value.id, slug: added.value.slug }, 201);
    switch (added.error.code) {
      case "no-images":
        return problemOf(c, 400, PRODUCT_FORM_MESSAGES.noImages, [
          { field: "images", message: PRODUCT_FORM_MESSAGES.noImages },
        ]);
      case "rejected-files":
        return problemOf(
          c,
          400,
          PRODUCT_FORM_MESSAGES.rejectedFiles,
          added.error.details.map((message) => ({ field: "images", message })),
        );
      default:
        return problemOf(c, 422, PRODUCT_FORM_MESSAGES.addFailed);
    }
  });

  api.openapi(updateProductRoute, async (c) => {
    const body = c.req.valid("json");
    const { currency } = await c.get("services").settings.current();
    if ([body.price, body.originalPrice].some((m) => m?.currency && m.currency !== currency)) {
      return problemOf(c, 400, `Prices are in the shop's currency, ${currency}.`);
    }
    const checked = checkProductValues(formValues(body), { withStock: false });
    if (!checked.ok)
      return problemOf(c, 400, checked.error.message, fieldErrorsOf(checked.error.fieldErrors));
    const id = c.req.valid("param").id;
    // a gift card stays one (the API does not make or unmake gift cards)
    const { giftCard: _unchanged, ...input } = checked.value;
    const saved = await updateProduct(c.get("db"), { id, input, actor: keyActor(c.get("caller")) });
    if (saved.ok) return c.json({ id }, 200);
    switch (saved.error.code) {
      case "not-found":
        return problemOf(c, 404, EDIT_MESSAGES.notFound);
      case "priced-per-variant":
        return problemOf(c, 409, EDIT_MESSAGES.pricePerVariant);
      default:
        return problemOf(c, 409, EDIT_MESSAGES.weightPerVariant);
    }
  });

  api.openapi(updateVariant, async (c) => {
    const { id, variantId } = c.req.valid("param");
    const change = c.req.valid("json");
    const db = c.get("db");
    const { currency } = await c.get("services").settings.current();
    if ([change.price, change.originalPrice].some((m) => m?.currency && m.currency !== currency)) {
      return problemOf(c, 400, `Prices are in the shop's currency, ${currency}.`);
    }
    const product = await getAdminProduct(db, id);
    if (!product || product.archivedAt || !product.variants.some((v) => v.id === variantId)) {
      return problemOf(c, 404, "No live product has a variant with that id.");
    }
    // the grid as the page would post it: every variant as it is, the one named as changed
    const rows: GridRow[] = product.variants.map((v) => {
      const mine = v.id === variantId;
      return {
        id: v.id,
        shownStock: v.stock,
        stock: v.stock,
        sku: mine && change.sku !== undefined ? change.sku : v.sku,
        priceCents: mine && change.price ? change.price.amount : v.priceCents,
        originalPriceCents:
          mine && change.originalPrice !== undefined
            ? (change.originalPrice?.amount ?? null)
            : v.originalPriceCents,
        barcode: mine && change.barcode !== undefined ? change.barcode || null : v.barcode,
        imageId: v.imageId,
        weightGrams: mine && change.weightGrams !== undefined ? change.weightGrams : null,
      };
    });
    const saved = await saveVariantGrid(db, { productId: id, rows }, keyActor(c.get("caller")));
    if (saved.ok) return c.json({ changed: saved.value.changed }, 200);
    switch (saved.error.code) {
      case "not-found":
        return problemOf(c, 404, "No live product has a variant with that id.");
      case "stale":
        return problemOf(c, 409, VARIANT_EDITOR_MESSAGES.stale);
      default:
        return problemOf(
          c,
          409,
          VARIANT_EDITOR_MESSAGES.variantsInvalid,
          saved.error.fields.map((field) => ({ field: field.field, message: field.message })),
        );
    }
  });

  api.openapi(setOptions, async (c) => {
    const body = c.req.valid("json");
    // the variant editor's own form, as it would be posted: its checks and messages decide
    const form = optionsFormSchema.safeParse({
      intent: "options",
      options: body.options.map((option) => ({ name: option.name, values: option.values.join(", ") })),
      removing: (body.removeVariants ?? []).join(","),
    });
    if (!form.success) return validationProblemOf(c, form.error);
    const saved = await saveProductOptions(
      c.get("db"),
      {
        productId: c.req.valid("param").id,
        options: form.data.options,
        confirmedRemoval: form.data.removing,
      },
      keyActor(c.get("caller")),
    );
    if (saved.ok) {
      const { added, deleted, archived, variants } = saved.value;
      return c.json({ added, deleted, archived, variants }, 200);
    }
    if (saved.error.code === "not-found") return problemOf(c, 404, EDIT_MESSAGES.notFound);
    return problemOf(
      c,
      409,
      `${VARIANT_EDITOR_MESSAGES.confirmRemoval} Name them in removeVariants.`,
      saved.error.removing.map((v) => ({
        field: "removeVariants",
        message: `${v.id}: ${v.title} (${v.sku}, ${v.stock} in stock${v.ordered ? ", ordered: archived, not deleted" : ""})`,
      })),
    );
  });

  api.openapi(setLevels, async (c) => {
    const set = await setStockBySku(c.get("db"), {
      levels: c.req.valid("json").levels,
      actor: keyActor(c.get("caller")),
    });
    if (set.ok) return c.json(set.value, 200);
    if (set.error.code === "unknown-skus") {
      const message = `No live variant has the SKU ${set.error.skus.slice(0, 10).join(", ")}.`;
      return problemOf(c, 409, message);
    }
    return problemOf(c, 403, "This API key may not change stock.");
  });
}
