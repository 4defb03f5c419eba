import { type Kysely, sql } from "kysely";
import { engineOf } from "../database.server.ts";

/**
 * Today's coupons become promotions with a code (issue 31, decision 033): one way to discount by
 * code. Each coupon is a promotion with that shared code — a percentage or a fixed amount off the
 * order, its minimum subtotal as its one condition, its expiry as its end, its usage limit, its
 * active flag — that combines with the others (a coupon always stacked with the automatic
 * promotions) and applies first among the order's (priority 1 000, the highest the form allows: a
 * coupon was taken off the whole subtotal). The cart holds one code, as before.
 *
 * A coupon's past uses stay counted (a coupon at its limit stays at its limit):
 * - the uses of its orders still open — neither cancelled nor failed, so a cancellation would have
 *   given the use back — become those orders' redemptions, so a cancellation gives them back as it
 *   did (`releasePromotions`); each takes what the coupon's terms take off the order's subtotal;
 * - the rest of its count (orders gone or never recorded) is `earlier_uses`: uses without a
 *   redemption row, which `promotionUses` adds to the redemptions and the use limit's recount
 *   (migration 0745's trigger, redefined here) counts too;
 * - with a limit, `used_count` (the limit's guard) is that total, at most the limit.
 *
 * `coupon_id` remembers the coupon a promotion was made from: old links to /admin/coupons/:id lead
 * to it, and down() turns those promotions back into coupons (their uses as the coupon's count).
 * Orders keep their `coupon_code` text. Nothing reads `coupons` after this, so it is dropped.
 *
 * Named after 0770: migrations run in name order and 0770 has shipped.
 */

const PRIORITY = 1_000;
const RELEASED = ["cancelled", "payment_failed"];

const RECOUNT_PG = (earlier: string) => `create or replace function promotion_used_count_on_limit()
  returns trigger language plpgsql as $$
  begin
    if new.usage_limit is null then
      new.used_count := 0;
    elsif old.usage_limit is null then
      lock table promotion_redemptions in share mode;
      new.used_count := (select count(*) from promotion_redemptions where promotion_id = new.id)${earlier};
    end if;
    return new;
  end $$`;

const RECOUNT_SQLITE = (earlier: string) => `create trigger promotions_used_count_on_limit
  after update of usage_limit on promotions
  when (old.usage_limit is null) <> (new.usage_limit is null)
  begin
    update promotions
      set used_count = case when new.usage_limit is null then 0
        else (select count(*) from promotion_redemptions where promotion_id = new.id)${earlier} end
      where id = new.id;
  end`;

/** The use limit's recount (migration 0745's), with or without the uses that have no redemption. */
async function recountTrigger(db: Kysely<unknown>, withEarlier: boolean): Promise<void> {
  const earlier = withEarlier ? " + new.earlier_uses" : "";
  if (engineOf(db) === "postgres") {
    await sql.raw(RECOUNT_PG(earlier)).execute(db);
  } else {
    await sql`drop trigger if exists promotions_used_count_on_limit`.execute(db);
    await sql.raw(RECOUNT_SQLITE(earlier)).execute(db);
  }
}

/** A coupon as read here (one-word names: the app's database turns snake_case names into camelCase). */
interface CouponRow {
  id: number;
  code: string;
  kind: string;
  amount: number;
  minimum: number;
  expires: string | null;
  uselimit: number | null;
  used: number;
  active: number;
  created: string;
  updated: string;
}

