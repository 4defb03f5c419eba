import type { CardBrand } from "../../lib/payment-card.ts";

/**
 * A card payment provider: the built-in test gateway now, a hosted provider later. Card data goes
 * in once, at tokenize; everything after that works with the token, and only brand and last 4
 * digits are ever kept by the shop.
 */
export interface PaymentGateway {
  readonly name: string;
  /** Checks the card and exchanges it for a token; expected refusals are returned, not thrown. */
  tokenize(card: CardInput): Promise<TokenizeResult>;
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
}

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
  currency: "USD";
  idempotencyKey: string;
  /** take the money at once (authorize and capture in one call); `capture` is then a no-op */
  capture?: boolean;
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
  | { ok: false; code: AuthorizeErrorCode; message: string };

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
