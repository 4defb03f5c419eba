/**
 * A browser that has signed in to an account (the value of its signed device cookie, which the
 * route reads and verifies: http/device-cookie.server.ts): the account it proved, and its own id,
 * under which it is counted (domain/accounts/sign-in-limits.server.ts, decision 023).
 */
export interface KnownDevice {
  /** `accountKeyOf(email)` of the account it signed in to */
  account: string;
  /** this browser's id, new at each sign-in */
  id: string;
}
