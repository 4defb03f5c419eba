import { z } from "zod";
import type { Database } from "../../db/database.server.ts";
import type { ProductCardData } from "../../lib/catalog-types.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { selectCardColumns, toProductCards } from "../catalog/product-card.server.ts";

/** Every text the wishlist shows after an action (spec §8 wording for the add). */
export const WISHLIST_MESSAGES = {
  added: (name: string) => `${name} added to wishlist!`,
  removed: (name: string) => `${name} removed from wishlist`,
  unavailable: "This product is no longer available.",
  signInFirst: "Please sign in to save items to your wishlist.",
} as const;

/**
 * POST /account/wishlist (the heart on a product, a card or the wishlist page): add or remove a
 * product, then back to the page the form was on.
 */
export const wishlistFormSchema = z.object({
  intent: z.enum(["add", "remove"]),
  productId: z
    .string()
    .regex(/^[1-9]\d{0,14}$/)
    .transform(Number),
  redirectTo: z.string().optional(),
});

/** A product as the wishlist knows it: live (not archived) products only. */
export interface WishlistProduct {
  id: number;
  slug: string;
  name: string;
}

/** What a wishlist change did, or why it could not: the product is unknown (or archived, to add). */
export type WishlistChange = Result<
  { change: "added" | "removed"; product: WishlistProduct },
  { code: "unavailable" }
>;

const UNAVAILABLE = fail({ code: "unavailable" as const });

/** A saved product, newest first, as the account's wishlist page shows it. */
export interface WishlistEntry extends ProductCardData {
  addedAt: string;
}

async function liveProduct(db: Database, productId: number): Promise<WishlistProduct | null> {
  if (!Number.isSafeInteger(productId) || productId <= 0) return null;
  const row = await db
    .selectFrom("products")
    .select(["id", "slug", "name"])
    .where("id", "=", productId)
    .where("archivedAt", "is", null)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Saves a product to the user's wishlist (saving it twice keeps one row). An unknown or archived
 * product is refused.
 */
export async function addToWishlist(
  db: Database,
  userId: string,
  productId: number,
  now: Date = new Date(),
): Promise<WishlistChange> {
  const product = await liveProduct(db, productId);
  if (!product) return UNAVAILABLE;
  await db
    .insertInto("wishlistItems")
    .values({ userId, productId: product.id, addedAt: now.toISOString() })
    .onConflict((oc) => oc.columns(["userId", "productId"]).doNothing())
    .execute();
  return ok({ change: "added", product });
}

/**
 * Takes a product off the user's wishlist. Removing one that is not there is not an error (a
 * second click, an old tab); an unknown product is. An archived product can still be removed.
 */
export async function removeFromWishlist(
  db: Database,
  userId: string,
  productId: number,
): Promise<WishlistChange> {
  if (!Number.isSafeInteger(productId) || productId <= 0) return UNAVAILABLE;
  const product = await db
    .selectFrom("products")
    .select(["id", "slug", "name"])
    .where("id", "=", productId)
    .executeTakeFirst();
  if (!product) return UNAVAILABLE;
  await db
    .deleteFrom("wishlistItems")
    .where("userId", "=", userId)
    .where("productId", "=", productId)
    .execute();
  return ok({ change: "removed", product });
}

/** Adds the product when it is not saved yet, removes it when it is. */
export async function toggleWishlistItem(
  db: Database,
  userId: string,
  productId: number,
  now: Date = new Date(),
): Promise<WishlistChange> {
  const saved = await isInWishlist(db, userId, productId);
  return saved ? removeFromWishlist(db, userId, productId) : addToWishlist(db, userId, productId, now);
}

export async function isInWishlist(db: Database, userId: string, productId: number): Promise<boolean> {
  if (!Number.isSafeInteger(productId) || productId <= 0) return false;
  const row = await db
    .selectFrom("wishlistItems")
    .innerJoin("products", "products.id", "wishlistItems.productId")
    .select("wishlistItems.productId")
    .where("wishlistItems.userId", "=", userId)
    .where("wishlistItems.productId", "=", productId)
    .where("products.archivedAt", "is", null)
    .executeTakeFirst();
  return row !== undefined;
}

/** The ids of the user's saved live products (for the header count and the cards' hearts). */
export async function listWishlistProductIds(db: Database, userId: string): Promise<number[]> {
  const rows = await db
    .selectFrom("wishlistItems")
    .innerJoin("products", "products.id", "wishlistItems.productId")
    .select("wishlistItems.productId")
    .where("wishlistItems.userId", "=", userId)
    .where("products.archivedAt", "is", null)
    .orderBy("wishlistItems.productId")
    .execute();
  return rows.map((row) => row.productId);
}

/** How many live products the user has saved. */
export async function countWishlist(db: Database, userId: string): Promise<number> {
  const row = await db
    .selectFrom("wishlistItems")
    .innerJoin("products", "products.id", "wishlistItems.productId")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("wishlistItems.userId", "=", userId)
    .where("products.archivedAt", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The user's saved live products, most recently saved first. */
export async function listWishlist(db: Database, userId: string): Promise<WishlistEntry[]> {
  const rows = await selectCardColumns(db)
    .innerJoin("wishlistItems", "wishlistItems.productId", "products.id")
    .select("wishlistItems.addedAt")
    .where("wishlistItems.userId", "=", userId)
    .orderBy("wishlistItems.addedAt", "desc")
    .orderBy("products.id", "desc")
    .execute();
  const addedAt = new Map(rows.map((row) => [row.id, row.addedAt]));
  const cards = await toProductCards(
    db,
    rows.map(({ addedAt: _addedAt, ...card }) => card),
    new Date(),
    userId,
  );
  return cards.map((card) => ({ ...card, addedAt: addedAt.get(card.id) ?? "" }));
}
