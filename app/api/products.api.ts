import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { EDIT_MESSAGES } from "../domain/catalog/admin/edit-product.server.ts";
import { getAdminProduct, listAdminProducts } from "../domain/catalog/admin/product-list.server.ts";
import { PRODUCT_SORTS, PRODUCT_STOCK_FILTERS } from "../domain/catalog/admin/product-list-query.ts";
import { adjustStock } from "../domain/catalog/admin/product-write.server.ts";
import { CATEGORY_TREE } from "../lib/catalog-constants.ts";
import { type ApiEnv, adminAccess, keyActor } from "./api-auth.server.ts";
import { decodeCursor, encodeCursor, idempotencyHeaders, moneySchema, pageSchema } from "./conventions.ts";
import { problemOf, problemResponses } from "./problem.ts";

/**
 * The Admin API's catalogue (issue 32): the admin's product list (`listAdminProducts`, its filters
 * and sorts under the same names, pages reached by the cursor) and one product as its edit page
 * reads it (`getAdminProduct`), with its variants, their SKUs, prices and stock.
 */

const categories = CATEGORY_TREE.map((c) => c.id) as [string, ...string[]];

const listQuery = z.object({
  search: z
    .string()
    .max(100)
    .optional()
    .openapi({ description: "a substring of name, brand, slug or category, or the id" }),
  category: z.enum(categories).optional(),
  stock: z.enum(PRODUCT_STOCK_FILTERS).optional(),
  archived: z
    .enum(["true", "false"])
    .default("false")
    .openapi({ description: "the archived products instead" }),
  sort: z.enum(PRODUCT_SORTS).default("newest"),
  ...pageSchema.shape,
});

const productRow = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    name: z.string(),
    brand: z.string(),
    category: z.string(),
    price: moneySchema,
    stock: z.number().int().openapi({ description: "over its variants" }),
  })
  .openapi("ProductSummary");

const variant = z
  .object({
    id: z.number().int(),
    sku: z.string(),
    title: z.string(),
    price: moneySchema,
    originalPrice: moneySchema.nullable(),
    stock: z.number().int(),
    barcode: z.string().nullable(),
    weightGrams: z.number().int(),
  })
  .openapi("Variant");

const product = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    brand: z.string(),
    category: z.string(),
    subcategory: z.string().nullable(),
    options: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
    variants: z.array(variant),
    stock: z.number().int(),
    archived: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Product");

const listProducts = createRoute({
  method: "get",
  path: "/admin/products",
  operationId: "listProducts",
  tags: ["Admin: catalogue"],
  summary: "The products, filtered and sorted as in the admin's list",
  ...adminAccess("products", "read"),
  request: { query: listQuery },
  responses: {
    200: {
      description: "A page of products",
      content: {
        "application/json": {
          schema: z.object({
            data: z.array(productRow),
            total: z.number().int(),
            nextCursor: z.string().nullable(),
          }),
        },
      },
    },
    ...problemResponses(400, 401, 403, 429),
  },
});

const getProduct = createRoute({
  method: "get",
  path: "/admin/products/{id}",
  operationId: "getProduct",
  tags: ["Admin: catalogue"],
  summary: "One product with its variants, as its edit page shows it",
  ...adminAccess("products", "read"),
  request: { params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }) },
  responses: {
    200: { description: "The product", content: { "application/json": { schema: product } } },
    ...problemResponses(400, 401, 403, 404, 429),
  },
});

const changeStock = createRoute({
  method: "post",
  path: "/admin/products/{id}/stock",
  operationId: "changeStock",
  tags: ["Admin: catalogue"],
  summary: "Change a variant's stock by an amount, as the product page's stock form does",
  description:
    "A guarded change (a sale at the same moment is never overwritten; stock never goes below 0), in the stock ledger and the audit log. Without variantId: the product's only variant.",
  ...adminAccess("products", "write"),
  request: {
    params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
    headers: idempotencyHeaders,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z
            .object({
              delta: z
                .number()
                .int()
                .min(-1_000_000)
                .max(1_000_000)
                .refine((n) => n !== 0, "A change of 0 changes nothing.")
                .openapi({ description: "units to add (negative: to take away)", example: 12 }),
              variantId: z.number().int().positive().optional(),
            })
            .strict()
            .openapi("StockChange"),
        },
      },
    },
  },
  responses: {
    200: {
      description: "The variant's stock before and after",
      content: {
        "application/json": { schema: z.object({ before: z.number().int(), after: z.number().int() }) },
      },
    },
    ...problemResponses(400, 401, 403, 404, 409, 422, 429),
  },
});

const pageCursor = z.object({ page: z.number().int().min(1).max(100_000) });

export function registerProducts(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(listProducts, async (c) => {
    const query = c.req.valid("query");
    const position = query.cursor ? decodeCursor(query.cursor, pageCursor) : { page: 1 };
    if (!position) return problemOf(c, 400, "The cursor is not one this API gave.");
    const { db, settings } = c.get("services");
    const [page, shop] = await Promise.all([
      listAdminProducts(db, {
        search: query.search ?? "",
        category: query.category ?? null,
        stock: query.stock ?? null,
        archived: query.archived === "true",
        sort: query.sort,
        page: position.page,
        pageSize: query.limit,
      }),
      settings.current(),
    ]);
    return c.json(
      {
        data: page.products.map((row) => ({
          id: row.id,
          slug: row.slug,
          name: row.name,
          brand: row.brand,
          category: row.categoryId,
          price: { amount: row.priceCents, currency: shop.currency },
          stock: row.stock,
        })),
        total: page.total,
        nextCursor: position.page < page.pageCount ? encodeCursor({ page: position.page + 1 }) : null,
      },
      200,
    );
  });

  api.openapi(changeStock, async (c) => {
    const { delta, variantId } = c.req.valid("json");
    const changed = await adjustStock(c.get("db"), {
      id: c.req.valid("param").id,
      delta,
      ...(variantId === undefined ? {} : { variantId }),
      actor: keyActor(c.get("caller")),
    });
    if (changed.ok) return c.json(changed.value, 200);
    switch (changed.error.code) {
      case "not-found":
        return problemOf(c, 404, "No live product or variant has that id.");
      case "negative":
        return problemOf(c, 409, EDIT_MESSAGES.stockNegative);
      case "choose-variant":
        return problemOf(c, 409, "This product comes in several variants: name the variant (variantId).");
      default:
        return problemOf(c, 403, "This API key may not change stock.");
    }
  });

  api.openapi(getProduct, async (c) => {
    const { db, settings } = c.get("services");
    const [found, shop] = await Promise.all([
      getAdminProduct(db, c.req.valid("param").id),
      settings.current(),
    ]);
    if (!found) return problemOf(c, 404, "No product has that id.");
    const money = (amount: number) => ({ amount, currency: shop.currency });
    return c.json(
      {
        id: found.id,
        slug: found.slug,
        name: found.name,
        description: found.description,
        brand: found.brand,
        category: found.categoryId,
        subcategory: found.subcategoryId,
        options: found.options.map((option) => ({ name: option.name, values: [...option.values] })),
        variants: found.variants.map((v) => ({
          id: v.id,
          sku: v.sku,
          title: v.title,
          price: money(v.priceCents),
          originalPrice: v.originalPriceCents === null ? null : money(v.originalPriceCents),
          stock: v.stock,
          barcode: v.barcode,
          weightGrams: v.weightGrams,
        })),
        stock: found.stock,
        archived: found.archivedAt !== null,
        createdAt: found.createdAt,
        updatedAt: found.updatedAt,
      },
      200,
    );
  });
}
