import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import { recordAudit } from "../../app/domain/audit/audit-log.server.ts";
import * as auditRoute from "../../app/routes/admin.audit.tsx";
import * as promotionsRoute from "../../app/routes/admin.promotions._index.tsx";
import * as reviewsRoute from "../../app/routes/admin.reviews.tsx";
import { ENGINES } from "../db-utils.ts";
import { cookieHeader, insertUser } from "../helpers/account-fixtures.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { insertCoupon } from "../helpers/coupons.ts";
import { callRoute, type RouteModule } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * The coupons, reported reviews and audit lists (issue 20): search, each filter, each sort and the
 * paging through the routes' loaders on each engine, asserted on the rows and their order; query
 * values a hand-edited URL may carry (unknown sort, garbage dates, page=-3, a huge page, repeated
 * or bracketed names) answer 200 with the defaults; the moderation actions go back to the list as
 * it was filtered.
 */

/** A shop of its own with one signed-in admin (coupons, reviews and the audit log are theirs). */
async function adminShop(engine: (typeof ENGINES)[number], email: string) {
  const shop = await createTestShop(engine);
  const { auth } = shop.services;
  await createOrUpdateUser({ auth, db: shop.db }, { email, password: "correct horse", role: "admin" });
  const { headers } = await auth.api.signInEmail({
    body: { email, password: "correct horse" },
    returnHeaders: true,
  });
  return { shop, cookie: cookieHeader(headers) };
}

/** A loader's answer: its status and data (a thrown response or redirect fails the test). */
async function load<T>(shop: TestShop, cookie: string, module: RouteModule, path: string) {
  const answer = await callRoute(module, "loader", `${TEST_ORIGIN}${path}`, {
    cookie,
    context: shop.context(),
  });
  expect(answer.response?.status, path).toBeUndefined();
  return { status: answer.status, data: answer.data as unknown as T };
}

describe.each(ENGINES)("the admin's coupon list (the promotions with a code) on %s", (engine) => {
  let shop: TestShop;
  let cookie = "";

  type Page = {
    promotions: { name: string; code: string | null; status: string; usedCount: number }[];
    page: number;
    hasMore: boolean;
    withCode: boolean;
  };
  const list = async (query: string) => {
    const { status, data } = await load<Page>(shop, cookie, promotionsRoute, `/admin/promotions${query}`);
    expect(status, query).toBe(200);
    return data;
  };

  beforeAll(async () => {
    ({ shop, cookie } = await adminShop(engine, "boss@coupon-list.example"));
    // one coupon per state as the cart sees it, and an automatic promotion (not a coupon)
    await insertCoupon(shop.db, { code: "ALPHA10", usedCount: 3 });
    await insertCoupon(shop.db, {
      code: "BRAVO5",
      kind: "fixed",
      amount: 500,
      expiresAt: "2099-01-01T00:00:00.000Z",
    });
    await insertCoupon(shop.db, {
      code: "CHARLIE",
      amount: 25,
      expiresAt: "2020-01-01T00:00:00.000Z",
      usedCount: 7,
    });
    await insertCoupon(shop.db, { code: "DELTA", kind: "fixed", amount: 2_000, usageLimit: 5, usedCount: 5 });
    await insertCoupon(shop.db, { code: "ECHO", amount: 50, usedCount: 1, active: 0 });
    await shop.db
      .insertInto("promotions")
      .values({
        name: "Automatic",
        action: JSON.stringify({ type: "order-percent", basisPoints: 500 }),
        active: 0,
        createdAt: "2026-11-01T00:00:00.000Z",
        updatedAt: "2026-11-01T00:00:00.000Z",
      })
      .execute();
  });

  afterAll(async () => {
    await shop?.destroy();
  });

  it("lists the coupons with their uses and states (as the cart sees them), and no automatic promotion", async () => {
    const page = await list("?with=code");
    expect(page.withCode).toBe(true);
    expect(page.promotions.map((p) => [p.code, p.usedCount, p.status])).toEqual([
      ["ALPHA10", 3, "active"],
      ["BRAVO5", 0, "active"],
      ["CHARLIE", 7, "ended"],
      ["DELTA", 5, "used-up"],
      ["ECHO", 1, "disabled"],
    ]);
    expect((await list("")).promotions.map((p) => p.name)).toContain("Automatic");
    // a malformed filter is the whole list
    expect((await list("?with=nonsense")).withCode).toBe(false);
  });

  it("pages by 50, keeping the filter", async () => {
    for (let n = 0; n < 48; n++) {
      await insertCoupon(shop.db, {
        code: `PAGE${String(n).padStart(2, "0")}`,
        kind: "fixed",
        amount: 100 + n,
      });
    }
    const first = await list("?with=code");
    const second = await list("?with=code&page=2");
    expect([first.promotions.length, first.hasMore, first.page]).toEqual([50, true, 1]);
    expect([second.promotions.length, second.hasMore, second.page]).toEqual([3, false, 2]);
    expect([...first.promotions, ...second.promotions].every((p) => p.code !== null)).toBe(true);
  });
});

