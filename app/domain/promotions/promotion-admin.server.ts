import type { Transaction } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import type { ItemTarget, PromotionAction, PromotionCondition } from "../../lib/promotions/engine.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { type Actor, recordAudit } from "../audit/audit-log.server.ts";
import {
  type ActionInput,
  type ConditionInput,
  type PromotionInput,
  type PromotionStatus,
  promotionStatus,
  type RefNames,
  type StoredPromotion,
  type TargetInput,
} from "./promotion-form.ts";
import { promotionUses } from "./promotion-redemptions.server.ts";
import { actionSchema, conditionsSchema } from "./promotions.server.ts";

/**
 * Promotion management (Admin → Promotions, issue 31). The cart and Place Order read the same
 * rows (promotions.server.ts): a disabled one (`active` = 0) applies nowhere from the next cart read.
 * Every change is written with its audit entry. The form names products by SKU or by the product's
 * address name; they are stored by id, so renaming a SKU does not change a promotion.
 */

export interface AdminPromotion extends StoredPromotion {
  id: number;
  /** applied by its single-use codes only (promotion-codes.server.ts) */
  uniqueCodes: boolean;
  /** its uses: its orders' redemptions (`promotionUses`), with a use limit or without */
  usedCount: number;
  status: PromotionStatus;
  campaignName: string | null;
}

export interface Campaign {
  id: number;
  name: string;
  budgetCents: number | null;
  spentCents: number;
}

const COLUMNS = [
  "promotions.id",
  "promotions.name",
  "promotions.code",
  "promotions.conditions",
  "promotions.action",
  "promotions.startsAt",
  "promotions.endsAt",
  "promotions.priority",
  "promotions.combines",
  "promotions.active",
  "promotions.campaignId",
  "promotions.usageLimit",
  "promotions.perCustomerLimit",
  "promotions.uniqueCodes",
] as const;

interface PromotionRow {
  id: number;
  name: string;
  code: string | null;
  conditions: string;
  action: string;
  startsAt: string | null;
  endsAt: string | null;
  priority: number;
  combines: number;
  active: number;
  campaignId: number | null;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  uniqueCodes: number;
  campaignName?: string | null;
}

