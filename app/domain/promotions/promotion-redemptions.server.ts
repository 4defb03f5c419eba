import { type QueryCreator, sql, type Transaction } from "kysely";
import { type Database, engineOf } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import type { AppliedPromotion, LimitReached } from "../../lib/promotions/engine.ts";
import { fail, ok, type Result } from "../../lib/result.ts";

/**
 * The uses of promotions (decision 033), apart from what is read to price a cart
 * (promotions.server.ts): taken in the transaction that places an order and given back with it. A
 * use is the order's redemption row; only a promotion with a use limit also counts it on its own
 * row (migration 0745). Locks are taken in one order — promotions with a limit by id, then campaigns
 * by id — after the order's stock, as a cancellation gives them back.
 */

/** Why the uses of an order's promotions could not be taken: the one whose limit or budget ran out. */
export type RedeemRefusal = { code: "limit"; promotionId: number; limit: LimitReached | "budget" };

/**
 * A promotion's uses: its rows in `promotion_redemptions` (one per order that used it, deleted when
 * the order is given back), counted by the index that starts with `promotion_id`, and its
 * `earlier_uses` (a coupon's uses from before it became the promotion, migration 0780) — the one
 * count every view of uses reads (the admin's list and page, the limit below the uses). `used_count`
 * is only a use limit's guard: the same count while the promotion has a limit, 0 while it has none
 * (migration 0745).
 */
export async function promotionUses(
  db: Database | Transaction<DB>,
  ids: readonly number[],
): Promise<Map<number, number>> {
  const uses = new Map(ids.map((id) => [id, 0]));
  if (ids.length === 0) return uses;
  const unique = [...new Set(ids)];
  const rows = await db
    .selectFrom("promotionRedemptions")
    .select((eb) => ["promotionId", eb.fn.countAll<number>().as("uses")])
    .where("promotionId", "in", unique)
    .groupBy("promotionId")
    .execute();
  for (const row of rows) uses.set(Number(row.promotionId), Number(row.uses));
  const earlier = await db
    .selectFrom("promotions")
    .select(["id", "earlierUses"])
    .where("id", "in", unique)
    .where("earlierUses", ">", 0)
    .execute();
  for (const row of earlier)
    uses.set(Number(row.id), (uses.get(Number(row.id)) ?? 0) + Number(row.earlierUses));
  return uses;
}

/**
 * Takes the uses of the promotions an order applied, inside the order's transaction. Each use is
 * the order's redemption row. A promotion with a use limit also counts it on its row, only while
 * under the limit (a guarded update: its row is locked to the commit); one without a limit is only
 * read — active and still without a limit, in the statement that inserts the redemption — so
 * orders using it never wait on each other (decision 033). A customer's uses are counted behind a
 * lock of their own (the promotion's row when it has a limit, else an advisory lock on the promotion
 * and the customer on PostgreSQL; SQLite runs one writer at a time), so two of their checkouts at
 * once cannot both pass; a campaign's budget is spent only while it covers the amount. A refusal
 * names the promotion: the caller rolls back and prices the cart again.
 */
