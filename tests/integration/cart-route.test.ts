import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../app/db/database.server.ts";
import * as toasts from "../../app/http/toast.server.ts";
import * as root from "../../app/root.tsx";
import * as route from "../../app/routes/cart.tsx";
import { insertProduct } from "../helpers/catalog.ts";
import { insertCoupon } from "../helpers/coupons.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * POST /cart and the header badge, through the real route module and root loader on a
 * SQLite database of their own (a test shop handed to the routes in their context) (the engines themselves are covered by app/domain/cart/cart.test.ts).
 * Each test starts with no carts and products of its own, and builds the cart it needs
 * (its own cookie), so the tests pass in any order.
 */
const ORIGIN = TEST_ORIGIN;
let shop: TestShop;
let db: Database;
const ids: Record<string, number> = {};

beforeAll(async () => {
  shop = await createTestShop("sqlite");
  db = shop.db;
});

beforeEach(async () => {
  // no carts from other tests (some tests count the carts), and fresh products with their stock
  await db.deleteFrom("checkoutProgress").execute();
  await db.deleteFrom("cartItems").execute();
  await db.deleteFrom("carts").execute();
  ids.headphones = await insertProduct(db, { name: "Aurora Headphones", stock: 10, priceCents: 24_999 });
  ids.chair = await insertProduct(db, { name: "Lounge Chair", stock: 3 });
  ids.mixer = await insertProduct(db, { name: "Stand Mixer", stock: 0 });
});

afterAll(async () => {
  await shop?.destroy();
});

type ActionArgs = Parameters<typeof route.action>[0];

async function post(
  fields: Record<string, string>,
  { cookie, referer }: { cookie?: string; referer?: string } = {},
) {
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded" });
  if (cookie) headers.set("Cookie", cookie);
  if (referer) headers.set("Referer", referer);
  const request = new Request(`${ORIGIN}/cart`, {
    method: "POST",
    headers,
    body: new URLSearchParams(fields).toString(),
  });
  return route.action({
    request,
    params: {},
    context: shop.context(),
  } as unknown as ActionArgs);
}

/** The cookies a response sets, as name → whole Set-Cookie line. */
function setCookies(response: Response): Map<string, string> {
  return new Map(response.headers.getSetCookie().map((line) => [line.slice(0, line.indexOf("=")), line]));
}

/** name=value pairs for a Cookie request header. */
const cookiePair = (line: string | undefined) => (line ? line.slice(0, line.indexOf(";")) : "");

async function toastOf(response: Response) {
  const cookie = cookiePair(setCookies(response).get("cw_toast"));
  const { toast } = await toasts.getToast(new Request(ORIGIN, { headers: { Cookie: cookie } }));
  return toast && { type: toast.type, message: toast.message };
}

async function redirected(result: unknown) {
  expect(result).toBeInstanceOf(Response);
  const response = result as Response;
  expect(response.status).toBe(302);
  return { response, location: response.headers.get("Location"), toast: await toastOf(response) };
}

/** A new cart (its cookie) holding `quantity` of each product, added through the route. */
async function cartWith(lines: Record<string, number>): Promise<string> {
  let cookie = "";
  for (const [name, quantity] of Object.entries(lines)) {
    const { response, toast } = await redirected(
      await post({ intent: "add", productId: String(ids[name]), quantity: String(quantity) }, { cookie }),
    );
    expect(toast?.type).toBe("success");
    cookie ||= cookiePair(setCookies(response).get("cw_cart"));
  }
  expect(cookie).not.toBe("");
  return cookie;
}

async function cartFor(cookie: string) {
  const request = new Request(`${ORIGIN}/cart`, { headers: { Cookie: cookie } });
  return route.loader({ request, params: {}, context: shop.context() } as never);
}

async function badgeFor(cookie: string) {
  const request = new Request(`${ORIGIN}/`, { headers: cookie ? { Cookie: cookie } : {} });
  const result = (await root.loader({
    request,
    params: {},
    context: shop.context(),
  } as never)) as unknown as {
    data: { cartQuantity: number };
  };
  return result.data.cartQuantity;
}

