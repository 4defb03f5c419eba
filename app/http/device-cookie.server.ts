import { getEnv } from "../env.server.ts";
import { createSignedCookie } from "../infra/signed-cookie.server.ts";
import type { KnownDevice } from "../lib/known-device.ts";

/**
 * The device cookie (decision 023): set at a successful sign-in or registration, it tells a later
 * sign-in that this browser proved the account before, so the per-e-mail limit that stops a guess
 * spread over many addresses never stops it. Signed with the session secret, HttpOnly, kept a year,
 * and kept when signing out.
 */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

let cookie: ReturnType<typeof createDeviceCookie> | undefined;
function createDeviceCookie() {
  const env = getEnv();
  return createSignedCookie("cw_device", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: env.PUBLIC_URL.startsWith("https:"),
    secrets: [env.SESSION_SECRET],
    maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
  });
}
function deviceCookie() {
  cookie ??= createDeviceCookie();
  return cookie;
}

const ACCOUNT_KEY = /^[0-9a-f]{64}$/;
const DEVICE_ID = /^[0-9a-f-]{36}$/;

/** The browser's device cookie, verified, or null (none, a bad signature, a value not ours). */
export async function readKnownDevice(request: Request): Promise<KnownDevice | null> {
  const header = request.headers.get("Cookie");
  if (!header?.includes(`${deviceCookie().name}=`)) return null;
  try {
    const value: unknown = await deviceCookie().parse(header);
    if (typeof value !== "object" || value === null) return null;
    const { account, id } = value as Record<string, unknown>;
    if (typeof account !== "string" || !ACCOUNT_KEY.test(account)) return null;
    if (typeof id !== "string" || !DEVICE_ID.test(id)) return null;
    return { account, id };
  } catch {
    return null;
  }
}

/** Set-Cookie value that stores what a sign-in made this browser (restarting its year). */
export async function serializeKnownDevice(device: KnownDevice): Promise<string> {
  return deviceCookie().serialize({ account: device.account, id: device.id });
}
