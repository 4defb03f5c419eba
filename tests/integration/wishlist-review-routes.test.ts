import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/db/database.server.ts";
import * as toasts from "../../app/http/toast.server.ts";
import * as root from "../../app/root.tsx";
import * as account from "../../app/routes/account.tsx";
import * as wishlist from "../../app/routes/account.wishlist.tsx";
import * as product from "../../app/routes/products.$productId.tsx";
import { cookieHeader } from "../helpers/account-fixtures.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { callRoute, type RouteModule } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * The wishlist and review routes called as the server calls them (a Request with a real session
 * cookie) on a SQLite database of their own: the signed-out round trip through sign-in, toasts,
 * archived products, a refused review form beside its fields, aggregates, votes.
 */
const ORIGIN = TEST_ORIGIN;
let shop: TestShop;
let db: Database;
const users: Record<"ada" | "bob", { id: string; cookie: string }> = {} as never;
let lamp: { id: number; slug: string };
let archived: { id: number; slug: string };

beforeAll(async () => {
  shop = await createTestShop("sqlite");
  db = shop.db;
  const auth = shop.services.auth;
  for (const [key, name] of [
    ["ada", "Ada Lovelace"],
    ["bob", "Bob Babbage"],
  ] as const) {
    const { headers, response } = await auth.api.signUpEmail({
      body: { name, email: `${key}@example.com`, password: "correct horse" },
      returnHeaders: true,
    });
    users[key] = { id: response.user.id, cookie: cookieHeader(headers) };
  }
  const slugOf = async (id: number) =>
    (await db.selectFrom("products").select("slug").where("id", "=", id).executeTakeFirstOrThrow()).slug;
  const lampId = await insertProduct(db, { name: "Desk Lamp", rating: 4.5, reviewCount: 2 });
  lamp = { id: lampId, slug: await slugOf(lampId) };
  const oldId = await insertProduct(db, { name: "Old Lamp", archivedAt: "2026-01-01T00:00:00.000Z" });
  archived = { id: oldId, slug: await slugOf(oldId) };
});

afterAll(async () => {
  await shop?.destroy();
});

const call = (
  module: RouteModule,
  kind: "loader" | "action",
  path: string,
  options: Omit<Parameters<typeof callRoute>[3], "context"> = {},
) => callRoute(module, kind, `${ORIGIN}${path}`, { ...options, context: shop.context() });

async function toastOf(response: Response | undefined) {
  if (!response) return null;
  const cookie = cookieHeader(response.headers);
  const { toast } = await toasts.getToast(new Request(ORIGIN, { headers: { Cookie: cookie } }));
  return toast && { type: toast.type, message: toast.message };
}

const wishlistIds = async (cookie: string) =>
  ((await call(root, "loader", "/", { cookie })).data as unknown as { wishlist: number[] }).wishlist;

