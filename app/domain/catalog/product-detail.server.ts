import { sql } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { CardImage } from "../../lib/catalog-types.ts";
import { discountPercent } from "../../lib/money.ts";
import { memberShownPrices } from "../../lib/price-lists.ts";
import { type SaleItem, salePrice, shownPrices } from "../../lib/promotions/catalogue-sale.ts";
import type { ProductOption, VariantOffer } from "../../lib/variants.ts";
import { memberListPricesOfProducts } from "../customer-groups/price-lists.server.ts";
import { cataloguePromotions } from "../promotions/promotions.server.ts";
import {
  memberPricesOf,
  type ProductCardData,
  selectCardColumns,
  toProductCards,
} from "./product-card.server.ts";
import { optionsOfProducts } from "./product-options.server.ts";

/** Everything the product page shows about one product (reviews and related products come separately). */
export interface ProductDetail {
  id: number;
  slug: string;
  name: string;
  description: string;
  brand: string;
  category: { id: string; name: string };
  subcategory: { id: string; name: string } | null;
  priceCents: number;
  originalPriceCents: number | null;
  discountPercentage: number | null;
  rating: number;
  reviewCount: number;
  stock: number;
  /** name → value pairs in the order they were stored */
  specifications: Specification[];
  /** in gallery order (position), possibly empty */
  images: CardImage[];
  /** 0–3 options (none: a product sold as one variant, no picker) */
  options: ProductOption[];
  /** the live variants, in their order (at least one) */
  variants: VariantOffer[];
  /**
   * when a catalogue promotion reduces the product (decision 035): the first end of those taken
   * (ISO; null: open-ended), else undefined — the prices above are then the sale's
   */
  saleEndsAt?: string | null;
  /** the prices above are the signed-in shopper's member prices (decision 037), some or all */
  memberPrice?: boolean;
  /** a gift card (its variants the amounts): the page asks who it goes to (decision 036) */
  giftCard: boolean;
}

export interface Specification {
  name: string;
  value: string;
}

export const RELATED_PRODUCTS_LIMIT = 4;

/** Largest id either engine stores in an `integer` column; bigger numbers are simply not found. */
const MAX_ID = 2_147_483_647;
const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,199}$/;

export type ProductRef = { kind: "id"; id: number } | { kind: "slug"; slug: string };

/**
 * What a `/products/{productId}` segment names: a numeric id or a slug (matched case-insensitively).
 * Anything else (very long, SQL, emoji, path tricks, out-of-range numbers) names nothing: null.
 */
export function parseProductRef(value: string | undefined): ProductRef | null {
  if (!value) return null;
  if (/^\d+$/.test(value)) {
    // All digits: an id (no slug is only digits); zero, leading zeros or too big name nothing.
    const id = Number(value);
    return /^[1-9]\d{0,9}$/.test(value) && id <= MAX_ID ? { kind: "id", id } : null;
  }
  const slug = value.toLowerCase();
  return SLUG_PATTERN.test(slug) ? { kind: "slug", slug } : null;
}

