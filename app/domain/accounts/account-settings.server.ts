import { z } from "zod";
import type { Auth } from "../../adapters/auth/auth.server.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../adapters/auth/auth.server.ts";
import { type AuthSession, authHeaders, sessionCookiesOf } from "../../adapters/auth/auth-session.ts";
import type { Database } from "../../db/database.server.ts";
import { hitRateLimit, resetRateLimit } from "../../infra/rate-limit.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";

export const SETTINGS_MESSAGES = {
  nameChanged: "Your name has been updated.",
  emailChanged: "Your e-mail address has been updated.",
  /** the same answer whether or not another account has the address (nothing tells them apart) */
  emailLinkSent: (email: string) =>
    `Check your inbox at ${email} and open the link we sent within an hour to confirm the change. Until then, your e-mail address stays as it is.`,
  emailLinkInvalid: "This link is invalid or has expired. Please ask for a new one in your account settings.",
  emailLinkOtherAccount: "This link is for another account. Sign out, then open the link again.",
  emailLinkTaken:
    "This e-mail address now belongs to another account, so it can't be used. Please choose another one in your account settings.",
  tooManyEmailChanges: (minutes: number) =>
    `Too many e-mail changes asked for. Please wait ${minutes} ${minutes === 1 ? "minute" : "minutes"} and try again.`,
  passwordChanged: "Your password has been changed. You have been signed out everywhere else.",
  invalid: "Please correct the highlighted fields.",
  nameRequired: "Enter your name.",
  nameTooLong: "Your name can be at most 100 characters.",
  emailInvalid: "Enter a valid e-mail address, like name@example.com.",
  emailSame: "That is already your e-mail address.",
  currentPasswordRequired: "Enter your current password.",
  currentPasswordWrong: "Your current password is not correct.",
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
  passwordTooLong: `Password can be at most ${PASSWORD_MAX_LENGTH} characters.`,
  passwordMismatch: "The two new passwords do not match.",
  tooManyAttempts: (minutes: number) =>
    `Too many wrong passwords. Please wait ${minutes} ${minutes === 1 ? "minute" : "minutes"} and try again.`,
} as const;

/** Current-password checks per user and 15 minutes (a stolen session must not become a password oracle). */
export const PASSWORD_CHECK_LIMIT = { limit: 10, windowMs: 15 * 60_000 } as const;

/** Links to confirm a new e-mail address per user and hour (each one is an e-mail to any address). */
export const EMAIL_CHANGE_LIMIT = { limit: 5, windowMs: 60 * 60_000 } as const;

/**
 * A refusal of a settings form the domain makes after the form's own rules passed: which field it
 * concerns and what to say (above the form and beside that field).
 */
export type SettingsError = {
  code:
    | "same-email"
    | "wrong-password"
    | "too-many-attempts"
    | "too-many-links"
    | "password-too-short"
    | "password-too-long";
  field: "newEmail" | "currentPassword" | "newPassword";
  message: string;
};

/** A new or refreshed session cookie for this browser (Set-Cookie lines), for the route to send. */
export interface SessionRefreshed {
  sessionCookies: string[];
}

/** The change-name form (settings and edit profile). */
export const nameSchema = z.object({
  intent: z.literal("name"),
  name: z
    .string(SETTINGS_MESSAGES.nameRequired)
    .trim()
    .min(1, SETTINGS_MESSAGES.nameRequired)
    .max(100, SETTINGS_MESSAGES.nameTooLong)
    .transform((name) => name.replace(/\s+/g, " ")),
});

const currentPassword = z
  .string(SETTINGS_MESSAGES.currentPasswordRequired)
  .min(1, SETTINGS_MESSAGES.currentPasswordRequired)
  .max(PASSWORD_MAX_LENGTH, SETTINGS_MESSAGES.currentPasswordWrong);

/** The change-e-mail form. */
export const emailChangeSchema = z.object({
  intent: z.literal("email"),
  newEmail: z
    .string(SETTINGS_MESSAGES.emailInvalid)
    .trim()
    .toLowerCase()
    .pipe(z.email(SETTINGS_MESSAGES.emailInvalid))
    .pipe(z.string().max(254, SETTINGS_MESSAGES.emailInvalid)),
  currentPassword,
});

/** The change-password form. */
export const passwordChangeSchema = z
  .object({
    intent: z.literal("password"),
    currentPassword,
    newPassword: z
      .string(SETTINGS_MESSAGES.passwordTooShort)
      .min(PASSWORD_MIN_LENGTH, SETTINGS_MESSAGES.passwordTooShort)
      .max(PASSWORD_MAX_LENGTH, SETTINGS_MESSAGES.passwordTooLong),
    confirmPassword: z.string().optional(),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    path: ["confirmPassword"],
    message: SETTINGS_MESSAGES.passwordMismatch,
  });

