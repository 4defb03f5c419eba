import type { Currency } from "../../lib/money.ts";
import type { CardBrand } from "../../lib/payment-card.ts";

/**
 * A card payment provider: the built-in test gateway (the shop's own card form) or Stripe (its
 * Payment Element in the browser, or its hosted Checkout page). Card data goes in once — at
 * tokenize for the test gateway, into the provider's own page or element for Stripe; everything
 * after that works with a token, and only brand and last 4 digits are ever kept by the shop.
 */
export interface PaymentGateway {
  readonly name: string;
  /** a provider that takes the card in the shopper's browser (Stripe); null: the shop's card form */
  readonly browser: BrowserPayments | null;
  /** Checks the card and exchanges it for a token; expected refusals are returned, not thrown. */
  tokenize(card: CardInput): Promise<TokenizeResult>;
  /**
   * The card behind a token made elsewhere (the Store API's checkout: a test gateway token, or a
   * provider's payment method id made with its SDK); null for one this gateway did not make.
   */
  describeToken(token: string): Promise<CardSummary | null>;
  /**
   * Reserves the amount on the card behind the token; the same idempotency key gives the same
   * answer and never a second reservation. Throws when the provider cannot be reached (the
   * outcome is then unknown: ask `outcome` later).
   */
  authorize(input: AuthorizeInput): Promise<AuthorizeResult>;
  /** Takes the reserved money (again: a no-op); rejects for an unknown or voided authorization. */
  capture(authorizationId: string): Promise<void>;
  /** Releases the reservation; rejects for an unknown or captured one. */
  void(authorizationId: string): Promise<void>;
  /** What became of the payment made with this idempotency key (a process died before recording it). */
  outcome(idempotencyKey: string): Promise<PaymentOutcome>;
  /** Gives back part or all of a captured payment; the same idempotency key refunds once. */
  refund(input: RefundInput): Promise<RefundResult>;
  /**
   * What became of the refund asked of this payment with this idempotency key (a process died
   * before recording the answer): none (never made: asking again is safe), succeeded, or failed.
   */
  refundOutcome(input: { authorizationId: string; idempotencyKey: string }): Promise<RefundOutcome>;
}

export type RefundOutcome =
  | { status: "none" }
  | { status: "succeeded"; refundId: string; amountCents: number }
  | { status: "failed"; message: string };

export type PaymentOutcome =
  | { status: "none" }
  | { status: "declined"; code: AuthorizeErrorCode }
  | { status: "authorized" | "captured" | "voided"; authorizationId: string; amountCents: number };

export interface RefundInput {
  authorizationId: string;
  amountCents: number;
  idempotencyKey: string;
}

export type RefundResult =
  | { ok: true; refundId: string }
  | { ok: false; code: "not_captured" | "amount_too_large" | "key_reused"; message: string };

export interface CardInput {
  /** digits (spaces and dashes are tolerated) */
  number: string;
  expMonth: number;
  /** four digits, e.g. 2028 */
  expYear: number;
  cvv: string;
  name: string;
}

export interface AuthorizeInput {
  token: string;
  amountCents: number;
  /** the order's currency (the shop's when it was placed) */
  currency: Currency;
  idempotencyKey: string;
  /** take the money at once (authorize and capture in one call); `capture` is then a no-op */
  capture?: boolean;
  /** the order's number, kept with the payment at the provider */
  orderNumber?: string;
  /**
   * where the shopper comes back after authenticating with their bank (3-D Secure); without it a
   * payment that asks for that is refused
   */
  returnUrl?: string;
}

export type TokenizeErrorCode =
  | "invalid_number"
  | "expired_card"
  | "invalid_cvc"
  | "card_declined"
  | "insufficient_funds";

export type TokenizeResult =
  | { ok: true; token: string; brand: CardBrand; last4: string; expMonth: number; expYear: number }
  | { ok: false; code: TokenizeErrorCode; message: string };

