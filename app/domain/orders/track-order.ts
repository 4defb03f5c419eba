/** /orders/track: its messages and its rate limit. */

export const TRACK_MESSAGES = {
  notFound:
    "We couldn't find an order with that order number and e-mail address. Please check both and try again.",
  missing: "Please enter your order number and the e-mail address used for the order.",
  tooMany: (minutes: number) =>
    `Too many attempts. Please wait ${minutes} ${minutes === 1 ? "minute" : "minutes"} and try again.`,
} as const;

/** Lookups per visitor address per 15 minutes (shared by all app processes through the database). */
export const TRACK_RATE_LIMIT = { limit: 10, windowMs: 15 * 60_000 };
