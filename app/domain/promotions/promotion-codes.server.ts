import { randomBytes } from "node:crypto";
import { stringify } from "csv-stringify/sync";
import type { Database } from "../../db/database.server.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { actorCan } from "../../lib/staff-roles.ts";
import { recordAudit, type StaffActor } from "../audit/audit-log.server.ts";
import { CODES_LIMITS } from "./promotion-form.ts";

/**
 * Single-use codes of a promotion (issue 31, migration 0600): N codes made at once with a prefix
 * (`SPRING-7KQ2M9XH4P`), each good for one order, exported as CSV for a mailing. The random part
 * is 10 characters from 32 that cannot be mistaken for each other (no 0/O, no 1/I): 50 bits, drawn
 * from the system's CSPRNG — not guessable, and a collision among a million codes has odds of about
 * 1 in 2 billion (a collision is skipped by the unique index and drawn again).
 */

/** 32 symbols: the letters but I and O, the digits but 0 and 1 */
const SYMBOLS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const RANDOM_LENGTH = 10;
/** rows per INSERT: within PostgreSQL's 65 535 parameters and SQLite's 32 766 (3 columns each) */
const BATCH = 5_000;

/** One random code part: every byte's low 5 bits pick one of the 32 symbols (no bias: 256 = 8 × 32). */
function randomPart(): string {
  const bytes = randomBytes(RANDOM_LENGTH);
  let part = "";
  for (const byte of bytes) part += SYMBOLS[byte & 31];
  return part;
}

export type CodesError =
  /** the actor may not manage promotions (the `discounts` permission) */
  | { code: "forbidden" }
  | { code: "not-found" }
  | { code: "shared-code" }
  | { code: "too-many"; existing: number };

/** How many single-use codes a promotion has, and how many are used. */
export async function codeCounts(
  db: Database,
  promotionId: number,
): Promise<{ total: number; used: number }> {
  const row = await db
    .selectFrom("promotionCodes")
    .select((eb) => [eb.fn.countAll<number>().as("total"), eb.fn.count<number>("usedAt").as("used")])
    .where("promotionId", "=", promotionId)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), used: Number(row.used) };
}

/**
 * Makes `count` new codes for the promotion (upper-case `prefix`, "" for none) in one transaction,
 * and marks it as applied by its codes only. Needs the `discounts` permission (a key: its scope).
 */
export async function generateCodes(
  db: Database,
  {
    promotionId,
    count,
    prefix,
    actor,
    now = new Date(),
  }: { promotionId: number; count: number; prefix: string; actor: StaffActor; now?: Date },
): Promise<Result<{ made: number; name: string }, CodesError>> {
  if (!actorCan(actor, "discounts")) return fail({ code: "forbidden" });
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const promotion = await trx
      .selectFrom("promotions")
      .select(["name", "code"])
      .where("id", "=", promotionId)
      .executeTakeFirst();
    if (!promotion) return fail({ code: "not-found" } as const);
    if (promotion.code !== null) return fail({ code: "shared-code" } as const);
    const existing = await trx
      .selectFrom("promotionCodes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("promotionId", "=", promotionId)
      .executeTakeFirstOrThrow();
    if (Number(existing.n) + count > CODES_LIMITS.perPromotion) {
      return fail({ code: "too-many", existing: Number(existing.n) } as const);
    }
    const lead = prefix === "" ? "" : `${prefix}-`;
    let made = 0;
    while (made < count) {
      const size = Math.min(BATCH, count - made);
      const codes = new Set<string>();
      while (codes.size < size) codes.add(`${lead}${randomPart()}`);
      const inserted = await trx
        .insertInto("promotionCodes")
        .values([...codes].map((code) => ({ promotionId, code, createdAt: at })))
        // a code some promotion already has is skipped: drawn again by the next round
        .onConflict((oc) => oc.column("code").doNothing())
        .executeTakeFirst();
      made += Number(inserted.numInsertedOrUpdatedRows ?? 0);
    }
    await trx
      .updateTable("promotions")
      .set({ uniqueCodes: 1, updatedAt: at })
      .where("id", "=", promotionId)
      .execute();
    await recordAudit(trx, {
      actor,
      action: "promotion.codes",
      entityType: "promotion",
      entityId: promotionId,
      summary: `Made ${count} single-use codes for promotion ${promotion.name}`,
      after: { count, prefix },
      now,
    });
    return ok({ made: count, name: promotion.name });
  });
}

const EXPORT_BATCH = 5_000;

/** A promotion's codes as CSV (code, used at, order number), in the order they were made, in batches. */
export async function* exportCodesCsv(db: Database, promotionId: number): AsyncGenerator<string> {
  yield stringify([["code", "used_at", "order_number"]]);
  let after = 0;
  for (;;) {
    const batch = await db
      .selectFrom("promotionCodes")
      .leftJoin("orders", "orders.id", "promotionCodes.orderId")
      .select(["promotionCodes.id", "promotionCodes.code", "promotionCodes.usedAt", "orders.number"])
      .where("promotionCodes.promotionId", "=", promotionId)
      .where("promotionCodes.id", ">", after)
      .orderBy("promotionCodes.id")
      .limit(EXPORT_BATCH)
      .execute();
    if (batch.length === 0) return;
    yield stringify(batch.map((row) => [row.code, row.usedAt ?? "", row.number ?? ""]));
    after = Number(batch[batch.length - 1]!.id);
    if (batch.length < EXPORT_BATCH) return;
  }
}
