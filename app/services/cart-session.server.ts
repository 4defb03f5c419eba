import { isCartId, newCartId } from "../domain/cart/cart-store.server.ts";
import { getEnv } from "../env.server.ts";
import { createSignedCookie } from "./signed-cookie.server.ts";

/** A guest cart lives 30 days after its last change. */
export const CART_COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

let cookie: ReturnType<typeof createCartCookie> | undefined;
function createCartCookie() {
  const env = getEnv();
  return createSignedCookie("cw_cart", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: env.PUBLIC_URL.startsWith("https:"),
    secrets: [env.SESSION_SECRET],
    maxAge: CART_COOKIE_MAX_AGE_SECONDS,
  });
}
function cartCookie() {
  cookie ??= createCartCookie();
  return cookie;
}

/** The visitor's cart id from the signed cookie, or null (no cookie, bad signature, bad value). */
export async function readCartId(request: Request): Promise<string | null> {
  const header = request.headers.get("Cookie");
  if (!header?.includes(`${cartCookie().name}=`)) return null;
  try {
    const value: unknown = await cartCookie().parse(header);
    return isCartId(value) ? value : null;
  } catch {
    return null;
  }
}

/** The visitor's cart id, or a fresh one (not stored anywhere until something is added). */
export async function cartIdFor(request: Request): Promise<{ cartId: string; isNew: boolean }> {
  const existing = await readCartId(request);
  return existing ? { cartId: existing, isNew: false } : { cartId: newCartId(), isNew: true };
}

/** Set-Cookie value that (re)stores the cart id, restarting its 30 days. */
export async function serializeCartCookie(cartId: string): Promise<string> {
  return cartCookie().serialize(cartId);
}

/** Set-Cookie value that removes the cart cookie (signing out leaves no cart behind). */
export async function clearCartCookie(): Promise<string> {
  return cartCookie().serialize("", { maxAge: 0 });
}
