import { type Currency, formatMoney } from "../../lib/money.ts";
import type { Promotion, Refusal } from "../../lib/promotions/engine.ts";
import { COUPON_MESSAGES } from "../coupons/coupon-rules.ts";

/**
 * What the cart says about a promotion's code (issue 31): how it is named once applied
 * ("SPRING20 (20% off)", as a coupon is), and why it does not apply, in the spec's coupon messages
 * where one says it (expired, minimum, usage limit, unknown) and in the same style where none does.
 */

export const CODE_MESSAGES = {
  notStarted: "This coupon is not active yet.",
  customerUses: "You have already used this coupon.",
  items: "This coupon does not apply to the items in your cart.",
  minQuantity: (quantity: number) => `This coupon needs at least ${quantity} items in the cart.`,
  firstOrder: "This coupon is for a first order only.",
  signedIn: "Sign in to use this coupon.",
  zone: "This coupon does not apply to your shipping destination.",
  group: "This coupon is for selected customers only.",
  combine: (name: string) => `This coupon cannot be combined with ${name}.`,
} as const;

/** "SPRING20 (20% off)", "TAKE5 ($5.00 off)", else the code and the promotion's name. */
export function codeLabel(promotion: Promotion, currency: Currency): string {
  const code = promotion.code ?? "";
  const { action } = promotion;
  if (action.type === "order-percent") {
    const percent =
      action.basisPoints % 100 === 0 ? action.basisPoints / 100 : (action.basisPoints / 100).toFixed(2);
    return `${code} (${percent}% off)`;
  }
  if (action.type === "order-fixed") return `${code} (${formatMoney(action.cents, currency)} off)`;
  return `${code} (${promotion.name})`;
}

/** Why the code's promotion did not apply to the cart, for the shopper. */
export function codeRefusalMessage(
  refusal: Refusal,
  currency: Currency,
  nameOf: (id: number) => string,
): string {
  switch (refusal.reason) {
    case "not-started":
      return CODE_MESSAGES.notStarted;
    case "ended":
      return COUPON_MESSAGES.expired;
    case "limit":
      return refusal.limit === "uses" ? COUPON_MESSAGES.usedUp : CODE_MESSAGES.customerUses;
    case "budget-spent":
      return COUPON_MESSAGES.usedUp;
    case "does-not-combine":
      return CODE_MESSAGES.combine(nameOf(refusal.with));
    case "nothing-to-discount":
      return CODE_MESSAGES.items;
    case "condition": {
      const { condition } = refusal;
      switch (condition.type) {
        case "min-subtotal":
          return COUPON_MESSAGES.minimumNotMet(condition.cents, currency);
        case "min-quantity":
          return CODE_MESSAGES.minQuantity(condition.quantity);
        case "items":
          return CODE_MESSAGES.items;
        case "first-order":
          return CODE_MESSAGES.firstOrder;
        case "signed-in":
          return CODE_MESSAGES.signedIn;
        case "zone":
          return CODE_MESSAGES.zone;
        case "customer-group":
          return CODE_MESSAGES.group;
      }
    }
  }
}
