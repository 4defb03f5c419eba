import type { SubmissionResult } from "@conform-to/react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, engineOf } from "../../app/db/database.server.ts";
import * as cartSession from "../../app/http/cart-session.server.ts";
import * as root from "../../app/root.tsx";
import * as account from "../../app/routes/account.tsx";
import * as cart from "../../app/routes/cart.tsx";
import { ENGINES } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { Jar, postForm } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * The signed-in shopper's cart belongs to the account (product decision): POST /account
 * (register, sign-in, sign-out), POST /cart and the cart page and header badge through the real
 * route modules, on each engine. Each Jar is one browser.
 */
const ORIGIN = TEST_ORIGIN;
const PASSWORD = "correct horse";

describe.each(ENGINES)("the account's cart on %s", (engine) => {
  let shop: TestShop;
  let db: Database;
  const ids: Record<"lamp" | "mug", number> = { lamp: 0, mug: 0 };

  beforeAll(async () => {
    shop = await createTestShop(engine);
    db = shop.db;
    expect(engineOf(db)).toBe(engine);
    ids.lamp = await insertProduct(db, { name: "Desk Lamp", stock: 3 });
    ids.mug = await insertProduct(db, { name: "Mug", stock: 10 });
  });

  afterAll(async () => {
    await shop?.destroy();
  });

  const post = (
    module: { action: (args: never) => unknown },
    path: string,
    fields: Record<string, string>,
    jar: Jar,
  ) => postForm(module, `${ORIGIN}${path}`, fields, jar, shop.context());
  const add = (jar: Jar, productId: number, quantity = 1) =>
    post(cart, "/cart", { intent: "add", productId: String(productId), quantity: String(quantity) }, jar);

  /** What the cart page lists for this browser: [name, quantity]. */
  async function cartLines(jar: Jar) {
    const request = new Request(`${ORIGIN}/cart`, { headers: { Cookie: jar.header() } });
    const { cart: view } = await cart.loader({
      request,
      params: {},
      context: shop.context(),
    } as never);
    return view.lines.map((line) => [line.name, line.quantity]);
  }

  /** The header badge for this browser. */
  async function badge(jar: Jar) {
    const request = new Request(`${ORIGIN}/`, { headers: { Cookie: jar.header() } });
    const result = (await root.loader({
      request,
      params: {},
      context: shop.context(),
    } as never)) as {
      data: { cartQuantity: number };
    };
    return result.data.cartQuantity;
  }

  const register = (jar: Jar, email: string) =>
    post(account, "/account", { intent: "register", name: "Cart Owner", email, password: PASSWORD }, jar);
  const signIn = (jar: Jar, email: string) =>
    post(account, "/account", { intent: "sign-in", email, password: PASSWORD }, jar);
  const signOut = (jar: Jar) => post(account, "/account", { intent: "sign-out" }, jar);
  const accountCarts = async (email: string) =>
    db
      .selectFrom("carts")
      .innerJoin("users", "users.id", "carts.userId")
      .select("carts.id")
      .where("users.email", "=", email)
      .execute();

  it("a cart filled while signed in is the account's: it survives signing out and in again", async () => {
    const laptop = new Jar();
    const email = `owner-${engine}@example.com`;
    await register(laptop, email);
    expect([...laptop.cookies.keys()].some((name) => name.includes("session_token"))).toBe(true);

    await add(laptop, ids.mug, 2);
    expect(await cartLines(laptop)).toEqual([["Mug", 2]]);
    expect(await badge(laptop)).toBe(2);

    await signOut(laptop);
    expect(laptop.cookies.has("cw_cart")).toBe(false);
    expect(await cartLines(laptop)).toEqual([]);
    expect(await badge(laptop)).toBe(0);

    await signIn(laptop, email);
    expect(await cartLines(laptop)).toEqual([["Mug", 2]]);
    expect(await badge(laptop)).toBe(2);
    // one cart, the account's, found by the account: no cart cookie while signed in
    expect(await accountCarts(email)).toHaveLength(1);
    expect(laptop.cookies.has("cw_cart")).toBe(false);
  });

  it("on another device the guest cart is merged into the account's at sign-in (capped at stock)", async () => {
    const laptop = new Jar();
    const email = `merge-${engine}@example.com`;
    await register(laptop, email);
    await add(laptop, ids.lamp, 2);

    const phone = new Jar();
    await add(phone, ids.lamp, 2);
    await add(phone, ids.mug, 1);
    expect(phone.cookies.has("cw_cart")).toBe(true);
    const guestCartId = await cartSession.readCartId(
      new Request(ORIGIN, { headers: { Cookie: phone.header() } }),
    );
    await signIn(phone, email);
    // the cookie is gone, the guest cart merged and deleted
    expect(phone.cookies.has("cw_cart")).toBe(false);
    expect(
      await db.selectFrom("carts").select("id").where("id", "=", guestCartId).executeTakeFirst(),
    ).toBeUndefined();
    const merged = [
      ["Desk Lamp", 3],
      ["Mug", 1],
    ];
    expect(await cartLines(phone)).toEqual(merged);
    // the laptop, still signed in, sees the same cart
    expect(await cartLines(laptop)).toEqual(merged);
    expect(await accountCarts(email)).toHaveLength(1);

    // a change on one device shows on the other
    await post(cart, "/cart", { intent: "remove", productId: String(ids.mug) }, laptop);
    expect(await cartLines(phone)).toEqual([["Desk Lamp", 3]]);
  });

  it("a signed-in browser still holding a guest cart cookie (a session from before) gets that cart joined in", async () => {
    const laptop = new Jar();
    const email = `legacy-${engine}@example.com`;
    await register(laptop, email);
    await add(laptop, ids.mug, 1);
    const guest = new Jar();
    await add(guest, ids.lamp, 1);
    laptop.cookies.set("cw_cart", guest.cookies.get("cw_cart") ?? "");

    const request = new Request(`${ORIGIN}/`, { headers: { Cookie: laptop.header() } });
    const result = (await root.loader({
      request,
      params: {},
      context: shop.context(),
    } as never)) as {
      data: { cartQuantity: number };
      init: { headers: Headers };
    };
    expect(result.data.cartQuantity).toBe(2);
    expect(result.init.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^cw_cart=; Max-Age=0/));
    laptop.cookies.delete("cw_cart");
    expect(await cartLines(laptop)).toEqual([
      ["Mug", 1],
      ["Desk Lamp", 1],
    ]);
    expect(await accountCarts(email)).toHaveLength(1);
  });

  it("a signed-out browser whose cookie names an account's cart cannot see or change it", async () => {
    const laptop = new Jar();
    const email = `stale-${engine}@example.com`;
    await register(laptop, email);
    await add(laptop, ids.mug, 1);
    const [accountCart] = await accountCarts(email);
    const stranger = new Jar();
    const cookie = await cartSession.serializeCartCookie(accountCart?.id ?? "");
    stranger.cookies.set("cw_cart", cookie.slice(cookie.indexOf("=") + 1, cookie.indexOf(";")));
    expect(await cartLines(stranger)).toEqual([]);
    expect(await badge(stranger)).toBe(0);
    await post(cart, "/cart", { intent: "clear" }, stranger);
    await add(stranger, ids.lamp, 1);
    expect(await cartLines(stranger)).toEqual([["Desk Lamp", 1]]);
    expect(await cartLines(laptop)).toEqual([["Mug", 1]]);
  });

  it("refused forms: register 400 (message above, each field's beside it, values kept but never the password), a wrong sign-in 401, too many 429", async () => {
    const browser = new Jar();
    const short = (await post(
      account,
      "/account",
      { intent: "register", name: "Short", email: `short-${engine}@example.com`, password: "1234567" },
      browser,
    )) as { data: { mode: string; result: SubmissionResult }; init: { status: number } };
    expect(short.init.status).toBe(400);
    expect(short.data.mode).toBe("register");
    expect(short.data.result.error).toMatchObject({
      "": ["Failed to create account. Please try again."],
      password: ["Password must be at least 8 characters."],
    });
    expect(short.data.result.initialValue).toMatchObject({
      name: "Short",
      email: `short-${engine}@example.com`,
    });
    expect(JSON.stringify(short.data)).not.toContain("1234567");

    const email = `wrong-${engine}@example.com`;
    await register(new Jar(), email);
    const wrong = (await post(
      account,
      "/account",
      { intent: "sign-in", email, password: "wrong horse" },
      browser,
    )) as {
      data: { mode: string; result: SubmissionResult };
      init: { status: number };
    };
    expect(wrong.init.status).toBe(401);
    expect(wrong.data.mode).toBe("sign-in");
    // the same answer for any wrong field: nothing beside the fields
    expect(wrong.data.result.error).toEqual({ "": ["Failed to login. Please check your credentials."] });
    expect(JSON.stringify(wrong.data)).not.toContain("wrong horse");

    const statuses = [];
    let last: unknown;
    for (let i = 0; i < 5; i++) {
      last = await post(account, "/account", { intent: "sign-in", email, password: "wrong horse" }, browser);
      statuses.push((last as { init: { status: number } }).init.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    expect((last as { data: { result: SubmissionResult } }).data.result.error).toEqual({
      "": ["Too many sign-in attempts. Please wait 15 minutes and try again."],
    });
    expect(browser.cookies.size).toBe(0);
  });
});
