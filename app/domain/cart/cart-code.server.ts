import type { Database } from "../../db/database.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { COUPON_MESSAGES } from "../coupons/coupon-rules.ts";
import { type CartShop, getCart, type Shopper } from "./get-cart.server.ts";

/**
 * A code typed into the cart's coupon field: a promotion's — a shared code (today's coupons are
 * promotions with a code, migration 0780) or a single-use one (issue 31) — kept on the cart only
 * when its promotion applies to the cart as the shopper would check it out; otherwise the cart keeps
 * the code it had and the shopper is told why, in the coupons' words.
 */
export async function applyCodeToCart(
  db: Database,
  { cartId, code, shop, shopper }: { cartId: string; code: string; shop: CartShop; shopper: Shopper },
): Promise<Result<{ code: string }, { code: "refused"; message: string }>> {
  if (code === "" || code.length > 64) return fail({ code: "refused", message: COUPON_MESSAGES.notFound });
  const known = await isPromotionCode(db, code);
  if (!known) return fail({ code: "refused", message: COUPON_MESSAGES.notFound });
  const previous = await db
    .selectFrom("carts")
    .select("couponCode")
    .where("id", "=", cartId)
    .executeTakeFirst();
  await setCode(db, cartId, code);
  const cart = await getCart(db, cartId, shop, shopper);
  if (cart.coupon?.code === code) return ok({ code });
  // refused: the cart keeps the code it had (none, or another that still applies)
  await setCode(db, cartId, previous?.couponCode ?? null);
  return fail({ code: "refused", message: cart.couponProblem?.message ?? COUPON_MESSAGES.notFound });
}

async function isPromotionCode(db: Database, code: string): Promise<boolean> {
  const shared = await db.selectFrom("promotions").select("id").where("code", "=", code).executeTakeFirst();
  if (shared) return true;
  const single = await db
    .selectFrom("promotionCodes")
    .select("id")
    .where("code", "=", code)
    .executeTakeFirst();
  return single !== undefined;
}

/** The cart keeps no code. */
export async function removeCodeFromCart(db: Database, cartId: string): Promise<void> {
  await setCode(db, cartId, null);
}

function setCode(db: Database, cartId: string, code: string | null) {
  return db
    .updateTable("carts")
    .set({ couponCode: code, updatedAt: new Date().toISOString() })
    .where("id", "=", cartId)
    .execute();
}
