import type { Database } from "../../db/database.server.ts";
import type { CouponKind } from "../../db/schema.ts";
import { type Actor, recordAudit } from "../audit/audit-log.server.ts";
import {
  COUPON_FORM_MESSAGES,
  type CouponField,
  type CouponFormValues,
  type CouponInput,
  type CouponState,
  couponState,
  parseCouponForm,
} from "./coupon-form.ts";

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

/** Coupons by code, one page. */
export async function listAdminCoupons(
  db: Database,
  { page = 1 }: { page?: number } = {},
): Promise<{ coupons: AdminCoupon[]; page: number; hasMore: boolean }> {
  const rows = await db
    .selectFrom("coupons")
    .select(COLUMNS)
    .orderBy("code")
    .limit(ADMIN_COUPONS_PAGE_SIZE + 1)
    .offset((Math.max(1, page) - 1) * ADMIN_COUPONS_PAGE_SIZE)
    .execute();
  return {
    coupons: rows.slice(0, ADMIN_COUPONS_PAGE_SIZE).map((row) => toCoupon(row)),
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

export type CouponChangeResult =
  | { ok: true; id: number; code: string }
  | { ok: false; reason: "invalid"; fieldErrors: Partial<Record<CouponField, string>> }
  | { ok: false; reason: "not-found" };

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; message?: string };
  return e?.code === "23505" || /UNIQUE constraint failed/i.test(e?.message ?? "");
};

/** Creates an active coupon; the code must be new whatever its case (codes are kept upper-case). */
export async function createCoupon(
  db: Database,
  { input, actor, now = new Date() }: { input: CouponInput; actor: Actor; now?: Date },
): Promise<CouponChangeResult> {
  const taken = {
    ok: false,
    reason: "invalid",
    fieldErrors: { code: COUPON_FORM_MESSAGES.codeTaken },
  } as const;
  const code = input.code.toUpperCase();
  const existing = await db.selectFrom("coupons").select("id").where("code", "=", code).executeTakeFirst();
  if (existing) return taken;
  const at = now.toISOString();
  try {
    return await db.transaction().execute(async (trx) => {
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
      return { ok: true, id: row.id, code } as const;
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
    if (!before) return { ok: false, reason: "not-found" };
    const current = toCoupon(before);
    if (input.usageLimit !== null && input.usageLimit < current.usedCount) {
      return {
        ok: false,
        reason: "invalid",
        fieldErrors: { usageLimit: COUPON_FORM_MESSAGES.usageBelowUsed(current.usedCount) },
      };
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
    return { ok: true, id, code: current.code };
  });
}

/**
 * Disables (refused at the cart, and at checkout for carts that already carry it) or enables a
 * coupon. Setting the state it already has changes nothing and records nothing.
 */
export async function setCouponActive(
  db: Database,
  { id, active, actor, now = new Date() }: { id: number; active: boolean; actor: Actor; now?: Date },
): Promise<{ ok: true; code: string; changed: boolean } | { ok: false; reason: "not-found" }> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("coupons")
      .select(["code", "active"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return { ok: false, reason: "not-found" } as const;
    const wasActive = Number(row.active) === 1;
    if (wasActive === active) return { ok: true, code: row.code, changed: false } as const;
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
    return { ok: true, code: row.code, changed: true } as const;
  });
}

type FormLike = { get(name: string): unknown };

export type CouponFormOutcome =
  | { ok: true; id: number; message: string }
  | {
      ok: false;
      intent: string | null;
      status: 400 | 404 | 409;
      message: string;
      fieldErrors?: Partial<Record<CouponField, string>>;
      values?: CouponFormValues;
    };

const intOf = (value: unknown) =>
  typeof value === "string" && /^\d{1,10}$/.test(value) && Number(value) > 0 ? Number(value) : null;

/** The new-coupon form: validated field by field, then created (code unique whatever its case). */
export async function createCouponFromForm(
  db: Database,
  form: FormLike,
  actor: Actor,
): Promise<CouponFormOutcome> {
  const parsed = parseCouponForm(form);
  if (!parsed.ok) {
    return {
      ok: false,
      intent: "create",
      status: 400,
      message: parsed.message,
      fieldErrors: parsed.fieldErrors,
      values: parsed.values,
    };
  }
  const result = await createCoupon(db, { input: parsed.value, actor });
  if (result.ok) return { ok: true, id: result.id, message: COUPON_FORM_MESSAGES.created(result.code) };
  return result.reason === "invalid"
    ? {
        ok: false,
        intent: "create",
        status: 409,
        message: COUPON_FORM_MESSAGES.invalid,
        fieldErrors: result.fieldErrors,
        values: parsed.values,
      }
    : { ok: false, intent: "create", status: 404, message: COUPON_FORM_MESSAGES.notFound };
}

/**
 * The edit page's and the list's forms: `update` (the terms; the code is fixed), `disable`,
 * `enable`. `id` comes from the URL, or from the form's `couponId` on the list.
 */
export async function editCouponFromForm(
  db: Database,
  form: FormLike,
  { id, actor }: { id: number | null; actor: Actor },
): Promise<CouponFormOutcome> {
  const intent = form.get("intent");
  const couponId = id ?? intOf(form.get("couponId"));
  if (couponId === null || (intent !== "update" && intent !== "disable" && intent !== "enable")) {
    return { ok: false, intent: null, status: 400, message: COUPON_FORM_MESSAGES.badRequest };
  }
  if (intent === "update") {
    const current = await getAdminCoupon(db, couponId);
    if (!current) return { ok: false, intent, status: 404, message: COUPON_FORM_MESSAGES.notFound };
    // the code is not editable: validate the rest as the create form does
    const parsed = parseCouponForm({ get: (name) => (name === "code" ? current.code : form.get(name)) });
    if (!parsed.ok) {
      return {
        ok: false,
        intent,
        status: 400,
        message: parsed.message,
        fieldErrors: parsed.fieldErrors,
        values: parsed.values,
      };
    }
    const result = await updateCoupon(db, { id: couponId, input: parsed.value, actor });
    if (result.ok) return { ok: true, id: couponId, message: COUPON_FORM_MESSAGES.updated(result.code) };
    return result.reason === "invalid"
      ? {
          ok: false,
          intent,
          status: 409,
          message: COUPON_FORM_MESSAGES.invalid,
          fieldErrors: result.fieldErrors,
          values: parsed.values,
        }
      : { ok: false, intent, status: 404, message: COUPON_FORM_MESSAGES.notFound };
  }
  const active = intent === "enable";
  const result = await setCouponActive(db, { id: couponId, active, actor });
  if (!result.ok) return { ok: false, intent, status: 404, message: COUPON_FORM_MESSAGES.notFound };
  return {
    ok: true,
    id: couponId,
    message: active ? COUPON_FORM_MESSAGES.enabled(result.code) : COUPON_FORM_MESSAGES.disabled(result.code),
  };
}
