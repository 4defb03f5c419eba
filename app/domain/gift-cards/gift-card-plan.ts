import type { GiftCardKind } from "../../db/schema-gift-cards.ts";

/**
 * How gift cards and store credit pay for an order (issue 31, decision 036) — one pure rule, used by
 * the payment step, the review and Place Order alike: the cards in the order the shopper applied
 * them each pay what they hold, up to what is left of the total; a card provider cannot take less
 * than MIN_CARD_CHARGE_CENTS (Stripe refuses a smaller payment), so when the cards would leave less
 * than that to pay by card, the last card pays that much less and the card pays the minimum.
 */
export const MIN_CARD_CHARGE_CENTS = 50;

/** The most cards (store credit counted) one order can be paid with. */
export const MAX_GIFT_CARDS = 5;

export interface Tender {
  id: number;
  kind: GiftCardKind;
  last4: string;
  balanceCents: number;
}

export interface GiftCardPlan {
  /** what each card pays, in the order applied (cards that pay nothing are left out) */
  takes: (Tender & { amountCents: number })[];
  /** what the cards pay together */
  giftCardCents: number;
  /** what is left to pay by card: 0, or at least MIN_CARD_CHARGE_CENTS (or the whole total if less) */
  restCents: number;
}

export function planGiftCards(
  cards: readonly Tender[],
  totalCents: number,
  /** what cards may not pay for: gift cards bought in this order (`giftCardGoodsCents`) */
  notPayableCents = 0,
): GiftCardPlan {
  const takes: GiftCardPlan["takes"] = [];
  let rest = Math.max(0, totalCents);
  let payable = Math.max(0, Math.min(rest, totalCents - notPayableCents));
  for (const card of cards) {
    if (payable === 0) break;
    const amountCents = Math.min(card.balanceCents, payable);
    if (amountCents <= 0) continue;
    takes.push({ ...card, amountCents });
    rest -= amountCents;
    payable -= amountCents;
  }
  if (rest > 0 && rest < MIN_CARD_CHARGE_CENTS) {
    // the card pays the minimum (or all of a total under it): the cards give that much back, last first
    let owed = Math.min(MIN_CARD_CHARGE_CENTS, totalCents) - rest;
    for (let i = takes.length - 1; i >= 0 && owed > 0; i--) {
      const take = takes[i]!;
      const back = Math.min(owed, take.amountCents);
      take.amountCents -= back;
      owed -= back;
      rest += back;
    }
  }
  const paying = takes.filter((take) => take.amountCents > 0);
  return {
    takes: paying,
    giftCardCents: paying.reduce((sum, take) => sum + take.amountCents, 0),
    restCents: rest,
  };
}

/** What a cart's gift card lines cost: gift cards cannot buy gift cards (no tax, no discount on them). */
export function giftCardGoodsCents(
  lines: readonly { giftCard?: boolean; unitPriceCents: number; quantity: number }[],
): number {
  return lines.reduce((sum, line) => sum + (line.giftCard ? line.unitPriceCents * line.quantity : 0), 0);
}

/** How a card is named to the shopper and staff: "Gift card ····ABCD" or "Store credit". */
export function tenderName(card: Pick<Tender, "kind" | "last4">): string {
  return card.kind === "store_credit" ? "Store credit" : `Gift card ····${card.last4}`;
}
