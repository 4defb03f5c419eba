import type { Database } from "../../db/database.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { addToLine, findCartProduct, upsertCart } from "./cart-store.server.ts";

/** The line after the add: `quantity` is its quantity now. */
export type AddedToCart =
  | { outcome: "added"; name: string; quantity: number }
  /** the line was capped at the stock (it holds `quantity` = `stock`) */
  | { outcome: "capped"; name: string; quantity: number; stock: number };

export type AddToCartError =
  | { code: "out-of-stock"; name: string }
  /** unknown or archived product */
  | { code: "unavailable" };

export type AddToCartResult = Result<AddedToCart, AddToCartError>;

export interface AddToCartInput {
  cartId: string;
  productId: number;
  /** a positive integer; the line never exceeds the product's stock */
  quantity: number;
}

/**
 * Adds a product to a cart (creating the cart on its first line). The price is never an input:
 * totals are always computed from the database (see getCart).
 */
export async function addToCart(
  db: Database,
  { cartId, productId, quantity }: AddToCartInput,
  now: Date = new Date(),
): Promise<AddToCartResult> {
  if (!Number.isSafeInteger(quantity) || quantity < 1) {
    throw new RangeError(`addToCart: quantity must be a positive integer, got ${quantity}`);
  }
  return db.transaction().execute(async (trx) => {
    const product = await findCartProduct(trx, productId);
    if (!product || product.archivedAt !== null) return fail({ code: "unavailable" as const });
    if (product.stock <= 0) return fail({ code: "out-of-stock" as const, name: product.name });
    await upsertCart(trx, cartId, now);
    const line = await addToLine(trx, { cartId, productId, quantity, stock: product.stock }, now);
    return ok<AddedToCart>(
      line.capped
        ? { outcome: "capped", name: product.name, quantity: line.quantity, stock: product.stock }
        : { outcome: "added", name: product.name, quantity: line.quantity },
    );
  });
}
