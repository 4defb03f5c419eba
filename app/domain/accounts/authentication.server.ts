import { z } from "zod";
import type { Auth } from "../../adapters/auth/auth.server.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../adapters/auth/auth.server.ts";
import type { Database } from "../../db/database.server.ts";
import { hitRateLimit, resetRateLimit } from "../../infra/rate-limit.server.ts";

/** Spec §8 texts, word for word, plus the ones the spec leaves open. */
export const AUTH_MESSAGES = {
  signedIn: "Successfully logged in!",
  signInFailed: "Failed to login. Please check your credentials.",
  registered: "Account created successfully!",
  registerFailed: "Failed to create account. Please try again.",
  signedOut: "Successfully logged out!",
  signOutFailed: "Failed to logout. Please try again.",
  tooManyAttempts: (minutes: number) =>
    `Too many sign-in attempts. Please wait ${minutes} ${minutes === 1 ? "minute" : "minutes"} and try again.`,
  passwordHint: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
} as const;

/**
 * Sign-in attempts per e-mail (a success clears its count) and per client address, per 15
 * minutes, counted in the database so every app process shares them.
 */
export const SIGN_IN_LIMITS = {
  perEmail: { limit: 5, windowMs: 15 * 60_000 },
  perAddress: { limit: 20, windowMs: 15 * 60_000 },
} as const;

const email = z.string().trim().toLowerCase().pipe(z.email()).pipe(z.string().max(254));

export const signInSchema = z.object({
  email,
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
});

export const registerSchema = z.object({
  name: z.string().trim().min(1, "Enter your name.").max(100, "Your name can be at most 100 characters."),
  email,
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordHint)
    .max(PASSWORD_MAX_LENGTH, `Password can be at most ${PASSWORD_MAX_LENGTH} characters.`),
});

export type AuthOutcome =
  | { ok: true; userId: string; headers: Headers }
  | { ok: false; status: 400 | 401 | 429; message: string; fieldErrors?: Record<string, string> };

function fieldsOf(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string" && !(name in fields)) fields[name] = value;
  return fields;
}

function firstErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    errors[key] ??= issue.message;
  }
  return errors;
}

/**
 * E-mail + password sign-in. Attempts are limited per e-mail and per address before any
 * password is checked; an unknown e-mail and a wrong password get the same answer.
 */
export async function signIn(
  deps: { auth: Auth; db: Database },
  form: FormData,
  request: Request,
  clientIp: string,
): Promise<AuthOutcome> {
  const parsed = signInSchema.safeParse(fieldsOf(form));
  if (!parsed.success) return { ok: false, status: 400, message: AUTH_MESSAGES.signInFailed };
  const { email: address, password } = parsed.data;
  const emailKey = `sign-in:email:${address}`;
  for (const [key, rule] of [
    [emailKey, SIGN_IN_LIMITS.perEmail],
    [`sign-in:ip:${clientIp}`, SIGN_IN_LIMITS.perAddress],
  ] as const) {
    const limited = await hitRateLimit(deps.db, key, rule);
    if (!limited.allowed) {
      return {
        ok: false,
        status: 429,
        message: AUTH_MESSAGES.tooManyAttempts(Math.ceil(limited.retryAfterSeconds / 60)),
      };
    }
  }
  try {
    const { headers, response } = await deps.auth.api.signInEmail({
      body: { email: address, password, rememberMe: true },
      headers: request.headers,
      returnHeaders: true,
    });
    await resetRateLimit(deps.db, emailKey);
    return { ok: true, userId: response.user.id, headers };
  } catch {
    return { ok: false, status: 401, message: AUTH_MESSAGES.signInFailed };
  }
}

/** Registration: the role is never taken from the form (Better Auth field with `input: false`). */
export async function register(deps: { auth: Auth }, form: FormData, request: Request): Promise<AuthOutcome> {
  const parsed = registerSchema.safeParse(fieldsOf(form));
  if (!parsed.success) {
    return {
      ok: false,
      status: 400,
      message: AUTH_MESSAGES.registerFailed,
      fieldErrors: firstErrors(parsed.error),
    };
  }
  try {
    const { headers, response } = await deps.auth.api.signUpEmail({
      body: parsed.data,
      headers: request.headers,
      returnHeaders: true,
    });
    return { ok: true, userId: response.user.id, headers };
  } catch {
    return { ok: false, status: 400, message: AUTH_MESSAGES.registerFailed };
  }
}

export async function signOut(deps: { auth: Auth }, request: Request): Promise<Headers | null> {
  try {
    const { headers } = await deps.auth.api.signOut({ headers: request.headers, returnHeaders: true });
    return headers;
  } catch {
    return null;
  }
}