/** A stored row and its uses as the admin shows them; null when its JSON is not one the engine knows. */
function toPromotion(row: PromotionRow, usedCount: number, now: Date): AdminPromotion | null {
  const action = actionSchema.safeParse(safeJson(row.action));
  const conditions = conditionsSchema.safeParse(safeJson(row.conditions));
  if (!action.success || !conditions.success) return null;
  const stored = {
    name: row.name,
    code: row.code,
    active: Number(row.active) === 1,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    priority: Number(row.priority),
    combines: Number(row.combines) === 1,
    usageLimit: row.usageLimit === null ? null : Number(row.usageLimit),
    perCustomerLimit: row.perCustomerLimit === null ? null : Number(row.perCustomerLimit),
    campaignId: row.campaignId === null ? null : Number(row.campaignId),
    action: action.data,
    conditions: conditions.data,
  };
  return {
    ...stored,
    id: Number(row.id),
    uniqueCodes: Number(row.uniqueCodes) === 1,
    usedCount,
    status: promotionStatus({ ...stored, usedCount }, now),
    campaignName: row.campaignName ?? null,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export const ADMIN_PROMOTIONS_PAGE_SIZE = 50;

/**
 * The promotions in the order they apply (priority, then age), one page; `withCode`: only those a
 * shopper applies with a code, shared or single-use (today's coupons among them, migration 0780).
 */
export async function listAdminPromotions(
  db: Database,
  { page = 1, now = new Date(), withCode = false }: { page?: number; now?: Date; withCode?: boolean } = {},
): Promise<{ promotions: AdminPromotion[]; page: number; hasMore: boolean }> {
  const rows = await db
    .selectFrom("promotions")
    .leftJoin("promotionCampaigns", "promotionCampaigns.id", "promotions.campaignId")
    .select([...COLUMNS, "promotionCampaigns.name as campaignName"])
    .$if(withCode, (q) =>
      q.where((eb) => eb.or([eb("promotions.code", "is not", null), eb("promotions.uniqueCodes", "=", 1)])),
    )
    .orderBy("promotions.priority", "desc")
    .orderBy("promotions.id")
    .limit(ADMIN_PROMOTIONS_PAGE_SIZE + 1)
    .offset((Math.max(1, page) - 1) * ADMIN_PROMOTIONS_PAGE_SIZE)
    .execute();
  const shown = rows.slice(0, ADMIN_PROMOTIONS_PAGE_SIZE);
  const uses = await promotionUses(
    db,
    shown.map((row) => Number(row.id)),
  );
  return {
    promotions: shown.flatMap(
      (row) => toPromotion(row as PromotionRow, uses.get(Number(row.id)) ?? 0, now) ?? [],
    ),
    page,
    hasMore: rows.length > ADMIN_PROMOTIONS_PAGE_SIZE,
  };
}

/** The promotion a coupon became (migration 0780 keeps the coupon's id), or null. */
export async function promotionOfCoupon(db: Database, couponId: number): Promise<number | null> {
  const row = await db
    .selectFrom("promotions")
    .select("id")
    .where("couponId", "=", couponId)
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

export async function getAdminPromotion(
  db: Database,
  id: number,
  now = new Date(),
): Promise<{ promotion: AdminPromotion; refs: RefNames } | null> {
  const row = await db
    .selectFrom("promotions")
    .leftJoin("promotionCampaigns", "promotionCampaigns.id", "promotions.campaignId")
    .select([...COLUMNS, "promotionCampaigns.name as campaignName"])
    .where("promotions.id", "=", id)
    .executeTakeFirst();
  const uses = row ? (await promotionUses(db, [id])).get(id)! : 0;
  const promotion = row ? toPromotion(row as PromotionRow, uses, now) : null;
  if (!promotion) return null;
  return { promotion, refs: await refNames(db, promotion) };
}

/** The SKUs and product address names a promotion's targets name (to show them as typed). */
async function refNames(db: Database, promotion: StoredPromotion): Promise<RefNames> {
  const targets = targetsOf(promotion.action, promotion.conditions);
  const variantIds = [...new Set(targets.flatMap((target) => target.variantIds ?? []))];
  const productIds = [...new Set(targets.flatMap((target) => target.productIds ?? []))];
  const variants =
    variantIds.length === 0
      ? []
      : await db.selectFrom("productVariants").select(["id", "sku"]).where("id", "in", variantIds).execute();
  const products =
    productIds.length === 0
      ? []
      : await db.selectFrom("products").select(["id", "slug"]).where("id", "in", productIds).execute();
  return {
    variants: new Map(variants.map((row) => [Number(row.id), row.sku])),
    products: new Map(products.map((row) => [Number(row.id), row.slug])),
  };
}

function targetsOf(action: PromotionAction, conditions: readonly PromotionCondition[]): ItemTarget[] {
  const targets: ItemTarget[] = [];
  if (action.type === "buy-x-get-y") targets.push(action.buy.target, action.get.target);
  else if ("target" in action) targets.push(action.target);
  for (const condition of conditions) if (condition.type === "items") targets.push(condition.target);
  return targets;
}

export async function listCampaigns(db: Database): Promise<Campaign[]> {
  const rows = await db
    .selectFrom("promotionCampaigns")
    .select(["id", "name", "budgetCents", "spentCents"])
    .orderBy("name")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    budgetCents: row.budgetCents === null ? null : Number(row.budgetCents),
    spentCents: Number(row.spentCents),
  }));
}

/** Why a promotion change was refused. `field`: where the form shows it. */
export type PromotionChangeError =
  | { code: "not-found" }
  | { code: "code-taken" }
  | { code: "single-use-codes" }
  | { code: "unknown-campaign" }
  | { code: "usage-below-used"; used: number }
  | { code: "unknown-refs"; field: string; refs: string[] };

export type PromotionChangeResult = Result<
  { id: number; name: string; changed: boolean },
  PromotionChangeError
>;

type Finder = { variants: Map<string, number>; products: Map<string, number> };

/** Every product or SKU the input names, found (SKUs first, by any case; then address names). */
async function findRefs(trx: Transaction<DB>, input: PromotionInput): Promise<Finder> {
  const refs = [...new Set(inputTargets(input).flatMap(({ target }) => target.refs))];
  if (refs.length === 0) return { variants: new Map(), products: new Map() };
  const lower = refs.map((ref) => ref.toLowerCase());
  const variants = await trx
    .selectFrom("productVariants")
    .select(["id", "sku"])
    .where((eb) => eb(eb.fn("lower", ["sku"]), "in", lower))
    .execute();
  const products = await trx
    .selectFrom("products")
    .select(["id", "slug"])
    .where("slug", "in", lower)
    .execute();
  return {
    variants: new Map(variants.map((row) => [row.sku.toLowerCase(), Number(row.id)])),
    products: new Map(products.map((row) => [row.slug, Number(row.id)])),
  };
}

