import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Mailer } from "../../app/adapters/mail/mail-message.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { priceCart } from "../../app/domain/cart/cart-pricing.ts";
import { newCartId } from "../../app/domain/cart/cart-store.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { deliverGiftCards } from "../../app/domain/gift-cards/gift-card-delivery.server.ts";
import { giftCardGoodsCents, planGiftCards } from "../../app/domain/gift-cards/gift-card-plan.ts";
import { usableTenders } from "../../app/domain/gift-cards/gift-card-spending.server.ts";
import { findGiftCard, issueGiftCard } from "../../app/domain/gift-cards/gift-cards.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { GIFT_CARD_PAYMENT } from "../../app/domain/payments/charges.server.ts";
import {
  cancelPaidOrder,
  refundOrder,
  refundRefusalMessage,
} from "../../app/domain/payments/refunds.server.ts";
import { ENGINES } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { moneyBookDifferences } from "../helpers/money-books.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { SPEC_SHOP } from "../helpers/spec-pricing.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * Gift cards sold as a product (issue 31, decision 036), on each engine: the cart keeps who a card
 * goes to; the card bears no tax and no shipping (a cart of cards alone is delivered by e-mail, free);
 * gift cards cannot pay for gift cards; once the order is paid the cards are issued and their codes
 * e-mailed, once — a send that fails keeps the codes for the next run, and they are forgotten once sent.
 */
const OWNER = { id: "owner-gcp", email: "owner@giftprod.example", role: "owner" as const };
const SHOP = { shopName: "Cartwheel", publicUrl: TEST_ORIGIN };
const SHIPPING = {
  firstName: "Ada",
  lastName: "Buyer",
  email: "ada@giftprod.example",
  phone: "+1 555 0102",
  address: "1 Card Street",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
  country: "US",
};
const RECIPIENT = { email: "friend@giftprod.example", name: "Friend", message: "Happy birthday!" };

