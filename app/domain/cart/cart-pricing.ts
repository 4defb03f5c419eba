/**
 * A cart priced for a destination by the one calculator (app/lib/markets.ts, order-calculator.ts):
 * pure, so the server (the cart, checkout, Place Order) and the browser (the checkout's summary
 * while the shopper types an address or picks a method) compute the same figures.
 */
import {
  type Destination,
  type MarketLine,
  type Markets,
  normalDestination,
  type PricedOrder,
  priceForDestination,
  type Totals,
  totalsOf,
  zoneFor,
} from "../../lib/markets.ts";
import { applyPromotions, type PromotionResult } from "../../lib/promotions/engine.ts";
import type { AppliedCoupon, CartLine, CartOffers } from "./cart-types.ts";

export type { CartOffers } from "./cart-types.ts";

/** What the discount is made of, in words: the coupon or code, then the other promotions that took from lines or the order. */
export function discountLabel(
  coupon: AppliedCoupon | null,
  promotions: PromotionResult | null,
): string | null {
  return (
    [
      coupon?.label,
      ...(promotions?.applied ?? [])
        .filter((applied) => applied.kind !== "shipping")
        .filter((applied) => !(coupon && applied.promotion.code === coupon.code))
        .map((applied) => applied.promotion.name),
    ]
      .filter(Boolean)
      .join(", ") || null
  );
}

export type PricingLine = Pick<
  CartLine,
  | "productId"
  | "variantId"
  | "brand"
  | "category"
  | "unitPriceCents"
  | "quantity"
  | "taxClass"
  | "weightGrams"
> &
  Partial<Pick<CartLine, "excludedPromotionIds" | "giftCard">>;

/** Only what pricing reads of each line (what the browser's estimate is sent). */
export function pricingLines(lines: readonly PricingLine[]): PricingLine[] {
  return lines.map(
    ({
      productId,
      variantId,
      brand,
      category,
      unitPriceCents,
      quantity,
      taxClass,
      weightGrams,
      giftCard,
      excludedPromotionIds,
    }) => ({
      productId,
      variantId,
      brand,
      category,
      unitPriceCents,
      quantity,
      taxClass,
      weightGrams,
      ...(giftCard ? { giftCard } : {}),
      ...(excludedPromotionIds && excludedPromotionIds.length > 0 ? { excludedPromotionIds } : {}),
    }),
  );
}

/** The lines that are charged (those that can be bought now), keyed by variant. */
export function marketLines(lines: readonly PricingLine[]): MarketLine[] {
  return lines
    .filter((line) => line.quantity > 0)
    .map((line) => ({
      key: String(line.variantId),
      unitPriceCents: line.unitPriceCents,
      quantity: line.quantity,
      taxClass: line.taxClass,
      weightGrams: line.weightGrams,
      giftCard: line.giftCard,
    }));
}

export interface CartPriceInput {
  lines: readonly PricingLine[];
  destination: Destination;
  /** the method chosen (a code of the destination's zone); else its first that can carry the cart */
  methodCode?: string | null;
  /** the promotions to apply (none: the cart is priced without) */
  offers?: CartOffers | null;
}

/** A priced cart, with what its promotions did (null: none to apply, or no zone holds it). */
export type PricedCart = PricedOrder & { promotions: PromotionResult | null };

export function priceCart(markets: Markets, input: CartPriceInput): PricedCart {
  const { offers } = input;
  const charged = input.lines.filter((line) => line.quantity > 0);
  let promotions: PromotionResult | null = null;
  const priced = priceForDestination(markets, {
    lines: marketLines(charged),
    destination: input.destination,
    methodCode: input.methodCode,
    adjust:
      offers && offers.promotions.length > 0
        ? (zone, shipping) => {
            promotions = applyPromotions(
              offers.promotions,
              // gift cards are money: no promotion takes anything off them
              charged
                .filter((line) => !line.giftCard)
                .map((line) => ({
                  key: String(line.variantId),
                  productId: line.productId,
                  variantId: line.variantId,
                  category: line.category,
                  brand: line.brand,
                  unitPriceCents: line.unitPriceCents,
                  quantity: line.quantity,
                  excludedPromotionIds: line.excludedPromotionIds,
                })),
              {
                now: new Date(offers.at),
                signedIn: offers.signedIn,
                groupIds: offers.groupIds,
                firstOrder: offers.firstOrder,
                zoneId: String(zone.id),
                shipping: shipping
                  ? { methodCode: shipping.method.code, priceCents: shipping.priceCents }
                  : null,
                codes: offers.codes,
                exhausted: new Map(offers.exhausted),
                budgets: new Map(offers.budgets),
              },
            );
            return promotions;
          }
        : undefined,
  });
  return { ...priced, promotions };
}

/** The figures to show: the priced order's, or (no zone holds the destination) the lines alone. */
export function totalsFor(priced: PricedOrder, input: CartPriceInput, fallbackLabel: string): Totals {
  if (priced.ok) return totalsOf(priced.calculation, priced.zone.taxLabel);
  const subtotalCents = marketLines(input.lines).reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0);
  return {
    subtotalCents,
    discountCents: 0,
    shippingCents: 0,
    taxCents: 0,
    totalCents: subtotalCents,
    taxIncluded: false,
    taxLabel: fallbackLabel,
    taxLines: [],
  };
}

/**
 * Where the cart estimates for: the shopper's choice when some zone holds it, else the shop's
 * estimate country, else the first zone's first country.
 */
export function estimateDestination(
  markets: Markets,
  chosen: { country: string | null; region: string | null },
): { country: string; region: string } {
  if (chosen.country) {
    const place = normalDestination({ country: chosen.country, region: chosen.region });
    if (place && zoneFor(markets, place)) return place;
  }
  const fallback = [markets.estimateCountry, ...markets.zones.flatMap((zone) => zone.countries)].find(
    (country) => zoneFor(markets, { country }) !== null,
  );
  return { country: fallback ?? markets.estimateCountry, region: "" };
}
