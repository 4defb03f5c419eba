import { z } from "zod";
import type { Auth } from "../../adapters/auth/auth.server.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../adapters/auth/auth.server.ts";
import type { Database } from "../../db/database.server.ts";
import { hitRateLimit, resetRateLimit } from "../../infra/rate-limit.server.ts";

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

/** A refused settings form: the message above it and the messages beside its fields. */
export type SettingsRefusal = {
  ok: false;
  status: 400 | 429;
  message: string;
  fieldErrors: Record<string, string>;
};

export type SettingsOutcome = { ok: true; headers: Headers } | SettingsRefusal;

export type EmailChangeOutcome =
  /** a link went to the new address — or, if another account has it, nothing did: the same answer */
  { ok: true; pendingEmail: string } | SettingsRefusal;

const nameSchema = z.object({
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

const emailSchema = z.object({
  newEmail: z
    .string(SETTINGS_MESSAGES.emailInvalid)
    .trim()
    .toLowerCase()
    .pipe(z.email(SETTINGS_MESSAGES.emailInvalid))
    .pipe(z.string().max(254, SETTINGS_MESSAGES.emailInvalid)),
  currentPassword,
});

const passwordSchema = z
  .object({
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

function fieldsOf(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string" && !(name in fields)) fields[name] = value;
  return fields;
}

function invalid(error: z.ZodError): SettingsRefusal {
  const fieldErrors: Record<string, string> = {};
  for (const issue of error.issues) fieldErrors[String(issue.path[0] ?? "form")] ??= issue.message;
  return { ok: false, status: 400, message: SETTINGS_MESSAGES.invalid, fieldErrors };
}

function wrongPassword(): SettingsRefusal {
  return {
    ok: false,
    status: 400,
    message: SETTINGS_MESSAGES.currentPasswordWrong,
    fieldErrors: { currentPassword: SETTINGS_MESSAGES.currentPasswordWrong },
  };
}

/** Better Auth's error code ("INVALID_PASSWORD", …) of a refused API call, if it has one. */
function errorCode(error: unknown): string | undefined {
  const body = (error as { body?: { code?: unknown } } | null)?.body;
  return typeof body?.code === "string" ? body.code : undefined;
}

/** Counts one current-password check; a refusal when the user has used up the window. */
async function limitPasswordChecks(db: Database, userId: string): Promise<SettingsRefusal | null> {
  const result = await hitRateLimit(db, `password-check:${userId}`, PASSWORD_CHECK_LIMIT);
  if (result.allowed) return null;
  const message = SETTINGS_MESSAGES.tooManyAttempts(Math.ceil(result.retryAfterSeconds / 60));
  return { ok: false, status: 429, message, fieldErrors: { currentPassword: message } };
}

/** Changes the signed-in user's name (Better Auth refreshes the session cookie it returns). */
export async function changeName(
  deps: { auth: Auth },
  request: Request,
  form: FormData,
): Promise<SettingsOutcome> {
  const parsed = nameSchema.safeParse(fieldsOf(form));
  if (!parsed.success) return invalid(parsed.error);
  const { headers } = await deps.auth.api.updateUser({
    body: { name: parsed.data.name },
    headers: request.headers,
    returnHeaders: true,
  });
  return { ok: true, headers };
}

/**
 * Asks to change the signed-in user's e-mail (current password checked, rate limited per user):
 * Better Auth's change-email flow sends a link to the new address, and nothing changes until it
 * is opened (/account/confirm-email). The answer is the same whether another account has the
 * address or not — Better Auth then sends nothing — so this form tells no one who has an account.
 */
export async function changeEmail(
  deps: { auth: Auth; db: Database },
  request: Request,
  user: { id: string; email: string },
  form: FormData,
): Promise<EmailChangeOutcome> {
  const parsed = emailSchema.safeParse(fieldsOf(form));
  if (!parsed.success) return invalid(parsed.error);
  const { newEmail, currentPassword: password } = parsed.data;
  if (newEmail === user.email.toLowerCase()) {
    return {
      ok: false,
      status: 400,
      message: SETTINGS_MESSAGES.emailSame,
      fieldErrors: { newEmail: SETTINGS_MESSAGES.emailSame },
    };
  }
  const limited = await limitPasswordChecks(deps.db, user.id);
  if (limited) return limited;
  try {
    await deps.auth.api.verifyPassword({ body: { password }, headers: request.headers });
  } catch (error) {
    const code = errorCode(error);
    if (code === "INVALID_PASSWORD" || code === "PASSWORD_TOO_LONG") return wrongPassword();
    throw error;
  }
  await resetRateLimit(deps.db, `password-check:${user.id}`);
  const links = await hitRateLimit(deps.db, `email-change:${user.id}`, EMAIL_CHANGE_LIMIT);
  if (!links.allowed) {
    const message = SETTINGS_MESSAGES.tooManyEmailChanges(Math.ceil(links.retryAfterSeconds / 60));
    return { ok: false, status: 429, message, fieldErrors: { newEmail: message } };
  }
  await deps.auth.api.changeEmail({ body: { newEmail }, headers: request.headers });
  return { ok: true, pendingEmail: newEmail };
}

/**
 * Changes the signed-in user's password (current password checked by Better Auth) and ends all
 * their other sessions; the returned headers carry the new session cookie for this browser.
 */
export async function changePassword(
  deps: { auth: Auth; db: Database },
  request: Request,
  userId: string,
  form: FormData,
): Promise<SettingsOutcome> {
  const parsed = passwordSchema.safeParse(fieldsOf(form));
  if (!parsed.success) return invalid(parsed.error);
  const limited = await limitPasswordChecks(deps.db, userId);
  if (limited) return limited;
  try {
    const { headers } = await deps.auth.api.changePassword({
      body: {
        currentPassword: parsed.data.currentPassword,
        newPassword: parsed.data.newPassword,
        revokeOtherSessions: true,
      },
      headers: request.headers,
      returnHeaders: true,
    });
    await resetRateLimit(deps.db, `password-check:${userId}`);
    return { ok: true, headers };
  } catch (error) {
    const code = errorCode(error);
    if (code === "INVALID_PASSWORD") return wrongPassword();
    if (code === "PASSWORD_TOO_SHORT" || code === "PASSWORD_TOO_LONG") {
      const message =
        code === "PASSWORD_TOO_SHORT"
          ? SETTINGS_MESSAGES.passwordTooShort
          : SETTINGS_MESSAGES.passwordTooLong;
      return { ok: false, status: 400, message, fieldErrors: { newPassword: message } };
    }
    throw error;
  }
}
