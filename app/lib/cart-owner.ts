/**
 * Whose cart a request works on (app/domain/cart/cart-owner.server.ts tells the whole rule): the
 * signed-in account's, else the guest cart named by the signed cart cookie, if any.
 */
export type CartOwner = { userId: string } | { userId: null; guestCartId: string | null };

const CART_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A guest cart's id as the shop makes them (a random UUID); anything else in a cookie is ignored. */
export function isCartId(value: unknown): value is string {
  return typeof value === "string" && CART_ID.test(value);
}