/** POST /account/confirm-email: the link's token (longer ones are refused as invalid). */
export const confirmEmailSchema = z.object({ token: z.string().max(2_000) });

/** POST /account/settings: one of its three forms, told apart by `intent`. */
export const settingsFormSchema = z.discriminatedUnion("intent", [
  nameSchema,
  emailChangeSchema,
  passwordChangeSchema,
]);

function wrongPassword(): { ok: false; error: SettingsError } {
  return fail({
    code: "wrong-password",
    field: "currentPassword",
    message: SETTINGS_MESSAGES.currentPasswordWrong,
  });
}

/** Better Auth's error code ("INVALID_PASSWORD", …) of a refused API call, if it has one. */
function errorCode(error: unknown): string | undefined {
  const body = (error as { body?: { code?: unknown } } | null)?.body;
  return typeof body?.code === "string" ? body.code : undefined;
}

/** Counts one current-password check; a refusal when the user has used up the window. */
async function limitPasswordChecks(
  db: Database,
  userId: string,
): Promise<{ ok: false; error: SettingsError } | null> {
  const result = await hitRateLimit(db, `password-check:${userId}`, PASSWORD_CHECK_LIMIT);
  if (result.allowed) return null;
  const message = SETTINGS_MESSAGES.tooManyAttempts(Math.ceil(result.retryAfterSeconds / 60));
  return fail({ code: "too-many-attempts", field: "currentPassword", message });
}

/** Changes the signed-in user's name (Better Auth refreshes the session cookie it returns). */
export async function changeName(
  deps: { auth: Auth },
  session: AuthSession,
  { name }: { name: string },
): Promise<SessionRefreshed> {
  const { headers } = await deps.auth.api.updateUser({
    body: { name },
    headers: authHeaders(session),
    returnHeaders: true,
  });
  return { sessionCookies: sessionCookiesOf(headers) };
}

/**
 * Asks to change the signed-in user's e-mail (current password checked, rate limited per user):
 * Better Auth's change-email flow sends a link to the new address, and nothing changes until it
 * is opened (/account/confirm-email). The answer is the same whether another account has the
 * address or not — Better Auth then sends nothing — so this form tells no one who has an account.
 */
export async function changeEmail(
  deps: { auth: Auth; db: Database },
  session: AuthSession,
  user: { id: string; email: string },
  { newEmail, currentPassword: password }: { newEmail: string; currentPassword: string },
): Promise<Result<{ pendingEmail: string }, SettingsError>> {
  if (newEmail === user.email.toLowerCase()) {
    return fail({ code: "same-email", field: "newEmail", message: SETTINGS_MESSAGES.emailSame });
  }
  const limited = await limitPasswordChecks(deps.db, user.id);
  if (limited) return limited;
  try {
    await deps.auth.api.verifyPassword({ body: { password }, headers: authHeaders(session) });
  } catch (error) {
    const code = errorCode(error);
    if (code === "INVALID_PASSWORD" || code === "PASSWORD_TOO_LONG") return wrongPassword();
    throw error;
  }
  await resetRateLimit(deps.db, `password-check:${user.id}`);
  const links = await hitRateLimit(deps.db, `email-change:${user.id}`, EMAIL_CHANGE_LIMIT);
  if (!links.allowed) {
    const message = SETTINGS_MESSAGES.tooManyEmailChanges(Math.ceil(links.retryAfterSeconds / 60));
    return fail({ code: "too-many-links", field: "newEmail", message });
  }
  await deps.auth.api.changeEmail({ body: { newEmail }, headers: authHeaders(session) });
  return ok({ pendingEmail: newEmail });
}

/**
 * Changes the signed-in user's password (current password checked by Better Auth) and ends all
 * their other sessions; the cookies are this browser's new session.
 */
export async function changePassword(
  deps: { auth: Auth; db: Database },
  session: AuthSession,
  userId: string,
  passwords: { currentPassword: string; newPassword: string },
): Promise<Result<SessionRefreshed, SettingsError>> {
  const limited = await limitPasswordChecks(deps.db, userId);
  if (limited) return limited;
  try {
    const { headers } = await deps.auth.api.changePassword({
      body: { ...passwords, revokeOtherSessions: true },
      headers: authHeaders(session),
      returnHeaders: true,
    });
    await resetRateLimit(deps.db, `password-check:${userId}`);
    return ok({ sessionCookies: sessionCookiesOf(headers) });
  } catch (error) {
    const code = errorCode(error);
    if (code === "INVALID_PASSWORD") return wrongPassword();
    if (code === "PASSWORD_TOO_SHORT") {
      return fail({
        code: "password-too-short",
        field: "newPassword",
        message: SETTINGS_MESSAGES.passwordTooShort,
      });
    }
    if (code === "PASSWORD_TOO_LONG") {
      return fail({
        code: "password-too-long",
        field: "newPassword",
        message: SETTINGS_MESSAGES.passwordTooLong,
      });
    }
    throw error;
  }
}
