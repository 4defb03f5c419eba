import { randomUUID } from "node:crypto";
import type { Database } from "../../db/database.server.ts";

/** A new guest cart id: random and unguessable (the signed cookie carries it). */
export function newCartId(): string {
  return randomUUID();
}

export interface CartProduct {
  id: number;
  name: string;
  stock: number;
  archivedAt: string | null;
}

/** The product facts the cart rules need (name for messages, stock, archived). */
export async function findCartProduct(db: Database, productId: number): Promise<CartProduct | undefined> {
  return db
    .selectFrom("products")
    .select(["id", "name", "stock", "archivedAt"])
    .where("id", "=", productId)
    .executeTakeFirst();
}

/**
 * Creates the cart row if needed and bumps its updated_at. Inside a transaction this also takes
 * the cart row's lock on PostgreSQL, so writers to one cart queue up instead of interleaving.
 */
export async function upsertCart(db: Database, cartId: string, now: Date): Promise<void> {
  const timestamp = now.toISOString();
  await db
    .insertInto("carts")
    .values({ id: cartId, userId: null, createdAt: timestamp, updatedAt: timestamp })
    .onConflict((oc) => oc.column("id").doUpdateSet({ updatedAt: timestamp }))
    .execute();
}

/** Bumps updated_at of an existing cart (and locks it, see upsertCart); false when there is none. */
export async function touchCart(db: Database, cartId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("carts")
    .set({ updatedAt: now.toISOString() })
    .where("id", "=", cartId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Adds `quantity` to the line (creating it), then caps it at `stock`. One atomic upsert, so
 * concurrent adds of the same product neither lose an update nor collide on the primary key.
 * Returns the line's quantity and whether the cap cut it down.
 */
export async function addToLine(
  db: Database,
  {
    cartId,
    productId,
    quantity,
    stock,
  }: { cartId: string; productId: number; quantity: number; stock: number },
  now: Date,
): Promise<{ quantity: number; capped: boolean }> {
  const row = await db
    .insertInto("cartItems")
    .values({ cartId, productId, quantity, addedAt: now.toISOString() })
    .onConflict((oc) =>
      oc
        .columns(["cartId", "productId"])
        .doUpdateSet((eb) => ({ quantity: eb("cartItems.quantity", "+", eb.ref("excluded.quantity")) })),
    )
    .returning("quantity")
    .executeTakeFirstOrThrow();
  if (row.quantity <= stock) return { quantity: row.quantity, capped: false };
  await db
    .updateTable("cartItems")
    .set({ quantity: stock })
    .where("cartId", "=", cartId)
    .where("productId", "=", productId)
    .execute();
  return { quantity: stock, capped: true };
}