export async function redeemPromotions(
  trx: Transaction<DB>,
  applied: readonly AppliedPromotion[],
  {
    orderId,
    customerKey,
    now,
    unlimited: written,
  }: {
    orderId: number;
    customerKey: string;
    now: Date;
    /** the uses `unlimitedRedemptions` already wrote in the caller's own statement, by promotion */
    unlimited?: ReadonlySet<number>;
  },
): Promise<Result<void, RedeemRefusal>> {
  const at = now.toISOString();
  const byId = [...applied].sort((a, b) => a.promotion.id - b.promotion.id);
  if (byId.length === 0) return ok(undefined);
  // the common case in one statement: each promotion still active and without any limit (checked as
  // its use is written) takes its use; the others — a limit, a single-use code, gone — below
  let unlimited = written;
  if (!unlimited) {
    const statement = unlimitedRedemptions(trx, byId, { orderId, customerKey, at });
    const rows = statement ? await statement.execute() : [];
    unlimited = new Set(rows.map((row) => Number(row.promotionId)));
  }
  const limitedOnes = byId.filter(({ promotion }) => !unlimited.has(promotion.id));
  // the limits as they stand (no lock: a promotion without a limit is checked again as its use is written)
  const rows =
    limitedOnes.length === 0
      ? []
      : await trx
          .selectFrom("promotions")
          .select(["id", "active", "usageLimit", "perCustomerLimit"])
          .where(
            "id",
            "in",
            limitedOnes.map(({ promotion }) => promotion.id),
          )
          .execute();
  const limits = new Map(rows.map((row) => [Number(row.id), row]));
  const postgres = engineOf<DB>(trx) === "postgres";
  for (const { promotion, amountCents } of limitedOnes) {
    const refused = fail({ code: "limit", promotionId: promotion.id, limit: "uses" } as const);
    const row = limits.get(promotion.id);
    if (!row || Number(row.active) !== 1) return refused;
    const limited = row.usageLimit !== null;
    let perCustomerLimit = row.perCustomerLimit;
    if (limited) {
      const counted = await trx
        .updateTable("promotions")
        .set((eb) => ({ usedCount: eb("usedCount", "+", 1) }))
        .where("id", "=", promotion.id)
        .where("active", "=", 1)
        // its limit still set (removed meanwhile: the revision moved, the cart is priced again)
        .where((eb) => eb("usedCount", "<", eb.ref("usageLimit")))
        .returning(["perCustomerLimit"])
        .executeTakeFirst();
      if (!counted) return refused;
      perCustomerLimit = counted.perCustomerLimit;
    } else if (perCustomerLimit !== null && postgres) {
      // this customer's checkouts of this promotion, one at a time (others' go on)
      await sql`select pg_advisory_xact_lock(${promotion.id}::integer, hashtext(${customerKey}))`.execute(
        trx,
      );
    }
    if (perCustomerLimit !== null) {
      const used = await trx
        .selectFrom("promotionRedemptions")
        .select((eb) => eb.fn.countAll<number>().as("uses"))
        .where("promotionId", "=", promotion.id)
        .where("customerKey", "=", customerKey)
        .executeTakeFirstOrThrow();
      if (Number(used.uses) >= perCustomerLimit) {
        return fail({ code: "limit", promotionId: promotion.id, limit: "customer-uses" });
      }
    }
    if (promotion.singleUse && promotion.code) {
      const taken = await trx
        .updateTable("promotionCodes")
        .set({ orderId, usedAt: at })
        .where("code", "=", promotion.code)
        .where("promotionId", "=", promotion.id)
        .where("usedAt", "is", null)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) return refused;
    }
    const redemption = { promotionId: promotion.id, orderId, customerKey, amountCents, createdAt: at };
    if (limited) {
      await trx.insertInto("promotionRedemptions").values(redemption).execute();
    } else {
      // written only while the promotion is active and still has no limit: a limit set meanwhile
      // counted the uses there were (migration 0745), and this one would not be among them
      const inserted = await trx
        .insertInto("promotionRedemptions")
        .columns(["promotionId", "orderId", "customerKey", "amountCents", "createdAt"])
        .expression((eb) =>
          eb
            .selectFrom("promotions")
            .select([
              "promotions.id",
              eb.val(orderId).as("orderId"),
              eb.val(customerKey).as("customerKey"),
              eb.val(amountCents).as("amountCents"),
              eb.val(at).as("createdAt"),
            ])
            .where("promotions.id", "=", redemption.promotionId)
            .where("promotions.active", "=", 1)
            .where("promotions.usageLimit", "is", null),
        )
        .returning("id")
        .executeTakeFirst();
      if (!inserted) return refused;
    }
  }
  const spend = new Map<number, { amount: number; promotionId: number }>();
  for (const { promotion, amountCents } of byId) {
    if (promotion.campaignId === null) continue;
    const entry = spend.get(promotion.campaignId) ?? { amount: 0, promotionId: promotion.id };
    entry.amount += amountCents;
    spend.set(promotion.campaignId, entry);
  }
  for (const [campaignId, { amount, promotionId }] of [...spend].sort(([a], [b]) => a - b)) {
    const spent = await trx
      .updateTable("promotionCampaigns")
      .set((eb) => ({ spentCents: eb("spentCents", "+", amount), updatedAt: at }))
      .where("id", "=", campaignId)
      .where((eb) =>
        eb.or([
          eb("budgetCents", "is", null),
          eb(eb("spentCents", "+", amount), "<=", eb.ref("budgetCents")),
        ]),
      )
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) return fail({ code: "limit", promotionId, limit: "budget" });
  }
  return ok(undefined);
}

