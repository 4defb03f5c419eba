import { redirect } from "react-router";
import { getAuth } from "../../db/client.server.ts";
import { pagePath } from "../../lib/page-url.ts";
import { displayName } from "../../lib/user-display.ts";

export type Role = "customer" | "admin";

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: Role;
  /** what the header shows (name, else the e-mail before the @) */
  displayName: string;
}

/** The signed-in user of this request (from the session cookie, checked in the database), or null. */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  if (!request.headers.get("Cookie")?.includes("session_token")) return null;
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers: request.headers }).catch(() => null);
  if (!session) return null;
  const { user } = session;
  const role: Role = (user as { role?: string | null }).role === "admin" ? "admin" : "customer";
  return { id: user.id, name: user.name, email: user.email, role, displayName: displayName(user) };
}

/** The signed-in user, or a redirect to /account that comes back here after signing in. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (user) return user;
  throw redirect(`/account?redirectTo=${encodeURIComponent(pagePath(request))}`);
}
