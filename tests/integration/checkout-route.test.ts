import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../app/db/database.server.ts";
import * as toasts from "../../app/http/toast.server.ts";
import { settleAfterResponseTasks } from "../../app/jobs/after-response.server.ts";
import * as cart from "../../app/routes/cart.tsx";
import * as checkout from "../../app/routes/checkout.tsx";
import * as track from "../../app/routes/orders.track.tsx";
import { insertProduct } from "../helpers/catalog.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { Jar, postForm } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * POST /checkout step by step and /orders/track, through the real route modules on a SQLite
 * database of their own — the no-JavaScript path: every step is a form post answered by a redirect.
 */
const ORIGIN = TEST_ORIGIN;
const CARD = "4242424242424242";
let shop: TestShop;
let db: Database;
let productId: number;

beforeAll(async () => {
  shop = await createTestShop("sqlite");
  db = shop.db;
  productId = await insertProduct(db, { name: "Trail Backpack", stock: 3, priceCents: 4_000 });
});

afterAll(async () => {
  await shop?.destroy();
});

const post = (
  module: { action: (args: never) => unknown },
  path: string,
  fields: Record<string, string>,
  jar: Jar,
  clientIp?: string,
) => postForm(module, `${ORIGIN}${path}`, fields, jar, shop.context(clientIp));

async function toastIn(jar: Jar) {
  const { toast } = await toasts.getToast(new Request(ORIGIN, { headers: { Cookie: jar.header() } }));
  jar.cookies.delete("cw_toast");
  return toast && { type: toast.type, message: toast.message };
}

async function load(search: string, jar: Jar) {
  const request = new Request(`${ORIGIN}/checkout${search}`, { headers: { Cookie: jar.header() } });
  try {
    const result = (await checkout.loader({
      request,
      params: {},
      context: shop.context(),
    } as never)) as unknown;
    const value = result as { data?: unknown; init?: { headers?: Headers } };
    return (value.data ?? value) as Record<string, unknown>;
  } catch (thrown) {
    if (thrown instanceof Response) return { redirect: thrown.headers.get("Location") };
    throw thrown;
  }
}

const SHIPPING = {
  intent: "shipping",
  firstName: "Ada",
  lastName: "Lovelace",
  email: "Ada@Example.com",
  phone: "+1 555 0100",
  address: "1 Analytical Way",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
  country: "US",
  shippingMethod: "express",
};

