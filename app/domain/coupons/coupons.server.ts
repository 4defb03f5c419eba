import type { Transaction } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import type { Currency } from "../../lib/money.ts";
import {
  type CouponEvaluation,
  type CouponTerms,
  evaluateCoupon,
  normalizeCouponCode,
} from "./coupon-rules.ts";

type Executor = Database | Transaction<DB>;

/** The coupon with this code (case-insensitive), or null. */
export async function findCoupon(db: Executor, code: string): Promise<CouponTerms | null> {
  const normalized = normalizeCouponCode(code);
  if (normalized === "" || normalized.length > 64) return null;
  const row = await db
    .selectFrom("coupons")
    .select(["code", "kind", "amount", "minSubtotalCents", "expiresAt", "usageLimit", "usedCount", "active"])
    .where("code", "=", normalized)
    .executeTakeFirst();
  return row ?? null;
}

/** Evaluates `code` against a subtotal (now, unless told), its messages in the shop's currency. */
export async function checkCoupon(
  db: Executor,
  code: string,
  subtotalCents: number,
  { now = new Date(), currency }: { now?: Date; currency: Currency },
): Promise<CouponEvaluation> {
  return evaluateCoupon(await findCoupon(db, code), subtotalCents, { now, currency });
}

/**
 * Puts `code` on the cart when it applies to the cart's current subtotal; the cart keeps no
 * code when it does not.
 */
export async function applyCouponToCart(
  db: Database,
  {
    cartId,
    code,
    subtotalCents,
    currency,
  }: { cartId: string; code: string; subtotalCents: number; currency: Currency },
): Promise<CouponEvaluation> {
  const result = await checkCoupon(db, code, subtotalCents, { currency });
  if (result.ok) {
    await db
      .updateTable("carts")
      .set({ couponCode: result.value.code, updatedAt: new Date().toISOString() })
      .where("id", "=", cartId)
      .execute();
  }
  return result;
}

export async function removeCouponFromCart(db: Database, cartId: string): Promise<void> {
  await db
    .updateTable("carts")
    .set({ couponCode: null, updatedAt: new Date().toISOString() })
    .where("id", "=", cartId)
    .execute();
}

/**
 * Counts one use inside the order transaction. The guarded update cannot pass the usage limit
 * however many orders run at once; false means the coupon was used up meanwhile.
 */
export async function redeemCoupon(trx: Transaction<DB>, code: string): Promise<boolean> {
  const result = await trx
    .updateTable("coupons")
    .set((eb) => ({ usedCount: eb("usedCount", "+", 1) }))
    .where("code", "=", code)
    .where("active", "=", 1)
    .where((eb) => eb.or([eb("usageLimit", "is", null), eb("usedCount", "<", eb.ref("usageLimit"))]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives a use back (an order that used the coupon was cancelled). */
export async function releaseCoupon(trx: Transaction<DB>, code: string): Promise<void> {
  await trx
    .updateTable("coupons")
    .set((eb) => ({ usedCount: eb("usedCount", "-", 1) }))
    .where("code", "=", code)
    .where("usedCount", ">", 0)
    .execute();
}
