import type { Database } from "../../db/database.server.ts";
import type { ProductCardData } from "../../lib/catalog-types.ts";
import { discountPercent } from "../../lib/money.ts";
import { salePrice, shownPrices } from "../../lib/promotions/catalogue-sale.ts";
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
 * Attaches each product's first image and its variants' count and price range, one query each for
 * the whole list; a product a live catalogue promotion reduces shows its sale price with its
 * regular one struck through (decision 035).
 */
export async function toProductCards(
  db: Database,
  rows: CardRow[],
  now: Date = new Date(),
): Promise<ProductCardData[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [images, variants, catalogue] = await Promise.all([
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
  ]);
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
    const shown = shownPrices(row, sale);
    return {
      ...row,
      ...shown,
      discountPercentage: sale
        ? discountPercent(shown.priceCents, shown.originalPriceCents)
        : row.discountPercentage,
      variantCount: Number(range?.count ?? 1),
      priceVaries: range !== undefined && Number(range.minPrice) !== Number(range.maxPrice),
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
