import { sql } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { CouponKind } from "../../db/schema.ts";
import { containsPattern } from "../../lib/list-query.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { type Actor, recordAudit } from "../audit/audit-log.server.ts";
import { type CouponInput, type CouponState, couponState } from "./coupon-form.ts";
import type { CouponSort } from "./coupon-list-query.ts";
import { normalizeCouponCode } from "./coupon-rules.ts";

/**
 * Coupon management. The cart's rules (domain/coupons) read the same rows: a disabled coupon
 * (`active` = 0) is refused at the cart like an unknown code. Every change is written together
 * with its audit entry. A code never changes once created: carts and orders refer to it by text
 * (a cancelled order gives its use back by code).
 */

export const ADMIN_COUPONS_PAGE_SIZE = 50;

export interface AdminCoupon {
  id: number;
  code: string;
  kind: CouponKind;
  amount: number;
  minSubtotalCents: number;
  expiresAt: string | null;
  usageLimit: number | null;
  usedCount: number;
  active: boolean;
  /** as the cart would see it now */
  state: CouponState;
  createdAt: string;
  updatedAt: string;
}

const COLUMNS = [
  "id",
  "code",
  "kind",
  "amount",
  "minSubtotalCents",
  "expiresAt",
  "usageLimit",
  "usedCount",
  "active",
  "createdAt",
  "updatedAt",
] as const;

type CouponRow = Omit<AdminCoupon, "active" | "state"> & { active: number };
function toCoupon(row: CouponRow, now = new Date()): AdminCoupon {
  const coupon = {
    ...row,
    amount: Number(row.amount),
    minSubtotalCents: Number(row.minSubtotalCents),
    usageLimit: row.usageLimit === null ? null : Number(row.usageLimit),
    usedCount: Number(row.usedCount),
    active: Number(row.active) === 1,
  };
  return { ...coupon, state: couponState(coupon, now) };
}

export interface AdminCouponQuery {
  /** part of the code (any case) */
  search?: string;
  /** as the cart would see the coupon at `now` (coupon-form.ts `couponState`) */
  state?: CouponState | null;
  kind?: CouponKind | null;
  sort?: CouponSort;
  page?: number;
  now?: Date;
}

/**
 * The coupon list: filtered by part of the code, state and kind; sorted (code A–Z by default),
 * one page. The state filter asks in SQL what `couponState` answers for one coupon.
 */
export async function listAdminCoupons(
  db: Database,
  {
    search = "",
    state = null,
    kind = null,
    sort = "code",
    page = 1,
    now = new Date(),
  }: AdminCouponQuery = {},
): Promise<{ coupons: AdminCoupon[]; page: number; hasMore: boolean }> {
  const at = now.toISOString();
  let query = db.selectFrom("coupons").select(COLUMNS);
  const term = normalizeCouponCode(search).slice(0, 32);
  if (term) query = query.where("code", "like", sql<string>`${containsPattern(term)} escape '\\'`);
  if (kind) query = query.where("kind", "=", kind);
  if (state) {
    query = query.where((eb) => {
      const notExpired = eb.or([eb("expiresAt", "is", null), eb("expiresAt", ">", at)]);
      switch (state) {
        case "disabled":
          return eb("active", "=", 0);
        case "expired":
          return eb.and([eb("active", "=", 1), eb("expiresAt", "is not", null), eb("expiresAt", "<=", at)]);
        case "used-up":
          return eb.and([
            eb("active", "=", 1),
            notExpired,
            eb("usageLimit", "is not", null),
            eb("usedCount", ">=", eb.ref("usageLimit")),
          ]);
        default:
          return eb.and([
            eb("active", "=", 1),
            notExpired,
            eb.or([eb("usageLimit", "is", null), eb("usedCount", "<", eb.ref("usageLimit"))]),
          ]);
      }
    });
  }
  const percentFirst = sql<number>`case when ${sql.ref("kind")} = 'percent' then 0 else 1 end`;
  const noExpiryLast = sql<number>`case when ${sql.ref("expiresAt")} is null then 1 else 0 end`;
  const ordered =
    sort === "code-desc"
      ? query.orderBy("code", "desc")
      : sort === "value-asc" || sort === "value-desc"
        ? query.orderBy(percentFirst).orderBy("amount", sort === "value-asc" ? "asc" : "desc")
        : sort === "uses-desc" || sort === "uses-asc"
          ? query.orderBy("usedCount", sort === "uses-asc" ? "asc" : "desc")
          : sort === "expiry-asc" || sort === "expiry-desc"
            ? query.orderBy(noExpiryLast).orderBy("expiresAt", sort === "expiry-asc" ? "asc" : "desc")
            : query;
  const rows = await ordered
    .orderBy("code")
    .orderBy("id")
    .limit(ADMIN_COUPONS_PAGE_SIZE + 1)
    .offset((Math.max(1, page) - 1) * ADMIN_COUPONS_PAGE_SIZE)
    .execute();
  return {
    coupons: rows.slice(0, ADMIN_COUPONS_PAGE_SIZE).map((row) => toCoupon(row, now)),
    page,
    hasMore: rows.length > ADMIN_COUPONS_PAGE_SIZE,
  };
}

export async function getAdminCoupon(db: Database, id: number): Promise<AdminCoupon | null> {
  const row = await db.selectFrom("coupons").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? toCoupon(row) : null;
}

