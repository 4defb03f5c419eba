import type { Transaction } from "kysely";
import { z } from "zod";
import { type Database, engineOf } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { ratingAfter } from "./rating-aggregate.ts";
import { REVIEW_LIMITS } from "./review-limits.ts";

/** Every text the review forms and buttons answer with. */
export const REVIEW_MESSAGES = {
  created: "Thank you! Your review has been posted.",
  updated: "Your review has been updated.",
  deleted: "Your review has been deleted.",
  invalid: "Please correct the highlighted fields.",
  ratingRequired: "Choose a rating from 1 to 5 stars.",
  titleRequired: "Enter a title for your review.",
  titleTooLong: `The title can be at most ${REVIEW_LIMITS.titleMax} characters.`,
  bodyRequired: "Write your review.",
  bodyTooLong: `Your review can be at most ${REVIEW_LIMITS.bodyMax} characters.`,
  notFound: "That review is no longer available.",
  helpful: "Thanks for your feedback!",
  alreadyHelpful: "You have already marked this review as helpful.",
  reported: "Thank you. The review has been reported to our moderators.",
  alreadyReported: "You have already reported this review.",
  ownReview: "You cannot vote on your own review.",
  signInFirst: "Please sign in to write or rate reviews.",
} as const;

export type ReviewField = "rating" | "title" | "body";
export interface ReviewInput {
  rating: 1 | 2 | 3 | 4 | 5;
  title: string;
  body: string;
}

/** Line breaks as "\n"; other control characters (never typed by a person) dropped. */
function cleanText(value: string): string {
  return (
    value
      .replace(/\r\n?/g, "\n")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
      .trim()
  );
}

const text = (required: string, max: number, tooLong: string) =>
  z
    .string({ error: required })
    .transform(cleanText)
    .pipe(z.string({ error: required }).min(1, required).max(max, tooLong));

/** The review form (the product page's `save-review`): rating 1–5, a title and the text. */
export const reviewSchema = z.object({
  rating: z
    .enum(["1", "2", "3", "4", "5"], { error: REVIEW_MESSAGES.ratingRequired })
    .transform((value) => Number(value) as ReviewInput["rating"]),
  title: text(REVIEW_MESSAGES.titleRequired, REVIEW_LIMITS.titleMax, REVIEW_MESSAGES.titleTooLong),
  body: text(REVIEW_MESSAGES.bodyRequired, REVIEW_LIMITS.bodyMax, REVIEW_MESSAGES.bodyTooLong),
});

/**
 * Locks the product's row for the rest of the transaction (PostgreSQL; SQLite transactions
 * already begin IMMEDIATE, one writer at a time), so concurrent reviews of one product each see
 * the figures the other left.
 */
export async function lockProduct(trx: Transaction<DB>, productId: number) {
  let query = trx
    .selectFrom("products")
    .select(["id", "rating", "reviewCount", "archivedAt"])
    .where("id", "=", productId);
  if (engineOf<DB>(trx) === "postgres") query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && { ...row, rating: Number(row.rating), reviewCount: Number(row.reviewCount) };
}

export async function applyAggregate(
  trx: Transaction<DB>,
  product: { id: number; rating: number; reviewCount: number },
  change: { add?: number; remove?: number },
) {
  const next = ratingAfter(product, change);
  await trx
    .updateTable("products")
    .set({ rating: next.rating, reviewCount: next.reviewCount })
    .where("id", "=", product.id)
    .execute();
}

/** The review written (`created`) or replaced (`updated`); an unknown or archived product is refused. */
export type SaveReviewResult = Result<
  { outcome: "created" | "updated"; reviewId: number },
  { code: "unavailable" }
>;

/**
 * Writes the user's review of a product, or replaces it when they have one (one review per user
 * and product). The product's rating and review count follow in the same transaction.
 */
export async function saveReview(
  db: Database,
  {
    productId,
    user,
    review,
    now = new Date(),
  }: {
    productId: number;
    user: { id: string; displayName: string };
    review: ReviewInput;
    now?: Date;
  },
): Promise<SaveReviewResult> {
  return db.transaction().execute(async (trx) => {
    const product = await lockProduct(trx, productId);
    if (!product || product.archivedAt !== null) return fail({ code: "unavailable" as const });
    const at = now.toISOString();
    const existing = await trx
      .selectFrom("reviews")
      .select(["id", "rating"])
      .where("productId", "=", productId)
      .where("userId", "=", user.id)
      .executeTakeFirst();
    const authorName = user.displayName.slice(0, 100);
    if (existing) {
      await trx
        .updateTable("reviews")
        .set({ ...review, authorName, updatedAt: at })
        .where("id", "=", existing.id)
        .execute();
      await applyAggregate(trx, product, { remove: Number(existing.rating), add: review.rating });
      return ok({ outcome: "updated" as const, reviewId: existing.id });
    }
    const row = await trx
      .insertInto("reviews")
      .values({ productId, userId: user.id, authorName, ...review, createdAt: at, updatedAt: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    await applyAggregate(trx, product, { add: review.rating });
    return ok({ outcome: "created" as const, reviewId: row.id });
  });
}

/** Deletes the user's review of a product; false when they have none. The figures follow. */
export async function deleteReview(
  db: Database,
  { productId, userId }: { productId: number; userId: string },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const product = await lockProduct(trx, productId);
    if (!product) return false;
    const deleted = await trx
      .deleteFrom("reviews")
      .where("productId", "=", productId)
      .where("userId", "=", userId)
      .returning("rating")
      .executeTakeFirst();
    if (!deleted) return false;
    await applyAggregate(trx, product, { remove: Number(deleted.rating) });
    return true;
  });
}

/** The user's own review of a product (for the edit form), or null. */
export async function findUserReview(
  db: Database,
  { productId, userId }: { productId: number; userId: string },
): Promise<{ id: number; rating: number; title: string; body: string } | null> {
  const row = await db
    .selectFrom("reviews")
    .select(["id", "rating", "title", "body"])
    .where("productId", "=", productId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row ? { ...row, rating: Number(row.rating) } : null;
}
