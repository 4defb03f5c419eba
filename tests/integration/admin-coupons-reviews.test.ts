import { parseWithZod } from "@conform-to/zod/v4";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAuditLog } from "../../app/domain/audit/audit-list.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { COUPON_MESSAGES } from "../../app/domain/coupons/coupon-rules.ts";
import {
  getAdminPromotion,
  listAdminPromotions,
  setPromotionActive,
} from "../../app/domain/promotions/promotion-admin.server.ts";
import { listProductReviews } from "../../app/domain/reviews/list-reviews.server.ts";
import {
  listReportedReviews,
  moderateReview,
  REPORTED_REVIEW_MESSAGES,
  reviewModerationSchema,
} from "../../app/domain/reviews/reported-reviews.server.ts";
import { listUserVotes, voteOnReview } from "../../app/domain/reviews/review-votes.server.ts";
import { saveReview } from "../../app/domain/reviews/write-review.server.ts";
import { createTestDatabase, ENGINES, type TestDatabase } from "../db-utils.ts";
import { insertUser } from "../helpers/account-fixtures.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { applyCoupon, insertCoupon } from "../helpers/coupons.ts";
import { SPEC_SHOP } from "../helpers/spec-pricing.ts";

const ACTOR = { id: "admin-user-1", email: "admin@example.com" };

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

/**
 * What /admin/reviews does with a moderation form: parse it with the form's schema (a refusal is
 * the route's 400, checked in admin-coupons-reviews-routes.test.ts), then moderate.
 */
async function moderateFromForm(db: TestDatabase["db"], fields: Record<string, string>) {
  const submission = parseWithZod(form(fields), { schema: reviewModerationSchema });
  if (submission.status !== "success") return { ok: false, error: { code: "bad-request" } } as const;
  return moderateReview(db, { ...submission.value, actor: ACTOR });
}

describe.each(ENGINES)("coupons in the admin (promotions with a code) on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  async function cartWorth(priceCents: number) {
    const productId = await insertProduct(t.db, { priceCents, stock: 50 });
    const cartId = newCartId();
    expect(await addToCart(t.db, { cartId, productId, quantity: 1 })).toMatchObject({
      ok: true,
      value: { outcome: "added" },
    });
    return cartId;
  }

  it("lists the coupons among the promotions with a code, with their uses (Admin → Coupons)", async () => {
    await insertCoupon(t.db, { code: "AUTUMN-20", amount: 20, usageLimit: 5, usedCount: 2 });
    await t.db
      .insertInto("promotions")
      .values({
        name: "Automatic ten",
        code: null,
        action: JSON.stringify({ type: "order-percent", basisPoints: 1_000 }),
        createdAt: "2026-01-01T00:00:00.000Z",
        updatedAt: "2026-01-01T00:00:00.000Z",
      })
      .execute();
    const { promotions } = await listAdminPromotions(t.db, { withCode: true });
    expect(promotions.map((p) => [p.code, p.usedCount, p.usageLimit, p.status])).toEqual([
      ["AUTUMN-20", 2, 5, "active"],
    ]);
    const all = await listAdminPromotions(t.db);
    expect(all.promotions.map((p) => p.name)).toEqual(["Coupon AUTUMN-20", "Automatic ten"]);
    await t.db.deleteFrom("promotions").where("name", "=", "Automatic ten").execute();
  });

  it("a disabled coupon is refused at the cart, and a cart that carried it loses the discount", async () => {
    const id = await insertCoupon(t.db, { code: "SOON-OFF", amount: 20 });
    const carrying = await cartWorth(4_000);
    expect((await applyCoupon(t.db, { cartId: carrying, code: "SOON-OFF" })).ok).toBe(true);
    expect((await getCart(t.db, carrying, SPEC_SHOP)).totals.discountCents).toBe(800);

    // disabled (Admin → Promotions, the promotion's page)
    const disabled = await setPromotionActive(t.db, { id, active: false, actor: ACTOR });
    expect(disabled).toMatchObject({ ok: true, value: { name: "Coupon SOON-OFF", changed: true } });
    expect((await getAdminPromotion(t.db, id))?.promotion).toMatchObject({
      active: false,
      status: "disabled",
    });

    const fresh = await cartWorth(4_000);
    expect(await applyCoupon(t.db, { cartId: fresh, code: "soon-off" })).toEqual({
      ok: false,
      error: { code: "refused", message: COUPON_MESSAGES.notFound },
    });
    const cart = await getCart(t.db, carrying, SPEC_SHOP);
    expect(cart.coupon).toBeNull();
    expect(cart.couponProblem).toEqual({ code: "SOON-OFF", message: COUPON_MESSAGES.notFound });
    expect(cart.totals.discountCents).toBe(0);

    // disabling again changes and records nothing; enabling brings it back
    expect(await setPromotionActive(t.db, { id, active: false, actor: ACTOR })).toMatchObject({
      ok: true,
      value: { changed: false },
    });
    expect(await setPromotionActive(t.db, { id, active: true, actor: ACTOR })).toMatchObject({
      ok: true,
      value: { changed: true },
    });
    expect((await applyCoupon(t.db, { cartId: fresh, code: "SOON-OFF" })).ok).toBe(true);
    const { entries } = await listAuditLog(t.db, { entity: { type: "promotion", id: String(id) } });
    expect(entries.map((e) => e.action)).toEqual(["promotion.enable", "promotion.disable"]);
  });
  // creating and editing one: promotions-admin.test.ts (the form is the promotions'); the old
  // addresses' redirects: admin-coupons-reviews-routes.test.ts
});

