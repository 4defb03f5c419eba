import { randomUUID } from "node:crypto";
import { logger } from "../../adapters/logger.server.ts";
import type { Mailer } from "../../adapters/mail/mail-message.ts";
import type { PaymentGateway } from "../../adapters/payments/payment-gateway.ts";
import type { Database } from "../../db/database.server.ts";
import { runAfterResponse } from "../../jobs/after-response.server.ts";
import { countryName } from "../../lib/countries.ts";
import type { FormRefusal } from "../../lib/form-errors.ts";
import { destinationProblem } from "../../lib/markets.ts";
import { formatExpiry, type PaymentDetails, type PaymentField } from "../../lib/payment-card.ts";
import type { MailShop } from "../../lib/shop-settings.ts";
import type { Toast } from "../../lib/toast.ts";
import { saveCard } from "../accounts/payment-methods.server.ts";
import { priceCart } from "../cart/cart-pricing.ts";
import type { CartView } from "../cart/cart-types.ts";
import type { CartShop } from "../cart/get-cart.server.ts";
import { CART_MESSAGES } from "../cart/messages.server.ts";
import { deliverGiftCards } from "../gift-cards/gift-card-delivery.server.ts";
import { GIFT_CARD_CHECK_MESSAGES, GIFT_CARD_REFUSALS } from "../gift-cards/gift-card-form.ts";
import { type GiftCardPlan, MAX_GIFT_CARDS, type Tender, tenderName } from "../gift-cards/gift-card-plan.ts";
import { storeCreditOf } from "../gift-cards/gift-card-spending.server.ts";
import { findGiftCard } from "../gift-cards/gift-cards.server.ts";
import { sendPlacedOrderConfirmation } from "../orders/order-confirmation.server.ts";
import { type OrderShop, type PlacedConfirmation, placeOrder } from "../orders/place-order.server.ts";
import { GIFT_CARD_PAYMENT, type ProviderReturn } from "../payments/charges.server.ts";
import { boundFeedback, type CheckoutState, type StepFeedback } from "./checkout-progress.server.ts";
import {
  INVALID_FIELDS_MESSAGE,
  requiredFieldsMessage,
  type ShippingDetails,
  type ShippingField,
} from "./shipping-form.ts";

export type CheckoutStep = "shipping" | "payment" | "review" | "confirmation";

/** Where to send the shopper next, with what state, toast and one-time feedback. */
export interface StepOutcome {
  to: string;
  state: CheckoutState;
  toast?: Omit<Toast, "id">;
  feedback?: StepFeedback;
}

export const CHECKOUT_MESSAGES = {
  priceChanged: "Prices have changed since you reviewed your order. Please check the new total.",
  emptyCart: "Your cart is empty",
  sessionExpired: "Your checkout session has expired. Please enter your details again.",
  methodUnavailable: "That shipping method is no longer available for your address. Please choose another.",
  giftCardApplied: (name: string) => `${name} applied`,
  giftCardRemoved: (name: string) => `${name} removed`,
  giftCardAlready: "That gift card is already applied.",
  giftCardsTooMany: `At most ${MAX_GIFT_CARDS} gift cards can pay for one order.`,
  noStoreCredit: "You have no store credit to use.",
  giftCardsShort: "Your gift cards do not cover the whole order. Please enter a card for the rest.",
  giftCardChanged:
    "Your gift card balance has changed since you reviewed your order. Please check your payment.",
} as const;

export const stepPath = (step: CheckoutStep) =>
  step === "shipping" ? "/checkout" : `/checkout?step=${step}`;

/** What a refused step keeps to show again: the posted values (cut short) and one message per field. */
export interface StepRefusal<F extends string> extends FormRefusal<F> {
  values: Record<string, string>;
}

function refusalToast(refusal: FormRefusal<string>): Omit<Toast, "id"> {
  return {
    type: "error",
    message: refusal.missing.length > 0 ? requiredFieldsMessage(refusal.missing) : INVALID_FIELDS_MESSAGE,
  };
}

/**
 * Step 1: the address and e-mail (address-schema.server.ts's `shippingSchema`) and the method. The
 * address must be somewhere a zone ships to (else the message stands beside the country or the
 * state), and the method one its zone offers for this cart (none chosen: the zone's first that
 * can carry it).
 */
