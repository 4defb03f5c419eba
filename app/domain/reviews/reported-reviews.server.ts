import { sql } from "kysely";
import { z } from "zod";
import type { Database } from "../../db/database.server.ts";
import { containsPattern, listChoice, listFilter, listPage, listSearch } from "../../lib/list-query.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { type Actor, recordAudit } from "../audit/audit-log.server.ts";
import {
  REPORTED_REVIEW_SORTS,
  REVIEW_RATINGS,
  type ReportedReviewSort,
} from "./reported-review-list-query.ts";
import { applyAggregate, lockProduct } from "./write-review.server.ts";

/**
 * Moderation of reviews that shoppers reported. Keep clears the flag and the report votes (the
 * review leaves the list; a new report brings it back). Remove deletes the review, its votes
 * with it, and moves the product's rating and count by difference through the reviews module's
 * own aggregate step (decision 006), in one transaction with the audit entry — which keeps the
 * removed review's text.
 */

export const REPORTED_REVIEWS_PAGE_SIZE = 25;

export const REPORTED_REVIEW_MESSAGES = {
  kept: "Review kept: the reports were cleared.",
  removed: "Review removed.",
  notFound: "That review is no longer in the reported list.",
  badRequest: "Unknown action.",
  removeUnconfirmed: "The review was not removed: confirm with “Yes, remove review” to remove it.",
} as const;

/** The moderation form: `keep` or `remove` a `reviewId` (remove only from the confirm step). */
export const reviewModerationSchema = z.object({
  intent: z.enum(["keep", "remove"], { error: REPORTED_REVIEW_MESSAGES.badRequest }),
  reviewId: z
    .string({ error: REPORTED_REVIEW_MESSAGES.badRequest })
    .regex(/^\d{1,10}$/, REPORTED_REVIEW_MESSAGES.badRequest)
    .transform(Number)
    .refine((id) => id > 0, REPORTED_REVIEW_MESSAGES.badRequest),
  confirm: z.string().optional(),
});

/**
 * The list's query (`/admin/reviews?search=&rating=&sort=&page=`): each value checked on its own,
 * a bad one left out (a filter) or back to its default (sort, page).
 */
export const reportedReviewListQuerySchema = z.object({
  search: listSearch(100),
  rating: listFilter(REVIEW_RATINGS).transform((rating) => (rating === null ? null : Number(rating))),
  sort: listChoice(REPORTED_REVIEW_SORTS, "reported-newest"),
  page: listPage,
});

export interface ReportedReviewQuery {
  /** part of the product's name, the author's name, the title or the text (any case) */
  search?: string;
  /** 1..5 stars */
  rating?: number | null;
  sort?: ReportedReviewSort;
  page?: number;
}

export interface ReportedReview {
  id: number;
  productId: number;
  productName: string;
  productSlug: string;
  authorName: string;
  rating: number;
  title: string;
  body: string;
  reports: number;
  /** the latest report (the review's own date if its reports are gone) */
  lastReportedAt: string;
  createdAt: string;
}

/**
 * Reported reviews with how many shoppers reported each and when last: searched, filtered by
 * rating, sorted (most recently reported first by default), one page.
 */
export async function listReportedReviews(
  db: Database,
  { search = "", rating = null, sort = "reported-newest", page = 1 }: ReportedReviewQuery = {},
): Promise<{ reviews: ReportedReview[]; page: number; hasMore: boolean }> {
  let query = db
    .selectFrom("reviews")
    .innerJoin("products", "products.id", "reviews.productId")
    .select((eb) => [
      "reviews.id",
      "reviews.productId",
      "products.name as productName",
      "products.slug as productSlug",
      "reviews.authorName",
      "reviews.rating",
      "reviews.title",
      "reviews.body",
      "reviews.createdAt",
      eb
        .selectFrom("reviewVotes")
        .select((v) => v.fn.countAll().as("n"))
        .whereRef("reviewVotes.reviewId", "=", "reviews.id")
        .where("reviewVotes.kind", "=", "report")
        .as("reports"),
      eb.fn
        .coalesce(
          eb
            .selectFrom("reviewVotes")
            .select((v) => v.fn.max("reviewVotes.createdAt").as("at"))
            .whereRef("reviewVotes.reviewId", "=", "reviews.id")
            .where("reviewVotes.kind", "=", "report"),
          eb.ref("reviews.createdAt"),
        )
        .as("lastReportedAt"),
    ])
    .where("reviews.reported", "=", 1);
  if (rating !== null) query = query.where("reviews.rating", "=", rating);
  const term = search.trim().toLowerCase().slice(0, 100);
  if (term) {
    const pattern = sql<string>`${containsPattern(term)} escape '\\'`;
    query = query.where((eb) =>
      eb.or([
        eb(eb.fn("lower", ["products.name"]), "like", pattern),
        eb(eb.fn("lower", ["reviews.authorName"]), "like", pattern),
        eb(eb.fn("lower", ["reviews.title"]), "like", pattern),
        eb(eb.fn("lower", ["reviews.body"]), "like", pattern),
      ]),
    );
  }
  const ordered =
    sort === "reported-oldest"
      ? query.orderBy("lastReportedAt", "asc").orderBy("reviews.id", "asc")
      : sort === "reports-desc"
        ? query.orderBy("reports", "desc").orderBy("lastReportedAt", "desc").orderBy("reviews.id", "desc")
        : sort === "rating-asc" || sort === "rating-desc"
          ? query
              .orderBy("reviews.rating", sort === "rating-asc" ? "asc" : "desc")
              .orderBy("lastReportedAt", "desc")
              .orderBy("reviews.id", "desc")
          : query.orderBy("lastReportedAt", "desc").orderBy("reviews.id", "desc");
  const rows = await ordered
    .limit(REPORTED_REVIEWS_PAGE_SIZE + 1)
    .offset((Math.max(1, page) - 1) * REPORTED_REVIEWS_PAGE_SIZE)
    .execute();
  return {
    reviews: rows.slice(0, REPORTED_REVIEWS_PAGE_SIZE).map((row) => ({
      ...row,
      rating: Number(row.rating),
      reports: Number(row.reports ?? 0),
      lastReportedAt: String(row.lastReportedAt),
    })),
    page,
    hasMore: rows.length > REPORTED_REVIEWS_PAGE_SIZE,
  };
}

