import { z } from "zod";
import type { Database } from "../../db/database.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { lockUser } from "./user-lock.server.ts";

export const PAYMENT_METHOD_MESSAGES = {
  removed: "Payment method removed.",
} as const;

export interface SaveCardInput {
  userId: string;
  /** as the gateway names it, e.g. "Visa" */
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  cardholderName: string;
  /** the gateway's token (never card data) */
  gatewayToken: string;
}

/** A saved card as the account pages show it (never the gateway token). */
export interface SavedCardView {
  id: number;
  brand: string;
  last4: string;
  /** "MM/YY" */
  expiry: string;
  cardholderName: string;
  expired: boolean;
}

function checkCard(input: SaveCardInput): void {
  const problems: string[] = [];
  if (!/^\d{4}$/.test(input.last4)) problems.push("last4 must be four digits");
  if (!Number.isInteger(input.expMonth) || input.expMonth < 1 || input.expMonth > 12)
    problems.push("expMonth must be 1-12");
  if (!Number.isInteger(input.expYear) || input.expYear < 2000 || input.expYear > 2200)
    problems.push("expYear must be a four-digit year");
  if (input.brand.trim() === "" || input.brand.length > 40) problems.push("brand is required");
  if (input.gatewayToken === "") problems.push("gatewayToken is required");
  if (problems.length > 0) throw new TypeError(`saveCard: ${problems.join("; ")}`);
}

/**
 * Keeps a card the shopper chose to save at checkout (brand, last 4, expiry, name and the
 * gateway's token only). A card the user already has — same brand, last 4 and expiry — is not
 * saved twice. Returns the saved (or already saved) card's id and whether a row was added.
 */
export async function saveCard(
  db: Database,
  input: SaveCardInput,
  now: Date = new Date(),
): Promise<{ id: number; created: boolean }> {
  checkCard(input);
  const brand = input.brand.trim();
  const cardholderName = input.cardholderName.trim().replace(/\s+/g, " ").slice(0, 100);
  return db.transaction().execute(async (trx) => {
    if (!(await lockUser(trx, input.userId))) throw new Error("saveCard: unknown user");
    const existing = await trx
      .selectFrom("savedCards")
      .select("id")
      .where("userId", "=", input.userId)
      .where("brand", "=", brand)
      .where("last4", "=", input.last4)
      .where("expMonth", "=", input.expMonth)
      .where("expYear", "=", input.expYear)
      .executeTakeFirst();
    if (existing) return { id: existing.id, created: false };
    const row = await trx
      .insertInto("savedCards")
      .values({
        userId: input.userId,
        brand,
        last4: input.last4,
        expMonth: input.expMonth,
        expYear: input.expYear,
        cardholderName,
        gatewayToken: input.gatewayToken,
        createdAt: now.toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { id: row.id, created: true };
  });
}

/** "MM/YY" */
export function formatCardExpiry(month: number, year: number): string {
  return `${String(month).padStart(2, "0")}/${String(year % 100).padStart(2, "0")}`;
}

/** The user's saved cards, newest first, ready to show. */
export async function listSavedCards(
  db: Database,
  userId: string,
  now: Date = new Date(),
): Promise<SavedCardView[]> {
  const rows = await db
    .selectFrom("savedCards")
    .select(["id", "brand", "last4", "expMonth", "expYear", "cardholderName"])
    .where("userId", "=", userId)
    .orderBy("id", "desc")
    .execute();
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  return rows.map((row) => ({
    id: row.id,
    brand: row.brand,
    last4: row.last4,
    expiry: formatCardExpiry(row.expMonth, row.expYear),
    cardholderName: row.cardholderName,
    expired: row.expYear < year || (row.expYear === year && row.expMonth < month),
  }));
}

/** The Remove button of a saved card (an id that is not a number is no card of theirs: 404). */
export const removeCardSchema = z.object({
  intent: z.literal("remove"),
  cardId: z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number),
});

/** Removes one of the user's saved cards; `not-found` when it is not theirs (or no longer there). */
export async function removeSavedCard(
  db: Database,
  userId: string,
  id: number,
): Promise<Result<null, { code: "not-found" }>> {
  if (!Number.isSafeInteger(id) || id <= 0) return fail({ code: "not-found" });
  const result = await db
    .deleteFrom("savedCards")
    .where("id", "=", id)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1 ? ok(null) : fail({ code: "not-found" });
}
