import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../app/db/database.server.ts";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import { voteOnReview } from "../../app/domain/reviews/review-votes.server.ts";
import { saveReview } from "../../app/domain/reviews/write-review.server.ts";
import * as couponsRoute from "../../app/routes/admin.coupons._index.tsx";
import * as couponRoute from "../../app/routes/admin.coupons.$id.tsx";
import * as newCouponRoute from "../../app/routes/admin.coupons.new.tsx";
import * as reviewsRoute from "../../app/routes/admin.reviews.tsx";
import { cookieHeader, insertUser } from "../helpers/account-fixtures.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { insertCoupon } from "../helpers/coupons.ts";
import { callRoute, routeStatus } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/** A refused admin form's answer: Conform's submission result (form message, field messages, values). */
type Refusal = { result: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> } };
const refusalMessage = (data: unknown) => (data as Refusal).result.error?.[""]?.[0];

/**
 * The coupon and reported-review admin routes called as the server calls them (the style of
 * admin-routes.test.ts): anonymous → redirect to sign in (and back), a customer → 403 with nothing
 * changed, for every loader and action; an admin gets through and the change is made. Coupons are
 * promotions with a code (migration 0780): their old addresses only lead to the promotions' pages.
 */
const ORIGIN = TEST_ORIGIN;
let shop: TestShop;
let db: Database;
let customerCookie = "";
let adminCookie = "";
/** the coupon's id before migration 0780, and the promotion it became */
const couponId = 7;
let promotionId = 0;
let reviewId = 0;
let productId = 0;
let customerId = "";

type RouteModule = { loader?: (args: never) => unknown; action?: (args: never) => unknown };
const modules: Record<string, RouteModule> = {
  "/admin/coupons": couponsRoute,
  "/admin/coupons/new": newCouponRoute,
  "/admin/coupons/:id": couponRoute,
  "/admin/reviews": reviewsRoute,
};

/** What the review list's action would do if it were let through: remove (the coupon routes have none). */
function bodyFor(_pattern: string): Record<string, string> {
  return { intent: "remove", reviewId: String(reviewId), confirm: "yes" };
}

beforeAll(async () => {
  shop = await createTestShop("sqlite");
  db = shop.db;
  const auth = shop.services.auth;
  for (const role of ["customer", "admin"] as const) {
    const email = `${role}@example.com`;
    await createOrUpdateUser({ auth, db }, { email, password: "correct horse", role });
    const { headers } = await auth.api.signInEmail({
      body: { email, password: "correct horse" },
      returnHeaders: true,
    });
    if (role === "admin") adminCookie = cookieHeader(headers);
    else customerCookie = cookieHeader(headers);
  }
  customerId = (
    await db
      .selectFrom("users")
      .select("id")
      .where("email", "=", "customer@example.com")
      .executeTakeFirstOrThrow()
  ).id;
});

let authorSequence = 0;

/**
 * Each test starts from the same rows: the one coupon GUARDED10 (a promotion made from coupon 7 by
 * migration 0780; no other promotion), a product with one reported review, and an empty audit log.
 * The tests that remove change only their own copies, in any order.
 */
beforeEach(async () => {
  await db.deleteFrom("auditLog").execute();
  await db.deleteFrom("promotions").execute();
  promotionId = await insertCoupon(db, { code: "GUARDED10" }, "2026-11-01T00:00:00.000Z");
  await db.updateTable("promotions").set({ couponId }).where("id", "=", promotionId).execute();
  productId = await insertProduct(db, { name: "Reviewed Product", rating: 4, reviewCount: 1 });
  authorSequence++;
  const author = await insertUser(db, `author-${authorSequence}@example.com`, "Ava Author");
  const saved = await saveReview(db, {
    productId,
    user: { id: author, displayName: "Ava Author" },
    review: { rating: 2, title: "Reported one", body: "Text." },
  });
  if (!saved.ok) throw new Error("review not saved");
  reviewId = saved.value.reviewId;
  expect(await voteOnReview(db, { productId, reviewId, userId: customerId, kind: "report" })).toEqual({
    ok: true,
    value: { reviewId },
  });
});

afterAll(async () => {
  await shop?.destroy();
});

function pathOf(pattern: string) {
  return pattern.replace(":id", String(couponId));
}

async function call(pattern: string, kind: "loader" | "action", cookie: string) {
  const module = modules[pattern]!;
  return routeStatus(module, kind, `${ORIGIN}${pathOf(pattern)}`, {
    cookie,
    fields: kind === "action" ? bodyFor(pattern) : undefined,
    params: { id: String(couponId) },
    context: shop.context(),
  });
}

async function unchanged() {
  const coupons = await db.selectFrom("promotions").select(["code", "action", "active"]).execute();
  expect(coupons).toEqual([
    { code: "GUARDED10", action: JSON.stringify({ type: "order-percent", basisPoints: 1_000 }), active: 1 },
  ]);
  const review = await db
    .selectFrom("reviews")
    .select("reported")
    .where("id", "=", reviewId)
    .executeTakeFirst();
  expect(Number(review?.reported)).toBe(1);
  const product = await db
    .selectFrom("products")
    .select(["rating", "reviewCount"])
    .where("id", "=", productId)
    .executeTakeFirstOrThrow();
  expect([Number(product.rating), Number(product.reviewCount)]).toEqual([3, 2]);
  expect(await db.selectFrom("auditLog").select("id").execute()).toEqual([]);
}

