import type { Database } from "../../db/database.server.ts";
import { calculateTotals, lineTotalCents } from "../../lib/pricing.ts";
import { checkCoupon } from "../coupons/coupons.server.ts";
import type { AppliedCoupon, CartLine, CartLineStatus, CartView } from "./cart-types.ts";

export type { AppliedCoupon, CartLine, CartLineStatus, CartView } from "./cart-types.ts";

/** The cart of a visitor who has none yet (no cookie): nothing to query. */
export function emptyCart(): CartView {
  return { lines: [], coupon: null, couponProblem: null, totalQuantity: 0, totals: calculateTotals(0) };
}

/**
 * The cart as the shopper sees it, priced from the database as it is now: a line counts with
 * min(its quantity, the stock); archived or sold-out products are listed but not charged.
 */
export async function getCart(db: Database, cartId: string): Promise<CartView> {
  const rows = await db
    .selectFrom("cartItems")
    .innerJoin("products", "products.id", "cartItems.productId")
    .leftJoin("productImages", (join) =>
      join.onRef("productImages.productId", "=", "products.id").on("productImages.position", "=", 0),
    )
    .select([
      "cartItems.productId",
      "cartItems.quantity",
      "products.slug",
      "products.name",
      "products.brand",
      "products.priceCents",
      "products.originalPriceCents",
      "products.stock",
      "products.archivedAt",
      "productImages.key as imageKey",
      "productImages.alt as imageAlt",
      "productImages.width as imageWidth",
      "productImages.height as imageHeight",
      "productImages.widths as imageWidths",
    ])
    .where("cartItems.cartId", "=", cartId)
    .orderBy("cartItems.addedAt")
    .orderBy("cartItems.productId")
    .execute();

  const lines = rows.map((row): CartLine => {
    const status = lineStatus(row.quantity, row.stock, row.archivedAt);
    const quantity = status === "ok" || status === "reduced" ? Math.min(row.quantity, row.stock) : 0;
    return {
      productId: row.productId,
      slug: row.slug,
      name: row.name,
      brand: row.brand,
      unitPriceCents: row.priceCents,
      originalPriceCents: row.originalPriceCents,
      quantity,
      requestedQuantity: row.quantity,
      stock: Math.max(0, row.stock),
      lineTotalCents: lineTotalCents(row.priceCents, quantity),
      status,
      image:
        row.imageKey !== null
          ? {
              key: row.imageKey,
              alt: row.imageAlt ?? row.name,
              width: row.imageWidth ?? 960,
              height: row.imageHeight ?? 960,
              widths: JSON.parse(row.imageWidths ?? "[]") as number[],
            }
          : null,
    };
  });
  const subtotal = lines.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const { coupon, couponProblem } = await cartCoupon(db, cartId, subtotal);
  return {
    lines,
    coupon,
    couponProblem,
    totalQuantity: lines.reduce((sum, line) => sum + line.quantity, 0),
    totals: calculateTotals(subtotal, { discountCents: coupon?.discountCents ?? 0 }),
  };
}

/** The cart's coupon re-checked against today's subtotal (it may have expired or been used up). */
async function cartCoupon(
  db: Database,
  cartId: string,
  subtotalCents: number,
): Promise<Pick<CartView, "coupon" | "couponProblem">> {
  const cart = await db.selectFrom("carts").select("couponCode").where("id", "=", cartId).executeTakeFirst();
  const code = cart?.couponCode ?? null;
  if (code === null) return { coupon: null, couponProblem: null };
  const result = await checkCoupon(db, code, subtotalCents);
  if (!result.ok) return { coupon: null, couponProblem: { code, message: result.error.message } };
  const coupon: AppliedCoupon = {
    code: result.value.code,
    label: result.value.label,
    discountCents: result.value.discountCents,
  };
  return { coupon, couponProblem: null };
}

function lineStatus(quantity: number, stock: number, archivedAt: string | null): CartLineStatus {
  if (archivedAt !== null) return "unavailable";
  if (stock <= 0) return "out-of-stock";
  return quantity > stock ? "reduced" : "ok";
}

/**
 * The header badge: the cart's purchasable quantity (as getCart counts it) in one query.
 * Callers without a cart cookie should not call this at all.
 */
export async function getCartQuantity(db: Database, cartId: string): Promise<number> {
  const row = await db
    .selectFrom("cartItems")
    .innerJoin("products", "products.id", "cartItems.productId")
    .select((eb) =>
      eb.fn
        .sum<number | string | null>(
          eb
            .case()
            .when("cartItems.quantity", ">", eb.ref("products.stock"))
            .then(eb.ref("products.stock"))
            .else(eb.ref("cartItems.quantity"))
            .end(),
        )
        .as("quantity"),
    )
    .where("cartItems.cartId", "=", cartId)
    .where("products.archivedAt", "is", null)
    .where("products.stock", ">", 0)
    .executeTakeFirst();
  return Number(row?.quantity ?? 0);
}
