import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintTestToken } from "../../app/adapters/payments/test-gateway.server.ts";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { planGiftCards } from "../../app/domain/gift-cards/gift-card-plan.ts";
import { usableTenders } from "../../app/domain/gift-cards/gift-card-spending.server.ts";
import { issueGiftCard } from "../../app/domain/gift-cards/gift-cards.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { GIFT_CARD_PAYMENT } from "../../app/domain/payments/charges.server.ts";
import { cancelPaidOrder, refundOrder } from "../../app/domain/payments/refunds.server.ts";
import { ENGINES } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { moneyBookDifferences } from "../helpers/money-books.ts";
import { SPEC_SHOP, specTotals } from "../helpers/spec-pricing.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * Paying with gift cards and store credit (issue 31, decision 036), through Place Order and the
 * refund workflow with the test gateway, on each engine: a card pays part and the gateway is asked
 * for the rest only; cards that pay it all need no gateway; a declined payment gives the card back;
 * checkouts racing for one balance never take more than it holds; refunds go through the gateway
 * first and the rest back to the cards, or all of it as store credit. After each: the money books
 * balance (tests/helpers/money-books.ts: the gateway's ledger, the refunds, the cards' movements).
 */
const OWNER = { id: "owner-gc", email: "owner@giftpay.example", role: "owner" as const };
const SHOP = { shopName: "Cartwheel", publicUrl: TEST_ORIGIN };
const SHIPPING = {
  firstName: "Grace",
  lastName: "Hopper",
  email: "grace@giftpay.example",
  phone: "+1 555 0101",
  address: "1 Compiler Road",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
  country: "US",
};

