import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listProductReviews } from "../../app/domain/reviews/list-reviews.server.ts";
import { listUserVotes, voteOnReview } from "../../app/domain/reviews/review-votes.server.ts";
import {
  deleteReview,
  findUserReview,
  REVIEW_MESSAGES,
  reviewSchema,
  saveReview,
} from "../../app/domain/reviews/write-review.server.ts";
import { checkForm } from "../../app/lib/form-errors.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertUser } from "../helpers/account-fixtures.ts";
import { insertProduct } from "../helpers/catalog.ts";

const MARKUP_TITLE = "<script>alert(1)</script>";
const MARKUP_BODY = 'Nice <img src=x onerror="alert(2)"> & <b>bold</b>';

/** The review form's schema on plain values: the value, or one message per field. */
function validateReview(input: Record<string, unknown>) {
  const checked = checkForm(reviewSchema, ["rating", "title", "body"] as const, input);
  return checked.ok ? checked : { ok: false as const, fieldErrors: checked.error.fieldErrors };
}

describe("validateReview", () => {
  it("accepts a rating 1–5, a title and a text, trimmed", () => {
    expect(validateReview({ rating: "4", title: "  Good  ", body: " Works.\r\nReally. " })).toEqual({
      ok: true,
      value: { rating: 4, title: "Good", body: "Works.\nReally." },
    });
  });

  it("says what is wrong beside each field", () => {
    expect(validateReview({})).toEqual({
      ok: false,
      fieldErrors: {
        rating: REVIEW_MESSAGES.ratingRequired,
        title: REVIEW_MESSAGES.titleRequired,
        body: REVIEW_MESSAGES.bodyRequired,
      },
    });
    expect(validateReview({ rating: "6", title: "   ", body: "\u0000 " })).toEqual({
      ok: false,
      fieldErrors: {
        rating: REVIEW_MESSAGES.ratingRequired,
        title: REVIEW_MESSAGES.titleRequired,
        body: REVIEW_MESSAGES.bodyRequired,
      },
    });
    for (const rating of ["0", "2.5", "-1", "five", " 3"]) {
      expect(validateReview({ rating, title: "t", body: "b" })).toMatchObject({
        ok: false,
        fieldErrors: { rating: REVIEW_MESSAGES.ratingRequired },
      });
    }
    expect(validateReview({ rating: "3", title: "x".repeat(101), body: "y".repeat(2001) })).toEqual({
      ok: false,
      fieldErrors: { title: REVIEW_MESSAGES.titleTooLong, body: REVIEW_MESSAGES.bodyTooLong },
    });
    expect(validateReview({ rating: "3", title: "x".repeat(100), body: "y".repeat(2000) }).ok).toBe(true);
  });

  it("keeps markup as text (it is escaped when shown, never stripped or run)", () => {
    expect(validateReview({ rating: "1", title: MARKUP_TITLE, body: MARKUP_BODY })).toEqual({
      ok: true,
      value: { rating: 1, title: MARKUP_TITLE, body: MARKUP_BODY },
    });
  });
});

