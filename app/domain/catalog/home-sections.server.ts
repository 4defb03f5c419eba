import type { Database } from "../../db/database.server.ts";
import { type ProductCardData, selectCardColumns, toProductCards } from "./product-card.server.ts";

export const HOME_SECTION_SIZE = 4;

export interface HomeSections {
  featured: ProductCardData[];
  newArrivals: ProductCardData[];
  bestSellers: ProductCardData[];
}

/**
 * The three product rows of the home page, newest first within each flag; a signed-in shopper's
 * member prices shown (decision 037).
 */
export async function getHomeSections(db: Database, userId: string | null = null): Promise<HomeSections> {
  const section = (flag: "featured" | "newArrival" | "bestSeller") =>
    selectCardColumns(db)
      .where(`products.${flag}`, "=", 1)
      .orderBy("products.createdAt", "desc")
      .orderBy("products.id", "desc")
      .limit(HOME_SECTION_SIZE)
      .execute()
      .then((rows) => toProductCards(db, rows, new Date(), userId));
  const [featured, newArrivals, bestSellers] = await Promise.all([
    section("featured"),
    section("newArrival"),
    section("bestSeller"),
  ]);
  return { featured, newArrivals, bestSellers };
}