export type AuthorizeErrorCode =
  | "card_declined"
  | "insufficient_funds"
  | "invalid_token"
  | "processing_error";

export type AuthorizeResult =
  | { ok: true; authorizationId: string }
  /** the card's bank asks the shopper to authenticate (3-D Secure): send them to `redirectUrl` */
  | { ok: "action"; authorizationId: string; redirectUrl: string }
  | { ok: false; code: AuthorizeErrorCode; message: string };

/** The card behind a payment method the provider's browser element made. */
export interface CardSummary {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** A hosted payment page for one order (works without JavaScript). */
export interface HostedPaymentInput {
  /** when the page stops taking the payment */
  expiresAt: Date;
  amountCents: number;
  /** the order's currency (the shop's when it was placed) */
  currency: Currency;
  orderNumber: string;
  idempotencyKey: string;
  email: string;
  /** what the page says is being paid for */
  description: string;
  /** where the provider sends the shopper back: paid, or given up */
  successUrl: string;
  cancelUrl: string;
}

/** What a payment the shopper came back from (or a provider's event) is about, and where it stands. */
export interface PaymentReport {
  /** the payment's id at the provider (what refunds name), when it exists yet */
  paymentId: string | null;
  orderNumber: string | null;
  outcome: PaymentOutcome;
  /** the card it was paid with, when the provider says */
  card: CardSummary | null;
}

/** A refund the provider made (from the shop or from its own dashboard). */
export interface ProviderRefund {
  id: string;
  amountCents: number;
  /** the shop's idempotency key, when the shop asked for it */
  shopKey: string | null;
}

/** The parts of a provider that takes cards in the shopper's browser (Stripe). */
export interface BrowserPayments {
  /** the publishable key the browser's element is made with */
  readonly publishableKey: string;
  /** The card behind a payment method id from the browser; null for one the provider does not know. */
  describe(paymentMethodId: string): Promise<CardSummary | null>;
  /** A hosted page taking the order's payment: where to send the shopper, and its reference. */
  startHostedPayment(input: HostedPaymentInput): Promise<{ url: string; reference: string }>;
  /** Where a payment stands, by its provider reference (a payment or a hosted page). */
  report(reference: string): Promise<PaymentReport>;
  /** Closes a hosted page nobody may pay any more (its order was given up); one paid or closed is fine. */
  closeHostedPayment(reference: string): Promise<void>;
  /** The refunds of a payment. */
  refundsOf(paymentId: string): Promise<ProviderRefund[]>;
}

/** What the shopper reads for each refusal; every gateway answers with these. */
export const PAYMENT_MESSAGES: Record<TokenizeErrorCode | AuthorizeErrorCode, string> = {
  invalid_number: "Your card number is not valid. Please check it and try again.",
  expired_card: "Your card has expired. Please use a different card.",
  invalid_cvc: "Your card's security code is not valid. Please check it and try again.",
  card_declined: "Your card was declined. Please use a different card.",
  insufficient_funds: "Your card has insufficient funds. Please use a different card.",
  invalid_token: "Your payment details could not be used. Please enter your card again.",
  processing_error: "We could not process your payment. Please try again.",
};

/**
 * What a provider's event (a webhook) says, in the shop's terms. `id` is the provider's event id:
 * an event is handled once.
 */
export type PaymentEvent = { id: string } & (
  | { kind: "payment-succeeded"; paymentId: string; orderNumber: string | null }
  | { kind: "payment-failed"; paymentId: string; orderNumber: string | null; message: string }
  /** a hosted page was paid (`paid`), or completed with the payment still on its way */
  | { kind: "hosted-completed"; reference: string; orderNumber: string | null; paid: boolean }
  /** a hosted page expired, or its delayed payment failed */
  | { kind: "hosted-failed"; reference: string; orderNumber: string | null }
  | { kind: "refunded"; paymentId: string }
  | { kind: "disputed"; paymentId: string; reason: string }
);
