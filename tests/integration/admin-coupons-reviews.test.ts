import { parseWithZod } from "@conform-to/zod/v4";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAuditLog } from "../../app/domain/audit/audit-list.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import {
  createCoupon,
  getAdminCoupon,
  listAdminCoupons,
  setCouponActive,
  updateCoupon,
} from "../../app/domain/coupons/coupon-admin.server.ts";
import { COUPON_FORM_MESSAGES } from "../../app/domain/coupons/coupon-form.ts";
import { COUPON_MESSAGES } from "../../app/domain/coupons/coupon-rules.ts";
import { couponActionSchema, couponFormSchema } from "../../app/domain/coupons/coupon-schema.server.ts";
import { applyCouponToCart } from "../../app/domain/coupons/coupons.server.ts";
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

const COUPON = {
  code: "Autumn-20",
  kind: "percent",
  value: "20",
  minSubtotal: "10.00",
  usageLimit: "5",
  validThrough: "2099-12-31",
};

describe.each(ENGINES)("admin coupons on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  /**
   * The new-coupon form as /admin/coupons/new reads it (the form's schema), then created. The
   * route's statuses and messages for each refusal: admin-coupons-reviews-routes.test.ts.
   */
  async function create(fields: Record<string, string> = COUPON) {
    const submission = parseWithZod(form(fields), { schema: couponFormSchema });
    if (submission.status !== "success") {
      const fieldErrors = Object.fromEntries(
        Object.entries(submission.error ?? {}).map(([field, messages]) => [field, messages?.[0]]),
      );
      return { ok: false, error: { code: "invalid", fieldErrors } } as const;
    }
    return createCoupon(t.db, { input: submission.value, actor: ACTOR });
  }
  /** The edit page's forms as /admin/coupons/:id reads them, then applied. */
  async function edit(fields: Record<string, string>, id: number) {
    const submission = parseWithZod(form(fields), { schema: couponActionSchema });
    if (submission.status !== "success") throw new Error(`refused: ${JSON.stringify(submission.error)}`);
    const value = submission.value;
    if (value.intent === "update") return updateCoupon(t.db, { id, input: value.terms, actor: ACTOR });
    return setCouponActive(t.db, { id, active: value.intent === "enable", actor: ACTOR });
  }
  async function cartWorth(priceCents: number) {
    const productId = await insertProduct(t.db, { priceCents, stock: 50 });
    const cartId = newCartId();
    expect(await addToCart(t.db, { cartId, productId, quantity: 1 })).toMatchObject({
      ok: true,
      value: { outcome: "added" },
    });
    return cartId;
  }

  it("creates a coupon (code upper-cased), lists it with its usage, and records it", async () => {
    const outcome = await create();
    expect(outcome).toMatchObject({ ok: true, value: { code: "AUTUMN-20" } });
    if (!outcome.ok) return;
    expect(COUPON_FORM_MESSAGES.created(outcome.value.code)).toBe("Coupon AUTUMN-20 created");
    const coupon = await getAdminCoupon(t.db, outcome.value.id);
    expect(coupon).toMatchObject({
      code: "AUTUMN-20",
      kind: "percent",
      amount: 20,
      minSubtotalCents: 1_000,
      usageLimit: 5,
      usedCount: 0,
      expiresAt: "2100-01-01T00:00:00.000Z",
      active: true,
      state: "active",
    });
    const { coupons } = await listAdminCoupons(t.db);
    expect(coupons.map((c) => c.code)).toContain("AUTUMN-20");
    const { entries } = await listAuditLog(t.db, {
      entity: { type: "coupon", id: String(outcome.value.id) },
    });
    expect(entries).toMatchObject([
      { action: "coupon.create", actorEmail: ACTOR.email, summary: "Created coupon AUTUMN-20" },
    ]);
    expect(JSON.parse(entries[0]?.after ?? "{}")).toMatchObject({
      code: "AUTUMN-20",
      amount: 20,
      active: true,
    });

    // and a shopper can use it at once
    const cartId = await cartWorth(5_000);
    expect(
      await applyCouponToCart(t.db, { cartId, code: "autumn-20", subtotalCents: 5_000, currency: "USD" }),
    ).toMatchObject({
      ok: true,
      value: { discountCents: 1_000 },
    });
  });

  it("refuses a code that exists, whatever its case, beside the code field; nothing is written", async () => {
    const before = await listAdminCoupons(t.db);
    for (const code of ["AUTUMN-20", "autumn-20", " Autumn-20 "]) {
      const outcome = await create({ ...COUPON, code });
      // 409 with the message beside the code, shown upper-cased: the routes test
      expect(outcome).toMatchObject({ ok: false, error: { code: "code-taken" } });
    }
    expect((await listAdminCoupons(t.db)).coupons).toHaveLength(before.coupons.length);
  });

  it("refuses invalid fields with messages beside them and writes nothing", async () => {
    const outcome = await create({
      code: "x",
      kind: "fixed",
      value: "0",
      minSubtotal: "-1",
      usageLimit: "0",
      validThrough: "2027-02-30",
    });
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        code: "invalid",
        fieldErrors: {
          code: COUPON_FORM_MESSAGES.codeFormat,
          value: COUPON_FORM_MESSAGES.fixed,
          minSubtotal: COUPON_FORM_MESSAGES.minSubtotal,
          usageLimit: COUPON_FORM_MESSAGES.usageLimit,
          validThrough: COUPON_FORM_MESSAGES.expiry,
        },
      },
    });
    const audit = await listAuditLog(t.db);
    expect(audit.entries.filter((e) => e.action === "coupon.create")).toHaveLength(1);
  });

  it("edits the terms (not the code), audited with before and after", async () => {
    const created = await create({ ...COUPON, code: "EDIT-ME" });
    if (!created.ok) throw new Error("not created");
    const outcome = await edit(
      {
        intent: "update",
        code: "HIJACK",
        kind: "fixed",
        value: "7.50",
        minSubtotal: "",
        usageLimit: "",
        validThrough: "",
      },
      created.value.id,
    );
    expect(outcome).toMatchObject({ ok: true, value: { code: "EDIT-ME" } });
    expect(await getAdminCoupon(t.db, created.value.id)).toMatchObject({
      code: "EDIT-ME",
      kind: "fixed",
      amount: 750,
      minSubtotalCents: 0,
      usageLimit: null,
      expiresAt: null,
    });
    const { entries } = await listAuditLog(t.db, {
      entity: { type: "coupon", id: String(created.value.id) },
    });
    expect(entries[0]).toMatchObject({ action: "coupon.update", summary: "Edited coupon EDIT-ME" });
    expect(JSON.parse(entries[0]?.before ?? "{}")).toMatchObject({ kind: "percent", amount: 20 });
    expect(JSON.parse(entries[0]?.after ?? "{}")).toMatchObject({ kind: "fixed", amount: 750 });

    // a limit below the uses already made is refused beside the field
    await t.db.updateTable("coupons").set({ usedCount: 3 }).where("id", "=", created.value.id).execute();
    expect(await edit({ ...COUPON, intent: "update", usageLimit: "2" }, created.value.id)).toMatchObject({
      ok: false,
      error: { code: "usage-below-used", used: 3 },
    });
    expect(COUPON_FORM_MESSAGES.usageBelowUsed(3)).toBe(
      "This coupon has been used 3 times; the limit cannot be lower.",
    );
    expect(await edit({ ...COUPON, intent: "update" }, 999_999)).toMatchObject({
      ok: false,
      error: { code: "not-found" },
    });
  });

  it("a disabled coupon is refused at the cart, and a cart that carried it loses the discount", async () => {
    const created = await create({ ...COUPON, code: "SOON-OFF", minSubtotal: "0" });
    if (!created.ok) throw new Error("not created");
    const carrying = await cartWorth(4_000);
    expect(
      (
        await applyCouponToCart(t.db, {
          cartId: carrying,
          code: "SOON-OFF",
          subtotalCents: 4_000,
          currency: "USD",
        })
      ).ok,
    ).toBe(true);
    expect((await getCart(t.db, carrying, SPEC_SHOP)).totals.discountCents).toBe(800);

    // disabled (from the list, the routes test: couponId in the form)
    const disabled = await edit({ intent: "disable", confirm: "yes" }, created.value.id);
    expect(disabled).toMatchObject({ ok: true, value: { code: "SOON-OFF", changed: true } });
    expect(await getAdminCoupon(t.db, created.value.id)).toMatchObject({ active: false, state: "disabled" });

    const fresh = await cartWorth(4_000);
    expect(
      await applyCouponToCart(t.db, {
        cartId: fresh,
        code: "soon-off",
        subtotalCents: 4_000,
        currency: "USD",
      }),
    ).toEqual({
      ok: false,
      error: { code: "not-found", message: COUPON_MESSAGES.notFound },
    });
    const cart = await getCart(t.db, carrying, SPEC_SHOP);
    expect(cart.coupon).toBeNull();
    expect(cart.couponProblem).toEqual({ code: "SOON-OFF", message: COUPON_MESSAGES.notFound });
    expect(cart.totals.discountCents).toBe(0);

    // disabling again changes and records nothing; enabling brings it back
    expect(await edit({ intent: "disable", confirm: "yes" }, created.value.id)).toMatchObject({
      ok: true,
      value: { changed: false },
    });
    expect(await edit({ intent: "enable" }, created.value.id)).toMatchObject({
      ok: true,
      value: { code: "SOON-OFF", changed: true },
    });
    expect(
      (
        await applyCouponToCart(t.db, {
          cartId: fresh,
          code: "SOON-OFF",
          subtotalCents: 4_000,
          currency: "USD",
        })
      ).ok,
    ).toBe(true);
    const { entries } = await listAuditLog(t.db, {
      entity: { type: "coupon", id: String(created.value.id) },
    });
    expect(entries.map((e) => e.action)).toEqual(["coupon.enable", "coupon.disable", "coupon.create"]);
  });
  // unknown intents and coupons: admin-coupons-reviews-routes.test.ts (statuses 400 and 404)
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