describe.each(ENGINES)("gift cards sold as a product on %s", (engine) => {
  let shop: TestShop;
  let card50 = 0;
  let lamp = 0;

  beforeAll(async () => {
    shop = await createTestShop(engine);
    card50 = await insertProduct(shop.db, {
      giftCard: 1,
      priceCents: 5_000,
      stock: 1_000,
      name: "Gift Card $50",
    });
    lamp = await insertProduct(shop.db, { priceCents: 2_000, stock: 100, name: "Card Shop Lamp" });
  });
  afterAll(async () => {
    const books = await moneyBookDifferences(shop.db);
    await shop?.destroy();
    expect(books.differences).toEqual([]);
  });

  const mailShop = () => SHOP;

  async function cardToken() {
    const card = await shop.services.gateway.tokenize({
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2031,
      cvv: "123",
      name: "Ada",
    });
    if (!card.ok) throw new Error("tokenize failed");
    return { token: card.token, brand: card.brand, last4: card.last4 };
  }

  it("a cart of gift cards: no tax, delivered by e-mail for free; beside goods, shipping and tax are the goods'", async () => {
    const cartId = newCartId();
    await addToCart(shop.db, { cartId, productId: card50, quantity: 2, recipient: RECIPIENT });
    const cart = await getCart(shop.db, cartId, SPEC_SHOP);
    expect(cart.lines[0]).toMatchObject({ giftCard: true, recipient: RECIPIENT, quantity: 2 });
    const destination = { country: "US", region: "IL" };
    const alone = priceCart(SPEC_SHOP.markets, { lines: cart.lines, destination });
    if (!alone.ok) throw new Error("not priced");
    expect(alone.quotes.map((q) => [q.method.code, q.priceCents])).toEqual([["email", 0]]);
    expect(alone.calculation).toMatchObject({
      subtotalCents: 10_000,
      taxCents: 0,
      shippingCents: 0,
      totalCents: 10_000,
    });

    await addToCart(shop.db, { cartId, productId: lamp, quantity: 1 });
    const mixed = await getCart(shop.db, cartId, SPEC_SHOP);
    const priced = priceCart(SPEC_SHOP.markets, { lines: mixed.lines, destination });
    if (!priced.ok) throw new Error("not priced");
    // the lamp alone ships ($20: under the $50 free-shipping threshold) and bears the 7 % tax
    expect(priced.shipping).toMatchObject({ method: { code: "standard" }, priceCents: 499 });
    expect(priced.calculation).toMatchObject({
      subtotalCents: 12_000,
      taxCents: 140,
      totalCents: 12_000 + 499 + 140,
    });
  });

  it("a gift card cannot pay for gift cards: only the goods beside them", async () => {
    const cartId = newCartId();
    await addToCart(shop.db, { cartId, productId: card50, quantity: 1 });
    await addToCart(shop.db, { cartId, productId: lamp, quantity: 1 });
    const cart = await getCart(shop.db, cartId, SPEC_SHOP);
    expect(giftCardGoodsCents(cart.lines)).toBe(5_000);
    const plan = planGiftCards(
      [{ id: 1, kind: "gift_card", last4: "ABCD", balanceCents: 50_000 }],
      7_639,
      5_000,
    );
    expect(plan).toMatchObject({ giftCardCents: 2_639, restCents: 5_000 });
  });

  it("once paid, the cards are issued and e-mailed to the recipient once; the codes work and are then forgotten", async () => {
    const cartId = newCartId();
    await addToCart(shop.db, { cartId, productId: card50, quantity: 2, recipient: RECIPIENT });
    const placed = await placeOrder(shop.db, shop.services.gateway, {
      cartId,
      idempotencyKey: randomUUID(),
      shipping: SHIPPING,
      method: "email",
      shop: SPEC_SHOP,
      payment: await cardToken(),
      expectedTotalCents: 10_000,
    });
    if (!placed.ok) throw new Error(placed.error.code);
    const order = placed.value.order;
    const first = await deliverGiftCards(shop.db, shop.services.mail, mailShop(), { orderId: order.id });
    expect(first).toEqual({ issued: 2, sent: 1 });
    expect(await deliverGiftCards(shop.db, shop.services.mail, mailShop(), { orderId: order.id })).toEqual({
      issued: 0,
      sent: 0,
    });
    const mails = (await readOutbox(shop.mailDir)).filter((m) => m.to === RECIPIENT.email);
    expect(mails).toHaveLength(2);
    const codes = mails.map((m) => m.text.match(/[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){3}/)![0]);
    expect(new Set(codes).size).toBe(2);
    expect(mails[0]!.text).toContain("Happy birthday!");
    for (const code of codes) {
      const found = await findGiftCard(shop.db, code);
      expect(found).toMatchObject({
        ok: true,
        value: { balanceCents: 5_000, recipientEmail: RECIPIENT.email },
      });
    }
    const delivery = await shop.db
      .selectFrom("giftCardDeliveries")
      .select(["codes", "sentAt", "issuedAt"])
      .where("orderId", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(delivery.codes).toBeNull();
    expect(delivery.sentAt).not.toBeNull();
  });

  it("a card for oneself goes to the order's e-mail; a failed send keeps the codes for the next run", async () => {
    const cartId = newCartId();
    await addToCart(shop.db, { cartId, productId: card50, quantity: 1 });
    const placed = await placeOrder(shop.db, shop.services.gateway, {
      cartId,
      idempotencyKey: randomUUID(),
      shipping: { ...SHIPPING, email: "self@giftprod.example" },
      method: "email",
      shop: SPEC_SHOP,
      payment: await cardToken(),
      expectedTotalCents: 5_000,
    });
    if (!placed.ok) throw new Error(placed.error.code);
    const orderId = placed.value.order.id;
    const down: Mailer = {
      send: async () => {
        throw new Error("mail server down");
      },
    } as unknown as Mailer;
    expect(await deliverGiftCards(shop.db, down, mailShop(), { orderId })).toEqual({ issued: 1, sent: 0 });
    const kept = await shop.db
      .selectFrom("giftCardDeliveries")
      .select(["codes", "sentAt"])
      .where("orderId", "=", orderId)
      .executeTakeFirstOrThrow();
    expect(kept.sentAt).toBeNull();
    expect(JSON.parse(kept.codes!)).toHaveLength(1);
    // the next run sends the card already issued: none issued twice
    expect(await deliverGiftCards(shop.db, shop.services.mail, mailShop(), { orderId })).toEqual({
      issued: 0,
      sent: 1,
    });
    const mails = (await readOutbox(shop.mailDir)).filter((m) => m.to === "self@giftprod.example");
    expect(mails.some((m) => m.subject.includes("gift card"))).toBe(true);
    const cards = await shop.db.selectFrom("giftCards").select("id").where("orderId", "=", orderId).execute();
    expect(cards).toHaveLength(1);
  });

  it("an order whose payment failed issues nothing", async () => {
    const { mintTestToken } = await import("../../app/adapters/payments/test-gateway.server.ts");
    const cartId = newCartId();
    await addToCart(shop.db, { cartId, productId: card50, quantity: 1 });
    const declined = await placeOrder(shop.db, shop.services.gateway, {
      cartId,
      idempotencyKey: randomUUID(),
      shipping: SHIPPING,
      method: "email",
      shop: SPEC_SHOP,
      payment: { token: mintTestToken("card_declined"), brand: "Visa", last4: "0002" },
      expectedTotalCents: 5_000,
    });
    expect(declined).toMatchObject({ ok: false, error: { code: "payment-declined" } });
    expect(await deliverGiftCards(shop.db, shop.services.mail, mailShop())).toEqual({ issued: 0, sent: 0 });
  });

  it("Place Order refuses a gift card paying for a gift card", async () => {
    const issued = await issueGiftCard(shop.db, {
      input: {
        amountCents: 10_000,
        currency: "USD",
        expiresAt: null,
        recipientEmail: null,
        recipientName: null,
        message: null,
        key: randomUUID(),
      },
      actor: OWNER,
    });
    if (!issued.ok) throw new Error("not issued");
    const cartId = newCartId();
    await addToCart(shop.db, { cartId, productId: card50, quantity: 1 });
    const tenders = await usableTenders(shop.db, [issued.value.card.id], {
      userId: null,
      currency: "USD",
      now: new Date(),
    });
    // what the review would say: the card pays nothing of a gift card
    expect(planGiftCards(tenders, 5_000, 5_000).giftCardCents).toBe(0);
    const placed = await placeOrder(shop.db, shop.services.gateway, {
      cartId,
      idempotencyKey: randomUUID(),
      shipping: SHIPPING,
      method: "email",
      shop: SPEC_SHOP,
      payment: await cardToken(),
      expectedTotalCents: 5_000,
      giftCardIds: [issued.value.card.id],
      expectedGiftCardCents: 5_000,
    });
    expect(placed).toMatchObject({ ok: false, error: { code: "gift-card-changed" } });
  });

  it("refunding a gift card line takes its card back: an unused card is disabled; a used one, or one not issued yet, is not refunded", async () => {
    const services = () => ({
      db: shop.db,
      gateway: shop.services.gateway,
      mail: shop.services.mail,
      shop: SHOP,
    });
    async function buyCards(quantity: number) {
      const cartId = newCartId();
      await addToCart(shop.db, { cartId, productId: card50, quantity });
      const placed = await placeOrder(shop.db, shop.services.gateway, {
        cartId,
        idempotencyKey: randomUUID(),
        shipping: { ...SHIPPING, email: "refund@giftprod.example" },
        method: "email",
        shop: SPEC_SHOP,
        payment: await cardToken(),
        expectedTotalCents: 5_000 * quantity,
      });
      if (!placed.ok) throw new Error(placed.error.code);
      const { id, number } = placed.value.order;
      const item = await shop.db
        .selectFrom("orderItems")
        .select("id")
        .where("orderId", "=", id)
        .executeTakeFirstOrThrow();
      return { id, number, itemId: item.id };
    }
    const cardsOf = (orderId: number) =>
      shop.db
        .selectFrom("giftCards")
        .select(["id", "balanceCents", "disabledAt"])
        .where("orderId", "=", orderId)
        .orderBy("id")
        .execute();
    const refundOne = (order: { number: string; itemId: number }) =>
      refundOrder(services(), {
        number: order.number,
        key: randomUUID(),
        lines: [{ itemId: order.itemId, quantity: 1 }],
        amountCents: null,
        restock: false,
        reason: "changed their mind",
        actor: OWNER,
      });

    const two = await buyCards(2);
    await deliverGiftCards(shop.db, shop.services.mail, mailShop(), { orderId: two.id });
    expect(await refundOne(two)).toMatchObject({ ok: true, value: { amountCents: 5_000 } });
    const [taken, kept] = await cardsOf(two.id);
    expect(taken).toMatchObject({ balanceCents: 5_000, disabledAt: expect.any(String) });
    expect(kept).toMatchObject({ balanceCents: 5_000, disabledAt: null });
    // the card taken back can no longer pay; the other one can
    const tenders = await usableTenders(shop.db, [taken!.id, kept!.id], {
      userId: null,
      currency: "USD",
      now: new Date(),
    });
    expect(tenders.map((t) => t.id)).toEqual([kept!.id]);

    // the other card pays for a lamp: it is used, so its line is not refunded (nothing is)
    const cartId = newCartId();
    await addToCart(shop.db, { cartId, productId: lamp, quantity: 1 });
    const spent = await placeOrder(shop.db, shop.services.gateway, {
      cartId,
      idempotencyKey: randomUUID(),
      shipping: SHIPPING,
      method: "standard",
      shop: SPEC_SHOP,
      payment: { token: GIFT_CARD_PAYMENT, brand: "Gift card", last4: "TEST" },
      expectedTotalCents: 2_639,
      giftCardIds: [kept!.id],
      expectedGiftCardCents: 2_639,
    });
    expect(spent.ok).toBe(true);
    const refused = await refundOne(two);
    expect(refused).toMatchObject({ ok: false, error: { code: "gift-card-used", name: "Gift Card $50" } });
    if (!refused.ok) expect(refundRefusalMessage(refused.error)).toContain("Gift Card $50");
    const order = await shop.db
      .selectFrom("orders")
      .select(["refundedCents", "refundPendingCents", "status"])
      .where("id", "=", two.id)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      refundedCents: 5_000,
      refundPendingCents: 0,
      status: "partially_refunded",
    });

    // a card not issued yet cannot be taken back: the cancellation waits for it, then takes it
    const one = await buyCards(1);
    const cancel = () =>
      cancelPaidOrder(services(), { number: one.number, orderKey: randomUUID(), actor: OWNER });
    expect(await cancel()).toMatchObject({ ok: false, error: { code: "gift-card-used" } });
    await deliverGiftCards(shop.db, shop.services.mail, mailShop(), { orderId: one.id });
    expect(await cancel()).toMatchObject({ ok: true, value: { status: "cancelled" } });
    expect(await cardsOf(one.id)).toEqual([
      { id: expect.any(Number), balanceCents: 5_000, disabledAt: expect.any(String) },
    ]);
  });
});