export type ModerationResult = Result<void, { code: "not-found" }>;

/** Keeps a reported review: the flag and the report votes are cleared. */
export async function keepReview(
  db: Database,
  { reviewId, actor, now = new Date() }: { reviewId: number; actor: Actor; now?: Date },
): Promise<ModerationResult> {
  return db.transaction().execute(async (trx): Promise<ModerationResult> => {
    const review = await trx
      .selectFrom("reviews")
      .select(["id", "productId", "title"])
      .where("id", "=", reviewId)
      .where("reported", "=", 1)
      .executeTakeFirst();
    if (!review) return fail({ code: "not-found" });
    const cleared = await trx
      .deleteFrom("reviewVotes")
      .where("reviewId", "=", reviewId)
      .where("kind", "=", "report")
      .executeTakeFirst();
    await trx.updateTable("reviews").set({ reported: 0 }).where("id", "=", reviewId).execute();
    await recordAudit(trx, {
      actor,
      action: "review.keep",
      entityType: "review",
      entityId: reviewId,
      summary: `Kept reported review "${review.title.slice(0, 100)}" (product #${review.productId})`,
      before: { reported: true, reports: Number(cleared.numDeletedRows) },
      after: { reported: false, reports: 0 },
      now,
    });
    return ok(undefined);
  });
}

/** Removes a reported review; the product's rating and review count follow. */
export async function removeReportedReview(
  db: Database,
  { reviewId, actor, now = new Date() }: { reviewId: number; actor: Actor; now?: Date },
): Promise<ModerationResult> {
  const target = await db
    .selectFrom("reviews")
    .select("productId")
    .where("id", "=", reviewId)
    .where("reported", "=", 1)
    .executeTakeFirst();
  if (!target) return fail({ code: "not-found" });
  return db.transaction().execute(async (trx): Promise<ModerationResult> => {
    // the product's row first, as every review write takes it (same lock order, no deadlock)
    const product = await lockProduct(trx, target.productId);
    if (!product) return fail({ code: "not-found" });
    const review = await trx
      .selectFrom("reviews")
      .select(["id", "productId", "userId", "authorName", "rating", "title", "body", "createdAt"])
      .where("id", "=", reviewId)
      .where("productId", "=", target.productId)
      .where("reported", "=", 1)
      .executeTakeFirst();
    if (!review) return fail({ code: "not-found" });
    await trx.deleteFrom("reviewVotes").where("reviewId", "=", reviewId).execute();
    await trx.deleteFrom("reviews").where("id", "=", reviewId).execute();
    await applyAggregate(trx, product, { remove: Number(review.rating) });
    await recordAudit(trx, {
      actor,
      action: "review.remove",
      entityType: "review",
      entityId: reviewId,
      summary: `Removed reported review "${review.title.slice(0, 100)}" by ${review.authorName} (product #${review.productId})`,
      before: {
        ...review,
        rating: Number(review.rating),
        product: { rating: product.rating, reviewCount: product.reviewCount },
      },
      now,
    });
    return ok(undefined);
  });
}

/** Keep or remove a reported review: what was done, or not-found (no longer reported). */
export async function moderateReview(
  db: Database,
  { intent, reviewId, actor }: { intent: "keep" | "remove"; reviewId: number; actor: Actor },
): Promise<Result<"kept" | "removed", { code: "not-found" }>> {
  const result =
    intent === "keep"
      ? await keepReview(db, { reviewId, actor })
      : await removeReportedReview(db, { reviewId, actor });
  if (!result.ok) return result;
  return ok(intent === "keep" ? "kept" : "removed");
}
