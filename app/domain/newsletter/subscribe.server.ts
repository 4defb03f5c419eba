import { z } from "zod";
import type { Database } from "../../db/database.server.ts";

export const NEWSLETTER_MESSAGES = {
  subscribed: "Thanks for subscribing! Watch your inbox for our best deals.",
  alreadySubscribed: "You're already subscribed to our newsletter.",
  invalidEmail: "Please enter a valid e-mail address.",
  tooMany: (minutes: number) =>
    `Too many sign-ups from your connection. Please wait ${minutes} ${minutes === 1 ? "minute" : "minutes"} and try again.`,
} as const;

/** Sign-ups per visitor address per hour (shared by all app processes through the database). */
export const NEWSLETTER_RATE_LIMIT = { limit: 30, windowMs: 60 * 60_000 };

/** The sign-up form (footer, /newsletter): the address, and the page to go back to. */
export const newsletterSchema = z.object({
  redirectTo: z.string().optional(),
  email: z
    .string({ error: NEWSLETTER_MESSAGES.invalidEmail })
    .trim()
    .toLowerCase()
    .max(254, NEWSLETTER_MESSAGES.invalidEmail)
    .pipe(z.email({ error: NEWSLETTER_MESSAGES.invalidEmail })),
});

/** One row per e-mail address (stored lower-cased); a repeat is reported, not an error. */
export async function subscribeToNewsletter(
  db: Database,
  email: string,
  now: Date = new Date(),
): Promise<"subscribed" | "already-subscribed"> {
  const inserted = await db
    .insertInto("newsletterSubscribers")
    .values({ email: email.trim().toLowerCase(), createdAt: now.toISOString() })
    .onConflict((oc) => oc.column("email").doNothing())
    .returning("id")
    .executeTakeFirst();
  return inserted ? "subscribed" : "already-subscribed";
}
