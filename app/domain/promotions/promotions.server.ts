import { z } from "zod";
import { logger } from "../../adapters/logger.server.ts";
import type { Database } from "../../db/database.server.ts";
import type { PromotionsTable } from "../../db/schema-promotions.ts";
import { isCataloguePromotion, nextBoundary } from "../../lib/promotions/catalogue-sale.ts";
import type {
  LimitReached,
  Promotion,
  PromotionAction,
  PromotionCondition,
} from "../../lib/promotions/engine.ts";
import { PLACED_STATUSES } from "../orders/order-status.ts";

/**
 * The shop's promotions as stored (migration 0500, decision 033): read for the engine, with what
 * is left of their limits and budgets. Their uses — taken when an order is placed, given back
 * with it — are promotion-redemptions.server.ts.
 */

const cents = z.number().int().min(0).max(100_000_000);
const basisPoints = z.number().int().min(0).max(10_000);
const count = z.number().int().min(1).max(1_000);
const ids = z.array(z.number().int().positive()).max(1_000);
const names = z.array(z.string().min(1).max(200)).max(1_000);
const target = z.strictObject({
  productIds: ids.optional(),
  variantIds: ids.optional(),
  categories: names.optional(),
  brands: names.optional(),
});

export const conditionSchema: z.ZodType<PromotionCondition> = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("min-subtotal"), cents }),
  z.strictObject({ type: z.literal("min-quantity"), quantity: count }),
  z.strictObject({ type: z.literal("items"), target, quantity: count }),
  z.strictObject({ type: z.literal("customer-group"), groupIds: ids.min(1) }),
  z.strictObject({ type: z.literal("first-order") }),
  z.strictObject({ type: z.literal("signed-in") }),
  z.strictObject({ type: z.literal("zone"), zoneIds: names.min(1) }),
]);

const selection = z.enum(["all", "cheapest", "most-expensive"]);
const maxTimes = z.number().int().min(1).max(1_000).nullable();

export const actionSchema: z.ZodType<PromotionAction> = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("order-percent"), basisPoints }),
  z.strictObject({ type: z.literal("order-fixed"), cents }),
  z.strictObject({ type: z.literal("items-percent"), target, basisPoints, apply: selection }),
  z.strictObject({ type: z.literal("items-fixed"), target, cents, apply: selection }),
  z.strictObject({
    type: z.literal("buy-x-get-y"),
    buy: z.strictObject({ target, quantity: count }),
    get: z.strictObject({ target, quantity: count }),
    basisPoints,
    maxTimes,
  }),
  z.strictObject({ type: z.literal("set-price"), target, quantity: count, priceCents: cents, maxTimes }),
  z.strictObject({ type: z.literal("free-shipping"), methods: names.min(1).nullable() }),
]);

export const conditionsSchema = z.array(conditionSchema).max(20);

type PromotionRow = Pick<
  PromotionsTable,
  "name" | "code" | "startsAt" | "endsAt" | "campaignId" | "usageLimit" | "perCustomerLimit"
> & {
  id: number;
  conditions: string;
  action: string;
  priority: number;
  combines: 0 | 1;
  usedCount: number;
};

type ParsedTerms = { conditions: PromotionCondition[]; action: PromotionAction } | null;

function termsOf(row: PromotionRow): ParsedTerms {
  let raw: { conditions: unknown; action: unknown };
  try {
    raw = { conditions: JSON.parse(row.conditions), action: JSON.parse(row.action) };
  } catch {
    raw = { conditions: null, action: null };
  }
  const conditions = conditionsSchema.safeParse(raw.conditions);
  const action = actionSchema.safeParse(raw.action);
  if (conditions.success && action.success) return { conditions: conditions.data, action: action.data };
  logger.warn({ promotionId: row.id }, "a stored promotion does not parse; it is left out");
  return null;
}

/** A stored promotion for the engine; null (logged) when its JSON is not one the engine knows. */
function promotionOf(row: PromotionRow): Promotion | null {
  const terms = termsOf(row);
  if (!terms) return null;
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    conditions: terms.conditions,
    action: terms.action,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    priority: row.priority,
    combines: row.combines === 1,
    campaignId: row.campaignId,
  };
}

/** An active promotion as a process keeps it: its terms parsed, its limits' settings (never its count). */
interface KeptPromotion {
  promotion: Promotion;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  uniqueCodes: boolean;
}