export function submitShipping(
  state: CheckoutState,
  { shipping, method }: { shipping: ShippingDetails; method: string | null },
  { shop, cart }: { shop: CartShop; cart: Pick<CartView, "lines" | "coupon" | "offers"> },
): StepOutcome {
  const destination = { country: shipping.country, region: shipping.state };
  const refuse = (field: "country" | "state" | "shippingMethod", message: string): StepOutcome => ({
    to: stepPath("shipping"),
    state: { ...state, method: method ?? state.method },
    toast: { type: "error", message: INVALID_FIELDS_MESSAGE },
    feedback: boundFeedback({ values: shipping, fieldErrors: { [field]: message } }),
  });
  const problem = destinationProblem(shop.markets, destination);
  if (problem) return refuse(problem.field, problem.message);
  const priced = priceCart(shop.markets, {
    lines: cart.lines,
    destination,
    methodCode: method,
    offers: cart.offers,
  });
  const place = countryName(shipping.country);
  if (!priced.ok) return refuse("country", `We don't ship to ${place} yet.`);
  if (!priced.shipping)
    return refuse("shippingMethod", `No shipping method can carry this order to ${place}.`);
  if (method !== null && priced.shipping.method.code !== method) {
    return refuse("shippingMethod", `Choose one of the shipping methods for ${place}.`);
  }
  return { to: stepPath("payment"), state: { ...state, shipping, method: priced.shipping.method.code } };
}

/** Step 1 refused: back to it with the toast naming the missing fields; the method is kept. */
export function refuseShipping(
  state: CheckoutState,
  { method, refusal }: { method: string | null; refusal: StepRefusal<ShippingField> },
): StepOutcome {
  return {
    to: stepPath("shipping"),
    state: { ...state, method: method ?? state.method },
    toast: refusalToast(refusal),
    // the nine fields' values (cut short) and messages; any other posted name is ignored
    feedback: boundFeedback({ values: refusal.values, fieldErrors: refusal.fieldErrors }),
  };
}

const typedCardFields = (typed: { cardName?: string; expiryDate?: string }) => ({
  cardName: (typed.cardName ?? "").slice(0, 100),
  expiryDate: (typed.expiryDate ?? "").slice(0, 5),
});

/** Step 2 refused: back to it; only the name and expiry are shown again (never the number or CVV). */
export function refusePayment(state: CheckoutState, refusal: StepRefusal<PaymentField>): StepOutcome {
  if (!state.shipping) return { to: stepPath("shipping"), state };
  const keep = typedCardFields(refusal.values);
  return {
    to: stepPath("payment"),
    state: { ...state, payment: undefined },
    toast: refusalToast(refusal),
    feedback: boundFeedback({ values: keep, fieldErrors: refusal.fieldErrors }),
  };
}

/**
 * Step 2: the four card fields checked here and again by the gateway, which exchanges the card
 * for a token (a declined card stops here). Only the token, brand, last 4 and expiry are kept.
 */
export async function submitPayment(
  state: CheckoutState,
  {
    card,
    saveInfo,
    typed,
  }: {
    card: PaymentDetails;
    saveInfo: boolean;
    /** the name and expiry as typed, shown again if the gateway declines the card */
    typed: { cardName?: string; expiryDate?: string };
  },
  gateway: PaymentGateway,
): Promise<StepOutcome> {
  if (!state.shipping) return { to: stepPath("shipping"), state };
  // Never echo the card number or CVV back (not even into the checkout in progress).
  const keep = typedCardFields(typed);
  const tokenized = await gateway.tokenize({
    number: card.cardNumber,
    expMonth: card.expMonth,
    expYear: card.expYear,
    cvv: card.cvv,
    name: card.cardName,
  });
  if (!tokenized.ok) {
    return {
      to: stepPath("payment"),
      state: { ...state, payment: undefined },
      toast: { type: "error", message: tokenized.message },
      feedback: { values: keep, fieldErrors: { cardNumber: tokenized.message } },
    };
  }
  return {
    to: stepPath("review"),
    state: {
      ...state,
      payment: {
        token: tokenized.token,
        brand: tokenized.brand,
        last4: tokenized.last4,
        expiry: formatExpiry(
          `${String(tokenized.expMonth).padStart(2, "0")}${String(tokenized.expYear % 100).padStart(2, "0")}`,
        ),
        cardName: card.cardName,
        saveInfo,
      },
      idempotencyKey: randomUUID(),
    },
  };
}

/** The payment to make again: a gift card applied or removed changes what the card pays. */
const withoutPayment = (state: CheckoutState): CheckoutState => ({
  ...state,
  payment: undefined,
  idempotencyKey: undefined,
});

/**
 * A gift card code typed at the payment step (the caller limits how often an address may try): a
 * live card with a balance joins the applied ones; else the refusal stands beside the field.
 */