describe.each(ENGINES)("reviews on %s", (engine) => {
  let t: TestDatabase;
  let ada: { id: string; displayName: string };
  let bob: { id: string; displayName: string };
  let cy: { id: string; displayName: string };
  /** seeded 4.6 from 1284 historical reviews */
  let phone: number;
  /** no reviews yet */
  let fresh: number;

  const figures = async (id: number) => {
    const row = await t.db
      .selectFrom("products")
      .select(["rating", "reviewCount"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    return { rating: Number(row.rating), reviewCount: Number(row.reviewCount) };
  };
  /** catalog_price_band_totals must equal a fresh count over the products (the listing's rating filter). */
  const bandsAgree = async () => {
    const floor = engine === "postgres" ? "cast(floor(rating) as integer)" : "cast(rating as integer)";
    const live = await sql<{ ratingFloor: number; n: number }>`
      select ${sql.raw(floor)} as rating_floor, count(*) as n from products where archived_at is null
      group by 1 order by 1`.execute(t.db);
    const kept = await sql<{ ratingFloor: number; n: number }>`
      select rating_floor, sum(product_count) as n from catalog_price_band_totals
      group by rating_floor having sum(product_count) > 0 order by 1`.execute(t.db);
    const shape = (rows: { ratingFloor: number; n: number }[]) =>
      rows.map((r) => [Number(r.ratingFloor), Number(r.n)]);
    expect(shape(kept.rows)).toEqual(shape(live.rows));
  };

  beforeAll(async () => {
    t = await createTestDatabase(engine);
    ada = { id: await insertUser(t.db, "ada@example.com"), displayName: "Ada" };
    bob = { id: await insertUser(t.db, "bob@example.com"), displayName: "Bob" };
    cy = { id: await insertUser(t.db, "cy@example.com"), displayName: "Cy" };
    phone = await insertProduct(t.db, { rating: 4.6, reviewCount: 1284 });
    fresh = await insertProduct(t.db, { rating: 0, reviewCount: 0 });
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("a first review sets the rating; edits and deletes move it back", async () => {
    const created = await saveReview(t.db, {
      productId: fresh,
      user: ada,
      review: { rating: 4, title: "Solid", body: "Does the job." },
      now: new Date("2026-11-20T10:00:00Z"),
    });
    expect(created).toEqual({ ok: true, value: { outcome: "created", reviewId: expect.any(Number) } });
    expect(await figures(fresh)).toEqual({ rating: 4, reviewCount: 1 });
    await bandsAgree();

    await saveReview(t.db, {
      productId: fresh,
      user: bob,
      review: { rating: 3, title: "Meh", body: "Okay." },
    });
    expect(await figures(fresh)).toEqual({ rating: 3.5, reviewCount: 2 });

    // Ada edits hers: the same row, the count stays
    const edited = await saveReview(t.db, {
      productId: fresh,
      user: { ...ada, displayName: "Ada L." },
      review: { rating: 1, title: "Broke", body: "Stopped working." },
      now: new Date("2026-11-21T10:00:00Z"),
    });
    expect(edited).toEqual({
      ok: true,
      value: { outcome: "updated", reviewId: created.ok ? created.value.reviewId : 0 },
    });
    expect(await figures(fresh)).toEqual({ rating: 2, reviewCount: 2 });
    await bandsAgree();
    const mine = await t.db
      .selectFrom("reviews")
      .select(["authorName", "title", "rating", "createdAt", "updatedAt"])
      .where("userId", "=", ada.id)
      .execute();
    expect(mine).toEqual([
      {
        authorName: "Ada L.",
        title: "Broke",
        rating: 1,
        createdAt: "2026-11-20T10:00:00.000Z",
        updatedAt: "2026-11-21T10:00:00.000Z",
      },
    ]);
    expect(await findUserReview(t.db, { productId: fresh, userId: ada.id })).toMatchObject({
      rating: 1,
      title: "Broke",
      body: "Stopped working.",
    });

    expect(await deleteReview(t.db, { productId: fresh, userId: ada.id })).toBe(true);
    expect(await figures(fresh)).toEqual({ rating: 3, reviewCount: 1 });
    expect(await deleteReview(t.db, { productId: fresh, userId: ada.id })).toBe(false);
    expect(await deleteReview(t.db, { productId: fresh, userId: bob.id })).toBe(true);
    expect(await figures(fresh)).toEqual({ rating: 0, reviewCount: 0 });
    await bandsAgree();
  });

  it("a review joins the seeded figures (which stand for historical reviews) and leaves them as they were", async () => {
    await saveReview(t.db, { productId: phone, user: cy, review: { rating: 1, title: "No", body: "Nope." } });
    const after = await figures(phone);
    expect(after.reviewCount).toBe(1285);
    expect(after.rating).toBeCloseTo((4.6 * 1284 + 1) / 1285, 5);
    await saveReview(t.db, {
      productId: phone,
      user: cy,
      review: { rating: 5, title: "Yes", body: "Fine." },
    });
    expect((await figures(phone)).rating).toBeCloseTo((4.6 * 1284 + 5) / 1285, 5);
    await deleteReview(t.db, { productId: phone, userId: cy.id });
    const back = await figures(phone);
    expect(back.reviewCount).toBe(1284);
    expect(back.rating).toBeCloseTo(4.6, 5);
  });

  it("one review per user and product, even when two arrive at once", async () => {
    const results = await Promise.all(
      [5, 4, 3].map((rating) =>
        saveReview(t.db, {
          productId: fresh,
          user: cy,
          review: { rating: rating as 5, title: `r${rating}`, body: "b" },
        }),
      ),
    );
    expect(results.map((r) => (r.ok ? r.value.outcome : r.error.code)).sort()).toEqual([
      "created",
      "updated",
      "updated",
    ]);
    const rows = await t.db
      .selectFrom("reviews")
      .select("rating")
      .where("userId", "=", cy.id)
      .where("productId", "=", fresh)
      .execute();
    expect(rows).toHaveLength(1);
    expect(await figures(fresh)).toEqual({ rating: Number(rows[0]?.rating), reviewCount: 1 });
    // the database refuses a second row too
    await expect(
      t.db
        .insertInto("reviews")
        .values({
          productId: fresh,
          userId: cy.id,
          authorName: "Cy",
          rating: 2,
          title: "again",
          body: "again",
          createdAt: "2026-11-22T00:00:00.000Z",
          updatedAt: "2026-11-22T00:00:00.000Z",
        })
        .execute(),
    ).rejects.toThrow();
  });

  it("an archived or unknown product takes no review", async () => {
    const old = await insertProduct(t.db, {
      archivedAt: "2026-01-01T00:00:00.000Z",
      rating: 3,
      reviewCount: 2,
    });
    const review = { rating: 5 as const, title: "t", body: "b" };
    expect(await saveReview(t.db, { productId: old, user: ada, review })).toEqual({
      ok: false,
      error: { code: "unavailable" },
    });
    expect(await saveReview(t.db, { productId: 999_999, user: ada, review })).toEqual({
      ok: false,
      error: { code: "unavailable" },
    });
    expect(await figures(old)).toEqual({ rating: 3, reviewCount: 2 });
  });

  it("Helpful counts once per user; not on one's own review", async () => {
    const saved = await saveReview(t.db, {
      productId: fresh,
      user: ada,
      review: { rating: 4, title: "Helpful?", body: "b" },
    });
    if (!saved.ok) throw new Error("not saved");
    const reviewId = saved.value.reviewId;
    const vote = (userId: string, kind: "helpful" | "report", productId = fresh) =>
      voteOnReview(t.db, { productId, reviewId, userId, kind });
    const helpfulCount = async () =>
      Number(
        (
          await t.db
            .selectFrom("reviews")
            .select("helpfulCount")
            .where("id", "=", reviewId)
            .executeTakeFirstOrThrow()
        ).helpfulCount,
      );

    expect(await vote(bob.id, "helpful")).toEqual({ ok: true, value: { reviewId } });
    expect(await vote(bob.id, "helpful")).toEqual({ ok: false, error: { code: "already" } });
    expect(await vote(cy.id, "helpful")).toEqual({ ok: true, value: { reviewId } });
    expect(await vote(ada.id, "helpful")).toEqual({ ok: false, error: { code: "own" } });
    expect(await helpfulCount()).toBe(2);
    // the review must belong to the product in the URL
    expect(await vote(bob.id, "helpful", phone)).toEqual({ ok: false, error: { code: "not-found" } });
    expect(
      await voteOnReview(t.db, { productId: fresh, reviewId: 999_999, userId: bob.id, kind: "helpful" }),
    ).toEqual({
      ok: false,
      error: { code: "not-found" },
    });
    const shown = await listProductReviews(t.db, fresh);
    expect(shown.find((r) => r.id === reviewId)?.helpfulCount).toBe(2);
    expect(await listUserVotes(t.db, bob.id, [reviewId, 999_999])).toEqual({
      helpful: [reviewId],
      reported: [],
    });
  });

  it("Report flags the review for the admins, once per user", async () => {
    const own = await findUserReview(t.db, { productId: fresh, userId: ada.id });
    if (!own) throw new Error("no review");
    const reported = async () =>
      Number(
        (
          await t.db
            .selectFrom("reviews")
            .select("reported")
            .where("id", "=", own.id)
            .executeTakeFirstOrThrow()
        ).reported,
      );
    expect(await reported()).toBe(0);
    expect(
      await voteOnReview(t.db, { productId: fresh, reviewId: own.id, userId: bob.id, kind: "report" }),
    ).toEqual({
      ok: true,
      value: { reviewId: own.id },
    });
    expect(await reported()).toBe(1);
    expect(
      await voteOnReview(t.db, { productId: fresh, reviewId: own.id, userId: bob.id, kind: "report" }),
    ).toEqual({
      ok: false,
      error: { code: "already" },
    });
    expect(await listUserVotes(t.db, bob.id, [own.id])).toEqual({ helpful: [own.id], reported: [own.id] });
    const votes = await t.db
      .selectFrom("reviewVotes")
      .select("kind")
      .where("reviewId", "=", own.id)
      .where("kind", "=", "report")
      .execute();
    expect(votes).toHaveLength(1);
    // deleting the review takes its votes with it
    await deleteReview(t.db, { productId: fresh, userId: ada.id });
    expect(
      await t.db.selectFrom("reviewVotes").select("kind").where("reviewId", "=", own.id).execute(),
    ).toEqual([]);
  });

  it("stores markup as the text it is", async () => {
    await saveReview(t.db, {
      productId: fresh,
      user: bob,
      review: { rating: 2, title: MARKUP_TITLE, body: MARKUP_BODY },
    });
    const shown = await listProductReviews(t.db, fresh);
    expect(shown.find((r) => r.title === MARKUP_TITLE)?.body).toBe(MARKUP_BODY);
  });
});
