import type { Database } from "../../db/database.server.ts";
import { addToLine, touchCart, upsertCart } from "./cart-store.server.ts";

export interface MergeCartsResult {
  /** lines moved or added into the target cart */
  merged: number;
  /** variants whose summed quantity was cut down to the stock */
  capped: Array<{ productId: number; variantId: number; name: string; stock: number }>;
  /** lines left behind because the product is archived or sold out */
  dropped: number;
}

/**
 * Moves a (guest) cart into another (the user's) cart: quantities of the same variant are added
 * and capped at its stock; archived and sold-out variants are dropped. The source cart is
 * deleted. Used at sign-in (cart-owner.server.ts claimGuestCart); one transaction.
 */
export async function mergeCarts(
  db: Database,
  fromCartId: string,
  intoCartId: string,
  now: Date = new Date(),
): Promise<MergeCartsResult> {
  const result: MergeCartsResult = { merged: 0, capped: [], dropped: 0 };
  if (fromCartId === intoCartId) return result;
  return db.transaction().execute(async (trx) => {
    // Lock both carts in one global order, so two merges over the same pair cannot deadlock.
    for (const id of [fromCartId, intoCartId].sort()) await touchCart(trx, id, now);
    const lines = await trx
      .selectFrom("cartItems")
      .innerJoin("productVariants", "productVariants.id", "cartItems.variantId")
      .innerJoin("products", "products.id", "cartItems.productId")
      .select((eb) => [
        "cartItems.productId",
        "cartItems.variantId",
        "cartItems.quantity",
        "products.name",
        "productVariants.stock",
        eb.fn.coalesce("products.archivedAt", "productVariants.archivedAt").as("archivedAt"),
      ])
      .where("cartItems.cartId", "=", fromCartId)
      .orderBy("cartItems.addedAt")
      .orderBy("cartItems.variantId")
      .execute();
    if (lines.length > 0) await upsertCart(trx, intoCartId, now);
    for (const line of lines) {
      if (line.archivedAt !== null || line.stock <= 0) {
        result.dropped++;
        continue;
      }
      const added = await addToLine(
        trx,
        {
          cartId: intoCartId,
          variantId: line.variantId,
          productId: line.productId,
          quantity: line.quantity,
          stock: line.stock,
        },
        now,
      );
      result.merged++;
      if (added.capped) {
        result.capped.push({
          productId: line.productId,
          variantId: line.variantId,
          name: line.name,
          stock: line.stock,
        });
      }
    }
    await trx.deleteFrom("cartItems").where("cartId", "=", fromCartId).execute();
    await trx.deleteFrom("carts").where("id", "=", fromCartId).execute();
    return result;
  });
}

/** The account's cart (one per account, `carts.user_id` is unique), if it has one. */
export async function findUserCartId(db: Database, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom("carts")
    .select("id")
    .where("userId", "=", userId)
    .orderBy("updatedAt", "desc")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}