/** What a coupon took off a subtotal: a percentage rounded half up, a fixed amount; never past it. */
function couponTakes(coupon: Pick<CouponRow, "kind" | "amount">, subtotalCents: number): number {
  const subtotal = Math.max(0, subtotalCents);
  const raw =
    coupon.kind === "percent" ? Math.round((subtotal * Math.min(100, coupon.amount)) / 100) : coupon.amount;
  return Math.min(Math.max(0, raw), subtotal);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("promotions")
    .addColumn("earlier_uses", "integer", (c) => c.notNull().defaultTo(0).check(sql`earlier_uses >= 0`))
    .execute();
  await db.schema.alterTable("promotions").addColumn("coupon_id", "integer").execute();
  await recountTrigger(db, true);

  const { rows: coupons } = await sql<CouponRow>`select id, code, kind, amount, min_subtotal_cents as minimum,
    expires_at as expires, usage_limit as uselimit, used_count as used, active, created_at as created,
    updated_at as updated from coupons order by id`.execute(db);
  for (const coupon of coupons) {
    const taken = await sql<{ id: number }>`select id from promotions where code = ${coupon.code}`.execute(
      db,
    );
    if (taken.rows.length > 0) {
      throw new Error(
        `coupon ${coupon.code}: a promotion already has this code; rename one and migrate again`,
      );
    }
    const action =
      coupon.kind === "percent"
        ? { type: "order-percent", basisPoints: Math.min(100, Number(coupon.amount)) * 100 }
        : { type: "order-fixed", cents: Number(coupon.amount) };
    const minimum = Number(coupon.minimum);
    const conditions = minimum > 0 ? [{ type: "min-subtotal", cents: minimum }] : [];
    // the orders whose use a cancellation would still give back
    const { rows: open } = await sql<{
      id: number;
      userid: string | null;
      email: string;
      subtotal: number;
      created: string;
    }>`select id, user_id as userid, email, subtotal_cents as subtotal, created_at as created from orders
      where coupon_code = ${coupon.code} and status not in (${sql.join(RELEASED)}) order by id`.execute(db);
    const earlierUses = Math.max(0, Number(coupon.used) - open.length);
    const uses = open.length + earlierUses;
    const limit = coupon.uselimit === null ? null : Math.max(1, Number(coupon.uselimit));
    const inserted = await sql<{ id: number }>`insert into promotions (name, code, conditions, action,
        starts_at, ends_at, priority, combines, active, campaign_id, usage_limit, used_count,
        per_customer_limit, unique_codes, earlier_uses, coupon_id, created_at, updated_at)
      values (${`Coupon ${coupon.code}`}, ${coupon.code}, ${JSON.stringify(conditions)},
        ${JSON.stringify(action)}, null, ${coupon.expires}, ${PRIORITY}, 1,
        ${Number(coupon.active) === 1 ? 1 : 0}, null, ${limit}, ${limit === null ? 0 : Math.min(uses, limit)},
        null, 0, ${earlierUses}, ${coupon.id}, ${coupon.created}, ${coupon.updated})
      returning id`.execute(db);
    const promotionId = Number(inserted.rows[0]!.id);
    for (let start = 0; start < open.length; start += 500) {
      const batch = open
        .slice(start, start + 500)
        .map(
          (order) =>
            sql`(${promotionId}, ${order.id}, ${
              order.userid ? `user:${order.userid}` : `email:${order.email.trim().toLowerCase()}`
            }, ${couponTakes(coupon, Number(order.subtotal))}, ${order.created})`,
        );
      await sql`insert into promotion_redemptions (promotion_id, order_id, customer_key, amount_cents,
        created_at) values ${sql.join(batch)}`.execute(db);
    }
  }
  await db.schema.dropTable("coupons").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const serial = engineOf(db) === "postgres" ? "serial" : "integer";
  // the table as migration 0400 made it
  await db.schema
    .createTable("coupons")
    .addColumn("id", serial, (c) => c.primaryKey())
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('percent', 'fixed')`))
    .addColumn("amount", "integer", (c) => c.notNull().check(sql`amount > 0`))
    .addColumn("min_subtotal_cents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", "text")
    .addColumn("usage_limit", "integer")
    .addColumn("used_count", "integer", (c) => c.notNull().defaultTo(0).check(sql`used_count >= 0`))
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  const { rows: promotions } =
    await sql<PromotionRow>`select id, code, conditions, action, starts_at as starts,
      ends_at as ends, active, usage_limit as uselimit, per_customer_limit as percustomer,
      campaign_id as campaign, earlier_uses as earlier, coupon_id as coupon, created_at as created,
      updated_at as updated
    from promotions where coupon_id is not null order by id`.execute(db);
  for (const promotion of promotions) {
    const coupon = asCoupon(promotion);
    // changed since into what a coupon cannot say: it stays a promotion with its code
    if (!coupon) continue;
    const { rows } = await sql<{ uses: number }>`select count(*) as uses from promotion_redemptions
      where promotion_id = ${promotion.id}`.execute(db);
    const usedCount = Number(rows[0]?.uses ?? 0) + Number(promotion.earlier);
    await sql`insert into coupons (id, code, kind, amount, min_subtotal_cents, expires_at, usage_limit,
        used_count, active, created_at, updated_at)
      values (${promotion.coupon}, ${promotion.code}, ${coupon.kind}, ${coupon.amount},
        ${coupon.minSubtotalCents}, ${promotion.ends}, ${promotion.uselimit}, ${usedCount},
        ${Number(promotion.active) === 1 ? 1 : 0}, ${promotion.created}, ${promotion.updated})`.execute(db);
    await sql`delete from promotion_redemptions where promotion_id = ${promotion.id}`.execute(db);
    await sql`delete from promotions where id = ${promotion.id}`.execute(db);
  }
  if (engineOf(db) === "postgres") {
    await sql`select setval(pg_get_serial_sequence('coupons', 'id'), coalesce((select max(id) from coupons), 0) + 1, false)`.execute(
      db,
    );
  }
  await recountTrigger(db, false);
  await db.schema.alterTable("promotions").dropColumn("coupon_id").execute();
  await db.schema.alterTable("promotions").dropColumn("earlier_uses").execute();
}

/** A promotion made from a coupon, as read by down(). */
interface PromotionRow {
  id: number;
  code: string | null;
  conditions: string;
  action: string;
  starts: string | null;
  ends: string | null;
  active: number;
  uselimit: number | null;
  percustomer: number | null;
  campaign: number | null;
  earlier: number;
  coupon: number;
  created: string;
  updated: string;
}

/** A promotion made from a coupon, as that coupon again; null when it no longer reads as one. */
function asCoupon(
  promotion: PromotionRow,
): { kind: "percent" | "fixed"; amount: number; minSubtotalCents: number } | null {
  if (!promotion.code || promotion.starts !== null) return null;
  if (promotion.percustomer !== null || promotion.campaign !== null) return null;
  let action: { type?: string; basisPoints?: number; cents?: number };
  let conditions: { type?: string; cents?: number }[];
  try {
    action = JSON.parse(promotion.action);
    conditions = JSON.parse(promotion.conditions);
  } catch {
    return null;
  }
  if (!Array.isArray(conditions) || conditions.some((c) => c.type !== "min-subtotal")) return null;
  if (conditions.length > 1) return null;
  const minSubtotalCents = conditions[0]?.cents ?? 0;
  if (action.type === "order-percent" && action.basisPoints! % 100 === 0 && action.basisPoints! > 0) {
    return { kind: "percent", amount: action.basisPoints! / 100, minSubtotalCents };
  }
  if (action.type === "order-fixed" && action.cents! > 0) {
    return { kind: "fixed", amount: action.cents!, minSubtotalCents };
  }
  return null;
}
