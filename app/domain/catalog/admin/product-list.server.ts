import { sql } from "kysely";
import type { Database } from "../../../db/database.server.ts";
import type { TaxClass } from "../../../lib/markets.ts";
import { LOW_STOCK_THRESHOLD } from "../../../lib/stock.ts";
import { type OptionValues, type ProductOption, variantTitle } from "../../../lib/variants.ts";
import { optionsOfProducts } from "../product-options.server.ts";
import type { ProductSort, ProductStockFilter } from "./product-list-query.ts";

/** The admin's product list, the low-stock view and one product as the edit page shows it. */

export const ADMIN_PAGE_SIZE = 20;

export interface AdminProductRow {
  id: number;
  slug: string;
  name: string;
  brand: string;
  categoryId: string;
  priceCents: number;
  stock: number;
  image: { key: string; widths: number[]; alt: string } | null;
}

function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface AdminProductQuery {
  /** a substring of name, brand, slug or category, or the id */
  search?: string;
  category?: string | null;
  /** in stock (more than 10), low (1 to 10), out (0) — the product's stock over its variants */
  stock?: ProductStockFilter | null;
  /** the archived products instead of the live ones */
  archived?: boolean;
  sort?: ProductSort;
  page?: number;
  pageSize?: number;
}

/** The admin's product list: live (or archived) products filtered, sorted and paged. */
export async function listAdminProducts(
  db: Database,
  {
    search = "",
    category = null,
    stock = null,
    archived = false,
    sort = "newest",
    page = 1,
    pageSize = ADMIN_PAGE_SIZE,
  }: AdminProductQuery = {},
): Promise<{ products: AdminProductRow[]; total: number; page: number; pageCount: number }> {
  const term = search.trim().slice(0, 100);
  let query = db.selectFrom("products").where("archivedAt", archived ? "is not" : "is", null);
  if (category) query = query.where("categoryId", "=", category);
  if (stock === "in") query = query.where("stock", ">", LOW_STOCK_THRESHOLD);
  if (stock === "low") query = query.where("stock", ">", 0).where("stock", "<=", LOW_STOCK_THRESHOLD);
  if (stock === "out") query = query.where("stock", "=", 0);
  if (term) {
    const pattern = likePattern(term);
    const numeric = /^\d{1,9}$/.test(term) ? Number(term) : null;
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(name)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`lower(brand)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`lower(slug)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`lower(category_id)`, "like", sql`${pattern} escape '\\'`),
        ...(numeric === null ? [] : [eb("id", "=", numeric)]),
      ]),
    );
  }
  const { count } = await query
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  const total = Number(count);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const selected = query.select(["id", "slug", "name", "brand", "categoryId", "priceCents", "stock"]);
  const ordered =
    sort === "name"
      ? selected.orderBy("name").orderBy("id")
      : sort === "price-asc"
        ? selected.orderBy("priceCents").orderBy("id")
        : sort === "price-desc"
          ? selected.orderBy("priceCents", "desc").orderBy("id", "desc")
          : sort === "stock-asc"
            ? selected.orderBy("stock").orderBy("id")
            : selected.orderBy("createdAt", "desc").orderBy("id", "desc");
  const rows = await ordered
    .limit(pageSize)
    .offset((Math.max(1, page) - 1) * pageSize)
    .execute();
  const images = await firstImages(
    db,
    rows.map((r) => r.id),
  );
  return {
    products: rows.map((row) => ({ ...row, image: images.get(row.id) ?? null })),
    total,
    page,
    pageCount,
  };
}

async function firstImages(db: Database, productIds: number[]) {
  const map = new Map<number, { key: string; widths: number[]; alt: string }>();
  if (productIds.length === 0) return map;
  const rows = await db
    .selectFrom("productImages")
    .select(["productId", "key", "widths", "alt", "position"])
    .where("productId", "in", productIds)
    .orderBy("productId")
    .orderBy("position")
    .execute();
  for (const row of rows) {
    if (!map.has(row.productId))
      map.set(row.productId, { key: row.key, widths: JSON.parse(row.widths) as number[], alt: row.alt });
  }
  return map;
}

