import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, engineOf } from "../../app/db/database.server.ts";
import * as progress from "../../app/domain/checkout/checkout-progress.server.ts";
import * as toasts from "../../app/http/toast.server.ts";
import * as cart from "../../app/routes/cart.tsx";
import * as checkout from "../../app/routes/checkout.tsx";
import { ENGINES } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { Jar, postForm } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * The checkout in progress lives on the server, one row per cart (decision 012): POST /checkout
 * and its loader through the real route module, on each engine. No step's input ever travels in
 * a cookie, whatever is posted.
 */
const ORIGIN = TEST_ORIGIN;

const SHIPPING = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  phone: "+1 555 0100",
  address: "1 Analytical Way",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
  country: "US",
};
const CARD = { cardNumber: "4242 4242 4242 4242", cardName: "Ada Lovelace", expiryDate: "12/30", cvv: "123" };

describe.each(ENGINES)("checkout in progress on %s", (engine) => {
  let shop: TestShop;
  let db: Database;
  let productId: number;

  beforeAll(async () => {
    shop = await createTestShop(engine);
    db = shop.db;
    expect(engineOf(db)).toBe(engine);
    productId = await insertProduct(db, { name: "Trail Backpack", stock: 50, priceCents: 4_000 });
  });

  afterAll(async () => {
    await shop?.destroy();
  });

  const post = (fields: Record<string, string>, jar: Jar) =>
    postForm(checkout, `${ORIGIN}/checkout`, fields, jar, shop.context()) as Promise<Response>;

  async function shopperWithCart() {
    const jar = new Jar();
    await postForm(
      cart,
      `${ORIGIN}/cart`,
      { intent: "add", productId: String(productId), quantity: "1" },
      jar,
      shop.context(),
    );
    jar.cookies.delete("cw_toast");
    return jar;
  }

  async function toastIn(jar: Jar) {
    const { toast } = await toasts.getToast(new Request(ORIGIN, { headers: { Cookie: jar.header() } }));
    jar.cookies.delete("cw_toast");
    return toast?.message ?? null;
  }

  async function load(search: string, jar: Jar | string): Promise<Record<string, unknown>> {
    const cookie = typeof jar === "string" ? jar : jar.header();
    const request = new Request(`${ORIGIN}/checkout${search}`, { headers: { Cookie: cookie } });
    try {
      const result = (await checkout.loader({
        request,
        params: {},
        context: shop.context(),
      } as never)) as {
        data: Record<string, unknown>;
        init: { headers: Headers };
      };
      return { ...result.data, setCookie: result.init.headers.getSetCookie() };
    } catch (thrown) {
      if (thrown instanceof Response) return { redirect: thrown.headers.get("Location") };
      throw thrown;
    }
  }

  /** Every cookie value the browser holds, decoded as far as it can be (URL, then base64 of a signed value). */
  const cookieTexts = (jar: Jar) =>
    [...jar.cookies.values()].flatMap((value) => {
      const text = decodeURIComponent(value);
      const unsigned = text.includes(".") ? text.slice(0, text.lastIndexOf(".")) : text;
      return [text, Buffer.from(unsigned, "base64").toString("utf8")];
    });

  it("nine shipping fields of 300+ characters and any other posted names: the step comes back with messages, never a 500", async () => {
    const jar = await shopperWithCart();
    const long = Object.fromEntries(
      Object.keys(SHIPPING).map((field) => [field, `${field}-${"x".repeat(400)}`]),
    );
    const junk = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`junk${i}`, "y".repeat(4_000)]));
    const response = await post({ intent: "shipping", ...long, ...junk }, jar);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/checkout");
    // the only cookie it sets is the toast
    expect(response.headers.getSetCookie().map((line) => line.slice(0, line.indexOf("=")))).toEqual([
      "cw_toast",
    ]);
    expect(await toastIn(jar)).toBe("Please correct the highlighted fields.");

    const page = (await load("", jar)) as {
      values: Record<string, string>;
      fieldErrors: Record<string, string>;
    };
    expect(page.fieldErrors).toMatchObject({
      firstName: "First Name is too long (at most 100 characters).",
      address: "Address is too long (at most 200 characters).",
      country: "Choose a country from the list.",
    });
    expect(Object.keys(page.fieldErrors).sort()).toEqual(Object.keys(SHIPPING).sort());
    // only the nine fields come back, each cut short
    expect(Object.keys(page.values).sort()).toEqual(Object.keys(SHIPPING).sort());
    for (const value of Object.values(page.values)) expect(value.length).toBeLessThanOrEqual(300);
    // shown once
    expect((await load("", jar)) as object).toMatchObject({ fieldErrors: {}, values: {} });
    // and nothing was taken as the shipping details
    expect(await load("?step=payment", jar)).toEqual({ redirect: "/checkout" });
  });

  it("the details stay on the server: the browser holds only the cart id, and the confirmation still works", async () => {
    const jar = await shopperWithCart();
    expect(
      (await post({ intent: "shipping", ...SHIPPING, shippingMethod: "express" }, jar)).headers.get(
        "Location",
      ),
    ).toBe("/checkout?step=payment");
    expect((await post({ intent: "payment", ...CARD }, jar)).headers.get("Location")).toBe(
      "/checkout?step=review",
    );
    expect([...jar.cookies.keys()]).toEqual(["cw_cart"]);
    const personal = [...Object.values(SHIPPING).filter((v) => v.length > 2), "4242", "Visa"];
    for (const text of cookieTexts(jar)) {
      for (const value of personal) expect(text).not.toContain(value);
    }

    // a new request (any app process) continues where the last one stopped
    const review = (await load("?step=review", jar)) as {
      shipping: Record<string, string>;
      method: { code: string; name: string; days: string };
      card: Record<string, string>;
      idempotencyKey: string;
      totals: { totalCents: number };
    };
    expect(review.shipping).toEqual(SHIPPING);
    expect(review.method).toEqual({ code: "express", name: "Express Shipping", days: "1-3 business days" });
    expect(review.card).toEqual({
      brand: "Visa",
      last4: "4242",
      expiry: "12/30",
      cardName: "Ada Lovelace",
      hosted: false,
      giftCards: false,
    });

    const placed = await post(
      {
        intent: "place-order",
        idempotencyKey: review.idempotencyKey,
        expectedTotalCents: String(review.totals.totalCents),
      },
      jar,
    );
    expect(placed.headers.get("Location")).toBe("/checkout?step=confirmation");
    const confirmation = (await load("?step=confirmation", jar)) as {
      order: { email: string; number: string };
    };
    expect(confirmation.order.email).toBe("ada@example.com");
    // the row keeps only the order's number now: the details went into the order
    const row = await db
      .selectFrom("checkoutProgress")
      .selectAll()
      .where("placedOrderNumber", "=", confirmation.order.number)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      firstName: null,
      email: null,
      address: null,
      paymentToken: null,
      cardName: null,
    });
    expect([...jar.cookies.keys()]).toEqual(["cw_cart"]);
  });

  it("a browser still sending the old checkout cookie is told to drop it", async () => {
    const jar = await shopperWithCart();
    const page = (await load("", `${jar.header()}; cw_checkout=eyJjaGVja291dCI6e319.sig`)) as {
      setCookie: string[];
    };
    expect(page.setCookie).toEqual([
      expect.stringMatching(/^cw_checkout=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/),
    ]);
    expect(((await load("", jar)) as { setCookie: string[] }).setCookie).toEqual([]);
  });

  it("a checkout untouched for a day is over: ignored at once, deleted by the background job", async () => {
    const jar = await shopperWithCart();
    await post({ intent: "shipping", ...SHIPPING }, jar);
    expect(await load("?step=payment", jar)).toMatchObject({ step: "payment" });
    const [row] = await db
      .selectFrom("checkoutProgress")
      .select("cartId")
      .where("email", "=", SHIPPING.email)
      .execute();
    const cartId = row?.cartId ?? "";
    const dayAndMinuteAgo = new Date(Date.now() - progress.CHECKOUT_PROGRESS_TTL_MS - 60_000).toISOString();
    await db
      .updateTable("checkoutProgress")
      .set({ updatedAt: dayAndMinuteAgo })
      .where("cartId", "=", cartId)
      .execute();
    expect(await load("?step=payment", jar)).toEqual({ redirect: "/checkout" });
    const { pruned } = await progress.pruneCheckoutProgress(db);
    expect(pruned).toBeGreaterThanOrEqual(1);
    expect(
      await db
        .selectFrom("checkoutProgress")
        .select("cartId")
        .where("cartId", "=", cartId)
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it("without a cart there is no checkout to keep: back to the cart", async () => {
    const response = await post({ intent: "shipping", ...SHIPPING }, new Jar());
    expect(response.headers.get("Location")).toBe("/cart");
    expect(
      await db.selectFrom("checkoutProgress").select("cartId").where("email", "=", "nobody").execute(),
    ).toEqual([]);
  });
});
