import { CATEGORY_TREE } from "../../lib/catalog-constants.ts";
import { type Currency, formatMoney } from "../../lib/money.ts";
import {
  type ItemTarget,
  matches,
  type Promotion,
  type PromotionResult,
  type Shortfall,
} from "../../lib/promotions/engine.ts";
import type { CartLine } from "./cart-types.ts";

/**
 * The cart's explainer (issue 31): for each promotion the cart does not get yet but could by adding
 * to it — a minimum subtotal or a number of units it is short of — one sentence saying what to add
 * and what it gives: "Add 1 more Classic Tee to get 1 free.", "Add $12.01 more to get Summer sale
 * (10% off the order).". Promotions that cannot be reached by adding (a first order, a zone, a
 * limit used up, an ended one) are not mentioned, nor are products the cart holds none of. Pure:
 * built from the engine's refusals.
 */

export const MAX_HINTS = 3;

type HintLine = Pick<
  CartLine,
  "productId" | "variantId" | "category" | "brand" | "name" | "unitPriceCents" | "quantity"
>;

const categoryName = (id: string) => CATEGORY_TREE.find((node) => node.id === id)?.name ?? id;

/** What to add, in words: the cart's one matching product, else the target's category or brand. */
function itemWords(target: ItemTarget | null, lines: readonly HintLine[], units: number): string {
  const plural = units === 1 ? "" : "s";
  if (!target) return `item${plural}`;
  const matching = lines.filter((line) => matches(target, { ...line, key: String(line.variantId) }));
  const names = [...new Set(matching.map((line) => line.name))];
  if (names.length === 1) return names[0]!;
  if (
    (target.categories?.length ?? 0) === 1 &&
    !target.brands?.length &&
    !target.productIds?.length &&
    !target.variantIds?.length
  ) {
    return `${categoryName(target.categories![0]!)} item${plural}`;
  }
  if (
    (target.brands?.length ?? 0) === 1 &&
    !target.categories?.length &&
    !target.productIds?.length &&
    !target.variantIds?.length
  ) {
    return `${target.brands![0]} item${plural}`;
  }
  return `qualifying item${plural}`;
}

/** What the promotion gives, after "to get": "1 free", "1 at 50% off", else its name. */
function reward(promotion: Promotion): string {
  const action = promotion.action;
  if (action.type === "buy-x-get-y") {
    const percent =
      action.basisPoints % 100 === 0 ? action.basisPoints / 100 : (action.basisPoints / 100).toFixed(2);
    return action.basisPoints === 10_000
      ? `${action.get.quantity} free`
      : `${action.get.quantity} at ${percent}% off`;
  }
  return promotion.name;
}

function hintFor(
  promotion: Promotion,
  shortfall: Shortfall,
  lines: readonly HintLine[],
  currency: Currency,
): string | null {
  if ("cents" in shortfall) {
    if (shortfall.cents <= 0) return null;
    const minimum = promotion.conditions.find((condition) => condition.type === "min-subtotal");
    if (promotion.action.type === "free-shipping" && minimum) {
      return `Free shipping from ${formatMoney(minimum.cents, currency)}: ${formatMoney(shortfall.cents, currency)} to go.`;
    }
    return `Add ${formatMoney(shortfall.cents, currency)} more to get ${reward(promotion)}.`;
  }
  if (shortfall.units <= 0) return null;
  // within reach: the cart holds some of what it needs more of (no advert for what it does not hold)
  const { target } = shortfall;
  if (target && !lines.some((line) => line.quantity > 0 && matches(target, { ...line, key: "" })))
    return null;
  return `Add ${shortfall.units} more ${itemWords(shortfall.target, lines, shortfall.units)} to get ${reward(promotion)}.`;
}

/** The sentences for what is within reach, in the order the promotions apply, at most MAX_HINTS. */
export function promotionHints(
  result: PromotionResult | null,
  lines: readonly HintLine[],
  currency: Currency,
): string[] {
  if (!result || lines.every((line) => line.quantity === 0)) return [];
  const hints: string[] = [];
  for (const { promotion, refusal } of result.refused) {
    const shortfall =
      refusal.reason === "condition" || refusal.reason === "nothing-to-discount" ? refusal.shortfall : null;
    // only a shortfall adding to the cart can close: a condition that is not about the cart's contents is not
    // (the engine checks the shopper's and the destination's conditions first: those hold here)
    if (!shortfall) continue;
    const hint = hintFor(promotion, shortfall, lines, currency);
    if (hint && !hints.includes(hint)) hints.push(hint);
    if (hints.length === MAX_HINTS) break;
  }
  return hints;
}
