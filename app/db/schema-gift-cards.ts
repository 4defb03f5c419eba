import type { Generated } from "kysely";
import type { Timestamp } from "./schema-types.ts";

/** Gift cards and store credit (migration 2026-11-28T0730, decision 036); part of `DB` in schema.ts. */

export type GiftCardKind = "gift_card" | "store_credit";
export type GiftCardMovementReason = "issued" | "redeemed" | "released" | "refunded";

export interface GiftCardsTable {
  id: Generated<number>;
  kind: GiftCardKind;
  /** SHA-256 (hex) of the normalised code; null for store credit */
  codeHash: string | null;
  /** the code's last four characters (store credit: "") — how staff and the shopper name it */
  last4: string;
  currency: string;
  initialCents: number;
  /** never below 0 (CHECK); always the sum of its movements */
  balanceCents: number;
  expiresAt: Timestamp | null;
  /** store credit's account; a gift card's buyer when known */
  userId: string | null;
  recipientEmail: string | null;
  recipientName: string | null;
  message: string | null;
  /** "staff:<id>", "order:<number>" or "refund:<id>" */
  issuedBy: string;
  /** the issue form's key (one card per form shown); null for cards not issued by staff */
  issueKey: string | null;
  orderId: number | null;
  disabledAt: Timestamp | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** Every change of a balance, append-only: + issued, released, refunded; − redeemed. */
export interface GiftCardMovementsTable {
  id: Generated<number>;
  giftCardId: number;
  amountCents: number;
  reason: GiftCardMovementReason;
  orderId: number | null;
  actor: string;
  createdAt: Timestamp;
}

/** Who a gift card amount in a cart goes to (migration 0770): one recipient per amount and cart. */
export interface CartGiftCardRecipientsTable {
  cartId: string;
  variantId: number;
  /** null: to the buyer's own e-mail address */
  recipientEmail: string | null;
  recipientName: string | null;
  message: string | null;
}

/**
 * A gift card line of an order to deliver (migration 0770): its cards are issued once the order is
 * paid, and their codes kept only until the e-mail carrying them has gone.
 */
export interface GiftCardDeliveriesTable {
  id: Generated<number>;
  orderId: number;
  variantId: number;
  /** each card's amount (the variant's price) */
  amountCents: number;
  quantity: number;
  recipientEmail: string | null;
  recipientName: string | null;
  message: string | null;
  /** JSON array of the issued cards' codes, until sent */
  codes: string | null;
  issuedAt: Timestamp | null;
  sentAt: Timestamp | null;
  attempts: Generated<number>;
}
