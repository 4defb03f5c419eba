/**
 * Who is asking, as Better Auth needs it: the request's cookie (the session) and client headers.
 * Opaque outside app/adapters/auth — the HTTP layer makes one from a request (`authSessionOf` in
 * app/http/session.server.ts), the domain only passes it on to `auth.api` calls through
 * `authHeaders`, so no domain signature takes a Request or Headers.
 */
declare const authSessionBrand: unique symbol;
export type AuthSession = { readonly [authSessionBrand]: true };

/** The session of a request's headers (a copy: later changes to them do not leak in). */
export function authSessionFromHeaders(headers: Headers): AuthSession {
  return new Headers(headers) as unknown as AuthSession;
}

/** The headers to hand to `auth.api.*` for this session. */
export function authHeaders(session: AuthSession): Headers {
  return session as unknown as Headers;
}

/**
 * The Set-Cookie lines Better Auth answered with (a new or refreshed session cookie, or its
 * removal), for the route to send to the browser.
 */
export function sessionCookiesOf(headers: Headers): string[] {
  return headers.getSetCookie();
}
