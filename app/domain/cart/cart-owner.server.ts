import type { Database } from "../../db/database.server.ts";
import type { CartOwner } from "../../lib/cart-owner.ts";
import { newCartId } from "./cart-store.server.ts";
import { findUserCartId, mergeCarts } from "./merge-carts.server.ts";

/**
 * How a request knows its cart (product decision: a signed-in shopper's cart belongs to the
 * account and follows them across devices and sign-outs):
 *
 * - **signed in** → the account's cart, `carts.user_id` = the user (at most one per account, a
 *   unique index); the cart cookie plays no part and is not set;
 * - **signed out** → the guest cart named by the signed `cw_cart` cookie, and only while that cart
 *   belongs to no account (a cookie left over from a signed-in session never reaches it).
 *
 * At sign-in the guest cart joins the account's (`claimGuestCart`) and the cookie is cleared; at
 * sign-out the cookie is cleared and the account's cart stays in the database.
 */

/** The cart this shopper reads and changes, or null when they have none yet. */
export async function findCartId(db: Database, owner: CartOwner): Promise<string | null> {
  if (owner.userId !== null) return findUserCartId(db, owner.userId);
  if (owner.guestCartId === null) return null;
  const row = await db
    .selectFrom("carts")
    .select("id")
    .where("id", "=", owner.guestCartId)
    .where("userId", "is", null)
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * The cart an add goes into. Signed in: the account's cart, created (with its user) when it has
 * none — concurrent first adds find the same row. Signed out: the cookie's guest cart, or a new id
 * (the cart row is created by the add itself) for the cookie to carry.
 */
export async function openCart(db: Database, owner: CartOwner, now: Date = new Date()): Promise<string> {
  if (owner.userId !== null) return ensureAccountCart(db, owner.userId, now);
  if (owner.guestCartId !== null) {
    const row = await db
      .selectFrom("carts")
      .select("userId")
      .where("id", "=", owner.guestCartId)
      .executeTakeFirst();
    // an unknown id (the cart was emptied away) is reused; an account's cart never is
    if (!row || row.userId === null) return owner.guestCartId;
  }
  return newCartId();
}

/** The account's cart id, creating an empty cart for it when there is none. */
export async function ensureAccountCart(
  db: Database,
  userId: string,
  now: Date = new Date(),
): Promise<string> {
  const existing = await findUserCartId(db, userId);
  if (existing) return existing;
  const timestamp = now.toISOString();
  // a concurrent request may create it first: the unique index on user_id keeps one
  await db
    .insertInto("carts")
    .values({ id: newCartId(), userId, createdAt: timestamp, updatedAt: timestamp })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const created = await findUserCartId(db, userId);
  if (!created) throw new Error("ensureAccountCart: the account's cart was not created");
  return created;
}

/**
 * At sign-in (or registration): the guest cart of this browser joins the account's cart. When the
 * account has none, the guest cart simply becomes it (its coupon and checkout in progress kept);
 * otherwise its lines are merged in (quantities added, capped at stock; archived and sold-out
 * products dropped) and it is deleted. A cart that belongs to another account is left alone.
 * Returns the account's cart id (null when it has no cart).
 */
export async function claimGuestCart(
  db: Database,
  { userId, guestCartId }: { userId: string; guestCartId: string | null },
  now: Date = new Date(),
): Promise<string | null> {
  const guest = guestCartId
    ? await db.selectFrom("carts").select(["id", "userId"]).where("id", "=", guestCartId).executeTakeFirst()
    : undefined;
  const accountCartId = await findUserCartId(db, userId);
  if (!guest || guest.userId !== null) return accountCartId;
  if (!accountCartId) {
    try {
      const adopted = await db
        .updateTable("carts")
        .set({ userId, updatedAt: now.toISOString() })
        .where("id", "=", guest.id)
        .where("userId", "is", null)
        .executeTakeFirst();
      if (Number(adopted.numUpdatedRows) > 0) return guest.id;
    } catch (error) {
      // the same account signing in elsewhere at this moment got its cart first (unique user_id):
      // merge into that one instead
      if (!(await findUserCartId(db, userId))) throw error;
    }
  }
  const target = accountCartId ?? (await ensureAccountCart(db, userId, now));
  await mergeCarts(db, guest.id, target, now);
  return target;
}
