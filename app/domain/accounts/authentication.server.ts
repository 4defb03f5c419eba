import { z } from "zod";
import type { Auth } from "../../adapters/auth/auth.server.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../adapters/auth/auth.server.ts";
import { type AuthSession, authHeaders, sessionCookiesOf } from "../../adapters/auth/auth-session.ts";
import type { Database } from "../../db/database.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { claimGuestCart } from "../cart/cart-owner.server.ts";
import { takePendingWishlist } from "../wishlist/pending-wishlist.ts";
import { addToWishlist, WISHLIST_MESSAGES } from "../wishlist/wishlist.server.ts";
import { isAccountDisabled } from "./customers.server.ts";
import {
  countSignInAttempt,
  type KnownDevice,
  knownDeviceFor,
  type SignInClient,
} from "./sign-in-limits.server.ts";

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
  accountDisabled: "This account has been disabled. Please contact us if you think this is a mistake.",
} as const;

export { type KnownDevice, SIGN_IN_LIMITS } from "./sign-in-limits.server.ts";

const EMAIL_INVALID = "Invalid email address";
const email = z
  .string(EMAIL_INVALID)
  .trim()
  .toLowerCase()
  .pipe(z.email(EMAIL_INVALID))
  .pipe(z.string().max(254));

export const signInSchema = z.object({
  intent: z.literal("sign-in"),
  email,
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  redirectTo: z.string().optional(),
});

export const registerSchema = z.object({
  intent: z.literal("register"),
  name: z
    .string("Enter your name.")
    .trim()
    .min(1, "Enter your name.")
    .max(100, "Your name can be at most 100 characters."),
  email,
  password: z
    .string(AUTH_MESSAGES.passwordHint)
    .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordHint)
    .max(PASSWORD_MAX_LENGTH, `Password can be at most ${PASSWORD_MAX_LENGTH} characters.`),
  redirectTo: z.string().optional(),
});

/** POST /account: the sign-in form, the register form, or the Sign Out button. */
export const accountFormSchema = z.discriminatedUnion("intent", [
  signInSchema,
  registerSchema,
  z.object({ intent: z.literal("sign-out") }),
]);

export type SignInInput = Pick<z.output<typeof signInSchema>, "email" | "password">;
export type RegisterInput = Pick<z.output<typeof registerSchema>, "name" | "email" | "password">;

/**
 * A signed-in (or registered and signed-in) account, the cookies of its new session, and what the
 * browser's device cookie holds from now on (sign-in-limits.server.ts).
 */
export interface SignedIn {
  userId: string;
  sessionCookies: string[];
  device: KnownDevice;
}

export type AuthError =
  /** wrong e-mail or password (the same for an unknown e-mail), or a refused registration */
  | { code: "refused"; message: string }
  /** too many sign-in attempts (sign-in-limits.server.ts) */
  | { code: "rate-limited"; message: string; retryAfterSeconds: number };

/**
 * E-mail + password sign-in. Attempts are counted before any password is checked — per e-mail and
 * address, per address and per e-mail for an unknown browser, on its own for a browser whose
 * device cookie proves it signed in to this account before (sign-in-limits.server.ts), so a
 * stranger's failures cannot lock the owner out; an unknown e-mail and a wrong password get the
 * same answer.
 */
export async function signIn(
  deps: { auth: Auth; db: Database },
  { email: address, password }: SignInInput,
  client: SignInClient & { session: AuthSession },
): Promise<Result<SignedIn, AuthError>> {
  const attempt = await countSignInAttempt(deps.db, address, client);
  if (!attempt.allowed) {
    return fail({
      code: "rate-limited",
      message: AUTH_MESSAGES.tooManyAttempts(Math.ceil(attempt.retryAfterSeconds / 60)),
      retryAfterSeconds: attempt.retryAfterSeconds,
    });
  }
  try {
    const { headers, response } = await deps.auth.api.signInEmail({
      body: { email: address, password, rememberMe: true },
      headers: authHeaders(client.session),
      returnHeaders: true,
    });
    await attempt.succeeded();
    // a disabled account (customers page): told so only once the password was right; the session
    // just made is ended before anyone holds it
    if (await isAccountDisabled(deps.db, response.user.id)) {
      await deps.db.deleteFrom("sessions").where("token", "=", response.token).execute();
      return fail({ code: "refused", message: AUTH_MESSAGES.accountDisabled });
    }
    return ok({
      userId: response.user.id,
      sessionCookies: sessionCookiesOf(headers),
      device: knownDeviceFor(address),
    });
  } catch {
    return fail({ code: "refused", message: AUTH_MESSAGES.signInFailed });
  }
}

/** Registration: the role is never taken from the form (Better Auth field with `input: false`). */
export async function register(
  deps: { auth: Auth },
  { name, email: address, password }: RegisterInput,
  session: AuthSession,
): Promise<Result<SignedIn, AuthError>> {
  try {
    const { headers, response } = await deps.auth.api.signUpEmail({
      body: { name, email: address, password },
      headers: authHeaders(session),
      returnHeaders: true,
    });
    return ok({
      userId: response.user.id,
      sessionCookies: sessionCookiesOf(headers),
      device: knownDeviceFor(address),
    });
  } catch {
    return fail({ code: "refused", message: AUTH_MESSAGES.registerFailed });
  }
}

/** Ends the session; the cookies clear it in the browser. */
export async function signOut(
  deps: { auth: Auth },
  session: AuthSession,
): Promise<Result<{ sessionCookies: string[] }, { code: "failed"; message: string }>> {
  try {
    const { headers } = await deps.auth.api.signOut({ headers: authHeaders(session), returnHeaders: true });
    return ok({ sessionCookies: sessionCookiesOf(headers) });
  } catch {
    return fail({ code: "failed", message: AUTH_MESSAGES.signOutFailed });
  }
}

export type EnterAccountInput =
  | { intent: "sign-in"; fields: SignInInput }
  | { intent: "register"; fields: RegisterInput };

/**
 * Where to go after signing in, the success message for the toast, the new session's cookies and
 * the device cookie's value.
 */
export interface EnteredAccount extends SignedIn {
  to: string;
  message: string;
}

/**
 * The sign-in (or register) workflow of /account: signs in, joins this browser's guest cart into
 * the account's (found by the account from now on), saves the product the visitor wanted to save
 * before signing in (pending-wishlist.ts, carried in `redirectTo`), and says where to go and what
 * to tell them. The route sets the cookies (the device cookie too), clears the guest cart cookie
 * and shows the message.
 */
export async function enterAccount(
  deps: { auth: Auth; db: Database },
  input: EnterAccountInput,
  client: SignInClient & { session: AuthSession; guestCartId: string | null; redirectTo: string },
): Promise<Result<EnteredAccount, AuthError>> {
  const signedIn =
    input.intent === "sign-in"
      ? await signIn(deps, input.fields, client)
      : await register(deps, input.fields, client.session);
  if (!signedIn.ok) return signedIn;
  const { userId } = signedIn.value;
  await claimGuestCart(deps.db, { userId, guestCartId: client.guestCartId });
  const { to, productId } = takePendingWishlist(client.redirectTo);
  const saved = productId === null ? null : await addToWishlist(deps.db, userId, productId);
  const message = saved?.ok
    ? WISHLIST_MESSAGES.added(saved.value.product.name)
    : input.intent === "sign-in"
      ? AUTH_MESSAGES.signedIn
      : AUTH_MESSAGES.registered;
  return ok({ ...signedIn.value, to, message });
}