function inputTargets(input: PromotionInput): { field: string; target: TargetInput }[] {
  const targets: { field: string; target: TargetInput }[] = [];
  const action = input.action;
  if (action.type === "buy-x-get-y") {
    targets.push({ field: "target.refs", target: action.buy.target });
    targets.push({ field: "getTarget.refs", target: action.get.target });
  } else if ("target" in action) targets.push({ field: "target.refs", target: action.target });
  for (const condition of input.conditions) {
    if (condition.type === "items") targets.push({ field: "itemsTarget.refs", target: condition.target });
  }
  return targets;
}

/** The stored action and conditions (targets by id); or the first target naming something unknown. */
function resolve(
  input: PromotionInput,
  found: Finder,
): Result<{ action: PromotionAction; conditions: PromotionCondition[] }, PromotionChangeError> {
  for (const { field, target } of inputTargets(input)) {
    const unknown = target.refs.filter(
      (ref) => !found.variants.has(ref.toLowerCase()) && !found.products.has(ref.toLowerCase()),
    );
    if (unknown.length > 0) return fail({ code: "unknown-refs", field, refs: unknown });
  }
  const itemTarget = (target: TargetInput): ItemTarget => {
    const variantIds: number[] = [];
    const productIds: number[] = [];
    for (const ref of target.refs) {
      const variant = found.variants.get(ref.toLowerCase());
      if (variant !== undefined) variantIds.push(variant);
      else productIds.push(found.products.get(ref.toLowerCase())!);
    }
    const stored: ItemTarget = {};
    if (productIds.length > 0) stored.productIds = productIds;
    if (variantIds.length > 0) stored.variantIds = variantIds;
    if (target.categories.length > 0) stored.categories = target.categories;
    if (target.brands.length > 0) stored.brands = target.brands;
    return stored;
  };
  const action = resolveAction(input.action, itemTarget);
  const conditions = input.conditions.map(
    (condition: ConditionInput): PromotionCondition =>
      condition.type === "items" ? { ...condition, target: itemTarget(condition.target) } : condition,
  );
  return ok({ action, conditions });
}

function resolveAction(
  action: ActionInput,
  itemTarget: (target: TargetInput) => ItemTarget,
): PromotionAction {
  switch (action.type) {
    case "items-percent":
    case "items-fixed":
    case "set-price":
      return { ...action, target: itemTarget(action.target) };
    case "buy-x-get-y":
      return {
        ...action,
        buy: { ...action.buy, target: itemTarget(action.buy.target) },
        get: { ...action.get, target: itemTarget(action.get.target) },
      };
    default:
      return action;
  }
}

/** Whether `code` is another promotion's or a single-use code (one namespace at the cart). */
async function codeTaken(trx: Transaction<DB>, code: string, exceptId: number | null): Promise<boolean> {
  let other = trx.selectFrom("promotions").select("id").where("code", "=", code);
  if (exceptId !== null) other = other.where("id", "<>", exceptId);
  if ((await other.executeTakeFirst()) !== undefined) return true;
  const single = await trx
    .selectFrom("promotionCodes")
    .select("id")
    .where("code", "=", code)
    .executeTakeFirst();
  return single !== undefined;
}

async function campaignExists(trx: Transaction<DB>, id: number | null): Promise<boolean> {
  if (id === null) return true;
  return (
    (await trx.selectFrom("promotionCampaigns").select("id").where("id", "=", id).executeTakeFirst()) !==
    undefined
  );
}

/** The row's columns for `input`, its targets found. */
async function columnsFor(trx: Transaction<DB>, input: PromotionInput, exceptId: number | null) {
  if (input.code !== null && (await codeTaken(trx, input.code, exceptId))) {
    return fail({ code: "code-taken" } as const);
  }
  if (!(await campaignExists(trx, input.campaignId))) return fail({ code: "unknown-campaign" } as const);
  const resolved = resolve(input, await findRefs(trx, input));
  if (!resolved.ok) return resolved;
  return ok({
    name: input.name,
    code: input.code,
    conditions: JSON.stringify(resolved.value.conditions),
    action: JSON.stringify(resolved.value.action),
    startsAt: input.startsAt,
    endsAt: input.endsAt,
    priority: input.priority,
    combines: input.combines ? (1 as const) : (0 as const),
    active: input.active ? (1 as const) : (0 as const),
    campaignId: input.campaignId,
    usageLimit: input.usageLimit,
    perCustomerLimit: input.perCustomerLimit,
  });
}

/** What the audit log keeps of a promotion. */
function snapshot(columns: Record<string, unknown>) {
  const { conditions, action, ...rest } = columns;
  return { ...rest, conditions: safeJson(String(conditions)), action: safeJson(String(action)) };
}

