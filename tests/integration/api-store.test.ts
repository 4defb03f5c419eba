import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../app/api/api.server.ts";
import type { StaffActor } from "../../app/domain/audit/audit-log.server.ts";
import { ensureAccountCart } from "../../app/domain/cart/cart-owner.server.ts";
import { createApiKey } from "../../app/domain/integrations/api-keys.server.ts";
import { getOrderByNumber } from "../../app/domain/orders/orders.server.ts";
import { settleAfterResponseTasks } from "../../app/jobs/after-response.server.ts";
import * as cart from "../../app/routes/cart.tsx";
import * as checkout from "../../app/routes/checkout.tsx";
import { cartwheelClient } from "../../clients/typescript/client.ts";
import { ENGINES } from "../db-utils.ts";
import { insertUser } from "../helpers/account-fixtures.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { insertCoupon } from "../helpers/coupons.ts";
import { moneyBookDifferences } from "../helpers/money-books.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { Jar, postForm } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

const OWNER: StaffActor = { id: "owner-1", email: "owner@example.com", role: "owner" };

const ADDRESS = {
  firstName: "Ada",
  lastName: "Lovelace",
  phone: "+1 555 0100",
  address: "1 Analytical Way",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
  country: "US",
};
const CARD = { cardNumber: "4242 4242 4242 4242", cardName: "Ada Lovelace", expiryDate: "12/30", cvv: "123" };

/**
 * The Store API's cart and checkout (issue 32) on both engines, through the typed client: a
 * publishable key builds a cart, prices it for an address, pays with the test gateway's token and
 * places the order — the same order the /cart and /checkout pages place for the same cart, compared
 * field by field — and every refusal in the pages' words: a stale total, a declined card, an address
 * the shipping step refuses, stock gone, a code that does not apply, a cart that is not a guest's.
 */
