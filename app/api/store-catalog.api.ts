import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { loadListing } from "../domain/catalog/listing-page.server.ts";
import { CATEGORY_TREE } from "../lib/catalog-constants.ts";
import { PAGE_SIZE, SEARCH_MAX_LENGTH, SORT_OPTIONS } from "../lib/listing-query.ts";
import type { ApiEnv } from "./api-auth.server.ts";
import { decodeCursor, encodeCursor, moneySchema } from "./conventions.ts";
import { problemOf, problemResponses } from "./problem.ts";

/**
 * The Store API's catalogue (issue 32): the /products listing — the same query, parsed by the same
 * `parseListingQuery` through `loadListing`, with its filters, facets, sort and search under the
 * listing's names — for any key, publishable or secret. Pages are the listing's (PAGE_SIZE
 * products), reached by the cursor.
 */

const categories = CATEGORY_TREE.map((c) => c.id) as [string, ...string[]];
const sorts = SORT_OPTIONS.map((o) => o.value) as [string, ...string[]];

const listingQuery = z.object({
  category: z.enum(categories).optional(),
  subcategory: z.string().max(60).optional(),
  search: z.string().max(SEARCH_MAX_LENGTH).optional(),
  brand: z
    .union([z.string().max(100), z.array(z.string().max(100)).max(30)])
    .optional()
    .openapi({ description: "repeatable: brand=a&brand=b" }),
  minPrice: z.coerce.number().int().min(0).optional().openapi({ description: "whole units of the currency" }),
  maxPrice: z.coerce.number().int().min(0).optional(),
  rating: z.coerce
    .number()
    .int()
    .min(1)
    .max(4)
    .optional()
    .openapi({ description: "at least this many stars" }),
  sort: z.enum(sorts).default("featured"),
  cursor: z.string().max(200).optional(),
});

const productCard = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    name: z.string(),
    brand: z.string(),
    price: moneySchema,
    originalPrice: moneySchema.nullable().openapi({ description: "the price before a sale, when on sale" }),
    priceVaries: z.boolean().openapi({ description: "the variants' prices differ: price is the lowest" }),
    rating: z.number(),
    reviewCount: z.number().int(),
    inStock: z.boolean(),
    image: z
      .object({ url: z.string(), alt: z.string(), width: z.number().int(), height: z.number().int() })
      .nullable(),
  })
  .openapi("ProductCard");

const facet = z.object({ value: z.string(), label: z.string(), count: z.number().int() });

const listing = z
  .object({
    data: z.array(productCard),
    total: z.number().int(),
    facets: z.object({ categories: z.array(facet), brands: z.array(facet) }),
    corrected: z.array(z.string()).openapi({
      description:
        "the catalogue's words searched in place of misspelt ones (typo tolerance: the page's 'Showing close matches'); empty when every word was found as typed",
    }),
    nextCursor: z.string().nullable(),
  })
  .openapi("ProductListing");

const listProducts = createRoute({
  method: "get",
  path: "/store/products",
  operationId: "listStoreProducts",
  tags: ["Store: catalogue"],
  summary: "The catalogue as the /products listing shows it: filters, facets, sort and search",
  security: [{ apiKey: [] }],
  "x-scope": "store",
  request: { query: listingQuery },
  responses: {
    200: {
      description: `A page of ${PAGE_SIZE} products`,
      content: { "application/json": { schema: listing } },
    },
    ...problemResponses(400, 401, 429),
  },
});

const pageCursor = z.object({ page: z.number().int().min(1).max(10_000) });

export function registerStoreCatalog(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(listProducts, async (c) => {
    const query = c.req.valid("query");
    const position = query.cursor ? decodeCursor(query.cursor, pageCursor) : { page: 1 };
    if (!position) return problemOf(c, 400, "The cursor is not one this API gave.");
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (name === "cursor" || value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) params.append(name, String(one));
    }
    params.set("page", String(position.page));
    const { db, settings } = c.get("services");
    const [{ result }, shop] = await Promise.all([
      loadListing(db, params, { path: "/products", title: "", description: "" }),
      settings.current(),
    ]);
    const money = (amount: number) => ({ amount, currency: shop.currency });
    const last = result.page >= result.pageCount || result.page < position.page;
    return c.json(
      {
        data: result.products.map((card) => ({
          id: card.id,
          slug: card.slug,
          name: card.name,
          brand: card.brand,
          price: money(card.priceCents),
          originalPrice: card.originalPriceCents === null ? null : money(card.originalPriceCents),
          priceVaries: card.priceVaries,
          rating: card.rating,
          reviewCount: card.reviewCount,
          inStock: card.stock > 0,
          image: card.image
            ? {
                url: `/images/${card.image.key}-${Math.max(...card.image.widths, 0) || card.image.width}.webp`,
                alt: card.image.alt,
                width: card.image.width,
                height: card.image.height,
              }
            : null,
        })),
        total: result.total,
        facets: { categories: result.facets.categories, brands: result.facets.brands },
        corrected: result.corrected,
        nextCursor: last ? null : encodeCursor({ page: result.page + 1 }),
      },
      200,
    );
  });
}
