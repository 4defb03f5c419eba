import type { Database } from "../../app/db/database.server.ts";
import { applyCodeToCart } from "../../app/domain/cart/cart-code.server.ts";
import type { CartShop, Shopper } from "../../app/domain/cart/get-cart.server.ts";
import { normalizeCouponCode } from "../../app/domain/coupons/coupon-rules.ts";
import { promotionUses } from "../../app/domain/promotions/promotion-redemptions.server.ts";
import { SPEC_SHOP } from "./spec-pricing.ts";

/**
 * Coupons in tests: since migration 0780 a coupon is a promotion with a code, made here as the
 * migration makes one from a coupon's terms (a percentage or an amount off the order, its minimum
 * subtotal, its expiry as the end, its usage limit and uses, first among the order's promotions).
 */
export interface CouponTerms {
  code: string;
  kind: "percent" | "fixed";
  /** percent: 1..100; fixed: cents */
  amount: number;
  minSubtotalCents: number;
  expiresAt: string | null;
  usageLimit: number | null;
  /** uses from before (without a redemption row) */
  usedCount: number;
  active: 0 | 1;
}

export const COUPON_DEFAULTS: Omit<CouponTerms, "code"> = {
  kind: "percent",
  amount: 10,
  minSubtotalCents: 0,
  expiresAt: null,
  usageLimit: null,
  usedCount: 0,
  active: 1,
};

/** A coupon as a promotion with its code; answers the promotion's id. */
export async function insertCoupon(
  db: Database,
  terms: Partial<CouponTerms> & { code: string },
  at = "2026-01-01T00:00:00.000Z",
): Promise<number> {
  const coupon = { ...COUPON_DEFAULTS, ...terms };
  const action =
    coupon.kind === "percent"
      ? { type: "order-percent", basisPoints: coupon.amount * 100 }
      : { type: "order-fixed", cents: coupon.amount };
  const row = await db
    .insertInto("promotions")
    .values({
      name: `Coupon ${coupon.code}`,
      code: coupon.code,
      conditions: JSON.stringify(
        coupon.minSubtotalCents > 0 ? [{ type: "min-subtotal", cents: coupon.minSubtotalCents }] : [],
      ),
      action: JSON.stringify(action),
      startsAt: null,
      endsAt: coupon.expiresAt,
      priority: 1_000,
      combines: 1,
      active: coupon.active,
      campaignId: null,
      usageLimit: coupon.usageLimit,
      usedCount: coupon.usageLimit === null ? 0 : Math.min(coupon.usedCount, coupon.usageLimit),
      perCustomerLimit: null,
      uniqueCodes: 0,
      earlierUses: coupon.usedCount,
      createdAt: at,
      updatedAt: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The code typed into the cart's coupon field (as the cart route reads it), checked against the cart. */
export function applyCoupon(
  db: Database,
  {
    cartId,
    code,
    shop = SPEC_SHOP,
    shopper = {},
  }: { cartId: string; code: string; shop?: CartShop; shopper?: Shopper },
) {
  return applyCodeToCart(db, { cartId, code: normalizeCouponCode(code), shop, shopper });
}

/** A coupon's uses as every view counts them: its orders' redemptions and its earlier uses. */
export async function couponUses(db: Database, code: string): Promise<number> {
  const row = await db
    .selectFrom("promotions")
    .select("id")
    .where("code", "=", code)
    .executeTakeFirstOrThrow();
  return (await promotionUses(db, [Number(row.id)])).get(Number(row.id)) ?? 0;
}
