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

type CardRow = Omit<
  ProductCardData,
  "image" | "newArrival" | "bestSeller" | "variantCount" | "priceVaries"
> & {
  newArrival: number;
  bestSeller: number;
};

/** Attaches each product's first image and its variants' count and price range, one query each for the whole list. */
export async function toProductCards(db: Database, rows: CardRow[]): Promise<ProductCardData[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [images, variants] = await Promise.all([
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
  ]);
  const byProduct = new Map(images.map((i) => [i.productId, i]));
  const variantsOf = new Map(variants.map((v) => [v.productId, v]));
  return rows.map((row) => {
    const image = byProduct.get(row.id);
    const range = variantsOf.get(row.id);
    return {
      ...row,
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
