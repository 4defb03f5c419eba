import type { Database } from "../../db/database.server.ts";
import type { ProductCardData } from "../../lib/catalog-types.ts";
import { discountPercent } from "../../lib/money.ts";
import { memberPriceApplies } from "../../lib/price-lists.ts";
import { salePrice, shownPrices } from "../../lib/promotions/catalogue-sale.ts";
import type { Promotion } from "../../lib/promotions/engine.ts";
import { type ListedVariant, memberListPricesOfProducts } from "../customer-groups/price-lists.server.ts";
import { cataloguePromotions } from "../promotions/promotions.server.ts";

export type { CardImage, ProductCardData } from "../../lib/catalog-types.ts";

export function selectCardColumns(db: Database) {
  return db
    .selectFrom("products")
    .select([
      "products.id",
      "products.slug",
      "products.name",
      "products.brand",
      "products.categoryId",
      "products.priceCents",
      "products.originalPriceCents",
      "products.discountPercentage",
      "products.rating",
      "products.reviewCount",
      "products.stock",
      "products.newArrival",
      "products.bestSeller",
    ])
    .where("products.archivedAt", "is", null);
}

type CardRow = Omit<
  ProductCardData,
  "image" | "newArrival" | "bestSeller" | "variantCount" | "priceVaries"
> & {
  newArrival: number;
  bestSeller: number;
  /** what catalogue promotions target (decision 035) */
  categoryId: string;
};

/**
 * The member prices a signed-in shopper gets for these listed variants (decision 037), by variant:
 * those below the variant's regular price and below its catalogue sale price (the lower of the two
 * is shown, as the cart charges it).
 */
export function memberPricesOf(
  listed: readonly ListedVariant[],
  catalogue: readonly Promotion[],
  product: { category: string; brand: string },
  now: Date,
): Map<number, number> {
  const prices = new Map<number, number>();
  for (const variant of listed) {
    const sale = salePrice(
      catalogue,
      {
        productId: variant.productId,
        variantId: variant.variantId,
        category: product.category,
        brand: product.brand,
        priceCents: variant.regularCents,
      },
      now,
    );
    if (memberPriceApplies(variant.listCents, variant.regularCents, sale?.priceCents ?? null)) {
      prices.set(variant.variantId, variant.listCents);
    }
  }
  return prices;
}

/**
 * Attaches each product's first image and its variants' count and price range, one query each for
 * the whole list; a product a live catalogue promotion reduces shows its sale price with its
 * regular one struck through (decision 035).
 */
export async function toProductCards(
  db: Database,
  rows: CardRow[],
  now: Date = new Date(),
  /** the signed-in shopper: their groups' member prices are shown (decision 037) */
  userId: string | null = null,
): Promise<ProductCardData[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [images, variants, catalogue, listed] = await Promise.all([
    db
      .selectFrom("productImages")
      .select(["productId", "key", "alt", "width", "height", "widths"])
      .where("productId", "in", ids)
      .where("position", "=", 0)
      .execute(),
    db
      .selectFrom("productVariants")
      .select((eb) => [
        "productId",
        eb.fn.countAll<number | string>().as("count"),
        eb.fn.min("priceCents").as("minPrice"),
        eb.fn.max("priceCents").as("maxPrice"),
      ])
      .where("productId", "in", ids)
      .where("archivedAt", "is", null)
      .groupBy("productId")
      .execute(),
    cataloguePromotions(db),
    userId ? memberListPricesOfProducts(db, userId, ids) : [],
  ]);
  const listedOf = new Map<number, ListedVariant[]>();
  for (const variant of listed)
    listedOf.set(variant.productId, [...(listedOf.get(variant.productId) ?? []), variant]);
  const byProduct = new Map(images.map((i) => [i.productId, i]));
  const variantsOf = new Map(variants.map((v) => [v.productId, v]));
  return rows.map(({ categoryId, ...row }) => {
    const image = byProduct.get(row.id);
    const range = variantsOf.get(row.id);
    const sale = salePrice(
      catalogue,
      { productId: row.id, category: categoryId, brand: row.brand, priceCents: row.priceCents },
      now,
    );
    const variantCount = Number(range?.count ?? 1);
    // a member's lowest price among the product's variants, when below what the card shows others
    const members = memberPricesOf(
      listedOf.get(row.id) ?? [],
      catalogue,
      { category: categoryId, brand: row.brand },
      now,
    );
    const memberCents = members.size > 0 ? Math.min(...members.values()) : null;
    const publicShown = shownPrices(row, sale);
    const member = memberCents !== null && memberCents < publicShown.priceCents;
    const shown = member
      ? { priceCents: memberCents, originalPriceCents: Math.max(row.originalPriceCents ?? 0, row.priceCents) }
      : publicShown;
    return {
      ...row,
      ...shown,
      discountPercentage:
        sale || member ? discountPercent(shown.priceCents, shown.originalPriceCents) : row.discountPercentage,
      variantCount,
      priceVaries:
        (range !== undefined && Number(range.minPrice) !== Number(range.maxPrice)) ||
        (member && (members.size < variantCount || new Set(members.values()).size > 1)),
      ...(member ? { memberPrice: true } : {}),
      rating: Number(row.rating),
      newArrival: row.newArrival === 1,
      bestSeller: row.bestSeller === 1,
      image: image
        ? {
            key: image.key,
            alt: image.alt,
            width: image.width,
            height: image.height,
            widths: JSON.parse(image.widths) as number[],
          }
        : null,
    };
  });
}
