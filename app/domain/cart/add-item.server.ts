import type { Database } from "../../db/database.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { addToLine, resolveCartVariant, upsertCart } from "./cart-store.server.ts";
import type { GiftCardRecipient } from "./cart-types.ts";

/** The line after the add: `quantity` is its quantity now. */
export type AddedToCart =
  | { outcome: "added"; name: string; quantity: number }
  /** the line was capped at the stock (it holds `quantity` = `stock`) */
  | { outcome: "capped"; name: string; quantity: number; stock: number };

export type AddToCartError =
  | { code: "out-of-stock"; name: string }
  /** unknown or archived product or variant */
  | { code: "unavailable" }
  /** the product comes in several variants and none was chosen: its page asks */
  | { code: "choose-variant"; name: string; slug: string };

export type AddToCartResult = Result<AddedToCart, AddToCartError>;

export interface AddToCartInput {
  cartId: string;
  productId: number;
  /** the variant chosen on the product page; may be left out for a product with one variant */
  variantId?: number | null;
  /** a positive integer; the line never exceeds the product's stock */
  quantity: number;
  /** who a gift card goes to (ignored for other products); the latest add of an amount decides */
  recipient?: GiftCardRecipient | null;
}

/**
 * Adds a product to a cart (creating the cart on its first line). The price is never an input:
 * totals are always computed from the database (see getCart).
 */
export async function addToCart(
  db: Database,
  { cartId, productId, variantId, quantity, recipient }: AddToCartInput,
  now: Date = new Date(),
): Promise<AddToCartResult> {
  if (!Number.isSafeInteger(quantity) || quantity < 1) {
    throw new RangeError(`addToCart: quantity must be a positive integer, got ${quantity}`);
  }
  return db.transaction().execute(async (trx) => {
    const resolved = await resolveCartVariant(trx, { productId, variantId });
    if (resolved.kind === "unknown") return fail({ code: "unavailable" as const });
    if (resolved.kind === "choose") {
      return fail({ code: "choose-variant" as const, name: resolved.name, slug: resolved.slug });
    }
    const { variant } = resolved;
    if (variant.archived) return fail({ code: "unavailable" as const });
    if (variant.stock <= 0) return fail({ code: "out-of-stock" as const, name: variant.name });
    await upsertCart(trx, cartId, now);
    const line = await addToLine(
      trx,
      { cartId, variantId: variant.variantId, productId, quantity, stock: variant.stock },
      now,
    );
    if (variant.giftCard) {
      const to = {
        recipientEmail: recipient?.email ?? null,
        recipientName: recipient?.name ?? null,
        message: recipient?.message ?? null,
      };
      await trx
        .insertInto("cartGiftCardRecipients")
        .values({ cartId, variantId: variant.variantId, ...to })
        .onConflict((oc) => oc.columns(["cartId", "variantId"]).doUpdateSet(to))
        .execute();
    }
    return ok<AddedToCart>(
      line.capped
        ? { outcome: "capped", name: variant.name, quantity: line.quantity, stock: variant.stock }
        : { outcome: "added", name: variant.name, quantity: line.quantity },
    );
  });
}