/**
 * The active promotions each process keeps per database while `promotion_revision` stands: the
 * database moves it on every change of a promotion's terms (the triggers of migration 0700), never
 * on a use, so a cart read asks for the revision in its own statement, and for counts only where a
 * limit needs them (100 promotions read and parsed per cart cost Place Order a quarter of its
 * orders/s, bench checkout). The values are shared between requests and never changed.
 */
const kept = new WeakMap<Database, { revision: number; promotions: KeptPromotion[] }>();

/** The promotions' revision (see `kept`). */
export async function promotionRevision(db: Database): Promise<number> {
  const row = await db
    .selectFrom("promotionRevision")
    .select("revision")
    .where("id", "=", 1)
    .executeTakeFirst();
  return row?.revision ?? 0;
}

async function activePromotions(db: Database, revision: number): Promise<KeptPromotion[]> {
  const cached = kept.get(db);
  if (cached?.revision === revision) return cached.promotions;
  const rows = await db
    .selectFrom("promotions")
    .select([
      "id",
      "name",
      "code",
      "conditions",
      "action",
      "startsAt",
      "endsAt",
      "priority",
      "combines",
      "campaignId",
      "usageLimit",
      "usedCount",
      "perCustomerLimit",
      "uniqueCodes",
    ])
    .where("active", "=", 1)
    .orderBy("id")
    .execute();
  const promotions = rows.flatMap((row): KeptPromotion[] => {
    const promotion = promotionOf(row);
    if (!promotion) return [];
    const { usageLimit, perCustomerLimit } = row;
    return [{ promotion, usageLimit, perCustomerLimit, uniqueCodes: row.uniqueCodes === 1 }];
  });
  kept.set(db, { revision, promotions });
  return promotions;
}

/** The catalogue promotions (`isCataloguePromotion`, decision 035) among the active ones, per revision. */
const catalogueKept = new WeakMap<KeptPromotion[], Promotion[]>();

function catalogueOf(promotions: KeptPromotion[]): Promotion[] {
  let catalogue = catalogueKept.get(promotions);
  if (!catalogue) {
    catalogue = promotions.flatMap((kept) =>
      isCataloguePromotion(kept.promotion, kept) ? [kept.promotion] : [],
    );
    catalogueKept.set(promotions, catalogue);
  }
  return catalogue;
}

/**
 * The active catalogue promotions (decision 035), in any window: the storefront prices with those
 * live at its moment (`salePrice`). Kept with the active promotions, so one read of the revision.
 */
export async function cataloguePromotions(db: Database, revision?: number): Promise<Promotion[]> {
  return catalogueOf(await activePromotions(db, revision ?? (await promotionRevision(db))));
}

/**
 * The first start or end after `now` (ms) of a catalogue promotion this process last read for `db`
 * (null: none, or none read yet): a page kept by the page cache is not served past it.
 */
export function nextCatalogueBoundary(db: Database, now: number): number | null {
  const cached = kept.get(db);
  return cached ? nextBoundary(catalogueOf(cached.promotions), now) : null;
}

/** Whether a promotion's window holds `at` (ISO text, as stored). */
function inWindow({ startsAt, endsAt }: Promotion, at: string): boolean {
  return (endsAt === null || endsAt > at) && (startsAt === null || startsAt <= at);
}

/** Whether any active promotion is automatic and in its window at `now` (a cart without codes needs no more). */
export async function anyAutomaticLive(db: Database, revision: number, now: Date): Promise<boolean> {
  const at = now.toISOString();
  return (await activePromotions(db, revision)).some(
    (kept) => kept.promotion.code === null && !kept.uniqueCodes && inWindow(kept.promotion, at),
  );
}

/** Who a use counts against: the account when signed in, else the e-mail address. */
export function customerKeyOf({ userId, email }: { userId?: string | null; email: string }): string {
  return userId ? `user:${userId}` : `email:${email.trim().toLowerCase()}`;
}

