import type { Database } from "../../db/database.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { findCartVariant, touchCart } from "./cart-store.server.ts";

export type UpdatedCartItem =
  | { outcome: "updated"; name: string; quantity: number }
  /** a quantity of 0 or less removes the line (spec §4) */
  | { outcome: "removed" }
  /** more than the stock was asked for: the line now holds the stock */
  | { outcome: "capped"; name: string; quantity: number; stock: number };

export type UpdateCartItemError =
  | { code: "out-of-stock"; name: string }
  /** the product was archived (the line stays until removed) */
  | { code: "unavailable" }
  | { code: "not-in-cart" };

export type UpdateCartItemResult = Result<UpdatedCartItem, UpdateCartItemError>;

/** A cart line: its product, and its variant (may be left out when the cart holds one of the product). */
export interface CartLineKey {
  cartId: string;
  productId: number;
  variantId?: number | null;
}

export interface UpdateCartItemInput extends CartLineKey {
  /** an integer; ≤ 0 removes the line, more than the stock is capped */
  quantity: number;
}

/** Sets a line's quantity (an absolute value, so repeating the request changes nothing). */
export async function updateCartItem(
  db: Database,
  { cartId, productId, variantId: chosen, quantity }: UpdateCartItemInput,
  now: Date = new Date(),
): Promise<UpdateCartItemResult> {
  if (!Number.isSafeInteger(quantity)) {
    throw new RangeError(`updateCartItem: quantity must be an integer, got ${quantity}`);
  }
  return db.transaction().execute(async (trx) => {
    if (!(await touchCart(trx, cartId, now))) return fail({ code: "not-in-cart" as const });
    const variantId = await lineVariant(trx, { cartId, productId, variantId: chosen });
    if (variantId === null) return fail({ code: "not-in-cart" as const });
    if (quantity <= 0) {
      await deleteLine(trx, cartId, variantId);
      return ok<UpdatedCartItem>({ outcome: "removed" });
    }
    const product = await findCartVariant(trx, variantId);
    if (!product || product.archived) return fail({ code: "unavailable" as const });
    if (product.stock <= 0) return fail({ code: "out-of-stock" as const, name: product.name });
    const next = Math.min(quantity, product.stock);
    await trx
      .updateTable("cartItems")
      .set({ quantity: next })
      .where("cartId", "=", cartId)
      .where("variantId", "=", variantId)
      .execute();
    return ok<UpdatedCartItem>(
      quantity > product.stock
        ? { outcome: "capped", name: product.name, quantity: next, stock: product.stock }
        : { outcome: "updated", name: product.name, quantity: next },
    );
  });
}

/** Removes one line; removing what is not there is not an error. */
export async function removeCartItem(db: Database, key: CartLineKey, now: Date = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await touchCart(trx, key.cartId, now))) return;
    const variantId = await lineVariant(trx, key);
    if (variantId !== null) await deleteLine(trx, key.cartId, variantId);
  });
}

/** Empties the cart (the cart itself, and the shopper's cookie, stay). */
export async function clearCart(db: Database, cartId: string, now: Date = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (await touchCart(trx, cartId, now)) {
      await trx.deleteFrom("cartItems").where("cartId", "=", cartId).execute();
    }
  });
}

async function deleteLine(db: Database, cartId: string, variantId: number): Promise<void> {
  await db.deleteFrom("cartItems").where("cartId", "=", cartId).where("variantId", "=", variantId).execute();
}

/** The variant of the cart's line for this key, or null (no such line, or several and none named). */
async function lineVariant(
  db: Database,
  { cartId, productId, variantId }: CartLineKey,
): Promise<number | null> {
  let query = db
    .selectFrom("cartItems")
    .select("variantId")
    .where("cartId", "=", cartId)
    .where("productId", "=", productId);
  if (variantId != null) query = query.where("variantId", "=", variantId);
  const rows = await query.limit(2).execute();
  return rows.length === 1 ? rows[0]!.variantId : null;
}
