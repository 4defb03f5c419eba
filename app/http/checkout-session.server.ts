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
