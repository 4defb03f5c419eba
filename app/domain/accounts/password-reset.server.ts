import { z } from "zod";
import type { Auth } from "../../adapters/auth/auth.server.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../adapters/auth/auth.server.ts";
import type { Database } from "../../db/database.server.ts";
import { hitRateLimit } from "../../infra/rate-limit.server.ts";
import { runAfterResponse } from "../../jobs/after-response.server.ts";
import { RESET_MESSAGES } from "./password-reset-messages.ts";

export { RESET_MESSAGES } from "./password-reset-messages.ts";

/** Requests per client address per 15 minutes (the answer never tells whether the e-mail exists). */
export const RESET_REQUEST_LIMIT = { limit: 5, windowMs: 15 * 60_000 };

export type ResetRequestResult = { ok: true } | { ok: false; status: 400 | 429; message: string };

/**
 * Forgot password: the same answer, after the same work (the address checked, the rate limit
 * counted), whether or not an account has this e-mail; the reset itself runs after the response.
 */
export async function requestPasswordReset(
  { auth, db }: { auth: Auth; db: Database },
  emailInput: unknown,
  clientIp: string,
): Promise<ResetRequestResult> {
  const email = z.string().trim().toLowerCase().pipe(z.email()).safeParse(emailInput);
  if (!email.success || email.data.length > 254)
    return { ok: false, status: 400, message: RESET_MESSAGES.invalidEmail };
  const limited = await hitRateLimit(db, `reset:ip:${clientIp}`, RESET_REQUEST_LIMIT);
  if (!limited.allowed) return { ok: false, status: 429, message: RESET_MESSAGES.tooMany };
  // Whether the account exists is looked up after the answer, for every address alike: the
  // token and the e-mail (existing accounts only) must not make this answer slower.
  const address = email.data;
  runAfterResponse("password-reset", () =>
    auth.api.requestPasswordReset({ body: { email: address, redirectTo: "/reset-password" } }),
  );
  return { ok: true };
}

export type ResetResult =
  | { ok: true }
  | { ok: false; message: string; field?: "password" | "confirmPassword" };

/** Sets the new password with a single-use token; all of the user's sessions end. */
export async function resetPassword(
  { auth }: { auth: Auth },
  { token, password, confirmPassword }: { token: unknown; password: unknown; confirmPassword: unknown },
): Promise<ResetResult> {
  if (typeof token !== "string" || token === "" || token.length > 500) {
    return { ok: false, message: RESET_MESSAGES.invalidLink };
  }
  if (typeof password !== "string" || password.length < PASSWORD_MIN_LENGTH) {
    return { ok: false, message: RESET_MESSAGES.length, field: "password" };
  }
  if (password.length > PASSWORD_MAX_LENGTH)
    return { ok: false, message: RESET_MESSAGES.tooLong, field: "password" };
  if (password !== confirmPassword)
    return { ok: false, message: RESET_MESSAGES.mismatch, field: "confirmPassword" };
  try {
    await auth.api.resetPassword({ body: { token, newPassword: password } });
    return { ok: true };
  } catch {
    return { ok: false, message: RESET_MESSAGES.invalidLink };
  }
}
