import type Stripe from "stripe";
import type { CardBrand } from "../../lib/payment-card.ts";
import {
  type AuthorizeErrorCode,
  type CardSummary,
  PAYMENT_MESSAGES,
  type PaymentOutcome,
} from "./payment-gateway.ts";

/**
 * What Stripe's objects and errors mean to the shop: the metadata entries the shop writes on
 * intents and sessions, the card of a charge, an intent's state as a payment outcome, and a card
 * error as the shop's refusal. Pure (no SDK call): the gateway (stripe-gateway.server.ts) and the
 * webhook's events (stripe-events.server.ts) share them.
 */

/** Why `tokenize` throws: card details go to Stripe, never to the shop. */
export const TOKENIZE_UNSUPPORTED =
  "Stripe takes card details in its own Payment Element: the browser gets a PaymentMethod id (pm_…) " +
  "from Stripe.js and the shop authorizes with that id, so card numbers never reach this server.";

/** The PaymentIntent metadata entry holding our idempotency key (what `outcome` searches by). */
export const IDEMPOTENCY_METADATA = "idempotency_key";
/** The metadata entry holding the order's number (on intents, sessions and so on their events). */
export const ORDER_METADATA = "order_number";

/** Stripe's card brand names as the shop shows them. */
const BRANDS: Record<string, CardBrand> = {
  visa: "Visa",
  mastercard: "MasterCard",
  amex: "American Express",
  discover: "Discover",
};

/** A Stripe card brand as the shop names it ("Card" for one it does not list). */
export const cardBrand = (brand: string | null | undefined): CardBrand => BRANDS[brand ?? ""] ?? "Card";

/** The card of an intent's charge (its `latest_charge` expanded), as the shop shows it. */
export function cardOfIntent(intent: Stripe.PaymentIntent): CardSummary | null {
  const charge = typeof intent.latest_charge === "object" ? intent.latest_charge : null;
  const card = charge?.payment_method_details?.card;
  if (!card?.last4) return null;
  return {
    brand: cardBrand(card.brand),
    last4: card.last4,
    expMonth: card.exp_month,
    expYear: card.exp_year,
  };
}

/** What an intent's state means as an outcome (a hosted session's intent, or one made by authorize). */
export function outcomeOfIntent(intent: Stripe.PaymentIntent): PaymentOutcome {
  switch (intent.status) {
    case "succeeded":
      return { status: "captured", authorizationId: intent.id, amountCents: intent.amount_received };
    case "requires_capture":
      return { status: "authorized", authorizationId: intent.id, amountCents: intent.amount };
    case "canceled":
      return { status: "voided", authorizationId: intent.id, amountCents: intent.amount };
    case "processing":
      throw new Error(`Stripe is still processing payment ${intent.id}`);
    default: {
      const error = intent.last_payment_error;
      if (intent.status === "requires_payment_method" && error) {
        return { status: "declined", code: refusalFor(error.code, error.decline_code).code };
      }
      // never confirmed, or waiting for the shopper (3-D Secure): nothing taken or held yet
      return { status: "none" };
    }
  }
}
export type Refusal = { ok: false; code: AuthorizeErrorCode; message: string };

export const refusal = (code: AuthorizeErrorCode, message: string = PAYMENT_MESSAGES[code]): Refusal => ({
  ok: false,
  code,
  message,
});

/**
 * A Stripe card error (its `code` and `decline_code`) as our refusal. The interface's codes are
 * fewer than Stripe's: an expired card, a wrong security code or number are `card_declined`, with
 * the message that tells the shopper what to fix. Lost, stolen or fraudulent cards read as a plain
 * decline, as Stripe advises.
 */
export function refusalFor(code?: string | null, declineCode?: string | null): Refusal {
  if (declineCode === "insufficient_funds") return refusal("insufficient_funds");
  switch (code) {
    case "expired_card":
      return refusal("card_declined", PAYMENT_MESSAGES.expired_card);
    case "incorrect_cvc":
    case "invalid_cvc":
      return refusal("card_declined", PAYMENT_MESSAGES.invalid_cvc);
    case "incorrect_number":
    case "invalid_number":
      return refusal("card_declined", PAYMENT_MESSAGES.invalid_number);
    case "processing_error":
      return refusal("processing_error");
    default:
      return refusal("card_declined");
  }
}