/** What the audit log keeps of a coupon. */
function snapshot(coupon: Omit<CouponInput, "code"> & { code: string; active?: boolean }) {
  return {
    code: coupon.code,
    kind: coupon.kind,
    amount: coupon.amount,
    minSubtotalCents: coupon.minSubtotalCents,
    expiresAt: coupon.expiresAt,
    usageLimit: coupon.usageLimit,
    ...(coupon.active === undefined ? {} : { active: coupon.active }),
  };
}

/** Why a coupon change was refused: its code is taken, it is gone, or its limit is below its uses. */
export type CouponChangeError =
  | { code: "code-taken" }
  | { code: "not-found" }
  | { code: "usage-below-used"; used: number };

export type CouponChangeResult = Result<{ id: number; code: string }, CouponChangeError>;

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; message?: string };
  return e?.code === "23505" || /UNIQUE constraint failed/i.test(e?.message ?? "");
};

/**
 * Creates an active coupon; the code must be new whatever its case (codes are kept upper-case), and
 * no promotion's.
 */
export async function createCoupon(
  db: Database,
  { input, actor, now = new Date() }: { input: CouponInput; actor: Actor; now?: Date },
): Promise<CouponChangeResult> {
  const taken = fail({ code: "code-taken" } as const);
  const code = input.code.toUpperCase();
  const existing = await db.selectFrom("coupons").select("id").where("code", "=", code).executeTakeFirst();
  if (existing) return taken;
  // a promotion's code, shared or single-use: the cart reads codes from one namespace
  const promotion = await db
    .selectFrom("promotions")
    .select("id")
    .where("code", "=", code)
    .executeTakeFirst();
  const single = await db
    .selectFrom("promotionCodes")
    .select("id")
    .where("code", "=", code)
    .executeTakeFirst();
  if (promotion || single) return taken;
  const at = now.toISOString();
  try {
    return await db.transaction().execute(async (trx): Promise<CouponChangeResult> => {
      const row = await trx
        .insertInto("coupons")
        .values({
          code,
          kind: input.kind,
          amount: input.amount,
          minSubtotalCents: input.minSubtotalCents,
          expiresAt: input.expiresAt,
          usageLimit: input.usageLimit,
          usedCount: 0,
          active: 1,
          createdAt: at,
          updatedAt: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        actor,
        action: "coupon.create",
        entityType: "coupon",
        entityId: row.id,
        summary: `Created coupon ${code}`,
        after: snapshot({ ...input, code, active: true }),
        now,
      });
      return ok({ id: row.id, code });
    });
  } catch (error) {
    // another admin created the same code a moment ago: the unique index answers
    if (isUniqueViolation(error)) return taken;
    throw error;
  }
}

/** Changes a coupon's terms (not its code, nor its use count). */
export async function updateCoupon(
  db: Database,
  {
    id,
    input,
    actor,
    now = new Date(),
  }: { id: number; input: Omit<CouponInput, "code">; actor: Actor; now?: Date },
): Promise<CouponChangeResult> {
  return db.transaction().execute(async (trx): Promise<CouponChangeResult> => {
    const before = await trx.selectFrom("coupons").select(COLUMNS).where("id", "=", id).executeTakeFirst();
    if (!before) return fail({ code: "not-found" });
    const current = toCoupon(before);
    if (input.usageLimit !== null && input.usageLimit < current.usedCount) {
      return fail({ code: "usage-below-used", used: current.usedCount });
    }
    await trx
      .updateTable("coupons")
      .set({
        kind: input.kind,
        amount: input.amount,
        minSubtotalCents: input.minSubtotalCents,
        expiresAt: input.expiresAt,
        usageLimit: input.usageLimit,
        updatedAt: now.toISOString(),
      })
      .where("id", "=", id)
      .execute();
    await recordAudit(trx, {
      actor,
      action: "coupon.update",
      entityType: "coupon",
      entityId: id,
      summary: `Edited coupon ${current.code}`,
      before: snapshot(current),
      after: snapshot({ ...input, code: current.code }),
      now,
    });
    return ok({ id, code: current.code });
  });
}

/**
 * Disables (refused at the cart, and at checkout for carts that already carry it) or enables a
 * coupon. Setting the state it already has changes nothing and records nothing.
 */
export async function setCouponActive(
  db: Database,
  { id, active, actor, now = new Date() }: { id: number; active: boolean; actor: Actor; now?: Date },
): Promise<Result<{ code: string; changed: boolean }, { code: "not-found" }>> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("coupons")
      .select(["code", "active"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return fail({ code: "not-found" } as const);
    const wasActive = Number(row.active) === 1;
    if (wasActive === active) return ok({ code: row.code, changed: false });
    await trx
      .updateTable("coupons")
      .set({ active: active ? 1 : 0, updatedAt: now.toISOString() })
      .where("id", "=", id)
      .execute();
    await recordAudit(trx, {
      actor,
      action: active ? "coupon.enable" : "coupon.disable",
      entityType: "coupon",
      entityId: id,
      summary: `${active ? "Enabled" : "Disabled"} coupon ${row.code}`,
      before: { active: wasActive },
      after: { active },
      now,
    });
    return ok({ code: row.code, changed: true });
  });
}