describe("admin coupon and review routes", () => {
  const patterns = Object.keys(modules);

  it.each(patterns)(
    "%s: an anonymous visitor is sent to sign in (loader and action), never data",
    async (pattern) => {
      for (const kind of ["loader", "action"] as const) {
        const outcome = await call(pattern, kind, "");
        // the coupons' old addresses answer GET only (no action: a POST there is 405)
        if (kind === "action" && pattern.startsWith("/admin/coupons")) {
          expect(outcome).toBeNull();
          continue;
        }
        expect(outcome, `${kind} of ${pattern}`).not.toBeNull();
        expect(outcome?.status, `${kind} of ${pattern}`).toBe(302);
        expect(outcome?.location).toBe(`/account?redirectTo=${encodeURIComponent(pathOf(pattern))}`);
      }
      await unchanged();
    },
  );

  it.each(patterns)("%s: a customer gets 403 (loader and action), and nothing changes", async (pattern) => {
    for (const kind of ["loader", "action"] as const) {
      const outcome = await call(pattern, kind, customerCookie);
      if (kind === "action" && pattern.startsWith("/admin/coupons")) {
        expect(outcome).toBeNull();
        continue;
      }
      expect(outcome, `${kind} of ${pattern}`).toMatchObject({ status: 403, thrown: true });
    }
    await unchanged();
  });

  it("an admin reaches every page: the coupons' old addresses lead to the promotions with a code", async () => {
    expect(await call("/admin/reviews", "loader", adminCookie)).toMatchObject({ status: 200 });
    expect(await call("/admin/coupons", "loader", adminCookie)).toMatchObject({
      status: 302,
      location: "/admin/promotions?with=code",
    });
    expect(await call("/admin/coupons/new", "loader", adminCookie)).toMatchObject({
      status: 302,
      location: "/admin/promotions/new?type=order-percent&coupon=1",
    });
    expect(await call("/admin/coupons/:id", "loader", adminCookie)).toMatchObject({
      status: 302,
      location: `/admin/promotions/${promotionId}`,
    });
    const gone = await routeStatus(couponRoute, "loader", `${ORIGIN}/admin/coupons/999999`, {
      cookie: adminCookie,
      params: { id: "999999" },
      context: shop.context(),
    });
    expect(gone).toMatchObject({ status: 404, thrown: true });
    await unchanged();
  });

  it("disable and remove without the confirm step's field are refused with 400, and nothing changes", async () => {
    // (disabling a coupon is the promotion's page's: promotions-admin.test.ts)
    const attempts: [string, Record<string, string>][] = [
      ["/admin/reviews", { intent: "remove", reviewId: String(reviewId) }],
    ];
    for (const [pattern, fields] of attempts) {
      const module = modules[pattern]!;
      const answer = await callRoute(module, "action", `${ORIGIN}${pathOf(pattern)}`, {
        cookie: adminCookie,
        fields,
        params: { id: String(couponId) },
        context: shop.context(),
      });
      expect(answer.status, `${pattern} ${JSON.stringify(fields)}`).toBe(400);
      expect(refusalMessage(answer.data)).toMatch(
        /^The (coupon|review) was not (disabled|removed): confirm with “Yes, (disable coupon|remove review)”/,
      );
    }
    await unchanged();
  });

  it("an admin's actions go through: remove (rating follows), audited", async () => {
    expect(await call("/admin/reviews", "action", adminCookie)).toMatchObject({
      status: 302,
      location: "/admin/reviews",
    });
    expect(
      await db.selectFrom("reviews").select("id").where("id", "=", reviewId).executeTakeFirst(),
    ).toBeUndefined();
    const product = await db
      .selectFrom("products")
      .select(["rating", "reviewCount"])
      .where("id", "=", productId)
      .executeTakeFirstOrThrow();
    expect([Number(product.rating), Number(product.reviewCount)]).toEqual([4, 1]);
    const audit = await db.selectFrom("auditLog").select(["action", "actorEmail"]).orderBy("id").execute();
    expect(audit).toEqual([{ action: "review.remove", actorEmail: "admin@example.com" }]);
  });
});

describe("admin review refusals: status, message beside the field, nothing changed", () => {
  const post = async (pattern: string, fields: Record<string, string>, id = String(couponId)) => {
    const module = modules[pattern]!;
    return callRoute(module, "action", `${ORIGIN}${pattern.replace(":id", id)}`, {
      cookie: adminCookie,
      fields,
      params: { id },
      context: shop.context(),
    });
  };
  const auditCount = async () => (await db.selectFrom("auditLog").select("id").execute()).length;

  it("reviews: one not (or no longer) reported is 404, a malformed form 400", async () => {
    // this test's reported review, removed by an admin: no longer in the reported list
    const removed = await post("/admin/reviews", {
      intent: "remove",
      reviewId: String(reviewId),
      confirm: "yes",
    });
    expect(removed.response?.status).toBe(302);
    const before = await auditCount();
    for (const intent of ["keep", "remove"]) {
      const answer = await post("/admin/reviews", { intent, reviewId: String(reviewId), confirm: "yes" });
      expect(answer.status, intent).toBe(404);
      expect(refusalMessage(answer.data)).toBe("That review is no longer in the reported list.");
    }
    for (const fields of [
      { intent: "keep" } as Record<string, string>,
      { intent: "nuke", reviewId: "1" },
      { intent: "keep", reviewId: "1; drop" },
    ]) {
      const answer = await post("/admin/reviews", fields);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(refusalMessage(answer.data)).toBe("Unknown action.");
    }
    expect(await auditCount()).toBe(before);
  });
});