describe("wishlist routes", () => {
  it("signed out: Add to Wishlist goes to sign in, and signing in saves the product and comes back", async () => {
    const path = `/products/${lamp.slug}`;
    const asked = await call(wishlist, "action", "/account/wishlist", {
      fields: { intent: "add", productId: String(lamp.id), redirectTo: path },
    });
    expect(asked.response?.status).toBe(302);
    const location = asked.response?.headers.get("Location") ?? "";
    expect(location).toBe(`/account?redirectTo=${encodeURIComponent(`${path}?addToWishlist=${lamp.id}`)}`);
    expect(await toastOf(asked.response)).toEqual({
      type: "info",
      message: "Please sign in to save items to your wishlist.",
    });

    // the sign-in page carries redirectTo into its form
    const page = await call(account, "loader", location);
    const redirectTo = (page.data as unknown as { redirectTo: string }).redirectTo;
    expect(redirectTo).toBe(`${path}?addToWishlist=${lamp.id}`);

    const signedIn = await call(account, "action", "/account", {
      fields: { intent: "sign-in", email: "ada@example.com", password: "correct horse", redirectTo },
    });
    expect(signedIn.response?.status).toBe(302);
    expect(signedIn.response?.headers.get("Location")).toBe(path);
    expect(await toastOf(signedIn.response)).toEqual({
      type: "success",
      message: "Desk Lamp added to wishlist!",
    });
    const cookie = cookieHeader((signedIn.response as Response).headers)
      .split("; ")
      .filter((c) => c.includes("session_token"))
      .join("; ");
    users.ada.cookie = cookie;
    expect(await wishlistIds(cookie)).toEqual([lamp.id]);
  });

  it("a plain sign-in still says so; a pending id of an archived product adds nothing", async () => {
    const signedIn = await call(account, "action", "/account", {
      fields: {
        intent: "sign-in",
        email: "bob@example.com",
        password: "correct horse",
        redirectTo: `/products/${archived.slug}?addToWishlist=${archived.id}`,
      },
    });
    expect(signedIn.response?.headers.get("Location")).toBe(`/products/${archived.slug}`);
    expect(await toastOf(signedIn.response)).toEqual({ type: "success", message: "Successfully logged in!" });
    expect(await wishlistIds(users.bob.cookie)).toEqual([]);
  });

  it("signed in: add and remove with the spec's toast, back to the page the form was on", async () => {
    const removed = await call(wishlist, "action", "/account/wishlist", {
      cookie: users.ada.cookie,
      fields: { intent: "remove", productId: String(lamp.id), redirectTo: "/products?page=2" },
    });
    expect(removed.response?.headers.get("Location")).toBe("/products?page=2");
    expect(await toastOf(removed.response)).toEqual({
      type: "success",
      message: "Desk Lamp removed from wishlist",
    });
    expect(await wishlistIds(users.ada.cookie)).toEqual([]);

    const added = await call(wishlist, "action", "/account/wishlist", {
      cookie: users.ada.cookie,
      fields: { intent: "add", productId: String(lamp.id), redirectTo: "https://evil.example/" },
    });
    expect(added.response?.headers.get("Location")).toBe("/account/wishlist");
    expect(await toastOf(added.response)).toEqual({
      type: "success",
      message: "Desk Lamp added to wishlist!",
    });
    const list = await call(wishlist, "loader", "/account/wishlist", { cookie: users.ada.cookie });
    expect((list.data as unknown as { items: { name: string }[] }).items.map((i) => i.name)).toEqual([
      "Desk Lamp",
    ]);
    // Bob's page is his own
    const bobs = await call(wishlist, "loader", "/account/wishlist", { cookie: users.bob.cookie });
    expect((bobs.data as unknown as { items: unknown[] }).items).toEqual([]);
  });

  it("an archived product cannot be added; a bad request is a 400; the page needs sign-in", async () => {
    const refused = await call(wishlist, "action", "/account/wishlist", {
      cookie: users.ada.cookie,
      fields: { intent: "add", productId: String(archived.id) },
    });
    expect(await toastOf(refused.response)).toEqual({
      type: "error",
      message: "This product is no longer available.",
    });
    expect(await wishlistIds(users.ada.cookie)).toEqual([lamp.id]);
    const bad: Record<string, string>[] = [
      { intent: "add", productId: "abc" },
      { intent: "delete", productId: "1" },
      {},
    ];
    for (const fields of bad) {
      expect(
        (await call(wishlist, "action", "/account/wishlist", { cookie: users.ada.cookie, fields })).thrown,
      ).toBe(400);
    }
    const signedOut = await call(wishlist, "loader", "/account/wishlist");
    expect(signedOut.response?.headers.get("Location")).toBe(
      `/account?redirectTo=${encodeURIComponent("/account/wishlist")}`,
    );
  });
});

