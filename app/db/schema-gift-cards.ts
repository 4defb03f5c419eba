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
