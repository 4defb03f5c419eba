import type { Database } from "../../db/database.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";

export type VoteKind = "helpful" | "report";

/**
 * Counted: the vote is new (helpful_count + 1, or the review flagged as reported). Refused:
 * "already": this user voted so before — nothing changes (Helpful counts once, it does not toggle);
 * "own": a user cannot vote on their own review; "not-found": no such review on this product.
 */
export type VoteError = { code: "already" | "own" | "not-found" };
export type VoteResult = Result<{ reviewId: number }, VoteError>;

/**
 * Marks a review helpful, or reports it for the admins to moderate, once per user. The vote row
 * (primary key review, user, kind) decides "once"; the review's counter moves only when the row
 * is new, in the same transaction.
 */
export async function voteOnReview(
  db: Database,
  {
    productId,
    reviewId,
    userId,
    kind,
    now = new Date(),
  }: { productId: number; reviewId: number; userId: string; kind: VoteKind; now?: Date },
): Promise<VoteResult> {
  if (!Number.isSafeInteger(reviewId) || reviewId <= 0) return fail({ code: "not-found" });
  return db.transaction().execute(async (trx) => {
    const review = await trx
      .selectFrom("reviews")
      .select(["id", "userId"])
      .where("id", "=", reviewId)
      .where("productId", "=", productId)
      .executeTakeFirst();
    if (!review) return fail({ code: "not-found" as const });
    if (review.userId === userId) return fail({ code: "own" as const });
    const inserted = await trx
      .insertInto("reviewVotes")
      .values({ reviewId, userId, kind, createdAt: now.toISOString() })
      .onConflict((oc) => oc.columns(["reviewId", "userId", "kind"]).doNothing())
      .returning("reviewId")
      .executeTakeFirst();
    if (!inserted) return fail({ code: "already" as const });
    const update =
      kind === "helpful"
        ? trx.updateTable("reviews").set((eb) => ({ helpfulCount: eb("helpfulCount", "+", 1) }))
        : trx.updateTable("reviews").set({ reported: 1 });
    await update.where("id", "=", reviewId).execute();
    return ok({ reviewId });
  });
}

/** Which of these reviews the user has marked helpful or reported. */
export async function listUserVotes(
  db: Database,
  userId: string,
  reviewIds: number[],
): Promise<{ helpful: number[]; reported: number[] }> {
  if (reviewIds.length === 0) return { helpful: [], reported: [] };
  const rows = await db
    .selectFrom("reviewVotes")
    .select(["reviewId", "kind"])
    .where("userId", "=", userId)
    .where("reviewId", "in", reviewIds)
    .execute();
  return {
    helpful: rows.filter((r) => r.kind === "helpful").map((r) => r.reviewId),
    reported: rows.filter((r) => r.kind === "report").map((r) => r.reviewId),
  };
}
