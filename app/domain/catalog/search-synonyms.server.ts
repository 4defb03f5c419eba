import type { Database } from "../../db/database.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { type Actor, recordAudit } from "../audit/audit-log.server.ts";

/**
 * The owner's synonyms (issue 33): groups of words that mean the same, managed in Admin → Searches
 * and applied when a listing is searched (`synonymsFor`), so adding one needs no index rebuild.
 */

export const SYNONYM_LIMITS = { words: 10, wordLength: 40, groups: 500 } as const;

export const SYNONYM_MESSAGES = {
  words: `Enter 2 to ${SYNONYM_LIMITS.words} words that mean the same, separated by commas (one word each, up to ${SYNONYM_LIMITS.wordLength} characters).`,
  tooMany: `The shop has ${SYNONYM_LIMITS.groups} groups of synonyms, the most it keeps: remove one first.`,
  added: (words: readonly string[]) => `Synonyms added: ${words.join(", ")}`,
  removed: "Synonyms removed",
  notFound: "Those synonyms were already removed.",
} as const;

/** "Tee, T-Shirt ,tshirt" → ["tee", "t-shirt", "tshirt"]; null unless 2–10 distinct single words. */
export function parseSynonyms(text: string): string[] | null {
  const words = [
    ...new Set(
      text
        .split(",")
        .map((word) => word.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const valid =
    words.length >= 2 &&
    words.length <= SYNONYM_LIMITS.words &&
    words.every((word) => [...word].length <= SYNONYM_LIMITS.wordLength && !/[\s\p{Cc}]/u.test(word));
  return valid ? words : null;
}

export interface SynonymGroup {
  id: number;
  words: string[];
}

const wordsOf = (json: string): string[] => {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((word): word is string => typeof word === "string") : [];
};

export async function listSynonyms(db: Database): Promise<SynonymGroup[]> {
  const rows = await db.selectFrom("searchSynonyms").select(["id", "words"]).orderBy("id").execute();
  return rows.map((row) => ({ id: row.id, words: wordsOf(row.words) }));
}

/**
 * The synonyms of the words searched: word → the other words of every group holding it (a word in
 * two groups has both's); undefined when none of the words has any.
 */
export async function synonymsFor(
  db: Database,
  words: readonly string[],
): Promise<Record<string, string[]> | undefined> {
  if (words.length === 0) return undefined;
  const groups = await listSynonyms(db);
  const found: Record<string, string[]> = {};
  for (const word of words) {
    const others = new Set(groups.filter((g) => g.words.includes(word)).flatMap((g) => g.words));
    others.delete(word);
    if (others.size > 0) found[word] = [...others];
  }
  return Object.keys(found).length > 0 ? found : undefined;
}

export type AddSynonymsResult = Result<{ id: number; words: string[] }, { code: "invalid" | "too-many" }>;

export async function addSynonyms(
  db: Database,
  { text, actor, now = new Date() }: { text: string; actor: Actor; now?: Date },
): Promise<AddSynonymsResult> {
  const words = parseSynonyms(text);
  if (!words) return fail({ code: "invalid" });
  return db.transaction().execute(async (trx): Promise<AddSynonymsResult> => {
    const { groups } = await trx
      .selectFrom("searchSynonyms")
      .select((eb) => eb.fn.countAll<number>().as("groups"))
      .executeTakeFirstOrThrow();
    if (Number(groups) >= SYNONYM_LIMITS.groups) return fail({ code: "too-many" });
    const { id } = await trx
      .insertInto("searchSynonyms")
      .values({ words: JSON.stringify(words), createdAt: now.toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actor,
      action: "search.synonyms.add",
      entityType: "search_synonyms",
      entityId: id,
      summary: `Synonyms added: ${words.join(", ")}`,
      after: { words },
      now,
    });
    return ok({ id, words });
  });
}

export async function removeSynonyms(
  db: Database,
  { id, actor, now = new Date() }: { id: number; actor: Actor; now?: Date },
): Promise<Result<void, { code: "not-found" }>> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("searchSynonyms")
      .select("words")
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return fail({ code: "not-found" as const });
    await trx.deleteFrom("searchSynonyms").where("id", "=", id).execute();
    await recordAudit(trx, {
      actor,
      action: "search.synonyms.remove",
      entityType: "search_synonyms",
      entityId: id,
      summary: `Synonyms removed: ${wordsOf(row.words).join(", ")}`,
      before: { words: wordsOf(row.words) },
      now,
    });
    return ok(undefined);
  });
}