describe.each(ENGINES)("paying with gift cards on %s", (engine) => {
  let shop: TestShop;
  let userId = "";

  beforeAll(async () => {
    shop = await createTestShop(engine);
    const user = await createOrUpdateUser(
      { auth: shop.services.auth, db: shop.db },
      { email: "buyer@giftpay.example", password: "correct horse", role: "customer" },
    );
    if (!user.ok) throw new Error("user not made");
    userId = user.value.userId;
  });
  afterAll(async () => {
    const books = await moneyBookDifferences(shop.db);
    await shop?.destroy();
    expect(books.differences).toEqual([]);
  });

  const services = () => ({
    db: shop.db,
    gateway: shop.services.gateway,
    mail: shop.services.mail,
    shop: SHOP,
  });

  async function issue(amountCents: number) {
    const issued = await issueGiftCard(shop.db, {
      input: {
        amountCents,
        currency: "USD",
        expiresAt: null,
        recipientEmail: null,
        recipientName: null,
        message: null,
        key: randomUUID(),
      },
      actor: OWNER,
    });
    if (!issued.ok) throw new Error(JSON.stringify(issued));
    return issued.value.card;
  }

  const balanceOf = async (id: number) =>
    (
      await shop.db
        .selectFrom("giftCards")
        .select("balanceCents")
        .where("id", "=", id)
        .executeTakeFirstOrThrow()
    ).balanceCents;

  /** A cart of `lamps` $40 lamps (two: $80, free shipping from $50, 7 % tax: $85.60). */
  async function cartOf(lamps = 2) {
    const lamp = await insertProduct(shop.db, { stock: 50, priceCents: 4_000, name: "Gift Lamp" });
    const cartId = newCartId();
    await addToCart(shop.db, { cartId, productId: lamp, quantity: lamps });
    const cart = await getCart(shop.db, cartId, SPEC_SHOP);
    return { cartId, totalCents: specTotals(cart.totals.subtotalCents).totalCents };
  }

  async function cardToken() {
    const card = await shop.services.gateway.tokenize({
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2031,
      cvv: "123",
      name: "Grace",
    });
    if (!card.ok) throw new Error("tokenize failed");
    return { token: card.token, brand: card.brand, last4: card.last4 };
  }

  async function place(
    { cartId, totalCents }: { cartId: string; totalCents: number },
    giftCardIds: number[],
    {
      payment,
      user = null,
      expectedGiftCardCents,
    }: {
      payment?: { token: string; brand: string; last4: string };
      user?: string | null;
      expectedGiftCardCents?: number;
    } = {},
  ) {
    const plan = planGiftCards(
      await usableTenders(shop.db, giftCardIds, { userId: user, currency: "USD", now: new Date() }),
      totalCents,
    );
    return placeOrder(shop.db, shop.services.gateway, {
      cartId,
      idempotencyKey: randomUUID(),
      shipping: SHIPPING,
      method: "standard",
      shop: SPEC_SHOP,
      payment: payment ?? (await cardToken()),
      expectedTotalCents: totalCents,
      giftCardIds,
      expectedGiftCardCents: expectedGiftCardCents ?? plan.giftCardCents,
      userId: user,
    });
  }

  const orderOf = (number: string) =>
    shop.db
      .selectFrom("orders")
      .leftJoin("testGatewayPayments", "testGatewayPayments.authorizationId", "orders.paymentReference")
      .select([
        "orders.id",
        "orders.status",
        "orders.totalCents",
        "orders.giftCardCents",
        "orders.paymentReference",
        "testGatewayPayments.amountCents as charged",
        "testGatewayPayments.refundedCents as gatewayRefunded",
      ])
      .where("orders.number", "=", number)
      .executeTakeFirstOrThrow();

  it("a card pays part: the gateway is asked for the rest only, the card's balance goes down by its part", async () => {
    const card = await issue(2_500);
    const cart = await cartOf();
    const placed = await place(cart, [card.id]);
    expect(placed.ok).toBe(true);
    if (!placed.ok) return;
    const order = await orderOf(placed.value.order.number);
    expect(order).toMatchObject({ status: "paid", totalCents: 8_560, giftCardCents: 2_500, charged: 6_060 });
    expect(await balanceOf(card.id)).toBe(0);
  });

  it("cards that pay the whole order need no card: paid without a gateway call", async () => {
    const card = await issue(10_000);
    const cart = await cartOf();
    const payments = await shop.db.selectFrom("testGatewayPayments").select("authorizationId").execute();
    const placed = await place(cart, [card.id], {
      payment: { token: GIFT_CARD_PAYMENT, brand: "Gift card", last4: card.last4 },
    });
    expect(placed.ok).toBe(true);
    if (!placed.ok) return;
    const order = await orderOf(placed.value.order.number);
    expect(order).toMatchObject({
      status: "paid",
      giftCardCents: 8_560,
      paymentReference: GIFT_CARD_PAYMENT,
      charged: null,
    });
    expect(await shop.db.selectFrom("testGatewayPayments").select("authorizationId").execute()).toHaveLength(
      payments.length,
    );
    expect(await balanceOf(card.id)).toBe(10_000 - 8_560);
  });

  it("a card payment the cards do not cover whole is refused when the token says the cards pay it all", async () => {
    const card = await issue(1_000);
    const placed = await place(await cartOf(), [card.id], {
      payment: { token: GIFT_CARD_PAYMENT, brand: "Gift card", last4: card.last4 },
    });
    expect(placed).toMatchObject({ ok: false, error: { code: "gift-card-changed" } });
    expect(await balanceOf(card.id)).toBe(1_000);
  });

  it("what the card would leave under the provider's minimum, the card pays the minimum of", async () => {
    const card = await issue(8_530); // $85.60 − $85.30 = 30 cents: the card pays 50 cents instead
    const placed = await place(await cartOf(), [card.id]);
    expect(placed.ok).toBe(true);
    if (!placed.ok) return;
    expect(await orderOf(placed.value.order.number)).toMatchObject({ giftCardCents: 8_510, charged: 50 });
    expect(await balanceOf(card.id)).toBe(20);
  });

  it("a declined card gives the gift card's part back; a balance changed since the review stops the order", async () => {
    const card = await issue(2_000);
    const declined = await place(await cartOf(), [card.id], {
      payment: { token: mintTestToken("card_declined"), brand: "Visa", last4: "0002" },
    });
    expect(declined).toMatchObject({ ok: false, error: { code: "payment-declined" } });
    expect(await balanceOf(card.id)).toBe(2_000);
    const movements = await shop.db
      .selectFrom("giftCardMovements")
      .select(["reason", "amountCents"])
      .where("giftCardId", "=", card.id)
      .orderBy("id")
      .execute();
    expect(movements.map((m) => [m.reason, m.amountCents])).toEqual([
      ["issued", 2_000],
      ["redeemed", -2_000],
      ["released", 2_000],
    ]);
    const stale = await place(await cartOf(), [card.id], { expectedGiftCardCents: 2_500 });
    expect(stale).toMatchObject({ ok: false, error: { code: "gift-card-changed" } });
    expect(await balanceOf(card.id)).toBe(2_000);
  });

  it("checkouts racing for one balance never take more than it holds", async () => {
    const card = await issue(20_000);
    const carts = await Promise.all(Array.from({ length: 6 }, () => cartOf()));
    // each reviewed while the card still held $200: $85.60 each, so only two can have their part
    const results = await Promise.all(carts.map((cart) => place(cart, [card.id])));
    const placed = results.filter((result) => result.ok);
    expect(placed).toHaveLength(2);
    for (const result of results.filter((r) => !r.ok)) {
      expect(result).toMatchObject({ ok: false, error: { code: "gift-card-changed" } });
    }
    expect(await balanceOf(card.id)).toBe(20_000 - 2 * 8_560);
  });

  it("a refund goes back through the gateway first, then to the card; a cancellation gives back both", async () => {
    const card = await issue(3_000);
    const placed = await place(await cartOf(), [card.id]); // card $30, gateway $55.60
    if (!placed.ok) throw new Error(placed.error.code);
    const { number } = placed.value.order;
    const first = await refundOrder(services(), {
      number,
      key: randomUUID(),
      lines: [],
      amountCents: 5_000,
      restock: false,
      reason: "goodwill",
      actor: OWNER,
    });
    expect(first.ok).toBe(true);
    expect(await orderOf(number)).toMatchObject({ gatewayRefunded: 5_000 });
    expect(await balanceOf(card.id)).toBe(0);
    const second = await refundOrder(services(), {
      number,
      key: randomUUID(),
      lines: [],
      amountCents: 1_000,
      restock: false,
      reason: "more goodwill",
      actor: OWNER,
    });
    expect(second.ok).toBe(true);
    // $5.60 was left on the gateway's side: it pays that, the card gets $4.40
    expect(await orderOf(number)).toMatchObject({ gatewayRefunded: 5_560 });
    expect(await balanceOf(card.id)).toBe(440);

    const other = await place(await cartOf(), [card.id]);
    if (!other.ok) throw new Error(other.error.code);
    const cancelled = await cancelPaidOrder(services(), {
      number: other.value.order.number,
      orderKey: randomUUID(),
      actor: OWNER,
    });
    expect(cancelled.ok).toBe(true);
    expect(await orderOf(other.value.order.number)).toMatchObject({
      status: "cancelled",
      gatewayRefunded: 8_560 - 440,
    });
    expect(await balanceOf(card.id)).toBe(440);
    expect((await moneyBookDifferences(shop.db)).differences).toEqual([]);
  });

  it("a refund as store credit goes to the account (made on first use), which pays the next order", async () => {
    const placed = await place(await cartOf(), [], { user: userId });
    if (!placed.ok) throw new Error(placed.error.code);
    const credited = await refundOrder(services(), {
      number: placed.value.order.number,
      key: randomUUID(),
      lines: [],
      amountCents: 8_560,
      restock: true,
      reason: "store credit",
      toStoreCredit: true,
      actor: OWNER,
    });
    expect(credited.ok).toBe(true);
    expect(await orderOf(placed.value.order.number)).toMatchObject({
      status: "refunded",
      gatewayRefunded: 0,
    });
    const credit = await shop.db
      .selectFrom("giftCards")
      .select(["id", "balanceCents", "kind"])
      .where("userId", "=", userId)
      .executeTakeFirstOrThrow();
    expect(credit).toMatchObject({ kind: "store_credit", balanceCents: 8_560 });

    // a guest's order cannot become store credit
    const guest = await place(await cartOf(), []);
    if (!guest.ok) throw new Error(guest.error.code);
    const refused = await refundOrder(services(), {
      number: guest.value.order.number,
      key: randomUUID(),
      lines: [],
      amountCents: 100,
      restock: false,
      reason: "",
      toStoreCredit: true,
      actor: OWNER,
    });
    expect(refused).toMatchObject({ ok: false, error: { code: "no-account" } });

    // only its own account can spend it
    expect(
      await usableTenders(shop.db, [credit.id], { userId: null, currency: "USD", now: new Date() }),
    ).toEqual([]);
    const next = await place(await cartOf(), [credit.id], {
      user: userId,
      payment: { token: GIFT_CARD_PAYMENT, brand: "Store credit", last4: "—" },
    });
    expect(next.ok).toBe(true);
    expect(await balanceOf(credit.id)).toBe(0);
  });
});