/** Whether the shopper has placed an order before (by account, else by e-mail): first-order conditions. */
export async function hasOrdered(db: Database, shopper: { userId?: string | null; email?: string | null }) {
  if (!shopper.userId && !shopper.email) return false;
  const row = await db
    .selectFrom("orders")
    .select("id")
    .where("status", "in", PLACED_STATUSES)
    .where((eb) =>
      shopper.userId
        ? eb("userId", "=", shopper.userId)
        : eb(eb.fn("lower", ["email"]), "=", shopper.email!.trim().toLowerCase()),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The single-use codes among `codes` (by the unique index), with their promotion and whether used. */
export async function findSingleUseCodes(db: Database, codes: readonly string[]) {
  if (codes.length === 0) return [];
  return db
    .selectFrom("promotionCodes")
    .select(["promotionId", "code", "usedAt"])
    .where("code", "in", [...codes])
    .execute();
}

/** What the engine needs from the database: the live promotions and their limits for one shopper. */
export interface PromotionState {
  promotions: Promotion[];
  exhausted: Map<number, LimitReached>;
  /** what is left of each campaign's budget (campaigns without one are absent) */
  budgets: Map<number, number>;
}

/**
 * The active promotions for a cart at `now` — automatic ones in their window, and those with one of
 * `codes` in any (the engine refuses one outside its window with the reason) — with their limits as
 * they stand for `customerKey` (null: not known yet — per-customer limits are then decided at Place
 * Order).
 */
export async function readPromotionState(
  db: Database,
  {
    now,
    codes,
    customerKey,
    revision,
    anyWindow = false,
  }: {
    now: Date;
    codes: readonly string[];
    customerKey: string | null;
    /** the promotions' revision, when the caller read it already */
    revision?: number;
    /** also those outside their window (the admin's simulator: the engine says which and why) */
    anyWindow?: boolean;
  },
): Promise<PromotionState> {
  const at = now.toISOString();
  const active = await activePromotions(db, revision ?? (await promotionRevision(db)));
  // single-use codes entered: their promotions are read with them, a used one as used up
  const singleUse = await findSingleUseCodes(db, codes);
  const singleUseOf = new Map(singleUse.map((row) => [Number(row.promotionId), row]));
  const chosen = active.filter(({ promotion, uniqueCodes }) => {
    // a code the shopper entered is read in any window: the engine says why it does not apply
    // ("This coupon has expired.", as a coupon said it)
    if (uniqueCodes) return singleUseOf.has(promotion.id);
    if (promotion.code !== null) return codes.includes(promotion.code);
    return anyWindow || inWindow(promotion, at);
  });
  const exhausted = new Map<number, LimitReached>();
  const limited = chosen.filter((kept) => kept.usageLimit !== null);
  if (limited.length > 0) {
    const counts = await db
      .selectFrom("promotions")
      .select(["id", "usedCount"])
      .where(
        "id",
        "in",
        limited.map((kept) => kept.promotion.id),
      )
      .execute();
    const usedCount = new Map(counts.map((row) => [row.id, row.usedCount]));
    for (const { promotion, usageLimit } of limited) {
      if ((usedCount.get(promotion.id) ?? 0) >= usageLimit!) exhausted.set(promotion.id, "uses");
    }
  }
  for (const { promotion, uniqueCodes } of chosen) {
    if (uniqueCodes && singleUseOf.get(promotion.id)?.usedAt) exhausted.set(promotion.id, "uses");
  }
  const perCustomer = chosen.filter(
    (kept) => kept.perCustomerLimit !== null && !exhausted.has(kept.promotion.id),
  );
  if (customerKey && perCustomer.length > 0) {
    const used = await db
      .selectFrom("promotionRedemptions")
      .select((eb) => ["promotionId", eb.fn.countAll<number>().as("uses")])
      .where("customerKey", "=", customerKey)
      .where(
        "promotionId",
        "in",
        perCustomer.map((kept) => kept.promotion.id),
      )
      .groupBy("promotionId")
      .execute();
    const uses = new Map(used.map((row) => [row.promotionId, Number(row.uses)]));
    for (const { promotion, perCustomerLimit } of perCustomer) {
      if ((uses.get(promotion.id) ?? 0) >= perCustomerLimit!) exhausted.set(promotion.id, "customer-uses");
    }
  }
  const campaignIds = [
    ...new Set(
      chosen.flatMap(({ promotion }) => (promotion.campaignId === null ? [] : [promotion.campaignId])),
    ),
  ];
  const budgets = new Map<number, number>();
  if (campaignIds.length > 0) {
    const campaigns = await db
      .selectFrom("promotionCampaigns")
      .select(["id", "budgetCents", "spentCents"])
      .where("id", "in", campaignIds)
      .execute();
    for (const campaign of campaigns) {
      if (campaign.budgetCents !== null) budgets.set(campaign.id, campaign.budgetCents - campaign.spentCents);
    }
  }
  const promotions = chosen.map(({ promotion, uniqueCodes }) => {
    if (!uniqueCodes) return promotion;
    // one of its codes was entered: the engine matches it as the promotion's code
    return { ...promotion, code: singleUseOf.get(promotion.id)!.code, singleUse: true };
  });
  return { promotions, exhausted, budgets };
}
