import type { CardDetails } from "./types.ts";

/**
 * Stripe's documented test payment methods (https://docs.stripe.com/testing) and their card
 * numbers, with what a payment with each of them does here.
 */

export interface Decline {
  code: string;
  decline_code: string;
  message: string;
}

export type Outcome =
  | { kind: "succeed" }
  | { kind: "decline"; decline: Decline }
  /** 3-D Secure first; `afterwards` is what happens once the shopper authenticated */
  | { kind: "authenticate"; afterwards: Outcome };

export interface TestCard {
  paymentMethod: string;
  number: string;
  card: CardDetails;
  outcome: Outcome;
}

const declined = (decline_code: string, message: string, code = "card_declined"): Outcome => ({
  kind: "decline",
  decline: { code, decline_code, message },
});

export const GENERIC_DECLINE = "Your card was declined.";
export const INSUFFICIENT_FUNDS = "Your card has insufficient funds.";

const card = (brand: string, number: string, funding: "credit" | "debit" = "credit"): CardDetails => ({
  brand,
  last4: number.slice(-4),
  exp_month: 12,
  exp_year: new Date().getUTCFullYear() + 3,
  funding,
  country: "US",
});

const entries: Array<[string, string, string, Outcome, ("credit" | "debit")?]> = [
  ["pm_card_visa", "4242424242424242", "visa", { kind: "succeed" }],
  ["pm_card_visa_debit", "4000056655665556", "visa", { kind: "succeed" }, "debit"],
  ["pm_card_mastercard", "5555555555554444", "mastercard", { kind: "succeed" }],
  ["pm_card_amex", "378282246310005", "amex", { kind: "succeed" }],
  ["pm_card_chargeDeclined", "4000000000000002", "visa", declined("generic_decline", GENERIC_DECLINE)],
  [
    "pm_card_chargeDeclinedInsufficientFunds",
    "4000000000009995",
    "visa",
    declined("insufficient_funds", INSUFFICIENT_FUNDS),
  ],
  ["pm_card_chargeDeclinedLostCard", "4000000000009987", "visa", declined("lost_card", GENERIC_DECLINE)],
  ["pm_card_chargeDeclinedStolenCard", "4000000000009979", "visa", declined("stolen_card", GENERIC_DECLINE)],
  [
    "pm_card_chargeDeclinedExpiredCard",
    "4000000000000069",
    "visa",
    declined("expired_card", "Your card has expired.", "expired_card"),
  ],
  [
    "pm_card_chargeDeclinedIncorrectCvc",
    "4000000000000127",
    "visa",
    declined("incorrect_cvc", "Your card's security code is incorrect.", "incorrect_cvc"),
  ],
  [
    "pm_card_chargeDeclinedProcessingError",
    "4000000000000119",
    "visa",
    declined(
      "processing_error",
      "An error occurred while processing your card. Try again in a little bit.",
      "processing_error",
    ),
  ],
  [
    "pm_card_authenticationRequired",
    "4000002760003184",
    "visa",
    { kind: "authenticate", afterwards: { kind: "succeed" } },
  ],
  [
    "pm_card_threeDSecure2Required",
    "4000000000003220",
    "visa",
    { kind: "authenticate", afterwards: { kind: "succeed" } },
  ],
  [
    "pm_card_authenticationRequiredChargeDeclinedInsufficientFunds",
    "4000008260003178",
    "visa",
    { kind: "authenticate", afterwards: declined("insufficient_funds", INSUFFICIENT_FUNDS) },
  ],
];

export const TEST_CARDS: ReadonlyMap<string, TestCard> = new Map(
  entries.map(([paymentMethod, number, brand, outcome, funding]) => [
    paymentMethod,
    { paymentMethod, number, card: card(brand, number, funding), outcome },
  ]),
);

export function cardByNumber(number: string): TestCard | undefined {
  for (const testCard of TEST_CARDS.values()) if (testCard.number === number) return testCard;
  return undefined;
}

export function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return number.length >= 12 && sum % 10 === 0;
}

/** A Luhn-valid number that is not one of the test cards: Stripe's test mode declines it. */
export const NON_TEST_CARD: Decline = {
  code: "card_declined",
  decline_code: "test_mode_live_card",
  message:
    "Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing.",
};

export const AUTHENTICATION_FAILED = {
  type: "invalid_request_error" as const,
  code: "payment_intent_authentication_failure",
  message:
    "The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.",
};
