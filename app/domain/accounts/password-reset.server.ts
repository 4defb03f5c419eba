import { z } from "zod";
import type { Auth } from "../../adapters/auth/auth.server.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../adapters/auth/auth.server.ts";
import type { Database } from "../../db/database.server.ts";
import { hitRateLimit } from "../../infra/rate-limit.server.ts";
import { runAfterResponse } from "../../jobs/after-response.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { RESET_MESSAGES } from "./password-reset-messages.ts";
import { clearSignInLimits } from "./sign-in-limits.server.ts";

export { RESET_MESSAGES } from "./password-reset-messages.ts";

/** Requests per client address per 15 minutes (the answer never tells whether the e-mail exists). */
export const RESET_REQUEST_LIMIT = { limit: 5, windowMs: 15 * 60_000 };

const resetEmail = z
  .string(RESET_MESSAGES.invalidEmail)
  .trim()
  .toLowerCase()
  .pipe(z.email(RESET_MESSAGES.invalidEmail))
  .pipe(z.string().max(254, RESET_MESSAGES.invalidEmail));

/** The forgot-password form. */
export const forgotPasswordSchema = z.object({ email: resetEmail });

/**
 * Forgot password: the same answer, after the same work (the address checked by the form, the
 * rate limit counted), whether or not an account has this e-mail; the reset itself runs after the
 * response.
 */
export async function requestPasswordReset(
  { auth, db }: { auth: Auth; db: Database },
  { email }: { email: string },
  clientIp: string,
): Promise<Result<null, { code: "rate-limited"; message: string }>> {
  const limited = await hitRateLimit(db, `reset:ip:${clientIp}`, RESET_REQUEST_LIMIT);
  if (!limited.allowed) return fail({ code: "rate-limited", message: RESET_MESSAGES.tooMany });
  // Whether the account exists is looked up after the answer, for every address alike: the
  // token and the e-mail (existing accounts only) must not make this answer slower.
  runAfterResponse("password-reset", () =>
    auth.api.requestPasswordReset({ body: { email, redirectTo: "/reset-password" } }),
  );
  return ok(null);
}

/** The reset-password form: the link's token and the new password twice. */
export const resetPasswordSchema = z
  .object({
    token: z.string(RESET_MESSAGES.invalidLink).max(500, RESET_MESSAGES.invalidLink),
    password: z
      .string(RESET_MESSAGES.length)
      .min(PASSWORD_MIN_LENGTH, RESET_MESSAGES.length)
      .max(PASSWORD_MAX_LENGTH, RESET_MESSAGES.tooLong),
    confirmPassword: z.string().optional(),
  })
  .refine((value) => value.password === value.confirmPassword, {
    path: ["confirmPassword"],
    message: RESET_MESSAGES.mismatch,
  });

/**
 * Sets the new password with a single-use token; all of the user's sessions end, and the
 * account's sign-in counters are cleared (its owner proved they hold the e-mail address).
 */
export async function resetPassword(
  { auth, db }: { auth: Auth; db: Database },
  { token, password }: { token: string; password: string },
): Promise<Result<null, { code: "invalid-link"; message: string }>> {
  let userId: string | undefined;
  try {
    // whose link it is: Better Auth's reset token names the user
    const context = await auth.$context;
    userId = (await context.internalAdapter.findVerificationValue(`reset-password:${token}`))?.value;
    await auth.api.resetPassword({ body: { token, newPassword: password } });
  } catch {
    return fail({ code: "invalid-link", message: RESET_MESSAGES.invalidLink });
  }
  const user =
    userId === undefined
      ? undefined
      : await db.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst();
  if (user) await clearSignInLimits(db, user.email);
  return ok(null);
}
