import { data, type RouterContextProvider, redirect } from "react-router";
import { type AuthSession, authSessionFromHeaders } from "../adapters/auth/auth-session.ts";
import { servicesFrom } from "../context.ts";
import { pagePath } from "../lib/page-url.ts";
import { signInPath } from "../lib/safe-redirect.ts";
import { can, isStaffRole, type Permission, type Role, roleOf, type StaffRole } from "../lib/staff-roles.ts";
import { displayName } from "../lib/user-display.ts";

export type { Permission, Role, StaffRole };

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: Role;
  /** what the header shows (name, else the e-mail before the @) */
  displayName: string;
}

/** A loader's or action's context: the request's services (`servicesFrom`) come from it. */
type RequestContext = Readonly<RouterContextProvider>;

/**
 * The signed-in user of this request (from the session cookie, checked in the database by the
 * context's auth), or null.
 */
export async function getSessionUser(request: Request, context: RequestContext): Promise<SessionUser | null> {
  if (!request.headers.get("Cookie")?.includes("session_token")) return null;
  const { auth } = servicesFrom(context);
  const session = await auth.api.getSession({ headers: request.headers }).catch(() => null);
  if (!session) return null;
  const { user } = session;
  const role = roleOf((user as { role?: string | null }).role);
  return { id: user.id, name: user.name, email: user.email, role, displayName: displayName(user) };
}

/** The signed-in user, or a redirect to /account that comes back here after signing in. */
export async function requireUser(request: Request, context: RequestContext): Promise<SessionUser> {
  const user = await getSessionUser(request, context);
  if (user) return user;
  throw redirect(signInPath(pagePath(request)));
}

/** Thrown (as a Response) when a signed-in user without the admin role asks for an admin page. */
export const FORBIDDEN_STATUS = 403;

export type StaffUser = SessionUser & { role: StaffRole };

/**
 * The signed-in staff member (owner, admin or staff). Signed out → redirect to /account and back
 * here after signing in; signed in as a customer → a thrown 403 response (the error boundary shows
 * the 403 page). The admin area's frame asks this; its pages ask `requirePermission`.
 */
export async function requireStaff(request: Request, context: RequestContext): Promise<StaffUser> {
  const user = await requireUser(request, context);
  if (!isStaffRole(user.role)) {
    throw data("You do not have access to this page.", { status: FORBIDDEN_STATUS });
  }
  return user as StaffUser;
}

/**
 * The signed-in staff member whose role has `permission` (lib/staff-roles.ts), else as
 * `requireStaff` refuses, and a 403 for staff whose role lacks it. Every admin loader and action
 * calls this before touching any data.
 */
export async function requirePermission(
  request: Request,
  context: RequestContext,
  permission: Permission,
): Promise<StaffUser> {
  const user = await requireStaff(request, context);
  assertPermission(user, permission);
  return user;
}

/** A 403 when this staff member's role lacks `permission` (an action with a stricter part). */
export function assertPermission(user: StaffUser, permission: Permission): void {
  if (!can(user.role, permission)) {
    throw data("Your role does not allow this.", { status: FORBIDDEN_STATUS });
  }
}

/** The request's auth session (its cookie), for domain functions that act as the signed-in user. */
export function authSessionOf(request: Request): AuthSession {
  return authSessionFromHeaders(request.headers);
}

/** Appends Set-Cookie lines (a session cookie from the domain's outcome) to response headers. */
export function appendCookies(headers: Headers, cookies: readonly string[]): Headers {
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return headers;
}
