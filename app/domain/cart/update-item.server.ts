import type { Database } from "../../db/database.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { findCartProduct, touchCart } from "./cart-store.server.ts";

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

export interface UpdateCartItemInput {
  cartId: string;
  productId: number;
  /** an integer; ≤ 0 removes the line, more than the stock is capped */
  quantity: number;
}

/** Sets a line's quantity (an absolute value, so repeating the request changes nothing). */
export async function updateCartItem(
  db: Database,
  { cartId, productId, quantity }: UpdateCartItemInput,
  now: Date = new Date(),
): Promise<UpdateCartItemResult> {
  if (!Number.isSafeInteger(quantity)) {
    throw new RangeError(`updateCartItem: quantity must be an integer, got ${quantity}`);
  }
  return db.transaction().execute(async (trx) => {
    if (!(await touchCart(trx, cartId, now))) return fail({ code: "not-in-cart" as const });
    const line = await trx
      .selectFrom("cartItems")
      .select("quantity")
      .where("cartId", "=", cartId)
      .where("productId", "=", productId)
      .executeTakeFirst();
    if (!line) return fail({ code: "not-in-cart" as const });
    if (quantity <= 0) {
      await deleteLine(trx, cartId, productId);
      return ok<UpdatedCartItem>({ outcome: "removed" });
    }
    const product = await findCartProduct(trx, productId);
    if (!product || product.archivedAt !== null) return fail({ code: "unavailable" as const });
    if (product.stock <= 0) return fail({ code: "out-of-stock" as const, name: product.name });
    const next = Math.min(quantity, product.stock);
    await trx
      .updateTable("cartItems")
      .set({ quantity: next })
      .where("cartId", "=", cartId)
      .where("productId", "=", productId)
      .execute();
    return ok<UpdatedCartItem>(
      quantity > product.stock
        ? { outcome: "capped", name: product.name, quantity: next, stock: product.stock }
        : { outcome: "updated", name: product.name, quantity: next },
    );
  });
}

/** Removes one line; removing what is not there is not an error. */
export async function removeCartItem(
  db: Database,
  { cartId, productId }: { cartId: string; productId: number },
  now: Date = new Date(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (await touchCart(trx, cartId, now)) await deleteLine(trx, cartId, productId);
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

async function deleteLine(db: Database, cartId: string, productId: number): Promise<void> {
  await db.deleteFrom("cartItems").where("cartId", "=", cartId).where("productId", "=", productId).execute();
}
