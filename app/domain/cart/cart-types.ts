/** Shapes the cart sends to the UI (shared by server modules and components; no server code here). */
import type { CardImage } from "../../lib/catalog-types.ts";
import type { TaxClass, Totals } from "../../lib/markets.ts";
import type { LimitReached, Promotion, PromotionKind } from "../../lib/promotions/engine.ts";

/**
 * - `ok`: can be bought in the quantity shown
 * - `reduced`: stock fell below the quantity in the cart; the quantity shown (and charged) is the stock
 * - `out-of-stock`: the product exists but none is left; not charged
 * - `unavailable`: the product was archived; not charged
 */
export type CartLineStatus = "ok" | "reduced" | "out-of-stock" | "unavailable";

export interface CartLine {
  productId: number;
  /** the line's key: the variant in the cart */
  variantId: number;
  /** "Size: M · Colour: Black"; "" for a product without options */
  variantTitle: string;
  sku: string;
  slug: string;
  name: string;
  brand: string;
  /** the product's category (its id, e.g. "clothing"): what promotions target */
  category: string;
  /**
   * today's price from the database, never from a form: the variant's own, or the member price a
   * signed-in shopper's groups give it (`listPrice`, decision 037)
   */
  unitPriceCents: number;
  /** the variant's own price (what others pay before promotions) */
  regularPriceCents: number;
  /** the group price list the unit price comes from; null: the regular price */
  listPrice: { groupId: number; priceCents: number } | null;
  /** promotions that take nothing from this line: the catalogue ones when it is at a member price */
  excludedPromotionIds: number[];
  originalPriceCents: number | null;
  /** what can be bought now: min(quantity in the cart, stock); 0 when out of stock or unavailable */
  quantity: number;
  /** the quantity stored in the cart */
  requestedQuantity: number;
  stock: number;
  lineTotalCents: number;
  image: CardImage | null;
  status: CartLineStatus;
  /** the product's tax class: the rate it bears depends on where it goes */
  taxClass: TaxClass;
  /** one unit's weight (weight-based shipping) */
  weightGrams: number;
  /** a gift card amount: delivered by e-mail to `recipient` (none: the buyer), no shipping, no tax */
  giftCard: boolean;
  recipient: GiftCardRecipient | null;
}

/** Who a gift card in the cart goes to (the product page's fields). */
export interface GiftCardRecipient {
  email: string | null;
  name: string | null;
  message: string | null;
}

/** Where the cart's shipping and tax are estimated for, and what that gives. */
export interface CartEstimate {
  /** ISO code */
  country: string;
  /** a region's code, or "" */
  region: string;
  /** the method the estimate uses (the zone's first that can carry the cart); null: none can */
  methodName: string | null;
  /** that method is free from this subtotal on (null: never) */
  freeShippingThresholdCents: number | null;
}

/**
 * The code on the cart, applied: a promotion's (coupons are promotions with a code, migration 0780),
 * among the cart's offers and priced by the engine — `discountCents` only shows what it took.
 */
export interface AppliedCoupon {
  code: string;
  /** e.g. "WELCOME10 (10% off)" */
  label: string;
  discountCents: number;
}

export interface CartView {
  lines: CartLine[];
  /** the cart's coupon when it still applies to the cart as it is now */
  coupon: AppliedCoupon | null;
  /** why the coupon on the cart no longer applies (expired, minimum not met…), else null */
  couponProblem: { code: string; message: string } | null;
  /** sum of the lines' purchasable quantities (the header badge) */
  totalQuantity: number;
  /** priced for `estimate`'s destination */
  totals: Totals;
  estimate: CartEstimate;
  /** the promotions it is priced with, and what decides them (null: none live) */
  offers: CartOffers | null;
  /** what the promotions did for the estimate: each applied with its amount (none: []) */
  promotions: { name: string; kind: PromotionKind; amountCents: number }[];
  /** what the cart could get by adding to it, in sentences (promotion-hints.ts) */
  hints: string[];
}

/**
 * The promotions a cart is priced with, and what decides them for this shopper (read with the
 * cart: promotions.server.ts). Plain data, so the browser's estimate prices exactly as the server.
 */
export interface CartOffers {
  promotions: Promotion[];
  /** the moment the cart was read: windows are decided at it */
  at: string;
  signedIn: boolean;
  groupIds: number[];
  firstOrder: boolean;
  /** the codes entered, upper-case */
  codes: string[];
  exhausted: [number, LimitReached][];
  /** what is left of each campaign's budget */
  budgets: [number, number][];
}
