import type { Database } from "../../db/database.server.ts";
import { addToLine, findCartProduct, upsertCart } from "./cart-store.server.ts";

export type AddToCartResult =
  /** `quantity` is the line's quantity after the add */
  | { status: "added"; name: string; quantity: number }
  /** the line was capped at the stock (it holds `quantity` = `stock`) */
  | { status: "capped"; name: string; quantity: number; stock: number }
  | { status: "out-of-stock"; name: string }
  /** unknown or archived product */
  | { status: "unavailable" };

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
    if (!product || product.archivedAt !== null) return { status: "unavailable" } as const;
    if (product.stock <= 0) return { status: "out-of-stock", name: product.name } as const;
    await upsertCart(trx, cartId, now);
    const line = await addToLine(trx, { cartId, productId, quantity, stock: product.stock }, now);
    return line.capped
      ? ({ status: "capped", name: product.name, quantity: line.quantity, stock: product.stock } as const)
      : ({ status: "added", name: product.name, quantity: line.quantity } as const);
  });
}
