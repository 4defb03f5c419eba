import type { Database } from "../../db/database.server.ts";
import type { ProductCardData } from "../../lib/catalog-types.ts";

export type { CardImage, ProductCardData } from "../../lib/catalog-types.ts";

export function selectCardColumns(db: Database) {
  return db
    .selectFrom("products")
    .select([
      "products.id",
      "products.slug",
      "products.name",
      "products.brand",
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

type CardRow = Omit<ProductCardData, "image" | "newArrival" | "bestSeller"> & {
  newArrival: number;
  bestSeller: number;
};

/** Attaches each product's first image with one query for the whole list. */
export async function toProductCards(db: Database, rows: CardRow[]): Promise<ProductCardData[]> {
  if (rows.length === 0) return [];
  const images = await db
    .selectFrom("productImages")
    .select(["productId", "key", "alt", "width", "height", "widths"])
    .where(
      "productId",
      "in",
      rows.map((r) => r.id),
    )
    .where("position", "=", 0)
    .execute();
  const byProduct = new Map(images.map((i) => [i.productId, i]));
  return rows.map((row) => {
    const image = byProduct.get(row.id);
    return {
      ...row,
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