describe("POST /cart", () => {
  it("adds from a card: back to the page, success toast, and a signed HttpOnly cart cookie for 30 days", async () => {
    const { response, location, toast } = await redirected(
      await post({
        intent: "add",
        productId: String(ids.headphones),
        quantity: "1",
        redirectTo: "/?from=card",
      }),
    );
    expect(location).toBe("/?from=card");
    expect(toast).toEqual({ type: "success", message: "Aurora Headphones added to cart!" });
    const line = setCookies(response).get("cw_cart");
    expect(line).toBeDefined();
    expect(line).toMatch(/; Max-Age=2592000/);
    expect(line).toMatch(/; Path=\//);
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; SameSite=Lax/);
    expect(line).not.toMatch(/; Secure/);
    const cartCookie = cookiePair(line);
    // the id is signed: its value is not a bare UUID
    expect(cartCookie).not.toMatch(/^cw_cart=[0-9a-f-]{36}$/);
    expect(await badgeFor(cartCookie)).toBe(1);
  });

  it("adds more to the same cart, with the quantity prefix", async () => {
    const cartCookie = await cartWith({ headphones: 1 });
    const { toast, response } = await redirected(
      await post({ intent: "add", productId: String(ids.headphones), quantity: "2" }, { cookie: cartCookie }),
    );
    expect(toast).toEqual({ type: "success", message: "2 x Aurora Headphones added to cart!" });
    expect(cookiePair(setCookies(response).get("cw_cart"))).toBe(cartCookie);
    expect(await badgeFor(cartCookie)).toBe(3);
    const carts = await db.selectFrom("carts").select("id").execute();
    expect(carts).toHaveLength(1);
  });

  it("goes back to the same-origin Referer, else to /cart, when there is no valid redirectTo", async () => {
    const cartCookie = await cartWith({ headphones: 3 });
    const add = (extra: Record<string, string>, referer?: string) =>
      post({ intent: "add", productId: String(ids.headphones), ...extra }, { cookie: cartCookie, referer });
    expect((await redirected(await add({}, `${ORIGIN}/products?category=electronics`))).location).toBe(
      "/products?category=electronics",
    );
    expect((await redirected(await add({}, "https://evil.example/phish"))).location).toBe("/cart");
    // a same-origin Referer whose path would read as another host is not followed either
    expect((await redirected(await add({}, `${ORIGIN}//evil.example/x`))).location).toBe("/cart");
    expect((await redirected(await add({}))).location).toBe("/cart");
    expect((await redirected(await add({ redirectTo: "//evil.example" }, `${ORIGIN}/`))).location).toBe("/");
    expect((await redirected(await add({ redirectTo: "https://evil.example" }))).location).toBe("/cart");
  });

  it("caps at the stock with a warning, and refuses sold-out and unknown products with an error", async () => {
    const cartCookie = await cartWith({ headphones: 3 });
    const capped = await redirected(
      await post({ intent: "add", productId: String(ids.chair), quantity: "5" }, { cookie: cartCookie }),
    );
    expect(capped.toast).toEqual({
      type: "warning",
      message: "Only 3 of Lounge Chair available — your cart has the maximum.",
    });
    const soldOut = await redirected(
      await post({ intent: "add", productId: String(ids.mixer), redirectTo: "/" }),
    );
    expect(soldOut.toast).toEqual({ type: "error", message: "Sorry, Stand Mixer is out of stock." });
    expect(soldOut.location).toBe("/");
    // a failed first add leaves no cookie (and no cart) behind
    expect(setCookies(soldOut.response).has("cw_cart")).toBe(false);
    const unknown = await redirected(await post({ intent: "add", productId: "424242" }));
    expect(unknown.toast).toEqual({ type: "error", message: "This product is no longer available." });
    expect(await db.selectFrom("carts").select("id").execute()).toHaveLength(1);
  });

  it("answers a bad quantity or bad input with 400 and a clear message, never a crash", async () => {
    const cartCookie = await cartWith({ headphones: 3 });
    for (const [fields, message] of [
      [
        { intent: "add", productId: String(ids.headphones), quantity: "0" },
        "Please enter a quantity between 1 and 999.",
      ],
      [
        { intent: "add", productId: String(ids.headphones), quantity: "lots" },
        "Please enter a quantity between 1 and 999.",
      ],
      [
        { intent: "update", productId: String(ids.headphones), quantity: "1.5" },
        "Please enter a quantity between 1 and 999.",
      ],
      [{ intent: "hack" }, "Sorry, we could not update your cart. Please try again."],
      [{ intent: "remove", productId: "x" }, "Sorry, we could not update your cart. Please try again."],
    ] as const) {
      const result = (await post(fields, { cookie: cartCookie })) as unknown as {
        data: { result: { error: Record<string, string[]> } };
        init: { status: number };
      };
      expect(result.init.status).toBe(400);
      // the form's one message (the cart page shows it above the cart)
      expect(result.data.result.error[""]).toEqual([message]);
    }
  });

  it("buy-now adds and goes to checkout", async () => {
    const cartCookie = await cartWith({ headphones: 3, chair: 3 });
    const { location, toast } = await redirected(
      await post(
        { intent: "buy-now", productId: String(ids.headphones), quantity: "1" },
        { cookie: cartCookie },
      ),
    );
    expect(location).toBe("/checkout");
    expect(toast).toEqual({ type: "success", message: "Aurora Headphones added to cart!" });
    expect(await badgeFor(cartCookie)).toBe(4 + 3);
  });

  it("updates, removes and clears, back to /cart with the spec's toasts", async () => {
    const cartCookie = await cartWith({ headphones: 4, chair: 3 });
    const update = await redirected(
      await post(
        { intent: "update", productId: String(ids.headphones), quantity: "2" },
        { cookie: cartCookie },
      ),
    );
    expect(update.location).toBe("/cart");
    expect(update.toast?.type).toBe("success");
    expect(await badgeFor(cartCookie)).toBe(2 + 3);

    const zero = await redirected(
      await post({ intent: "update", productId: String(ids.chair), quantity: "0" }, { cookie: cartCookie }),
    );
    expect(zero.toast).toEqual({ type: "success", message: "Item removed from cart" });
    expect(await badgeFor(cartCookie)).toBe(2);

    await post({ intent: "add", productId: String(ids.chair) }, { cookie: cartCookie });
    const remove = await redirected(
      await post({ intent: "remove", productId: String(ids.chair) }, { cookie: cartCookie }),
    );
    expect(remove).toMatchObject({
      location: "/cart",
      toast: { type: "success", message: "Item removed from cart" },
    });
    expect(await badgeFor(cartCookie)).toBe(2);

    const clear = await redirected(await post({ intent: "clear" }, { cookie: cartCookie }));
    expect(clear).toMatchObject({ location: "/cart", toast: { type: "success", message: "Cart cleared" } });
    expect(await badgeFor(cartCookie)).toBe(0);
  });

  it("applies and removes a coupon, with a clear message for each refusal", async () => {
    // coupons are promotions with a code (migration 0780)
    await insertCoupon(db, { code: "ROUTE10" });
    await insertCoupon(db, { code: "ROUTEOLD", expiresAt: "2020-01-01T00:00:00.000Z" });
    await insertCoupon(db, { code: "ROUTEBIG", minSubtotalCents: 10_000_000 });
    await insertCoupon(db, { code: "ROUTEGONE", usageLimit: 1, usedCount: 1 });

    const empty = await redirected(await post({ intent: "apply-coupon", code: "ROUTE10" }));
    expect(empty.toast).toEqual({
      type: "error",
      message: "Add something to your cart before applying a coupon.",
    });

    const added = await redirected(await post({ intent: "add", productId: String(ids.headphones) }));
    const cookie = cookiePair(setCookies(added.response).get("cw_cart"));
    const apply = (code: string) => post({ intent: "apply-coupon", code }, { cookie }).then(redirected);
    expect((await apply("")).toast).toEqual({ type: "error", message: "Please enter a coupon code." });
    expect((await apply("NOPE")).toast).toEqual({ type: "error", message: "This coupon code is not valid." });
    expect((await apply("routeold")).toast).toEqual({ type: "error", message: "This coupon has expired." });
    expect((await apply("ROUTEBIG")).toast).toEqual({
      type: "error",
      message: "This coupon needs a subtotal of at least $100,000.00.",
    });
    expect((await apply("ROUTEGONE")).toast).toEqual({
      type: "error",
      message: "This coupon has reached its usage limit.",
    });
    const applied = await apply(" route10 ");
    expect(applied).toMatchObject({
      location: "/cart",
      toast: { type: "success", message: "Coupon ROUTE10 applied." },
    });

    const { cart } = await cartFor(cookie);
    expect(cart.coupon).toEqual({
      code: "ROUTE10",
      label: "ROUTE10 (10% off)",
      discountCents: 2_500,
    });
    expect(cart.totals).toMatchObject({ subtotalCents: 24_999, discountCents: 2_500, taxCents: 1_575 });

    const removed = await redirected(await post({ intent: "remove-coupon" }, { cookie }));
    expect(removed.toast).toEqual({ type: "success", message: "Coupon removed." });
    expect((await cartFor(cookie)).cart.coupon).toBeNull();
  });

  it("ignores a forged cart cookie", async () => {
    const cartCookie = await cartWith({ headphones: 1 });
    const [, value] = cartCookie.split("=");
    const forged = `cw_cart=${value!.slice(0, -3)}abc`;
    expect(await badgeFor(forged)).toBe(0);
    expect(await badgeFor("cw_cart=garbage")).toBe(0);
    const update = await redirected(
      await post({ intent: "update", productId: String(ids.headphones), quantity: "5" }, { cookie: forged }),
    );
    expect(update.toast).toEqual({ type: "error", message: "That item is no longer in your cart." });
    expect(await badgeFor(cartCookie)).toBe(1);
  });

  it("the badge is 0 without a cart cookie", async () => {
    expect(await badgeFor("")).toBe(0);
    expect(await badgeFor("other=1")).toBe(0);
  });
});

describe("GET /cart", () => {
  it("shows an empty cart to a visitor without a cookie, and prices a cart from the database", async () => {
    const loader = async (cookie?: string) =>
      route.loader({
        request: new Request(`${ORIGIN}/cart`, { headers: cookie ? { Cookie: cookie } : {} }),
        params: {},
        context: shop.context(),
      } as never);
    expect((await loader()).cart).toMatchObject({ lines: [], totalQuantity: 0 });

    const added = (await post({
      intent: "add",
      productId: String(ids.headphones),
      quantity: "2",
    })) as Response;
    const cookie = cookiePair(setCookies(added).get("cw_cart"));
    const { cart } = await loader(cookie);
    expect(cart.lines).toHaveLength(1);
    expect(cart.totals).toMatchObject({
      subtotalCents: 49_998,
      shippingCents: 0,
      taxCents: 3_500,
      totalCents: 53_498,
    });
    expect(route.headers()).toEqual({ "Cache-Control": "private, no-store" });
  });
});