describe.each(ENGINES)("the Store API's cart and checkout, on %s", (engine) => {
  let shop: TestShop;
  let client: ReturnType<typeof cartwheelClient>;
  let productId: number;

  beforeAll(async () => {
    shop = await createTestShop(engine);
    const api = createApi(async () => shop.services);
    const made = await createApiKey(shop.db, {
      actor: OWNER,
      input: { name: "Mobile app", kind: "publishable", scopes: [], expiresAt: null },
    });
    if (!made.ok) throw new Error(made.error.code);
    client = cartwheelClient({
      baseUrl: TEST_ORIGIN,
      apiKey: made.value.secret,
      fetch: (request) => Promise.resolve(api.fetch(request)),
    });
    productId = await insertProduct(shop.db, { name: "Trail Backpack", stock: 50, priceCents: 4_000 });
    await insertCoupon(shop.db, { code: "TRAIL10", amount: 10 });
    await insertCoupon(shop.db, { code: "BIGSPEND", amount: 10, minSubtotalCents: 1_000_000 });
  });
  afterAll(async () => {
    await settleAfterResponseTasks();
    await shop?.destroy();
  });

  const once = () => ({ "idempotency-key": randomUUID() });

  async function newCart() {
    const { data, response } = await client.POST("/api/v1/store/carts", { params: { header: once() } });
    expect(response.status).toBe(201);
    if (!data) throw new Error("no cart");
    return data.id;
  }

  async function add(cartId: string, quantity: number, id = productId) {
    return client.POST("/api/v1/store/carts/{cartId}/lines", {
      params: { path: { cartId }, header: once() },
      body: { productId: id, quantity },
    });
  }

  async function quote(cartId: string) {
    const { data } = await client.GET("/api/v1/store/carts/{cartId}/quote", {
      params: { path: { cartId }, query: { country: "US", region: "IL", shippingMethod: "standard" } },
    });
    if (!data) throw new Error("no quote");
    return data;
  }

  async function token(card: Partial<typeof CARD> = {}) {
    return client.POST("/api/v1/store/payment-tokens", {
      params: { header: once() },
      body: { ...CARD, ...card },
    });
  }

  async function checkoutCart(
    cartId: string,
    overrides: { expectedTotal?: number; payment?: string; email?: string; key?: string } = {},
  ) {
    const paymentToken = overrides.payment ?? (await token()).data?.token ?? "";
    const expectedTotal = overrides.expectedTotal ?? (await quote(cartId)).totals.total.amount;
    return client.POST("/api/v1/store/carts/{cartId}/checkout", {
      params: { path: { cartId }, header: { "idempotency-key": overrides.key ?? randomUUID() } },
      body: {
        ...ADDRESS,
        email: overrides.email ?? "ada@example.com",
        shippingMethod: "standard",
        payment: { token: paymentToken },
        expectedTotal,
      },
    });
  }

  const stockLeft = async () =>
    (
      await shop.db
        .selectFrom("products")
        .select("stock")
        .where("id", "=", productId)
        .executeTakeFirstOrThrow()
    ).stock;

  it("builds a cart in the cart page's words: added, capped at the stock, set, removed", async () => {
    const small = await insertProduct(shop.db, { name: "Head Torch", stock: 3, priceCents: 1_500 });
    const cartId = await newCart();
    const added = await add(cartId, 2);
    expect(added.data?.message).toBe("2 x Trail Backpack added to cart!");
    expect(added.data?.cart.lines).toMatchObject([{ productId, quantity: 2, unitPrice: { amount: 4_000 } }]);
    const capped = await add(cartId, 5, small);
    expect(capped.data?.message).toBe("Only 3 of Head Torch available — your cart has the maximum.");
    const torch = capped.data?.cart.lines.find((line) => line.productId === small);
    expect(torch?.quantity).toBe(3);
    const set = await client.POST("/api/v1/store/carts/{cartId}/lines/{variantId}", {
      params: { path: { cartId, variantId: torch?.variantId ?? 0 }, header: once() },
      body: { quantity: 0 },
    });
    expect(set.data?.message).toBe("Item removed from cart");
    expect(set.data?.cart.lines.map((line) => line.productId)).toEqual([productId]);
    expect(set.data?.cart.totals.subtotal).toEqual({ amount: 8_000, currency: "USD" });

    const { data, response } = await client.GET("/api/v1/store/carts/{cartId}", {
      params: { path: { cartId } },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual(set.data?.cart);
  });

  it("applies a code that applies and refuses one that does not, with the coupon messages", async () => {
    const cartId = await newCart();
    const empty = await client.POST("/api/v1/store/carts/{cartId}/code", {
      params: { path: { cartId }, header: once() },
      body: { code: "TRAIL10" },
    });
    expect(empty.response.status).toBe(409);
    expect(empty.error?.detail).toBe("Add something to your cart before applying a coupon.");
    await add(cartId, 1);
    const refused = await client.POST("/api/v1/store/carts/{cartId}/code", {
      params: { path: { cartId }, header: once() },
      body: { code: "bigspend" },
    });
    expect(refused.response.status).toBe(409);
    expect(refused.error?.detail).toMatch(/minimum|at least/i);
    const applied = await client.POST("/api/v1/store/carts/{cartId}/code", {
      params: { path: { cartId }, header: once() },
      body: { code: "trail10" },
    });
    expect(applied.response.status).toBe(200);
    expect(applied.data?.cart.code).toMatchObject({ code: "TRAIL10", discount: { amount: 400 } });
    const removed = await client.DELETE("/api/v1/store/carts/{cartId}/code", {
      params: { path: { cartId } },
    });
    expect(removed.data?.cart.code).toBeNull();
  });

  it("places the same order through the API as through the cart and checkout pages", async () => {
    // the pages: add, shipping, payment, review, Place Order
    const jar = new Jar();
    const post = (module: typeof cart | typeof checkout, fields: Record<string, string>) =>
      postForm(
        module,
        `${TEST_ORIGIN}/${module === cart ? "cart" : "checkout"}`,
        fields,
        jar,
        shop.context(),
      ) as Promise<Response>;
    await post(cart, { intent: "add", productId: String(productId), quantity: "2" });
    await post(cart, { intent: "apply-coupon", code: "TRAIL10" });
    await post(checkout, {
      intent: "shipping",
      ...ADDRESS,
      email: "page@example.com",
      shippingMethod: "standard",
    });
    await post(checkout, { intent: "payment", ...CARD });
    const request = new Request(`${TEST_ORIGIN}/checkout?step=review`, { headers: { Cookie: jar.header() } });
    const review = (
      (await checkout.loader({ request, params: {}, context: shop.context() } as never)) as {
        data: { idempotencyKey: string; totals: { totalCents: number } };
      }
    ).data;
    const placed = await post(checkout, {
      intent: "place-order",
      idempotencyKey: review.idempotencyKey,
      expectedTotalCents: String(review.totals.totalCents),
    });
    expect(placed.headers.get("Location")).toBe("/checkout?step=confirmation");
    const pageOrder = await shop.db
      .selectFrom("orders")
      .select("number")
      .where("idempotencyKey", "=", review.idempotencyKey)
      .executeTakeFirstOrThrow();

    // the API: the same cart, address, method and card
    const cartId = await newCart();
    await add(cartId, 2);
    await client.POST("/api/v1/store/carts/{cartId}/code", {
      params: { path: { cartId }, header: once() },
      body: { code: "TRAIL10" },
    });
    const priced = await quote(cartId);
    expect(priced.totals.total.amount).toBe(review.totals.totalCents);
    expect(priced.shippingMethods.map((method) => method.code)).toContain("standard");
    const answer = await checkoutCart(cartId, { email: "api@example.com" });
    expect(answer.response.status).toBe(201);
    expect(answer.data?.redirectUrl).toBeNull();

    const fromPage = await getOrderByNumber(shop.db, pageOrder.number);
    const fromApi = await getOrderByNumber(shop.db, answer.data?.order.number ?? "");
    const comparable = (order: typeof fromPage) => {
      if (!order) throw new Error("no order");
      const {
        number: _n,
        email: _e,
        createdAt: _c,
        id: _i,
        ...rest
      } = order as typeof order & { id?: number };
      return rest;
    };
    expect(fromApi?.status).toBe("paid");
    expect(comparable(fromApi)).toEqual(comparable(fromPage));
    expect(answer.data?.order.total).toEqual({ amount: fromApi?.totals.totalCents, currency: "USD" });

    // paid as the page's: the books balance, the cart is emptied, the confirmation is mailed
    expect((await moneyBookDifferences(shop.db)).differences).toEqual([]);
    const after = await client.GET("/api/v1/store/carts/{cartId}", { params: { path: { cartId } } });
    expect(after.data?.lines ?? []).toEqual([]);
    await settleAfterResponseTasks();
    const mail = await readOutbox(shop.mailDir);
    expect(
      mail.some((m) => m.to.includes("api@example.com") && m.subject.includes(fromApi?.number ?? "?")),
    ).toBe(true);

    // and the shopper follows it by its number and e-mail
    const tracked = await client.GET("/api/v1/store/orders/{number}", {
      params: { path: { number: fromApi?.number ?? "" }, query: { email: "API@example.com" } },
    });
    expect(tracked.data).toMatchObject({ number: fromApi?.number, status: "paid" });
    const wrong = await client.GET("/api/v1/store/orders/{number}", {
      params: { path: { number: fromApi?.number ?? "" }, query: { email: "someone@example.com" } },
    });
    expect(wrong.response.status).toBe(404);
  });

  it("places one order for one Idempotency-Key, however often it is sent", async () => {
    const cartId = await newCart();
    await add(cartId, 1);
    const before = await stockLeft();
    const paid = (await token()).data?.token ?? "";
    const expectedTotal = (await quote(cartId)).totals.total.amount;
    const key = randomUUID();
    const answers = await Promise.all(
      [0, 1, 2].map(() => checkoutCart(cartId, { key, payment: paid, expectedTotal })),
    );
    const placed = answers.filter((answer) => answer.response.status === 201);
    expect(placed.length).toBeGreaterThanOrEqual(1);
    // the others: the same answer again, or told the first is still being answered
    for (const answer of answers) expect([201, 409]).toContain(answer.response.status);
    const numbers = new Set(placed.map((answer) => answer.data?.order.number));
    expect(numbers.size).toBe(1);
    const again = await checkoutCart(cartId, { key, payment: paid, expectedTotal });
    expect(again.response.status).toBe(201);
    expect(again.response.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.data?.order.number).toBe([...numbers][0]);
    expect(await stockLeft()).toBe(before - 1);
    expect((await moneyBookDifferences(shop.db)).differences).toEqual([]);
  });

  it("refuses a stale total, a declined card, a bad address and a sold-out cart in the checkout's words", async () => {
    const cartId = await newCart();
    await add(cartId, 1);
    const total = (await quote(cartId)).totals.total.amount;

    const stale = await checkoutCart(cartId, { expectedTotal: total - 1 });
    expect(stale.response.status).toBe(409);
    expect(stale.error?.detail).toBe(
      "Prices have changed since you reviewed your order. Please check the new total.",
    );

    const declined = await token({ cardNumber: "4000 0000 0000 0002" });
    expect(declined.response.status).toBe(402);
    expect(declined.error?.detail).toMatch(/declined/i);
    const forged = await checkoutCart(cartId, { payment: "tok_forged" });
    expect(forged.response.status).toBe(402);
    expect(forged.error?.detail).toBe(
      "Your payment details could not be used. Please enter your card again.",
    );
    const badCard = await token({ expiryDate: "13/99", cardNumber: "1234" });
    expect(badCard.response.status).toBe(400);
    expect(badCard.error?.errors?.map((e) => e.field).sort()).toEqual(["cardNumber", "expiryDate"]);

    const badAddress = await client.POST("/api/v1/store/carts/{cartId}/checkout", {
      params: { path: { cartId }, header: once() },
      body: {
        ...ADDRESS,
        zipCode: "!!",
        email: "not-an-email",
        shippingMethod: "standard",
        payment: { token: "x" },
        expectedTotal: total,
      },
    });
    expect(badAddress.response.status).toBe(400);
    expect(badAddress.error?.errors).toEqual(
      expect.arrayContaining([
        { field: "zipCode", message: "Enter a valid ZIP or postal code." },
        { field: "email", message: "Enter a valid e-mail address, like name@example.com." },
      ]),
    );
    const nowhere = await client.GET("/api/v1/store/carts/{cartId}/quote", {
      params: { path: { cartId }, query: { country: "AQ" } },
    });
    expect(nowhere.response.status).toBe(400);
    expect(nowhere.error?.errors?.[0]?.field).toBe("country");

    const soldOut = await insertProduct(shop.db, { name: "Last Lantern", stock: 1, priceCents: 2_000 });
    const other = await newCart();
    await add(other, 1, soldOut);
    const otherTotal = (await quote(other)).totals.total.amount;
    // another buyer takes the last one first
    const first = await newCart();
    await add(first, 1, soldOut);
    expect((await checkoutCart(first, { email: "first@example.com" })).response.status).toBe(201);
    const gone = await checkoutCart(other, { expectedTotal: otherTotal, email: "second@example.com" });
    expect(gone.response.status).toBe(409);
    expect(gone.error?.detail).toMatch(/^(Your cart is empty|Sorry, Last Lantern is out of stock\.)$/);
    expect(
      await shop.db.selectFrom("orders").select("id").where("email", "=", "second@example.com").execute(),
    ).toEqual([]);
  });

  it("answers a browser on another origin (CORS) on the Store API, never on the Admin API", async () => {
    const api = createApi(async () => shop.services);
    const preflight = await api.request("/api/v1/store/carts", {
      method: "OPTIONS",
      headers: {
        Origin: "https://headless.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(preflight.headers.get("Access-Control-Allow-Headers")?.toLowerCase()).toContain("idempotency-key");
    const { response } = await client.GET("/api/v1/store/products", {
      headers: { Origin: "https://headless.example" },
    });
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const admin = await api.request("/api/v1/admin/orders", {
      method: "OPTIONS",
      headers: { Origin: "https://headless.example", "Access-Control-Request-Method": "GET" },
    });
    expect(admin.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });

  it("never reaches an account's cart or a cart that does not exist", async () => {
    const userId = await insertUser(shop.db, "member@example.com");
    const accountCart = await ensureAccountCart(shop.db, userId);
    for (const cartId of [accountCart, randomUUID()]) {
      const read = await client.GET("/api/v1/store/carts/{cartId}", { params: { path: { cartId } } });
      expect(read.response.status).toBe(404);
      const added = await add(cartId, 1);
      expect(added.response.status).toBe(404);
    }
    const malformed = await client.GET("/api/v1/store/carts/{cartId}", { params: { path: { cartId: "1" } } });
    expect(malformed.response.status).toBe(400);
  });
});