export async function applyGiftCardCode(
  db: Database,
  state: CheckoutState,
  { code, now = new Date() }: { code: string; now?: Date },
): Promise<StepOutcome> {
  if (!state.shipping) return { to: stepPath("shipping"), state };
  const refuse = (message: string): StepOutcome => ({
    to: stepPath("payment"),
    state,
    toast: { type: "error", message },
    feedback: { values: { giftCardCode: code.slice(0, 30) }, fieldErrors: { giftCardCode: message } },
  });
  if (code === "") return refuse(GIFT_CARD_CHECK_MESSAGES.required);
  const found = await findGiftCard(db, code, now);
  if (!found.ok) return refuse(GIFT_CARD_REFUSALS[found.error.code]);
  return addTender(state, found.value);
}

/** The signed-in shopper's store credit joins the applied cards. */
export async function applyStoreCredit(
  db: Database,
  state: CheckoutState,
  { userId, currency }: { userId: string | null; currency: string },
): Promise<StepOutcome> {
  if (!state.shipping) return { to: stepPath("shipping"), state };
  const credit = userId ? await storeCreditOf(db, userId, currency) : null;
  if (!credit)
    return {
      to: stepPath("payment"),
      state,
      toast: { type: "error", message: CHECKOUT_MESSAGES.noStoreCredit },
    };
  return addTender(state, credit);
}

function addTender(state: CheckoutState, card: Pick<Tender, "id" | "kind" | "last4">): StepOutcome {
  const applied = state.giftCards ?? [];
  if (applied.includes(card.id))
    return {
      to: stepPath("payment"),
      state,
      toast: { type: "error", message: CHECKOUT_MESSAGES.giftCardAlready },
    };
  if (applied.length >= MAX_GIFT_CARDS)
    return {
      to: stepPath("payment"),
      state,
      toast: { type: "error", message: CHECKOUT_MESSAGES.giftCardsTooMany },
    };
  return {
    to: stepPath("payment"),
    state: { ...withoutPayment(state), giftCards: [...applied, card.id] },
    toast: { type: "success", message: CHECKOUT_MESSAGES.giftCardApplied(tenderName(card)) },
  };
}

/** An applied card taken off again. */
export function removeGiftCard(state: CheckoutState, { giftCardId }: { giftCardId: number }): StepOutcome {
  const applied = state.giftCards ?? [];
  if (!applied.includes(giftCardId)) return { to: stepPath("payment"), state };
  return {
    to: stepPath("payment"),
    state: { ...withoutPayment(state), giftCards: applied.filter((id) => id !== giftCardId) },
    toast: { type: "success", message: "Gift card removed" },
  };
}

/**
 * Step 2 when the applied cards pay the whole order (`plan`, by their balances now): no card is
 * asked for; the review follows with the cards as the payment.
 */
export function submitGiftCardPayment(state: CheckoutState, plan: GiftCardPlan): StepOutcome {
  if (!state.shipping) return { to: stepPath("shipping"), state };
  const first = plan.takes[0];
  if (plan.restCents > 0 || !first) {
    return {
      to: stepPath("payment"),
      state,
      toast: { type: "error", message: CHECKOUT_MESSAGES.giftCardsShort },
    };
  }
  return {
    to: stepPath("review"),
    state: {
      ...state,
      payment: {
        token: GIFT_CARD_PAYMENT,
        brand: first.kind === "store_credit" ? "Store credit" : "Gift card",
        last4: first.last4 || "—",
        expiry: "",
        cardName: "",
        saveInfo: false,
      },
      idempotencyKey: randomUUID(),
    },
  };
}

/**
 * After an order is placed and paid (the checkout page's Place Order, the Store API's checkout):
 * its confirmation e-mailed and the gift cards it bought issued — after the answer, so the shopper
 * never waits on the mail server or the invoice's PDF; the claims are durable, so a send lost with
 * the process is the background job's to redo.
 */
