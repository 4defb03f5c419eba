import { applyPromotions, byPrecedence, type ItemTarget, type Promotion } from "./engine.ts";

/**
 * Catalogue promotions shown as sale prices (issue 31, decision 035).
 *
 * A **catalogue promotion** is an active promotion that is automatic (no code, no single-use
 * codes), has no conditions, no use limits (overall or per customer) and no campaign, and whose
 * action is `items-percent` applied to "all" matching units of a target naming products,
 * categories or brands — not variants (every variant of a product then takes the same percentage,
 * so a listing's "cheapest variant" stays the cheapest on sale). Such a promotion applies to any
 * cart holding the item, one unit alone, so the storefront can show it as the item's price.
 *
 * The sale price is the engine's own answer for a cart of one unit of the item priced with the
 * live catalogue promotions alone (`applyPromotions`): the same precedence, stacking (a promotion
 * that does not combine applies alone when it comes first, and not at all after another) and
 * compounding (two 10 % give 19 %, each rounded half up on what is left) as the cart's. Other
 * promotions (conditions, codes, order-wide) can still take more in the cart; they never take
 * less, except a product promotion of higher precedence that does not combine and whose
 * conditions one unit meets — the admin's simulator shows such a case.
 */

/** What makes a stored promotion a catalogue one, besides its terms (`isCataloguePromotion`). */
export interface StoredLimits {
  usageLimit: number | null;
  perCustomerLimit: number | null;
  uniqueCodes: boolean;
}

export function isCataloguePromotion(promotion: Promotion, limits: StoredLimits): boolean {
  const { action } = promotion;
  return (
    promotion.code === null &&
    !limits.uniqueCodes &&
    limits.usageLimit === null &&
    limits.perCustomerLimit === null &&
    promotion.campaignId === null &&
    promotion.conditions.length === 0 &&
    action.type === "items-percent" &&
    action.apply === "all" &&
    action.basisPoints > 0 &&
    (action.target.variantIds?.length ?? 0) === 0
  );
}

/** What the sale price of one product (or one of its variants) is read from. */
export interface SaleItem {
  productId: number;
  /** the variant priced (0: the product as a whole, its listed price) */
  variantId?: number;
  /** the product's category id, as the cart's lines carry it */
  category: string;
  brand: string;
  priceCents: number;
}

export interface SalePrice {
  /** what one unit costs now */
  priceCents: number;
  /** the regular price (the item's own) */
  regularCents: number;
  /** the promotions taken, by precedence */
  promotionIds: number[];
  /** the first end among them (ISO): the sale price holds until then */
  endsAt: string | null;
}

/** Whether a promotion is in its window at `at` (ms): [startsAt, endsAt). */
export function inWindowAt(promotion: Promotion, at: number): boolean {
  return (
    (promotion.startsAt === null || Date.parse(promotion.startsAt) <= at) &&
    (promotion.endsAt === null || Date.parse(promotion.endsAt) > at)
  );
}

/** The catalogue promotions in their window at `now`, by precedence. */
export function liveAt(promotions: readonly Promotion[], now: Date): Promotion[] {
  const at = now.getTime();
  return promotions.filter((promotion) => inWindowAt(promotion, at)).sort(byPrecedence);
}

/** The first start or end strictly after `now` among the promotions (ms), or null: none to come. */
export function nextBoundary(promotions: readonly Promotion[], now: number): number | null {
  let next: number | null = null;
  for (const { startsAt, endsAt } of promotions) {
    for (const iso of [startsAt, endsAt]) {
      if (iso === null) continue;
      const at = Date.parse(iso);
      if (at > now && (next === null || at < next)) next = at;
    }
  }
  return next;
}

function targetMatches(target: ItemTarget, item: SaleItem): boolean {
  const lists = [target.productIds, target.categories, target.brands];
  if (lists.every((list) => !list || list.length === 0)) return true;
  return (
    (target.productIds?.includes(item.productId) ?? false) ||
    (target.categories?.includes(item.category) ?? false) ||
    (target.brands?.includes(item.brand) ?? false)
  );
}

/**
 * The item's price at `now` under the catalogue promotions (`promotions`: catalogue ones only, in
 * any window), or null when none takes anything from it.
 */
export function salePrice(promotions: readonly Promotion[], item: SaleItem, now: Date): SalePrice | null {
  if (promotions.length === 0 || item.priceCents <= 0) return null;
  const at = now.getTime();
  const candidates = promotions.filter((promotion) => {
    if (!inWindowAt(promotion, at)) return false;
    const action = promotion.action;
    return action.type === "items-percent" && targetMatches(action.target, item);
  });
  if (candidates.length === 0) return null;
  const result = applyPromotions(
    candidates,
    [
      {
        key: "item",
        productId: item.productId,
        variantId: item.variantId ?? 0,
        category: item.category,
        brand: item.brand,
        unitPriceCents: item.priceCents,
        quantity: 1,
      },
    ],
    { now, signedIn: false, groupIds: [], firstOrder: false, zoneId: null, shipping: null, codes: [] },
  );
  const off = result.lineDiscounts.get("item") ?? 0;
  if (off <= 0) return null;
  const taken = result.applied.filter((applied) => applied.kind === "product").map((a) => a.promotion);
  const ends = taken.flatMap((promotion) => (promotion.endsAt === null ? [] : [promotion.endsAt]));
  return {
    priceCents: item.priceCents - off,
    regularCents: item.priceCents,
    promotionIds: taken.map((promotion) => promotion.id),
    endsAt: ends.length === 0 ? null : ends.reduce((a, b) => (Date.parse(a) <= Date.parse(b) ? a : b)),
  };
}

/**
 * What a product shows: its price now, and the price struck through — the higher of its own
 * compare-at price and its regular price when on sale (a product already reduced keeps its
 * original price struck through).
 */
export function shownPrices(
  own: { priceCents: number; originalPriceCents: number | null },
  sale: SalePrice | null,
): { priceCents: number; originalPriceCents: number | null } {
  if (!sale) return own;
  return {
    priceCents: sale.priceCents,
    originalPriceCents: Math.max(own.originalPriceCents ?? 0, sale.regularCents),
  };
}

/**
 * What is left of `cents` after `basisPoints` off, rounded as the engine rounds what it takes (half
 * up): `cents − round(cents × bp / 10 000)` = ⌊(cents × (10 000 − bp) + 4 999) / 10 000⌋ — one
 * reference to `cents`, so SQL can nest it once per promotion (listing-sale.server.ts).
 */
export function leftAfterPercent(cents: number, basisPoints: number): number {
  return Math.floor((cents * (10_000 - basisPoints) + 4_999) / 10_000);
}
