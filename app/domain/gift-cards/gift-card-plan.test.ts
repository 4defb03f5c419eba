import { describe, expect, it } from "vitest";
import { MIN_CARD_CHARGE_CENTS, planGiftCards, type Tender, tenderName } from "./gift-card-plan.ts";

const card = (id: number, balanceCents: number, kind: Tender["kind"] = "gift_card"): Tender => ({
  id,
  kind,
  last4: `AB${id}C`.slice(0, 4),
  balanceCents,
});

describe("planGiftCards", () => {
  it.each([
    // cards, total → what each pays, what is left for the card
    { cards: [], total: 5_000, takes: [], rest: 5_000 },
    { cards: [card(1, 2_000)], total: 5_000, takes: [2_000], rest: 3_000 },
    { cards: [card(1, 9_000)], total: 5_000, takes: [5_000], rest: 0 },
    { cards: [card(1, 2_000), card(2, 2_000)], total: 5_000, takes: [2_000, 2_000], rest: 1_000 },
    { cards: [card(1, 4_000), card(2, 4_000)], total: 5_000, takes: [4_000, 1_000], rest: 0 },
    // a third card is not needed once the first two pay it all
    { cards: [card(1, 3_000), card(2, 3_000), card(3, 3_000)], total: 5_000, takes: [3_000, 2_000], rest: 0 },
    // 30 cents left would be under the provider's minimum: the last card pays 20 cents less
    { cards: [card(1, 4_970)], total: 5_000, takes: [4_950], rest: 50 },
    { cards: [card(1, 4_000), card(2, 970)], total: 5_000, takes: [4_000, 950], rest: 50 },
    // the last card's whole part is not enough to give back: the one before gives the rest
    { cards: [card(1, 4_980), card(2, 10)], total: 5_000, takes: [4_950], rest: 50 },
    // a total under the minimum is paid whole by the card, or whole by the gift cards
    { cards: [card(1, 20)], total: 30, takes: [], rest: 30 },
    { cards: [card(1, 30)], total: 30, takes: [30], rest: 0 },
    // nothing to pay
    { cards: [card(1, 100)], total: 0, takes: [], rest: 0 },
    { cards: [card(1, 0)], total: 100, takes: [], rest: 100 },
  ])("$cards.length cards for $total → $takes, $rest left", ({ cards, total, takes, rest }) => {
    const plan = planGiftCards(cards, total);
    expect(plan.takes.map((take) => take.amountCents)).toEqual(takes);
    expect(plan.restCents).toBe(rest);
    expect(plan.giftCardCents + plan.restCents).toBe(total);
  });

  it("never leaves less than the minimum to the card, and never takes more than a card holds", () => {
    for (let total = 0; total <= 400; total += 7) {
      for (const balances of [[total - 10], [total - 49, 30], [total + 5], [13, 17, 19]]) {
        const cards = balances.map((balance, i) => card(i + 1, Math.max(0, balance)));
        const plan = planGiftCards(cards, total);
        expect(plan.giftCardCents + plan.restCents).toBe(total);
        expect(plan.restCents === 0 || plan.restCents >= Math.min(MIN_CARD_CHARGE_CENTS, total)).toBe(true);
        for (const take of plan.takes) {
          expect(take.amountCents).toBeGreaterThan(0);
          expect(take.amountCents).toBeLessThanOrEqual(cards.find((c) => c.id === take.id)!.balanceCents);
        }
      }
    }
  });

  it("names a card by its last four, store credit as such", () => {
    expect(tenderName({ kind: "gift_card", last4: "WXYZ" })).toBe("Gift card ····WXYZ");
    expect(tenderName({ kind: "store_credit", last4: "" })).toBe("Store credit");
  });
});