export function followUpPlacedOrder(
  deps: { db: Database; mailer: Mailer; mailShop: MailShop },
  order: { id: number; number: string },
  confirmation: PlacedConfirmation | undefined,
): void {
  runAfterResponse("order-confirmation", () =>
    sendPlacedOrderConfirmation(deps.db, deps.mailer, deps.mailShop, order.number, confirmation),
  );
  runAfterResponse("gift-card-delivery", () =>
    deliverGiftCards(deps.db, deps.mailer, deps.mailShop, { orderId: order.id }),
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Step 3 → 4: places the order under the checkout's own idempotency key, held on the server with
 * the checkout in progress (never one a form names: a key posted that is not this checkout's is a
 * stale review page, sent back to the review). A repeated submission (the same review twice) lands
 * on the same confirmation; every refusal sends the shopper to the step that can fix it.
 */
export async function submitPlaceOrder(
  state: CheckoutState,
  {
    idempotencyKey: posted,
    expectedTotalCents,
    expectedGiftCardCents,
  }: { idempotencyKey: string; expectedTotalCents: number; expectedGiftCardCents: number },
  deps: {
    db: Database;
    gateway: PaymentGateway;
    mailer: Mailer;
    /** the shop's name and address, for the confirmation e-mail */
    mailShop: MailShop;
    /** the shop's currency and markets now and the seller its invoices name (its settings) */
    shop: OrderShop;
    cartId: string | null;
    userId?: string | null;
    /** how long the order holds its stock while its payment is pending */
    reservationMs?: number;
    /** where a provider that takes cards in the browser sends the shopper back */
    provider?: ProviderReturn;
  },
): Promise<StepOutcome> {
  // the order this checkout placed a moment ago (the same review submitted twice)
  if (state.placedOrder && !state.idempotencyKey) {
    return { to: stepPath("confirmation"), state };
  }
  const key = state.idempotencyKey;
  if (!state.shipping) {
    return {
      to: stepPath("shipping"),
      state,
      toast: { type: "error", message: CHECKOUT_MESSAGES.sessionExpired },
    };
  }
  if (!state.payment || !key || !deps.cartId) return { to: stepPath("payment"), state };
  if (
    !UUID.test(posted) ||
    posted !== key ||
    !Number.isSafeInteger(expectedTotalCents) ||
    !Number.isSafeInteger(expectedGiftCardCents)
  ) {
    return { to: stepPath("review"), state };
  }

  const result = await placeOrder(deps.db, deps.gateway, {
    cartId: deps.cartId,
    idempotencyKey: key,
    shipping: state.shipping,
    method: state.method ?? "",
    shop: deps.shop,
    payment: { token: state.payment.token, brand: state.payment.brand, last4: state.payment.last4 },
    expectedTotalCents,
    giftCardIds: state.giftCards ?? [],
    expectedGiftCardCents,
    userId: deps.userId ?? null,
    reservationMs: deps.reservationMs,
    provider: deps.provider,
  });
  if (result.ok) {
    const { order, replayed, redirectUrl, confirmation } = result.value;
    // to the provider (3-D Secure, its hosted page): the order waits, reserved, for /checkout/return
    if (redirectUrl) return { to: redirectUrl, state };
    if (!replayed) {
      followUpPlacedOrder(deps, order, confirmation);
      if (deps.userId && state.payment.saveInfo) await rememberCard(deps.db, deps.userId, state.payment);
    }
    return { to: stepPath("confirmation"), state: { placedOrder: order.number } };
  }
  const error = result.error;
  switch (error.code) {
    case "empty-cart":
      return { to: "/cart", state, toast: { type: "error", message: CHECKOUT_MESSAGES.emptyCart } };
    case "out-of-stock":
      return {
        to: "/cart",
        state,
        toast: { type: "error", message: CART_MESSAGES.outOfStock(error.productName) },
      };
    case "coupon-invalid":
      return { to: "/cart", state, toast: { type: "error", message: error.message } };
    case "price-changed":
      return {
        to: stepPath("review"),
        state,
        toast: { type: "warning", message: CHECKOUT_MESSAGES.priceChanged },
      };
    case "no-zone":
    case "shipping-unavailable": {
      // the zones changed since the shipping step: the address or the method again
      const shipping = state.shipping;
      const field = error.code === "no-zone" ? "country" : "shippingMethod";
      const message =
        error.code === "no-zone"
          ? `We don't ship to ${countryName(shipping.country)} yet.`
          : CHECKOUT_MESSAGES.methodUnavailable;
      return {
        to: stepPath("shipping"),
        state,
        toast: { type: "error", message },
        feedback: boundFeedback({ values: shipping, fieldErrors: { [field]: message } }),
      };
    }
    case "gift-card-changed":
      return {
        to: stepPath("payment"),
        state: withoutPayment(state),
        toast: { type: "warning", message: CHECKOUT_MESSAGES.giftCardChanged },
      };
    case "payment-declined":
      return {
        to: stepPath("payment"),
        state: { ...state, payment: undefined },
        toast: { type: "error", message: error.message },
        feedback: {
          values: { cardName: state.payment.cardName, expiryDate: state.payment.expiry },
          fieldErrors: { cardNumber: error.message },
        },
      };
  }
}

/** "Save this card": brand, last 4, expiry and the gateway's token — never the number. */
async function rememberCard(db: Database, userId: string, payment: NonNullable<CheckoutState["payment"]>) {
  const [month, year] = payment.expiry.split("/").map(Number);
  try {
    await saveCard(db, {
      userId,
      brand: payment.brand,
      last4: payment.last4,
      expMonth: month ?? 0,
      expYear: 2000 + (year ?? 0),
      cardholderName: payment.cardName,
      gatewayToken: payment.token,
    });
  } catch (error) {
    logger.warn({ err: error }, "could not save the card for later");
  }
}
