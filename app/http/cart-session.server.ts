import type { RouterContextProvider } from "react-router";
import { getEnv } from "../env.server.ts";
import { createSignedCookie } from "../infra/signed-cookie.server.ts";
import { type CartOwner, isCartId } from "../lib/cart-owner.ts";
import { getSessionUser } from "./session.server.ts";

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

/**
 * Whose cart this request works on (cart-owner.server.ts): the signed-in account's, else the
 * guest cookie's. Pass the session user when the caller already has it (null: signed out).
 */
export async function cartOwnerFor(
  request: Request,
  context: Readonly<RouterContextProvider>,
  user?: { id: string } | null,
): Promise<CartOwner> {
  const signedIn = user === undefined ? await getSessionUser(request, context) : user;
  if (signedIn) return { userId: signedIn.id };
  return { userId: null, guestCartId: await readCartId(request) };
}

/** Set-Cookie value that (re)stores the cart id, restarting its 30 days. */
export async function serializeCartCookie(cartId: string): Promise<string> {
  return cartCookie().serialize(cartId);
}

/** Set-Cookie value that removes the cart cookie (signing in and out: the account keeps its cart). */
export async function clearCartCookie(): Promise<string> {
  return cartCookie().serialize("", { maxAge: 0 });
}
