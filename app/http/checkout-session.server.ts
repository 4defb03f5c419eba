import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from "node:crypto";
import { getEnv } from "../env.server.ts";

/**
 * Checkout state used to travel in a signed `cw_checkout` cookie (shipping details included).
 * It lives on the server now (checkout_progress, decision 012); a browser that still sends the
 * old cookie is told to drop it.
 */
const LEGACY_COOKIE = "cw_checkout";

/** The Set-Cookie value that removes the old checkout cookie, when the request carries one. */
export function clearLegacyCheckoutCookie(request: Request): string | null {
  const header = request.headers.get("Cookie");
  if (!header || !/(?:^|;\s*)cw_checkout=/.test(header)) return null;
  const secure = getEnv().PUBLIC_URL.startsWith("https:") ? "; Secure" : "";
  return `${LEGACY_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`;
}

/**
 * The provider's "cancel" return address carries a value only this shop can make for this very
 * checkout: an HMAC of the checkout's idempotency key (held on the server, never shown). A link from
 * anywhere else — `/checkout/return?cancelled=1` — therefore gives up nothing, and once the order is
 * settled its key leaves the checkout in progress, so the value is good for one use.
 */
const cancelKey = (() => {
  let key: KeyObject | null = null;
  return () => {
    key ??= createSecretKey(
      createHmac("sha256", getEnv().SESSION_SECRET).update("cartwheel:checkout-cancel:v1").digest(),
    );
    return key;
  };
})();

export function providerCancelToken(checkoutKey: string): string {
  return createHmac("sha256", cancelKey()).update(checkoutKey).digest("base64url");
}

/** Whether `token` (the return address's `cancelled` value) was made for this checkout's key. */
export function isProviderCancelToken(token: string | null, checkoutKey: string | undefined): boolean {
  if (!token || !checkoutKey || token.length > 100) return false;
  const expected = Buffer.from(providerCancelToken(checkoutKey));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
