import { sql } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { ListingQuery } from "../../lib/listing-query.ts";
import { PRICE_MAX, PRICE_MIN } from "../../lib/listing-query.ts";

/**
 * The searches that found nothing (issue 33), for Admin → Searches: counted per UTC day and search,
 * so the merchant sees what shoppers looked for in vain and can add products or synonyms.
 */

/** Searches kept per day at most: a flood of made-up words cannot grow the table without bound. */
export const SEARCH_MISS_TERMS_PER_DAY = 5_000;
export const SEARCH_MISS_TERM_MAX = 100;
/** Days a count is kept. */
export const SEARCH_MISS_KEEP_DAYS = 180;

/** The search as counted: trimmed, lower case, single spaces, cut to SEARCH_MISS_TERM_MAX. */
export function searchMissTerm(search: string): string {
  return search.trim().toLowerCase().replace(/\s+/g, " ").slice(0, SEARCH_MISS_TERM_MAX).trim();
}

/**
 * Whether a listing's empty answer is its search's doing: a search, and nothing narrowing it but a
 * category (no brand, price, rating, option or flag filters — those emptied it, not the words).
 */
export function isSearchMiss(query: ListingQuery, total: number): boolean {
  return (
    total === 0 &&
    query.search !== null &&
    searchMissTerm(query.search) !== "" &&
    query.brands.length === 0 &&
    query.minPrice === PRICE_MIN &&
    query.maxPrice === PRICE_MAX &&
    query.rating === null &&
    Object.keys(query.options).length === 0 &&
    !query.featured &&
    !query.newArrival &&
    !query.bestSeller &&
    !query.deals
  );
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** One more shopper searched `search` and found nothing (a day's new searches stop at the cap). */
export async function recordSearchMiss(db: Database, search: string, now: Date = new Date()): Promise<void> {
  const term = searchMissTerm(search);
  if (term === "") return;
  const day = dayOf(now);
  const counted = await db
    .updateTable("searchMisses")
    .set((eb) => ({ count: eb("count", "+", 1) }))
    .where("day", "=", day)
    .where("term", "=", term)
    .executeTakeFirst();
  if (Number(counted.numUpdatedRows) > 0) return;
  const { terms } = await db
    .selectFrom("searchMisses")
    .select((eb) => eb.fn.countAll<number>().as("terms"))
    .where("day", "=", day)
    .executeTakeFirstOrThrow();
  if (Number(terms) >= SEARCH_MISS_TERMS_PER_DAY) return;
  await db
    .insertInto("searchMisses")
    .values({ day, term, count: 1 })
    // another request counted it first
    .onConflict((oc) =>
      oc.columns(["day", "term"]).doUpdateSet((eb) => ({ count: eb("searchMisses.count", "+", 1) })),
    )
    .execute();
}

export interface SearchMiss {
  term: string;
  count: number;
  /** the last day it was searched in vain (YYYY-MM-DD) */
  lastDay: string;
}

/** The searches that found nothing over the last `days` days (today included), most often first. */
export async function listSearchMisses(
  db: Database,
  { days, now = new Date(), limit = 200 }: { days: number; now?: Date; limit?: number },
): Promise<SearchMiss[]> {
  const from = dayOf(new Date(now.getTime() - (days - 1) * 86_400_000));
  const rows = await db
    .selectFrom("searchMisses")
    .select((eb) => ["term", eb.fn.sum<number>("count").as("count"), eb.fn.max<string>("day").as("lastDay")])
    .where("day", ">=", from)
    .groupBy("term")
    .orderBy(sql`sum(count)`, "desc")
    .orderBy("term")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ term: row.term, count: Number(row.count), lastDay: row.lastDay }));
}

/** Counts older than SEARCH_MISS_KEEP_DAYS removed (the daily upkeep). */
export async function pruneSearchMisses(db: Database, now: Date = new Date()): Promise<number> {
  const before = dayOf(new Date(now.getTime() - SEARCH_MISS_KEEP_DAYS * 86_400_000));
  const result = await db.deleteFrom("searchMisses").where("day", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