describe.each(ENGINES)("reported reviews on %s", (engine) => {
  let t: TestDatabase;
  let author: string;
  let reporters: string[];
  beforeAll(async () => {
    t = await createTestDatabase(engine);
    author = await insertUser(t.db, "author@example.com", "Ava Author");
    reporters = [await insertUser(t.db, "r1@example.com"), await insertUser(t.db, "r2@example.com")];
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const figures = async (productId: number) => {
    const row = await t.db
      .selectFrom("products")
      .select(["rating", "reviewCount"])
      .where("id", "=", productId)
      .executeTakeFirstOrThrow();
    return { rating: Number(row.rating), reviewCount: Number(row.reviewCount) };
  };

  /** A product rated 4.0 from 1 historical review, plus a written one reported by both reporters. */
  async function reportedReview(rating: 1 | 2 | 3 | 4 | 5, title = "Terrible <b>thing</b>") {
    const productId = await insertProduct(t.db, { rating: 4, reviewCount: 1 });
    const saved = await saveReview(t.db, {
      productId,
      user: { id: author, displayName: "Ava Author" },
      review: { rating, title, body: "Line one\n<script>alert(1)</script>" },
    });
    if (!saved.ok) throw new Error("not saved");
    const { reviewId } = saved.value;
    for (const userId of reporters) {
      expect(await voteOnReview(t.db, { productId, reviewId, userId, kind: "report" })).toEqual({
        ok: true,
        value: { reviewId },
      });
    }
    return { productId, reviewId };
  }

  it("lists reported reviews with product, author, rating, text and how many reported them", async () => {
    const { productId, reviewId } = await reportedReview(1);
    const { reviews } = await listReportedReviews(t.db);
    const listed = reviews.find((r) => r.id === reviewId);
    expect(listed).toMatchObject({
      productId,
      productName: expect.stringMatching(/^Test Product/),
      authorName: "Ava Author",
      rating: 1,
      title: "Terrible <b>thing</b>",
      body: "Line one\n<script>alert(1)</script>",
      reports: 2,
    });
    expect(typeof listed?.createdAt).toBe("string");
  });

  it("Remove deletes the review and its votes; rating and count move back; audited with the text", async () => {
    const { productId, reviewId } = await reportedReview(1);
    expect(await figures(productId)).toEqual({ rating: 2.5, reviewCount: 2 });
    const outcome = await moderateFromForm(t.db, { intent: "remove", reviewId: String(reviewId) });
    expect(outcome).toEqual({ ok: true, value: "removed" });
    expect(REPORTED_REVIEW_MESSAGES[outcome.ok ? outcome.value : "notFound"]).toBe("Review removed.");
    expect(await figures(productId)).toEqual({ rating: 4, reviewCount: 1 });
    expect(
      await t.db.selectFrom("reviews").select("id").where("id", "=", reviewId).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await t.db.selectFrom("reviewVotes").select("reviewId").where("reviewId", "=", reviewId).execute(),
    ).toEqual([]);
    expect((await listReportedReviews(t.db)).reviews.map((r) => r.id)).not.toContain(reviewId);
    expect(await listProductReviews(t.db, productId)).toEqual([]);
    const { entries } = await listAuditLog(t.db, { entity: { type: "review", id: String(reviewId) } });
    expect(entries[0]).toMatchObject({ action: "review.remove", actorEmail: ACTOR.email });
    expect(JSON.parse(entries[0]?.before ?? "{}")).toMatchObject({
      title: "Terrible <b>thing</b>",
      rating: 1,
      product: { rating: 2.5, reviewCount: 2 },
    });

    // a second Remove (an old page) finds nothing and changes nothing
    expect(await moderateFromForm(t.db, { intent: "remove", reviewId: String(reviewId) })).toEqual({
      ok: false,
      error: { code: "not-found" },
    });
    expect(await figures(productId)).toEqual({ rating: 4, reviewCount: 1 });
  });

  it("removing the only review of a product leaves rating 0 and count 0", async () => {
    const productId = await insertProduct(t.db, { rating: 0, reviewCount: 0 });
    const saved = await saveReview(t.db, {
      productId,
      user: { id: author, displayName: "Ava Author" },
      review: { rating: 5, title: "Only one", body: "Great." },
    });
    if (!saved.ok) throw new Error("not saved");
    await voteOnReview(t.db, {
      productId,
      reviewId: saved.value.reviewId,
      userId: reporters[0]!,
      kind: "report",
    });
    expect(await figures(productId)).toEqual({ rating: 5, reviewCount: 1 });
    await moderateFromForm(t.db, { intent: "remove", reviewId: String(saved.value.reviewId) });
    expect(await figures(productId)).toEqual({ rating: 0, reviewCount: 0 });
  });

  it("Keep clears the flag and the report votes: the review leaves the list and stays on the product", async () => {
    const { productId, reviewId } = await reportedReview(2, "Kept review");
    await voteOnReview(t.db, { productId, reviewId, userId: reporters[0]!, kind: "helpful" });
    const outcome = await moderateFromForm(t.db, { intent: "keep", reviewId: String(reviewId) });
    expect(outcome).toEqual({ ok: true, value: "kept" });
    expect(REPORTED_REVIEW_MESSAGES[outcome.ok ? outcome.value : "notFound"]).toBe(
      "Review kept: the reports were cleared.",
    );
    expect((await listReportedReviews(t.db)).reviews.map((r) => r.id)).not.toContain(reviewId);
    const row = await t.db
      .selectFrom("reviews")
      .select(["reported", "helpfulCount"])
      .where("id", "=", reviewId)
      .executeTakeFirstOrThrow();
    expect([Number(row.reported), Number(row.helpfulCount)]).toEqual([0, 1]);
    // report votes gone, the helpful vote kept; the figures untouched
    expect(await listUserVotes(t.db, reporters[0]!, [reviewId])).toEqual({
      helpful: [reviewId],
      reported: [],
    });
    expect(await figures(productId)).toEqual({ rating: 3, reviewCount: 2 });
    expect((await listProductReviews(t.db, productId)).map((r) => r.id)).toEqual([reviewId]);
    const { entries } = await listAuditLog(t.db, { entity: { type: "review", id: String(reviewId) } });
    // newest first (SQLite may give a new review the id of a removed one: the summary tells them apart)
    expect(entries[0]).toMatchObject({
      action: "review.keep",
      summary: expect.stringContaining("Kept review"),
    });
    expect(JSON.parse(entries[0]?.before ?? "{}")).toEqual({ reported: true, reports: 2 });

    // keeping it again (not reported any more) is refused; a new report brings it back
    expect(await moderateFromForm(t.db, { intent: "keep", reviewId: String(reviewId) })).toMatchObject({
      ok: false,
      error: { code: "not-found" },
    });
    await voteOnReview(t.db, { productId, reviewId, userId: reporters[1]!, kind: "report" });
    expect((await listReportedReviews(t.db)).reviews.map((r) => r.id)).toContain(reviewId);
  });

  it("refuses a review that was never reported, and malformed forms", async () => {
    const productId = await insertProduct(t.db);
    const saved = await saveReview(t.db, {
      productId,
      user: { id: reporters[1]!, displayName: "Quiet" },
      review: { rating: 4, title: "Fine", body: "Fine." },
    });
    if (!saved.ok) throw new Error("not saved");
    for (const intent of ["keep", "remove"]) {
      expect(await moderateFromForm(t.db, { intent, reviewId: String(saved.value.reviewId) })).toMatchObject({
        ok: false,
        error: { code: "not-found" },
      });
    }
    for (const fields of [
      { intent: "remove" } as Record<string, string>,
      { intent: "nuke", reviewId: "1" },
      { intent: "keep", reviewId: "1; drop" },
    ]) {
      expect(await moderateFromForm(t.db, fields)).toMatchObject({
        ok: false,
        error: { code: "bad-request" },
      });
    }
    expect(
      await t.db.selectFrom("reviews").select("id").where("id", "=", saved.value.reviewId).executeTakeFirst(),
    ).toBeDefined();
  });
});
