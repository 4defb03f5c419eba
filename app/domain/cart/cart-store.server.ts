import { randomUUID } from "node:crypto";
import type { Database } from "../../db/database.server.ts";

/** A new guest cart id: random and unguessable (the signed cookie carries it). */
export function newCartId(): string {
  return randomUUID();
}

/** What the cart rules need of a variant: its product's name (for messages), stock, and whether either is archived. */
export interface CartVariant {
  variantId: number;
  productId: number;
  name: string;
  slug: string;
  stock: number;
  archived: boolean;
  /** a gift card amount (delivered by e-mail to a recipient) */
  giftCard: boolean;
}

function cartVariants(db: Database) {
  return db
    .selectFrom("productVariants")
    .innerJoin("products", "products.id", "productVariants.productId")
    .select((eb) => [
      "productVariants.id as variantId",
      "productVariants.productId",
      "products.name",
      "products.slug",
      "productVariants.stock",
      "products.giftCard",
      eb
        .or([eb("products.archivedAt", "is not", null), eb("productVariants.archivedAt", "is not", null)])
        .as("archived"),
    ]);
}

const toCartVariant = (
  row: Omit<CartVariant, "archived" | "giftCard"> & { archived: unknown; giftCard: number },
): CartVariant => ({
  ...row,
  archived: Boolean(row.archived),
  giftCard: row.giftCard === 1,
});

/** One variant's cart facts, if it exists. */
export async function findCartVariant(db: Database, variantId: number): Promise<CartVariant | undefined> {
  const row = await cartVariants(db).where("productVariants.id", "=", variantId).executeTakeFirst();
  return row && toCartVariant(row);
}

/**
 * The variant a product's "Add to Cart" means: the one chosen (it must be the product's), else the
 * product's only live variant. Several variants and none chosen: `choose`, with the product.
 */
export async function resolveCartVariant(
  db: Database,
  { productId, variantId }: { productId: number; variantId?: number | null },
): Promise<
  | { kind: "variant"; variant: CartVariant }
  | { kind: "choose"; name: string; slug: string }
  | { kind: "unknown" }
> {
  let query = cartVariants(db).where("productVariants.productId", "=", productId);
  if (variantId != null) query = query.where("productVariants.id", "=", variantId);
  else query = query.where("productVariants.archivedAt", "is", null);
  const rows = (await query.orderBy("productVariants.position").limit(2).execute()).map(toCartVariant);
  const [first] = rows;
  if (!first) return { kind: "unknown" };
  if (rows.length > 1) return { kind: "choose", name: first.name, slug: first.slug };
  return { kind: "variant", variant: first };
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
 * Adds `quantity` to the variant's line (creating it), then caps it at `stock`. One atomic upsert,
 * so concurrent adds of the same variant neither lose an update nor collide on the primary key.
 * Returns the line's quantity and whether the cap cut it down.
 */
export async function addToLine(
  db: Database,
  {
    cartId,
    variantId,
    productId,
    quantity,
    stock,
  }: { cartId: string; variantId: number; productId: number; quantity: number; stock: number },
  now: Date,
): Promise<{ quantity: number; capped: boolean }> {
  const row = await db
    .insertInto("cartItems")
    .values({ cartId, variantId, productId, quantity, addedAt: now.toISOString() })
    .onConflict((oc) =>
      oc
        .columns(["cartId", "variantId"])
        .doUpdateSet((eb) => ({ quantity: eb("cartItems.quantity", "+", eb.ref("excluded.quantity")) })),
    )
    .returning("quantity")
    .executeTakeFirstOrThrow();
  if (row.quantity <= stock) return { quantity: row.quantity, capped: false };
  await db
    .updateTable("cartItems")
    .set({ quantity: stock })
    .where("cartId", "=", cartId)
    .where("variantId", "=", variantId)
    .execute();
  return { quantity: stock, capped: true };
}