describe("checkout without JavaScript", () => {
  const jar = new Jar();

  it("an empty cart is sent to /cart", async () => {
    expect(await load("", jar)).toEqual({ redirect: "/cart" });
    expect(await load("?step=review", jar)).toEqual({ redirect: "/cart" });
  });

  it("the empty shipping form answers with the spec's message naming every field", async () => {
    await post(cart, "/cart", { intent: "add", productId: String(productId), quantity: "2" }, jar);
    await toastIn(jar);
    const response = (await post(checkout, "/checkout", { intent: "shipping" }, jar)) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/checkout");
    expect(await toastIn(jar)).toEqual({
      type: "error",
      message:
        "Please fill in all required fields: firstName, lastName, email, phone, address, city, state, zipCode, country",
    });
    const page = await load("", jar);
    expect(page.step).toBe("shipping");
    expect(Object.keys(page.fieldErrors as object)).toHaveLength(9);
    // skipping ahead is not possible
    expect(await load("?step=payment", jar)).toEqual({ redirect: "/checkout" });
  });

  it("a malformed e-mail keeps what was typed and says what is wrong", async () => {
    await post(checkout, "/checkout", { ...SHIPPING, email: "not-an-email" }, jar);
    expect(await toastIn(jar)).toEqual({ type: "error", message: "Please correct the highlighted fields." });
    const page = await load("", jar);
    expect(page.values).toMatchObject({ firstName: "Ada", email: "not-an-email" });
    expect(page.fieldErrors).toEqual({ email: "Enter a valid e-mail address, like name@example.com." });
  });

  it("shipping → payment; missing and declined cards stay on payment; a good card → review", async () => {
    const ok = (await post(checkout, "/checkout", SHIPPING, jar)) as Response;
    expect(ok.headers.get("Location")).toBe("/checkout?step=payment");

    await post(checkout, "/checkout", { intent: "payment" }, jar);
    expect(await toastIn(jar)).toEqual({
      type: "error",
      message: "Please fill in all required fields: cardNumber, cardName, expiryDate, cvv",
    });

    const card = { intent: "payment", cardName: "Ada Lovelace", expiryDate: "12/30", cvv: "123" };
    const declined = (await post(
      checkout,
      "/checkout",
      { ...card, cardNumber: "4000 0000 0000 0002" },
      jar,
    )) as Response;
    expect(declined.headers.get("Location")).toBe("/checkout?step=payment");
    expect(await toastIn(jar)).toEqual({
      type: "error",
      message: "Your card was declined. Please use a different card.",
    });
    await post(checkout, "/checkout", { ...card, cardNumber: "4000000000009995" }, jar);
    expect(await toastIn(jar)).toEqual({
      type: "error",
      message: "Your card has insufficient funds. Please use a different card.",
    });
    expect(await load("?step=review", jar)).toEqual({ redirect: "/checkout?step=payment" });

    const good = (await post(
      checkout,
      "/checkout",
      { ...card, cardNumber: "4242 4242 4242 4242" },
      jar,
    )) as Response;
    expect(good.headers.get("Location")).toBe("/checkout?step=review");
    // the checkout in progress keeps the token, brand and last 4 — never the number or the CVV
    const progress = await db.selectFrom("checkoutProgress").selectAll().executeTakeFirstOrThrow();
    expect(progress).toMatchObject({ paymentBrand: "Visa", paymentLast4: "4242", paymentExpiry: "12/30" });
    expect(JSON.stringify(progress)).not.toContain(CARD);
    expect(Object.values(progress)).not.toContain("123");
    expect([...jar.cookies.keys()]).toEqual(["cw_cart"]);
  });

  it("review shows the express totals; placing twice makes one order and one e-mail", async () => {
    const review = await load("?step=review", jar);
    expect(review.totals).toMatchObject({
      subtotalCents: 8_000,
      discountCents: 0,
      shippingCents: 999,
      taxCents: 560,
      totalCents: 9_559,
    });
    const place = {
      intent: "place-order",
      idempotencyKey: review.idempotencyKey as string,
      expectedTotalCents: "9559",
    };
    const [first, second] = (await Promise.all([
      post(checkout, "/checkout", place, jar),
      post(checkout, "/checkout", place, jar),
    ])) as Response[];
    expect(first?.headers.get("Location")).toBe("/checkout?step=confirmation");
    expect(second?.headers.get("Location")).toBe("/checkout?step=confirmation");
    // the confirmation goes out right after the answer
    await settleAfterResponseTasks();

    const orders = await db.selectFrom("orders").selectAll().execute();
    expect(orders).toHaveLength(1);
    const [order] = orders;
    expect(order).toMatchObject({ email: "Ada@Example.com", totalCents: 9_559, shippingMethod: "express" });
    // sent by Place Order itself (attempt 1), so the resend job has nothing to do
    expect(order?.confirmationAttempts).toBe(1);
    expect(order?.confirmationSentAt).not.toBeNull();
    const confirmation = await load("?step=confirmation", jar);
    expect(confirmation.order).toMatchObject({ number: order?.number, email: "Ada@Example.com" });
    const stock = await db
      .selectFrom("products")
      .select("stock")
      .where("id", "=", productId)
      .executeTakeFirst();
    expect(stock?.stock).toBe(1);
    // the cart is empty: the checkout steps go back to /cart
    expect(await load("", jar)).toEqual({ redirect: "/cart" });

    const mail = await readOutbox(shop.mailDir);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.to.toLowerCase()).toContain("ada@example.com");
    expect(mail[0]?.subject).toContain(order?.number);
    expect(mail[0]?.text).toContain("Total: $95.59");
  });

  it("Place Order takes the checkout's own key: another shopper's key leads back to the review, not to their order", async () => {
    const placedKey = await db
      .selectFrom("orders")
      .select(["idempotencyKey", "number"])
      .executeTakeFirstOrThrow();
    const other = new Jar();
    await post(cart, "/cart", { intent: "add", productId: String(productId), quantity: "1" }, other);
    await post(checkout, "/checkout", { ...SHIPPING, email: "grace@example.com" }, other);
    await post(
      checkout,
      "/checkout",
      { intent: "payment", cardName: "Grace Hopper", expiryDate: "12/30", cvv: "123", cardNumber: CARD },
      other,
    );
    const review = await load("?step=review", other);
    const answer = (await post(
      checkout,
      "/checkout",
      {
        intent: "place-order",
        idempotencyKey: placedKey.idempotencyKey,
        expectedTotalCents: String((review.totals as { totalCents: number }).totalCents),
      },
      other,
    )) as Response;
    expect(answer.headers.get("Location")).toBe("/checkout?step=review");
    // their own review, still: not Ada's confirmation (her e-mail, lines, totals)
    const confirmation = await load("?step=confirmation", other);
    expect(confirmation).toEqual({ redirect: "/cart" });
    expect(await db.selectFrom("orders").select("id").execute()).toHaveLength(1);
    // with the key of their own review, their order is placed
    const own = (await post(
      checkout,
      "/checkout",
      {
        intent: "place-order",
        idempotencyKey: review.idempotencyKey as string,
        expectedTotalCents: String((review.totals as { totalCents: number }).totalCents),
      },
      other,
    )) as Response;
    expect(own.headers.get("Location")).toBe("/checkout?step=confirmation");
    const theirs = await load("?step=confirmation", other);
    expect(theirs.order).toMatchObject({ email: "grace@example.com" });
    expect((theirs.order as { number: string }).number).not.toBe(placedKey.number);
  });

  it("the card number is in no file the shop wrote (database, WAL, outbox)", () => {
    // the shop's SQLite file (test.db in the test shop's directory) and its WAL beside it
    const dbFile = basename(shop.services.config.DATABASE_URL.replace(/^file:/, ""));
    const files = [
      ...readdirSync(shop.dir)
        .filter((name) => name.startsWith(dbFile))
        .map((name) => join(shop.dir, name)),
      ...readdirSync(shop.mailDir).map((name) => join(shop.mailDir, name)),
    ];
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) {
      const bytes = readFileSync(file).toString("latin1");
      expect(bytes.includes(CARD), file).toBe(false);
      expect(bytes.includes("4242 4242 4242 4242"), file).toBe(false);
    }
  });
});