/** Live variants with stock ≤ 10, fewest first, each with its product, options and SKU. */
export async function listLowStockProducts(db: Database, limit = 200) {
  const rows = await db
    .selectFrom("productVariants")
    .innerJoin("products", "products.id", "productVariants.productId")
    .select([
      "products.id",
      "productVariants.id as variantId",
      "products.slug",
      "products.name",
      "products.brand",
      "productVariants.sku",
      "productVariants.option1",
      "productVariants.option2",
      "productVariants.option3",
      "productVariants.stock",
    ])
    .where("products.archivedAt", "is", null)
    .where("productVariants.archivedAt", "is", null)
    .where("productVariants.stock", "<=", LOW_STOCK_THRESHOLD)
    .orderBy("productVariants.stock")
    .orderBy("products.name")
    .orderBy("productVariants.position")
    .limit(limit)
    .execute();
  const options = await optionsOfProducts(
    db,
    rows.map((row) => row.id),
  );
  return rows.map(({ option1, option2, option3, ...row }) => ({
    ...row,
    variantTitle: variantTitle(options.get(row.id) ?? [], [option1, option2, option3]),
  }));
}

/** A product's live variants as the edit page lists them. */
export interface AdminVariant {
  id: number;
  sku: string;
  title: string;
  priceCents: number;
  originalPriceCents: number | null;
  stock: number;
  /** option1..option3 (null where the product has fewer options) */
  values: OptionValues;
  barcode: string | null;
  /** its own picture (one of the product's images), or null: the product's images */
  imageId: number | null;
  /** what weight-based shipping adds up */
  weightGrams: number;
}

export interface AdminProductDetail {
  /** none: sold as one variant (the product's own price and stock fields are that variant's) */
  options: ProductOption[];
  variants: AdminVariant[];
  id: number;
  slug: string;
  name: string;
  description: string;
  brand: string;
  categoryId: string;
  subcategoryId: string | null;
  taxClass: TaxClass;
  priceCents: number;
  originalPriceCents: number | null;
  stock: number;
  /** its one variant's weight (grams) without options; null: each variant has its own */
  weightGrams: number | null;
  specifications: Record<string, string>;
  featured: boolean;
  newArrival: boolean;
  bestSeller: boolean;
  giftCard: boolean;
  rating: number;
  reviewCount: number;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
  images: { id: number; key: string; alt: string; width: number; height: number; widths: number[] }[];
}

export async function getAdminProduct(db: Database, id: number): Promise<AdminProductDetail | null> {
  const row = await db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  const [images, variants, options] = await Promise.all([
    db
      .selectFrom("productImages")
      .select(["id", "key", "alt", "width", "height", "widths"])
      .where("productId", "=", id)
      .orderBy("position")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("productVariants")
      .select([
        "id",
        "sku",
        "option1",
        "option2",
        "option3",
        "priceCents",
        "originalPriceCents",
        "stock",
        "barcode",
        "imageId",
        "weightGrams",
      ])
      .where("productId", "=", id)
      .where("archivedAt", "is", null)
      .orderBy("position")
      .orderBy("id")
      .execute(),
    optionsOfProducts(db, [id]),
  ]);
  const productOptions = options.get(id) ?? [];
  return {
    options: productOptions,
    variants: variants.map(({ option1, option2, option3, ...variant }) => ({
      ...variant,
      values: [option1, option2, option3] as OptionValues,
      title: variantTitle(productOptions, [option1, option2, option3]),
    })),
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    brand: row.brand,
    categoryId: row.categoryId,
    subcategoryId: row.subcategoryId,
    taxClass: row.taxClass,
    priceCents: row.priceCents,
    originalPriceCents: row.originalPriceCents,
    stock: row.stock,
    weightGrams: productOptions.length === 0 && variants.length === 1 ? variants[0]!.weightGrams : null,
    specifications: parseSpecifications(row.specifications),
    featured: row.featured === 1,
    newArrival: row.newArrival === 1,
    bestSeller: row.bestSeller === 1,
    giftCard: row.giftCard === 1,
    rating: row.rating,
    reviewCount: row.reviewCount,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    archivedAt: row.archivedAt,
    images: images.map((image) => ({ ...image, widths: JSON.parse(image.widths) as number[] })),
  };
}

function parseSpecifications(json: string): Record<string, string> {
  try {
    const value = JSON.parse(json) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
    }
  } catch {
    // fall through
  }
  return {};
}
