import type { Database } from "../../db/database.server.ts";

/** A review as the product page shows it. */
export interface ProductReview {
  id: number;
  authorName: string;
  rating: number;
  title: string;
  body: string;
  /** how many shoppers marked it helpful (each once) */
  helpfulCount: number;
  /** ISO-8601 UTC */
  createdAt: string;
}

export const PRODUCT_PAGE_REVIEWS = 10;

/** A product's written reviews, newest first (at most `limit`). */
export async function listProductReviews(
  db: Database,
  productId: number,
  { limit = PRODUCT_PAGE_REVIEWS }: { limit?: number } = {},
): Promise<ProductReview[]> {
  const rows = await db
    .selectFrom("reviews")
    .select(["id", "authorName", "rating", "title", "body", "helpfulCount", "createdAt"])
    .where("productId", "=", productId)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(Math.max(1, Math.min(limit, 100)))
    .execute();
  return rows.map((row) => ({ ...row, rating: Number(row.rating), helpfulCount: Number(row.helpfulCount) }));
}