/** A live (not archived) product by slug or numeric id, or null. */
export async function getProductDetail(
  db: Database,
  value: string | undefined,
  now: Date = new Date(),
  /** the signed-in shopper: their groups' member prices are shown (decision 037) */
  userId: string | null = null,
): Promise<ProductDetail | null> {
  const ref = parseProductRef(value);
  if (!ref) return null;
  let query = db
    .selectFrom("products")
    .innerJoin("categories as category", "category.id", "products.categoryId")
    .leftJoin("categories as subcategory", "subcategory.id", "products.subcategoryId")
    .select([
      "products.id",
      "products.slug",
      "products.name",
      "products.description",
      "products.brand",
      "products.categoryId",
      "category.name as categoryName",
      "products.subcategoryId",
      "subcategory.name as subcategoryName",
      "products.priceCents",
      "products.originalPriceCents",
      "products.discountPercentage",
      "products.rating",
      "products.reviewCount",
      "products.stock",
      "products.specifications",
      "products.giftCard",
    ])
    .where("products.archivedAt", "is", null);
  query =
    ref.kind === "id" ? query.where("products.id", "=", ref.id) : query.where("products.slug", "=", ref.slug);
  const row = await query.executeTakeFirst();
  if (!row) return null;

  const [images, variants, options, catalogue, listed] = await Promise.all([
    db
      .selectFrom("productImages")
      .select(["id", "key", "alt", "width", "height", "widths"])
      .where("productId", "=", row.id)
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
        "imageId",
      ])
      .where("productId", "=", row.id)
      .where("archivedAt", "is", null)
      .orderBy("position")
      .orderBy("id")
      .execute(),
    optionsOfProducts(db, [row.id]),
    cataloguePromotions(db),
    userId ? memberListPricesOfProducts(db, userId, [row.id]) : [],
  ]);
  // a signed-in member's prices, where lower than the regular and the sale price (decision 037)
  const members = memberPricesOf(listed, catalogue, { category: row.categoryId, brand: row.brand }, now);
  // a live catalogue promotion: the product's and each variant's sale price (decision 035)
  const item = (priceCents: number, variantId?: number): SaleItem => ({
    productId: row.id,
    variantId,
    category: row.categoryId,
    brand: row.brand,
    priceCents,
  });
  const sale = salePrice(catalogue, item(row.priceCents), now);
  const publicShown = shownPrices(row, sale);
  const memberCents = members.size > 0 ? Math.min(...members.values()) : null;
  const member = memberCents !== null && memberCents < publicShown.priceCents;
  const shown = member ? memberShownPrices(row, memberCents) : publicShown;
  const imageIndex = new Map(images.map((image, index) => [image.id, index]));

  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    brand: row.brand,
    category: { id: row.categoryId, name: row.categoryName },
    subcategory:
      row.subcategoryId !== null
        ? { id: row.subcategoryId, name: row.subcategoryName ?? row.subcategoryId }
        : null,
    ...shown,
    discountPercentage:
      sale || member ? discountPercent(shown.priceCents, shown.originalPriceCents) : row.discountPercentage,
    rating: Number(row.rating),
    reviewCount: row.reviewCount,
    stock: row.stock,
    specifications: parseSpecifications(row.specifications),
    giftCard: row.giftCard === 1,
    images: images.map((image) => ({
      key: image.key,
      alt: image.alt,
      width: image.width,
      height: image.height,
      widths: parseWidths(image.widths),
    })),
    options: options.get(row.id) ?? [],
    variants: variants.map((v) => ({
      id: v.id,
      sku: v.sku,
      values: [v.option1, v.option2, v.option3],
      ...(members.has(v.id)
        ? { ...memberShownPrices(v, members.get(v.id)!), memberPrice: true }
        : shownPrices(v, salePrice(catalogue, item(v.priceCents, v.id), now))),
      stock: v.stock,
      imageIndex: v.imageId === null ? null : (imageIndex.get(v.imageId) ?? null),
    })),
    ...(sale ? { saleEndsAt: sale.endsAt } : {}),
    ...(members.size > 0 ? { memberPrice: true } : {}),
  };
}

/** The stored specifications JSON as ordered pairs; anything malformed counts as none. */
export function parseSpecifications(json: string): Specification[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return [];
  return Object.entries(parsed as Record<string, unknown>)
    .filter(([name, value]) => name.trim() !== "" && value !== null && value !== undefined && value !== "")
    .map(([name, value]) => ({
      name,
      value:
        typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value),
    }));
}

function parseWidths(json: string): number[] {
  try {
    const widths = JSON.parse(json);
    return Array.isArray(widths) ? widths.filter((w): w is number => Number.isInteger(w) && w > 0) : [];
  } catch {
    return [];
  }
}

/**
 * "You May Also Like": up to 4 other live products of the same category, those of the same
 * subcategory first, then the best rated.
 */
export async function getRelatedProducts(
  db: Database,
  product: Pick<ProductDetail, "id" | "category" | "subcategory">,
  limit = RELATED_PRODUCTS_LIMIT,
  /** the signed-in shopper (their member prices, decision 037) */
  userId: string | null = null,
): Promise<ProductCardData[]> {
  const subcategoryId = product.subcategory?.id ?? null;
  const rows = await selectCardColumns(db)
    .where("products.categoryId", "=", product.category.id)
    .where("products.id", "<>", product.id)
    .$if(subcategoryId !== null, (q) =>
      q.orderBy(sql`case when ${sql.ref("products.subcategoryId")} = ${subcategoryId} then 0 else 1 end`),
    )
    .orderBy("products.rating", "desc")
    .orderBy("products.reviewCount", "desc")
    .orderBy("products.id")
    .limit(limit)
    .execute();
  return toProductCards(db, rows, new Date(), userId);
}
