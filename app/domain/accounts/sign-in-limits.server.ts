import { createHash, randomUUID } from "node:crypto";
import type { Database } from "../../db/database.server.ts";
import {
  hitRateLimit,
  type RateLimitRule,
  resetRateLimit,
  resetRateLimitsByPrefix,
} from "../../infra/rate-limit.server.ts";

/**
 * How sign-in attempts are limited without letting a stranger lock an owner out (decision 023,
 * OWASP's "device cookie" approach), counted in the database so every app process shares them:
 * - an untrusted client: 5 attempts per e-mail from one address (a success there clears it), 20
 *   from one address whatever the e-mail, and 50 an hour per e-mail from all untrusted clients
 *   together (a guess spread over many addresses);
 * - a browser that signed in to this account before (its device cookie names the account) is
 *   counted on its own, 10 per 15 minutes (a success clears it), and none of the others stop it.
 * A password reset clears the e-mail's counters.
 */
export const SIGN_IN_LIMITS = {
  perEmailAndAddress: { limit: 5, windowMs: 15 * 60_000 },
  perAddress: { limit: 20, windowMs: 15 * 60_000 },
  perEmailUntrusted: { limit: 50, windowMs: 60 * 60_000 },
  perKnownDevice: { limit: 10, windowMs: 15 * 60_000 },
} as const satisfies Record<string, RateLimitRule>;

import type { KnownDevice } from "../../lib/known-device.ts";

export type { KnownDevice };

/** The account an e-mail names, as counters and device cookies name it (no address in either). */
export function accountKeyOf(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
}

/** What a browser that just signed in to `email` carries from now on. */
export function knownDeviceFor(email: string): KnownDevice {
  return { account: accountKeyOf(email), id: randomUUID() };
}

export interface SignInClient {
  ip: string;
  /** the device cookie this browser carries, verified, or null */
  device: KnownDevice | null;
}

type Counter = readonly [key: string, rule: RateLimitRule];

/** The counters an attempt goes through, in order (a refused attempt counts in no later one). */
function countersFor(
  email: string,
  { ip, device }: SignInClient,
): {
  counters: Counter[];
  /** cleared when the password was right */
  clearedOnSuccess: string[];
} {
  const account = accountKeyOf(email);
  if (device?.account === account) {
    const deviceKey = `sign-in:${account}:device:${device.id}`;
    return { counters: [[deviceKey, SIGN_IN_LIMITS.perKnownDevice]], clearedOnSuccess: [deviceKey] };
  }
  const pairKey = `sign-in:${account}:ip:${ip}`;
  return {
    counters: [
      [`sign-in:ip:${ip}`, SIGN_IN_LIMITS.perAddress],
      [pairKey, SIGN_IN_LIMITS.perEmailAndAddress],
      // not cleared by a success: a botnet's next 50 guesses are not the owner's to grant
      [`sign-in:${account}:untrusted`, SIGN_IN_LIMITS.perEmailUntrusted],
    ],
    clearedOnSuccess: [pairKey],
  };
}

export type SignInAttempt =
  | { allowed: true; succeeded: () => Promise<void> }
  | { allowed: false; retryAfterSeconds: number };

/**
 * Counts an attempt to sign in to `email` before its password is checked (so simultaneous
 * attempts are all counted); `succeeded` clears what a right password clears.
 */
export async function countSignInAttempt(
  db: Database,
  email: string,
  client: SignInClient,
): Promise<SignInAttempt> {
  const { counters, clearedOnSuccess } = countersFor(email, client);
  for (const [key, rule] of counters) {
    const limited = await hitRateLimit(db, key, rule);
    if (!limited.allowed) return { allowed: false, retryAfterSeconds: limited.retryAfterSeconds };
  }
  return {
    allowed: true,
    succeeded: async () => {
      for (const key of clearedOnSuccess) await resetRateLimit(db, key);
    },
  };
}

/** Forgets every count for this e-mail (its owner proved they hold the address: a password reset). */
export async function clearSignInLimits(db: Database, email: string): Promise<void> {
  await resetRateLimitsByPrefix(db, `sign-in:${accountKeyOf(email)}:`);
}