describe("POST /orders/track", () => {
  const jar = new Jar();
  let number = "";
  beforeAll(async () => {
    const order = await db
      .selectFrom("orders")
      .select("number")
      .where("email", "=", "Ada@Example.com")
      .executeTakeFirstOrThrow();
    number = order.number;
  });

  it("finds the order by number and e-mail, in any case", async () => {
    const result = (await post(
      track,
      "/orders/track",
      { orderNumber: number.toLowerCase(), email: " ada@example.COM " },
      jar,
      "198.51.100.1",
    )) as { status: string; order: { number: string; status: string; items: unknown[] } };
    expect(result.status).toBe("found");
    expect(result.order).toMatchObject({ number, status: "paid" });
    expect(result.order.items).toEqual([
      {
        name: "Trail Backpack",
        variantTitle: "",
        sku: `CW-${productId}`,
        quantity: 2,
        lineTotalCents: 8_000,
      },
    ]);
  });

  it("answers a wrong number and a wrong e-mail the same way", async () => {
    const answers = [];
    for (const fields of [
      { orderNumber: number, email: "someone@else.com" },
      { orderNumber: "CW-0000000000", email: "ada@example.com" },
      { orderNumber: "'; drop table orders; --", email: "ada@example.com" },
    ]) {
      const result = (await post(track, "/orders/track", fields, jar, "198.51.100.2")) as {
        data: { status: string; message: string };
        init: { status: number };
      };
      answers.push({ status: result.init.status, body: result.data.status, message: result.data.message });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual({
      status: 200,
      body: "not-found",
      message:
        "We couldn't find an order with that order number and e-mail address. Please check both and try again.",
    });
  });

  it("is rate limited per visitor address, with Retry-After", async () => {
    const attempt = () =>
      post(
        track,
        "/orders/track",
        { orderNumber: "CW-0000000000", email: "x@y.com" },
        jar,
        "192.0.2.99",
      ) as Promise<{
        init: { status: number; headers: Record<string, string> };
        data: { status: string; message: string };
      }>;
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await attempt()).init.status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
    const limited = await attempt();
    expect(limited.data.message).toBe("Too many attempts. Please wait 15 minutes and try again.");
    expect(Number(limited.init.headers["Retry-After"])).toBeGreaterThan(800);
    // another address is not affected
    expect(
      (await post(
        track,
        "/orders/track",
        { orderNumber: number, email: "ada@example.com" },
        jar,
        "192.0.2.100",
      )) as object,
    ).toMatchObject({ status: "found" });
  });
});

describe("checkout pages price promotions for who is buying", () => {
  it("a first-order promotion: the review prices it for the e-mail typed, and Place Order charges that total", async () => {
    const tent = await insertProduct(db, { name: "Two-Person Tent", stock: 5, priceCents: 10_000 });
    const at = "2026-11-01T00:00:00.000Z";
    const { id } = await db
      .insertInto("promotions")
      .values({
        name: "Welcome: $5 off your first order",
        action: JSON.stringify({ type: "order-fixed", cents: 500 }),
        conditions: JSON.stringify([{ type: "first-order" }]),
        createdAt: at,
        updatedAt: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    try {
      const jar = new Jar();
      await post(cart, "/cart", { intent: "add", productId: String(tent), quantity: "1" }, jar);
      await post(checkout, "/checkout", { ...SHIPPING, email: "newcomer@example.com" }, jar);
      await post(
        checkout,
        "/checkout",
        { intent: "payment", cardName: "New Comer", expiryDate: "12/30", cvv: "123", cardNumber: CARD },
        jar,
      );
      const review = await load("?step=review", jar);
      // $100.00 − $5.00, tax 7 % of $95.00 ($6.65), express $9.99
      expect(review.totals).toMatchObject({ subtotalCents: 10_000, discountCents: 500, totalCents: 11_164 });
      const placed = (await post(
        checkout,
        "/checkout",
        {
          intent: "place-order",
          idempotencyKey: review.idempotencyKey as string,
          expectedTotalCents: String((review.totals as { totalCents: number }).totalCents),
        },
        jar,
      )) as Response;
      expect(placed.headers.get("Location")).toBe("/checkout?step=confirmation");
      const order = await db
        .selectFrom("orders")
        .select(["totalCents", "discountCents"])
        .where("email", "=", "newcomer@example.com")
        .executeTakeFirstOrThrow();
      expect(order).toEqual({ totalCents: 11_164, discountCents: 500 });
    } finally {
      await db.updateTable("promotions").set({ active: 0 }).where("id", "=", id).execute();
    }
  });
});