describe.each(ENGINES)("the admin's reported reviews on %s", (engine) => {
  let shop: TestShop;
  let cookie = "";
  const ids: Record<string, number> = {};
  const reporters: string[] = [];

  type Page = {
    reviews: { id: number; title: string; reports: number; lastReportedAt: string }[];
    page: number;
    hasMore: boolean;
    search: string;
    rating: number | null;
    sort: string;
  };
  const titles = async (query: string) => {
    const { status, data } = await load<Page>(shop, cookie, reviewsRoute, `/admin/reviews${query}`);
    expect(status, query).toBe(200);
    return data.reviews.map((r) => r.title);
  };

  /** A review written on `writtenAt`, reported once at each of `reportedAt`. */
  async function insertReview(
    key: string,
    productId: number,
    review: { author: string; rating: number; title: string; body: string; writtenAt: string },
    reportedAt: string[],
  ) {
    const row = await shop.db
      .insertInto("reviews")
      .values({
        productId,
        userId: null,
        authorName: review.author,
        rating: review.rating,
        title: review.title,
        body: review.body,
        reported: reportedAt.length ? 1 : 0,
        createdAt: review.writtenAt,
        updatedAt: review.writtenAt,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    ids[key] = row.id;
    for (const [n, at] of reportedAt.entries()) {
      await shop.db
        .insertInto("reviewVotes")
        .values({ reviewId: row.id, userId: reporters[n]!, kind: "report", createdAt: at })
        .execute();
    }
  }

  beforeAll(async () => {
    ({ shop, cookie } = await adminShop(engine, "boss@review-list.example"));
    for (const name of ["rita", "rob", "ruth"]) {
      reporters.push(await insertUser(shop.db, `${name}@review-list.example`));
    }
    const lamp = await insertProduct(shop.db, { name: "Desk Lamp" });
    const chair = await insertProduct(shop.db, { name: "Oak Chair" });
    // written in the opposite order to their last report, so the two dates sort apart
    await insertReview(
      "broken",
      lamp,
      {
        author: "Ann",
        rating: 1,
        title: "Broken",
        body: "Arrived broken.",
        writtenAt: "2026-10-03T00:00:00.000Z",
      },
      ["2026-11-02T00:00:00.000Z", "2026-11-05T00:00:00.000Z"],
    );
    await insertReview(
      "great",
      chair,
      { author: "Ben", rating: 5, title: "Great", body: "Love it.", writtenAt: "2026-10-01T00:00:00.000Z" },
      ["2026-11-10T00:00:00.000Z"],
    );
    await insertReview(
      "meh",
      lamp,
      {
        author: "Cat",
        rating: 3,
        title: "Meh",
        body: "100% average.",
        writtenAt: "2026-10-05T00:00:00.000Z",
      },
      ["2026-10-20T00:00:00.000Z", "2026-10-25T00:00:00.000Z", "2026-11-01T00:00:00.000Z"],
    );
    await insertReview(
      "fine",
      chair,
      {
        author: "Dan",
        rating: 4,
        title: "Fine",
        body: "Not reported.",
        writtenAt: "2026-10-07T00:00:00.000Z",
      },
      [],
    );
  });

  afterAll(async () => {
    await shop?.destroy();
  });

  it("lists reported reviews only, with their report count and latest report, newest report first", async () => {
    const { data } = await load<Page>(shop, cookie, reviewsRoute, "/admin/reviews");
    expect(data.reviews.map((r) => [r.title, r.reports, r.lastReportedAt])).toEqual([
      ["Great", 1, "2026-11-10T00:00:00.000Z"],
      ["Broken", 2, "2026-11-05T00:00:00.000Z"],
      ["Meh", 3, "2026-11-01T00:00:00.000Z"],
    ]);
    expect([data.search, data.rating, data.sort, data.page]).toEqual(["", null, "reported-newest", 1]);
  });

  it("searches the product, the author, the title and the text; filters by rating", async () => {
    expect(await titles("?search=desk%20LAMP")).toEqual(["Broken", "Meh"]);
    expect(await titles("?search=ben")).toEqual(["Great"]);
    expect(await titles("?search=love")).toEqual(["Great"]);
    expect(await titles("?search=broken")).toEqual(["Broken"]);
    expect(await titles("?search=100%25")).toEqual(["Meh"]);
    expect(await titles("?search=not%20reported")).toEqual([]);
    expect(await titles("?rating=3")).toEqual(["Meh"]);
    expect(await titles("?rating=4")).toEqual([]);
    expect(await titles("?rating=1&search=lamp")).toEqual(["Broken"]);
  });

  it("sorts by the latest report, the number of reports and the rating", async () => {
    expect(await titles("?sort=reported-oldest")).toEqual(["Meh", "Broken", "Great"]);
    expect(await titles("?sort=reports-desc")).toEqual(["Meh", "Broken", "Great"]);
    expect(await titles("?sort=rating-asc")).toEqual(["Broken", "Meh", "Great"]);
    expect(await titles("?sort=rating-desc")).toEqual(["Great", "Meh", "Broken"]);
  });

  it("answers malformed query values with the defaults, never an error", async () => {
    for (const query of [
      "?rating=9&sort=helpful&page=-3",
      "?rating=0",
      "?rating=3.0&page=1e3",
      "?rating[]=3&sort[]=rating-asc",
      "?page=%00",
    ]) {
      const { status, data } = await load<Page>(shop, cookie, reviewsRoute, `/admin/reviews${query}`);
      expect(status, query).toBe(200);
      expect([data.rating, data.sort, data.page], query).toEqual([null, "reported-newest", 1]);
      expect(
        data.reviews.map((r) => r.title),
        query,
      ).toEqual(["Great", "Broken", "Meh"]);
    }
    const past = await load<Page>(shop, cookie, reviewsRoute, "/admin/reviews?page=5000");
    expect([past.status, past.data.reviews, past.data.hasMore]).toEqual([200, [], false]);
  });

  it("pages by 25, keeping the filters and the sort", async () => {
    const stool = await insertProduct(shop.db, { name: "Bar Stool" });
    for (let n = 0; n < 27; n++) {
      const day = String(n + 1).padStart(2, "0");
      await insertReview(
        `stool-${n}`,
        stool,
        {
          author: "Sam",
          rating: 2,
          title: `Stool ${day}`,
          body: "Wobbly.",
          writtenAt: "2026-09-01T00:00:00.000Z",
        },
        [`2026-08-${day}T00:00:00.000Z`],
      );
    }
    const first = await load<Page>(
      shop,
      cookie,
      reviewsRoute,
      "/admin/reviews?search=stool&sort=reported-oldest",
    );
    const second = await load<Page>(
      shop,
      cookie,
      reviewsRoute,
      "/admin/reviews?search=stool&sort=reported-oldest&page=2",
    );
    expect([first.data.reviews.length, first.data.hasMore]).toEqual([25, true]);
    expect([second.data.reviews.length, second.data.hasMore, second.data.page]).toEqual([2, false, 2]);
    expect([...first.data.reviews, ...second.data.reviews].map((r) => r.title)).toEqual(
      Array.from({ length: 27 }, (_, n) => `Stool ${String(n + 1).padStart(2, "0")}`),
    );
    // the whole list (30), most recently reported first: the stools were reported before the others
    expect(await titles("?page=2")).toEqual(["Stool 05", "Stool 04", "Stool 03", "Stool 02", "Stool 01"]);
  });

  it("keeping or removing a review from a filtered list goes back to that list", async () => {
    const kept = await callRoute(
      reviewsRoute,
      "action",
      `${TEST_ORIGIN}/admin/reviews?rating=5&sort=rating-asc`,
      {
        cookie,
        fields: { intent: "keep", reviewId: String(ids.great) },
        context: shop.context(),
      },
    );
    expect(kept.response?.status).toBe(302);
    expect(kept.response?.headers.get("Location")).toBe("/admin/reviews?rating=5&sort=rating-asc");
    expect(await titles("?rating=5")).toEqual([]);
    const removed = await callRoute(
      reviewsRoute,
      "action",
      `${TEST_ORIGIN}/admin/reviews?search=lamp&rating=x`,
      {
        cookie,
        fields: { intent: "remove", reviewId: String(ids.meh), confirm: "yes" },
        context: shop.context(),
      },
    );
    expect(removed.response?.headers.get("Location")).toBe("/admin/reviews?search=lamp");
    expect(await titles("?search=lamp")).toEqual(["Broken"]);
  });
});

describe.each(ENGINES)("the audit log on %s", (engine) => {
  let shop: TestShop;
  let cookie = "";

  type Page = {
    entries: { summary: string; createdAt: string }[];
    page: number;
    hasMore: boolean;
    actors: string[];
    search: string;
    action: string | null;
    actor: string | null;
    from: string | null;
    to: string | null;
    sort: string;
    productId: number | null;
  };
  const summaries = async (query: string) => {
    const { status, data } = await load<Page>(shop, cookie, auditRoute, `/admin/audit${query}`);
    expect(status, query).toBe(200);
    return data.entries.map((e) => e.summary);
  };

  const boss = { id: "boss-id", email: "boss@audit-list.example" };
  const packer = { id: "packer-id", email: "packer@audit-list.example" };

  beforeAll(async () => {
    ({ shop, cookie } = await adminShop(engine, "viewer@audit-list.example"));
    const entries = [
      [boss, "product.archive", "product", 12, 'Archived "Desk Lamp"', "2026-10-01T08:00:00.000Z"],
      [
        packer,
        "product.unarchive",
        "product",
        12,
        'Put "Desk Lamp" back on sale',
        "2026-10-02T09:00:00.000Z",
      ],
      [boss, "coupon.disable", "coupon", 3, "Disabled coupon SPRING", "2026-10-02T23:30:00.000Z"],
      [boss, "order.refund", "order", "CW-ABC123", "Refunded $5.00 of CW-ABC123", "2026-10-03T00:00:00.000Z"],
    ] as const;
    for (const [actor, action, entityType, entityId, summary, at] of entries) {
      await recordAudit(shop.db, { actor, action, entityType, entityId, summary, now: new Date(at) });
    }
  });

  afterAll(async () => {
    await shop?.destroy();
  });

  const ALL = [
    "Refunded $5.00 of CW-ABC123",
    "Disabled coupon SPRING",
    'Put "Desk Lamp" back on sale',
    'Archived "Desk Lamp"',
  ];

  it("lists newest first, or oldest first; offers the actors in the log", async () => {
    const { data } = await load<Page>(shop, cookie, auditRoute, "/admin/audit");
    expect(data.entries.map((e) => e.summary)).toEqual(ALL);
    expect(data.actors).toEqual([boss.email, packer.email]);
    expect(data.entries[0]?.createdAt).toBe("2026-10-03T00:00:00.000Z");
    expect(await summaries("?sort=oldest")).toEqual([...ALL].reverse());
  });

  it("filters by action, actor, the days from and to (both included), and one product", async () => {
    expect(await summaries("?action=product.unarchive")).toEqual(['Put "Desk Lamp" back on sale']);
    expect(await summaries("?action=coupon.enable")).toEqual([]);
    expect(await summaries(`?actor=${encodeURIComponent(packer.email)}`)).toEqual([
      'Put "Desk Lamp" back on sale',
    ]);
    expect(await summaries("?from=2026-10-02&to=2026-10-02")).toEqual([
      "Disabled coupon SPRING",
      'Put "Desk Lamp" back on sale',
    ]);
    expect(await summaries("?from=2026-10-03")).toEqual(["Refunded $5.00 of CW-ABC123"]);
    expect(await summaries("?to=2026-10-01")).toEqual(['Archived "Desk Lamp"']);
    expect(await summaries("?product=12&sort=oldest")).toEqual([
      'Archived "Desk Lamp"',
      'Put "Desk Lamp" back on sale',
    ]);
    expect(await summaries(`?product=12&actor=${encodeURIComponent(boss.email)}`)).toEqual([
      'Archived "Desk Lamp"',
    ]);
  });

  it("searches the actor's e-mail, the summary and the target's id", async () => {
    expect(await summaries("?search=PACKER")).toEqual(['Put "Desk Lamp" back on sale']);
    expect(await summaries("?search=desk%20lamp")).toEqual([
      'Put "Desk Lamp" back on sale',
      'Archived "Desk Lamp"',
    ]);
    expect(await summaries("?search=cw-abc123")).toEqual(["Refunded $5.00 of CW-ABC123"]);
    // "3" is coupon 3's id (and inside CW-ABC123); "$5" is text, not a pattern
    expect(await summaries("?search=3")).toEqual(["Refunded $5.00 of CW-ABC123", "Disabled coupon SPRING"]);
    expect(await summaries("?search=_")).toEqual([]);
  });

  it("answers malformed query values with the defaults, never an error", async () => {
    for (const query of [
      "?from=2026-02-30&to=yesterday&action=drop.tables&actor=%27%20or%201%3D1&sort=sideways&page=-3",
      "?from=10/02/2026&to=2026-13-01&product=-1",
      "?from=0001-01-01&to=99999-01-01&product=abc",
      "?action[]=product.archive&from[]=2026-10-02&page=99999999",
      "?actor=&action=&from=&to=&sort=&page=",
    ]) {
      const { status, data } = await load<Page>(shop, cookie, auditRoute, `/admin/audit${query}`);
      expect(status, query).toBe(200);
      expect(
        [data.action, data.actor, data.from, data.to, data.sort, data.productId, data.page],
        query,
      ).toEqual([null, null, null, null, "newest", null, 1]);
      expect(
        data.entries.map((e) => e.summary),
        query,
      ).toEqual(ALL);
    }
    const past = await load<Page>(shop, cookie, auditRoute, "/admin/audit?page=100000");
    expect([past.status, past.data.entries, past.data.hasMore]).toEqual([200, [], false]);
  });

  it("pages by 50, keeping the filters and the sort", async () => {
    for (let n = 0; n < 52; n++) {
      await recordAudit(shop.db, {
        actor: packer,
        action: "product.stock",
        entityType: "product",
        entityId: 40,
        summary: `Stock change ${String(n).padStart(2, "0")}`,
        now: new Date(Date.UTC(2026, 8, 1, 0, n)),
      });
    }
    const query = "?action=product.stock&sort=oldest";
    const first = await load<Page>(shop, cookie, auditRoute, `/admin/audit${query}`);
    const second = await load<Page>(shop, cookie, auditRoute, `/admin/audit${query}&page=2`);
    expect([first.data.entries.length, first.data.hasMore]).toEqual([50, true]);
    expect([second.data.entries.length, second.data.hasMore, second.data.page]).toEqual([2, false, 2]);
    expect([...first.data.entries, ...second.data.entries].map((e) => e.summary)).toEqual(
      Array.from({ length: 52 }, (_, n) => `Stock change ${String(n).padStart(2, "0")}`),
    );
    // newest first over the whole log: page 2 ends with the oldest stock changes
    expect((await summaries("?page=2")).slice(-2)).toEqual(["Stock change 01", "Stock change 00"]);
  });
});