/**
 * The statement that writes the uses of the promotions among `applied` that are active and have no
 * limit of any kind (a single-use code always has one), as the order's redemption rows, in one
 * INSERT … SELECT returning their promotions' ids: the check and the write are one statement, so a
 * limit set meanwhile is seen and that promotion is left out, for `redeemPromotions`' guarded path.
 * Place Order runs it inside the statement that writes the order's lines on PostgreSQL (a
 * data-modifying WITH, one round trip); null when no promotion could qualify.
 */
export function unlimitedRedemptions(
  db: QueryCreator<DB>,
  applied: readonly AppliedPromotion[],
  { orderId, customerKey, at }: { orderId: number; customerKey: string; at: string },
) {
  const candidates = applied.filter(({ promotion }) => !(promotion.singleUse && promotion.code));
  if (candidates.length === 0) return null;
  return db
    .insertInto("promotionRedemptions")
    .columns(["promotionId", "orderId", "customerKey", "amountCents", "createdAt"])
    .expression((eb) =>
      eb
        .selectFrom("promotions")
        .select((sb) => {
          // each promotion's amount (integers the calculator made, written as literals)
          const [first, ...others] = candidates;
          let amount = sb
            .case()
            .when("promotions.id", "=", sb.lit(first!.promotion.id))
            .then(sb.lit(first!.amountCents));
          for (const { promotion, amountCents } of others)
            amount = amount.when("promotions.id", "=", sb.lit(promotion.id)).then(sb.lit(amountCents));
          return [
            "promotions.id",
            sb.val(orderId).as("orderId"),
            sb.val(customerKey).as("customerKey"),
            amount.else(sb.lit(0)).end().as("amountCents"),
            sb.val(at).as("createdAt"),
          ];
        })
        .where(
          "promotions.id",
          "in",
          candidates.map(({ promotion }) => promotion.id),
        )
        .where("promotions.active", "=", 1)
        .where("promotions.usageLimit", "is", null)
        .where("promotions.perCustomerLimit", "is", null),
    )
    .returning("promotionRedemptions.promotionId");
}

/**
 * Gives back the uses (and the campaigns' spending) of an order's promotions: it was cancelled or
 * never paid. Its redemptions are deleted first — the uses given back are the rows this deleted, so
 * a second release gives nothing — then a promotion with a use limit counts one use less on its
 * row (one without a limit has nothing counted there), and each campaign gets its amount back.
 */
export async function releasePromotions(trx: Transaction<DB>, orderId: number, now: Date): Promise<void> {
  const redemptions = await trx
    .deleteFrom("promotionRedemptions")
    .where("orderId", "=", orderId)
    .returning(["promotionId", "amountCents"])
    .execute();
  if (redemptions.length === 0) return;
  const at = now.toISOString();
  const ids = [...new Set(redemptions.map((row) => Number(row.promotionId)))].sort((a, b) => a - b);
  const promotions = await trx
    .selectFrom("promotions")
    .select(["id", "campaignId", "usageLimit"])
    .where("id", "in", ids)
    .execute();
  const byId = new Map(promotions.map((row) => [Number(row.id), row]));
  for (const promotionId of ids) {
    if (byId.get(promotionId)?.usageLimit === null) continue;
    await trx
      .updateTable("promotions")
      .set((eb) => ({ usedCount: eb("usedCount", "-", 1) }))
      .where("id", "=", promotionId)
      .where("usageLimit", "is not", null)
      .where("usedCount", ">", 0)
      .execute();
  }
  const back = new Map<number, number>();
  for (const { promotionId, amountCents } of redemptions) {
    const campaignId = byId.get(Number(promotionId))?.campaignId ?? null;
    if (campaignId !== null) back.set(campaignId, (back.get(campaignId) ?? 0) + amountCents);
  }
  for (const [campaignId, amount] of [...back].sort(([a], [b]) => a - b)) {
    await trx
      .updateTable("promotionCampaigns")
      .set((eb) => ({ spentCents: eb("spentCents", "-", amount), updatedAt: at }))
      .where("id", "=", campaignId)
      .where("spentCents", ">=", amount)
      .execute();
  }
  // a single-use code the order took can be used again
  await trx
    .updateTable("promotionCodes")
    .set({ orderId: null, usedAt: null })
    .where("orderId", "=", orderId)
    .execute();
}
