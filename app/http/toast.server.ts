import { randomUUID } from "node:crypto";
import { createCookieSessionStorage, redirect } from "react-router";
import { z } from "zod";
import { getEnv } from "../env.server.ts";
import { createSignedCookie } from "../infra/signed-cookie.server.ts";
import { TOAST_TYPES, type Toast } from "../lib/toast.ts";

const TOAST_KEY = "toast";

/** Validates the toast read back from the cookie (server only: zod stays out of the client bundle). */
const toastSchema: z.ZodType<Toast> = z.object({
  id: z.string(),
  type: z.enum(TOAST_TYPES),
  message: z.string().max(500),
});

let storage: ReturnType<typeof createToastStorage> | undefined;
function createToastStorage() {
  const env = getEnv();
  return createCookieSessionStorage({
    cookie: createSignedCookie("cw_toast", {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: env.PUBLIC_URL.startsWith("https:"),
      secrets: [env.SESSION_SECRET],
    }),
  });
}
function toastStorage() {
  storage ??= createToastStorage();
  return storage;
}

/** Set-Cookie header carrying a toast to the next page the browser loads. */
export async function createToastHeaders(toast: Omit<Toast, "id">): Promise<Headers> {
  const session = await toastStorage().getSession();
  session.flash(TOAST_KEY, { ...toast, id: randomUUID() });
  return new Headers({ "Set-Cookie": await toastStorage().commitSession(session) });
}

/** POST → redirect → toast (the toast survives the redirect in a short-lived cookie). */
export async function redirectWithToast(url: string, toast: Omit<Toast, "id">, init?: ResponseInit) {
  const headers = await createToastHeaders(toast);
  return redirect(url, { ...init, headers });
}

/** Reads (and clears) the pending toast of this request. */
export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const session = await toastStorage().getSession(request.headers.get("Cookie"));
  if (!session.has(TOAST_KEY)) return { toast: null, headers: null };
  const parsed = toastSchema.safeParse(session.get(TOAST_KEY));
  const headers = new Headers({ "Set-Cookie": await toastStorage().destroySession(session) });
  return { toast: parsed.success ? parsed.data : null, headers };
}