describe("review routes", () => {
  const path = () => `/products/${lamp.slug}`;
  const params = () => ({ productId: lamp.slug });
  const figures = async () =>
    db
      .selectFrom("products")
      .select(["rating", "reviewCount"])
      .where("id", "=", lamp.id)
      .executeTakeFirstOrThrow();

  it("signed out: the page offers sign-in; a post goes to sign in and back to the reviews", async () => {
    const page = await call(product, "loader", path(), { params: params() });
    expect((page.data as unknown as { viewer: unknown }).viewer).toBeNull();
    const posted = await call(product, "action", path(), {
      params: params(),
      fields: { intent: "save-review", rating: "5", title: "t", body: "b" },
    });
    expect(posted.response?.headers.get("Location")).toBe(
      `/account?redirectTo=${encodeURIComponent(`${path()}#reviews`)}`,
    );
    expect((await figures()).reviewCount).toBe(2);
  });

  it("a refused form comes back beside its fields; markup is kept as text", async () => {
    const refused = await call(product, "action", path(), {
      cookie: users.ada.cookie,
      params: params(),
      fields: { intent: "save-review", rating: "9", title: "", body: "<script>alert(1)</script>" },
    });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({
      result: {
        status: "error",
        error: {
          "": ["Please correct the highlighted fields."],
          rating: ["Choose a rating from 1 to 5 stars."],
          title: ["Enter a title for your review."],
        },
        // the typed values come back as text (an emptied field is left out: it shows empty)
        initialValue: { intent: "save-review", rating: "9", body: "<script>alert(1)</script>" },
      },
    });
    const { result } = refused.data as unknown as { result: { error: object; initialValue: object } };
    expect(Object.keys(result.error).sort()).toEqual(["", "rating", "title"]);
    expect(result.initialValue).not.toHaveProperty("title");
    expect((await figures()).reviewCount).toBe(2);
  });

  it("write, edit, delete: the product's rating and count follow", async () => {
    const written = await call(product, "action", path(), {
      cookie: users.ada.cookie,
      params: params(),
      fields: {
        intent: "save-review",
        rating: "3",
        title: "<b>Bright</b>",
        body: "<img src=x onerror=alert(1)>",
      },
    });
    expect(written.response?.headers.get("Location")).toBe(`${path()}#reviews`);
    expect(await toastOf(written.response)).toEqual({
      type: "success",
      message: "Thank you! Your review has been posted.",
    });
    expect(await figures()).toEqual({ rating: 4, reviewCount: 3 });
    const page = await call(product, "loader", path(), { cookie: users.ada.cookie, params: params() });
    const loaded = page.data as unknown as {
      reviews: { title: string; body: string; authorName: string }[];
      viewer: { ownReview: { rating: number; title: string } };
      product: { rating: number; reviewCount: number };
    };
    expect(loaded.viewer.ownReview).toMatchObject({ rating: 3, title: "<b>Bright</b>" });
    expect(loaded.reviews[0]).toMatchObject({
      title: "<b>Bright</b>",
      body: "<img src=x onerror=alert(1)>",
      authorName: "Ada Lovelace",
    });
    expect(loaded.product).toMatchObject({ rating: 4, reviewCount: 3 });

    const edited = await call(product, "action", path(), {
      cookie: users.ada.cookie,
      params: params(),
      fields: { intent: "save-review", rating: "5", title: "Bright", body: "Really bright." },
    });
    expect(await toastOf(edited.response)).toEqual({
      type: "success",
      message: "Your review has been updated.",
    });
    expect(await figures()).toEqual({ rating: 4.666667, reviewCount: 3 });

    // Bob marks it helpful (once) and reports it
    const reviewId = String(
      loaded.viewer.ownReview &&
        (
          await db
            .selectFrom("reviews")
            .select("id")
            .where("userId", "=", users.ada.id)
            .executeTakeFirstOrThrow()
        ).id,
    );
    const vote = (intent: string, cookie = users.bob.cookie) =>
      call(product, "action", path(), { cookie, params: params(), fields: { intent, reviewId } });
    expect(await toastOf((await vote("helpful")).response)).toEqual({
      type: "success",
      message: "Thanks for your feedback!",
    });
    expect(await toastOf((await vote("helpful")).response)).toEqual({
      type: "info",
      message: "You have already marked this review as helpful.",
    });
    expect(await toastOf((await vote("report")).response)).toEqual({
      type: "success",
      message: "Thank you. The review has been reported to our moderators.",
    });
    expect(await toastOf((await vote("helpful", users.ada.cookie)).response)).toEqual({
      type: "info",
      message: "You cannot vote on your own review.",
    });
    const bobsView = await call(product, "loader", path(), { cookie: users.bob.cookie, params: params() });
    expect((bobsView.data as unknown as { viewer: unknown }).viewer).toEqual({
      ownReview: null,
      helpful: [Number(reviewId)],
      reported: [Number(reviewId)],
    });
    const row = await db
      .selectFrom("reviews")
      .select(["helpfulCount", "reported"])
      .where("id", "=", Number(reviewId))
      .executeTakeFirstOrThrow();
    expect([Number(row.helpfulCount), Number(row.reported)]).toEqual([1, 1]);

    const deleted = await call(product, "action", path(), {
      cookie: users.ada.cookie,
      params: params(),
      fields: { intent: "delete-review" },
    });
    expect(await toastOf(deleted.response)).toEqual({
      type: "success",
      message: "Your review has been deleted.",
    });
    // back to the figures it had (to within the millionth the stored rating is rounded to)
    const back = await figures();
    expect(back.reviewCount).toBe(2);
    expect(back.rating).toBeCloseTo(4.5, 5);
  });

  it("an unknown intent is a 400; an archived product's page and action are 404", async () => {
    expect(
      (
        await call(product, "action", path(), {
          cookie: users.ada.cookie,
          params: params(),
          fields: { intent: "wishlist" },
        })
      ).thrown,
    ).toBe(400);
    expect(
      (
        await call(product, "action", `/products/${archived.slug}`, {
          cookie: users.ada.cookie,
          params: { productId: archived.slug },
          fields: { intent: "save-review", rating: "5", title: "t", body: "b" },
        })
      ).thrown,
    ).toBe(404);
  });
});
