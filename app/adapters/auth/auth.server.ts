import { betterAuth } from "better-auth";
import type { Database } from "../../db/database.server.ts";
import { engineOf } from "../../db/database.server.ts";

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const SESSION_DAYS = 30;

export interface AuthOptions {
  db: Database;
  secret: string;
  baseURL: string;
  shopName: string;
  /** sends the password-reset e-mail; `token` goes into our own /reset-password link */
  sendResetPassword: (data: { email: string; name: string; token: string }) => Promise<void>;
  /**
   * queues the e-mail that confirms a change of e-mail address, sent to the NEW address; `token`
   * goes into our own /account/confirm-email link. Must not wait for the send: the request's answer
   * and timing are the same whether the address is free (a link goes out) or taken (nothing does).
   * Without it, changing the e-mail is off.
   */
  sendEmailChangeLink?: (data: { newEmail: string; name: string; token: string }) => void;
}

/** How long the link that confirms a new e-mail address works. */
export const EMAIL_CHANGE_LINK_SECONDS = 60 * 60;

/**
 * Better Auth over the application's own Kysely instance (one connection pool, one SQLite
 * writer lock), e-mail + password only, sessions in the database. Route actions call
 * `auth.api.*` on the server; Better Auth's HTTP handler is not mounted.
 */
export function createAuth({
  db,
  secret,
  baseURL,
  shopName,
  sendResetPassword,
  sendEmailChangeLink,
}: AuthOptions) {
  return betterAuth({
    appName: shopName,
    baseURL,
    secret,
    database: { db, type: engineOf(db) === "postgres" ? "postgres" : "sqlite", transaction: true },
    user: {
      modelName: "users",
      additionalFields: {
        // Never settable from a sign-up form: `input: false`.
        role: { type: "string", required: false, defaultValue: "customer", input: false },
      },
      // A new e-mail address takes effect only once its owner opens the link sent to it
      // (`updateEmailWithoutVerification` stays off); Better Auth answers a taken address exactly
      // as a free one and sends it nothing.
      changeEmail: { enabled: sendEmailChangeLink !== undefined },
    },
    session: {
      modelName: "sessions",
      expiresIn: SESSION_DAYS * 24 * 60 * 60,
      updateAge: 24 * 60 * 60,
    },
    account: { modelName: "accounts" },
    verification: { modelName: "verifications" },
    // Used for the change-email link only: no verification mail on sign-up or sign-in.
    emailVerification: {
      sendOnSignUp: false,
      sendOnSignIn: false,
      expiresIn: EMAIL_CHANGE_LINK_SECONDS,
      sendVerificationEmail: sendEmailChangeLink
        ? async ({ user, token }) => sendEmailChangeLink({ newEmail: user.email, name: user.name, token })
        : undefined,
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      sendResetPassword: async ({ user, token }) => {
        await sendResetPassword({ email: user.email, name: user.name, token });
      },
    },
    // Sign-in attempts are limited by the route (per e-mail and per address, in the shared
    // database); Better Auth's own limiter only sees its HTTP handler, which is not mounted.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: "cw",
      useSecureCookies: baseURL.startsWith("https:"),
    },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;
