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
import { callRoute, routeStatus } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/** A refused admin form's answer: Conform's submission result (form message, field messages, values). */
type Refusal = { result: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> } };
const refusalMessage = (data: unknown) => (data as Refusal).result.error?.[""]?.[0];

/**
 * The coupon and reported-review admin routes called as the server calls them (the style of
 * admin-routes.test.ts): anonymous → redirect to sign in (and back), a customer → 403 with nothing
 * changed, for every loader and action; an admin gets through and the change is made.
 */
const ORIGIN = TEST_ORIGIN;
let shop: TestShop;
let db: Database;
let customerCookie = "";
let adminCookie = "";
let couponId = 0;
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

/** What each action would do if it were let through: disable, create, remove. */
function bodyFor(pattern: string): Record<string, string> {
  switch (pattern) {
    case "/admin/coupons":
      return { intent: "disable", couponId: String(couponId), confirm: "yes" };
    case "/admin/coupons/new":
      return {
        code: "SNEAKY50",
        kind: "percent",
        value: "50",
        minSubtotal: "0",
        usageLimit: "",
        validThrough: "",
      };
    case "/admin/coupons/:id":
      return {
        intent: "update",
        kind: "fixed",
        value: "999",
        minSubtotal: "0",
        usageLimit: "",
        validThrough: "",
      };
    default:
      return { intent: "remove", reviewId: String(reviewId), confirm: "yes" };
  }
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
 * Each test starts from the same rows: the one coupon GUARDED10 (no other coupon), a product with
 * one reported review, and an empty audit log. The tests that edit, disable or remove change only
 * their own copies, in any order.
 */
beforeEach(async () => {
  await db.deleteFrom("auditLog").execute();
  await db.deleteFrom("coupons").execute();
  const at = "2026-11-01T00:00:00.000Z";
  couponId = (
    await db
      .insertInto("coupons")
      .values({
        code: "GUARDED10",
        kind: "percent",
        amount: 10,
        minSubtotalCents: 0,
        expiresAt: null,
        usageLimit: null,
        usedCount: 0,
        active: 1,
        createdAt: at,
        updatedAt: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
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
  const coupons = await db.selectFrom("coupons").select(["code", "kind", "amount", "active"]).execute();
  expect(coupons).toEqual([{ code: "GUARDED10", kind: "percent", amount: 10, active: 1 }]);
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
      expect(outcome, `${kind} of ${pattern}`).toMatchObject({ status: 403, thrown: true });
    }
    await unchanged();
  });

  it("an admin reaches every page", async () => {
    for (const pattern of patterns) {
      expect(await call(pattern, "loader", adminCookie), pattern).toMatchObject({ status: 200 });
    }
  });

  it("disable and remove without the confirm step's field are refused with 400, and nothing changes", async () => {
    const attempts: [string, Record<string, string>][] = [
      ["/admin/coupons", { intent: "disable", couponId: String(couponId) }],
      ["/admin/coupons/:id", { intent: "disable" }],
      ["/admin/coupons", { intent: "disable", couponId: String(couponId), confirm: "no" }],
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

  it("an admin's actions go through: create, edit, disable, remove (rating follows), each audited", async () => {
    expect(await call("/admin/coupons/new", "action", adminCookie)).toMatchObject({
      status: 302,
      location: "/admin/coupons",
    });
    expect(await call("/admin/coupons/:id", "action", adminCookie)).toMatchObject({
      status: 302,
      location: `/admin/coupons/${couponId}`,
    });
    expect(await call("/admin/coupons", "action", adminCookie)).toMatchObject({
      status: 302,
      location: "/admin/coupons",
    });
    expect(await call("/admin/reviews", "action", adminCookie)).toMatchObject({
      status: 302,
      location: "/admin/reviews",
    });
    const coupons = await db
      .selectFrom("coupons")
      .select(["code", "kind", "amount", "active"])
      .orderBy("code")
      .execute();
    expect(coupons).toEqual([
      { code: "GUARDED10", kind: "fixed", amount: 99_900, active: 0 },
      { code: "SNEAKY50", kind: "percent", amount: 50, active: 1 },
    ]);
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
    expect(audit).toEqual(
      ["coupon.create", "coupon.update", "coupon.disable", "review.remove"].map((action) => ({
        action,
        actorEmail: "admin@example.com",
      })),
    );
  });

  it("a refused coupon form answers 400 with the messages, not a redirect", async () => {
    const module = modules["/admin/coupons/new"]!;
    const request = new Request(`${ORIGIN}/admin/coupons/new`, {
      method: "POST",
      headers: { Cookie: adminCookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ code: "guarded10", kind: "percent", value: "0" }).toString(),
    });
    const result = (await (module.action as (args: unknown) => Promise<unknown>)({
      request,
      params: {},
      context: shop.context(),
    })) as { type?: string; init?: { status?: number }; data?: Refusal };
    expect(result.init?.status).toBe(400);
    expect(result.data?.result.error).toMatchObject({ value: ["Enter a whole percentage from 1 to 100."] });
    expect(refusalMessage(result.data)).toBe("Please correct the highlighted fields.");
  });
});

describe("admin coupon and review refusals: status, message beside the field, nothing changed", () => {
  const post = async (pattern: string, fields: Record<string, string>, id = String(couponId)) => {
    const module = modules[pattern]!;
    return callRoute(module, "action", `${ORIGIN}${pattern.replace(":id", id)}`, {
      cookie: adminCookie,
      fields,
      params: { id },
      context: shop.context(),
    });
  };
  const TERMS = {
    kind: "percent",
    value: "20",
    minSubtotal: "10.00",
    usageLimit: "5",
    validThrough: "2099-12-31",
  };
  const auditCount = async () => (await db.selectFrom("auditLog").select("id").execute()).length;

  it("a code that exists, whatever its case: 409 beside the code, shown upper-cased", async () => {
    const before = await auditCount();
    for (const code of ["GUARDED10", "guarded10", " Guarded10 "]) {
      const answer = await post("/admin/coupons/new", { code, ...TERMS });
      expect(answer.status, code).toBe(409);
      const { result } = answer.data as unknown as Refusal;
      expect(result.error).toMatchObject({ code: ["A coupon with this code already exists."] });
      expect(result.initialValue).toMatchObject({ code: "GUARDED10" });
      expect(refusalMessage(answer.data)).toBe("Please correct the highlighted fields.");
    }
    expect(await auditCount()).toBe(before);
  });

  it("invalid fields: 400 with every message beside its field", async () => {
    const answer = await post("/admin/coupons/new", {
      code: "x",
      kind: "fixed",
      value: "0",
      minSubtotal: "-1",
      usageLimit: "0",
      validThrough: "2027-02-30",
    });
    expect(answer.status).toBe(400);
    expect((answer.data as unknown as Refusal).result.error).toMatchObject({
      code: ["Use 3 to 32 letters, digits, hyphens or underscores, starting with a letter or digit."],
      value: ["Enter an amount greater than 0, in steps of 0.01 (at most $100,000)."],
      minSubtotal: ["Enter an amount of 0 or more, in steps of 0.01 (at most $100,000)."],
      usageLimit: ["Enter a whole number of 1 or more, or leave it empty for no limit."],
      validThrough: ["Enter a valid date, or leave it empty for no expiry."],
    });
  });

  it("a limit below the uses already made: 409 beside the limit; a coupon that is gone: 404", async () => {
    await db.updateTable("coupons").set({ usedCount: 3 }).where("id", "=", couponId).execute();
    const answer = await post("/admin/coupons/:id", { intent: "update", ...TERMS, usageLimit: "2" });
    expect(answer.status).toBe(409);
    expect((answer.data as unknown as Refusal).result.error).toMatchObject({
      usageLimit: ["This coupon has been used 3 times; the limit cannot be lower."],
    });
    const gone = await post("/admin/coupons/:id", { intent: "update", ...TERMS }, "999999");
    expect(gone.status).toBe(404);
    expect(refusalMessage(gone.data)).toBe("This coupon no longer exists.");
  });

  it("the list answers unknown intents and coupons without changing anything", async () => {
    const before = await auditCount();
    expect((await post("/admin/coupons", { intent: "delete", couponId: "1" })).status).toBe(400);
    expect((await post("/admin/coupons", { intent: "disable", confirm: "yes" })).status).toBe(400);
    const gone = await post("/admin/coupons", { intent: "disable", couponId: "999999", confirm: "yes" });
    expect(gone.status).toBe(404);
    expect(refusalMessage(gone.data)).toBe("This coupon no longer exists.");
    expect(await auditCount()).toBe(before);
  });

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
