import { safeRedirectPath, signInPath } from "../../lib/safe-redirect.ts";

/**
 * A signed-out visitor who clicks Add to Wishlist is sent to sign in with the page to come back
 * to; the product to save rides along in that path as `?addToWishlist=<id>`. Only the sign-in and
 * register action reads it (and takes it out again): a GET of the page itself never changes data.
 */
export const PENDING_WISHLIST_PARAM = "addToWishlist";

const BASE = "http://same-site.invalid";

/** The sign-in page URL that comes back to `backTo` and then saves `productId`. */
export function signInToSaveUrl(backTo: string, productId: number): string {
  const url = new URL(safeRedirectPath(backTo, "/"), BASE);
  url.searchParams.set(PENDING_WISHLIST_PARAM, String(productId));
  const target = url.pathname + url.search + url.hash;
  return signInPath(target);
}

/** Splits a (safe) redirect path into where to go and the product waiting to be saved, if any. */
export function takePendingWishlist(redirectTo: string): { to: string; productId: number | null } {
  const safe = safeRedirectPath(redirectTo, "/");
  const url = new URL(safe, BASE);
  const raw = url.searchParams.get(PENDING_WISHLIST_PARAM);
  if (raw === null) return { to: safe, productId: null };
  url.searchParams.delete(PENDING_WISHLIST_PARAM);
  const to = safeRedirectPath(url.pathname + url.search + url.hash, "/");
  const productId = /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : null;
  return { to, productId };
}