export async function createPromotion(
  db: Database,
  { input, actor, now = new Date() }: { input: PromotionInput; actor: Actor; now?: Date },
): Promise<PromotionChangeResult> {
  const at = now.toISOString();
  return db.transaction().execute(async (trx): Promise<PromotionChangeResult> => {
    const columns = await columnsFor(trx, input, null);
    if (!columns.ok) return columns;
    const row = await trx
      .insertInto("promotions")
      .values({ ...columns.value, usedCount: 0, createdAt: at, updatedAt: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await recordAudit(trx, {
      actor,
      action: "promotion.create",
      entityType: "promotion",
      entityId: id,
      summary: `Created promotion ${input.name}`,
      after: snapshot(columns.value),
      now,
    });
    return ok({ id, name: input.name, changed: true });
  });
}

/** Changes a promotion's terms (not its uses: a limit below them is refused). */
export async function updatePromotion(
  db: Database,
  { id, input, actor, now = new Date() }: { id: number; input: PromotionInput; actor: Actor; now?: Date },
): Promise<PromotionChangeResult> {
  return db.transaction().execute(async (trx): Promise<PromotionChangeResult> => {
    const before = await trx
      .selectFrom("promotions")
      .select([
        "name",
        "code",
        "conditions",
        "action",
        "startsAt",
        "endsAt",
        "priority",
        "combines",
        "active",
        "campaignId",
        "usageLimit",
        "perCustomerLimit",
        "uniqueCodes",
      ])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!before) return fail({ code: "not-found" });
    // (a limit set where there was none: the database counts the uses again as it is written, and
    // refuses one below them — migration 0745)
    const used = (await promotionUses(trx, [id])).get(id)!;
    if (input.usageLimit !== null && input.usageLimit < used) return fail({ code: "usage-below-used", used });
    if (input.code !== null && Number(before.uniqueCodes) === 1) return fail({ code: "single-use-codes" });
    const columns = await columnsFor(trx, input, id);
    if (!columns.ok) return columns;
    const { uniqueCodes: _codes, ...old } = before;
    const oldSnapshot = snapshot({
      ...old,
      priority: Number(old.priority),
      combines: Number(old.combines),
      active: Number(old.active),
    });
    const newSnapshot = snapshot(columns.value);
    if (JSON.stringify(oldSnapshot) === JSON.stringify(newSnapshot))
      return ok({ id, name: input.name, changed: false });
    await trx
      .updateTable("promotions")
      .set({ ...columns.value, updatedAt: now.toISOString() })
      .where("id", "=", id)
      .execute();
    await recordAudit(trx, {
      actor,
      action: "promotion.update",
      entityType: "promotion",
      entityId: id,
      summary: `Edited promotion ${input.name}`,
      before: oldSnapshot,
      after: newSnapshot,
      now,
    });
    return ok({ id, name: input.name, changed: true });
  });
}

/** Enables or disables a promotion; setting the state it has changes and records nothing. */
export async function setPromotionActive(
  db: Database,
  { id, active, actor, now = new Date() }: { id: number; active: boolean; actor: Actor; now?: Date },
): Promise<PromotionChangeResult> {
  return db.transaction().execute(async (trx): Promise<PromotionChangeResult> => {
    const row = await trx
      .selectFrom("promotions")
      .select(["name", "active"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return fail({ code: "not-found" });
    if ((Number(row.active) === 1) === active) return ok({ id, name: row.name, changed: false });
    await trx
      .updateTable("promotions")
      .set({ active: active ? 1 : 0, updatedAt: now.toISOString() })
      .where("id", "=", id)
      .execute();
    await recordAudit(trx, {
      actor,
      action: active ? "promotion.enable" : "promotion.disable",
      entityType: "promotion",
      entityId: id,
      summary: `${active ? "Enabled" : "Disabled"} promotion ${row.name}`,
      before: { active: !active },
      after: { active },
      now,
    });
    return ok({ id, name: row.name, changed: true });
  });
}

export async function createCampaign(
  db: Database,
  {
    input,
    actor,
    now = new Date(),
  }: { input: { name: string; budgetCents: number | null }; actor: Actor; now?: Date },
): Promise<Campaign> {
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("promotionCampaigns")
      .values({ name: input.name, budgetCents: input.budgetCents, createdAt: at, updatedAt: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await recordAudit(trx, {
      actor,
      action: "campaign.create",
      entityType: "campaign",
      entityId: id,
      summary: `Created campaign ${input.name}`,
      after: input,
      now,
    });
    return { id, name: input.name, budgetCents: input.budgetCents, spentCents: 0 };
  });
}
