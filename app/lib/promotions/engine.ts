import { allocate, divideRounded } from "../order-calculator.ts";

/**
 * The promotion engine (issue 31): which of the shop's promotions apply to a cart and what each
 * takes off — from lines, from the order, from shipping — as the order calculator's input (a
 * promotion changes that input, never its arithmetic: order-calculator.ts). Pure: what the
 * database knows (the cart, the shopper, the limits used up, the campaigns' budgets) comes in.
 *
 * How a cart is priced, in this order:
 * 1. Candidates: every automatic promotion, and those whose code the shopper entered; by priority
 *    (higher first), then by id (older first). The same order decides stacking.
 * 2. Each candidate is refused when `now` is outside its window [startsAt, endsAt), a limit of it is
 *    used up, or a condition fails (the first one, with what is missing to meet it when that can be
 *    counted: cents or units). Conditions read the cart as it is, before any discount.
 * 3. The eligible ones apply by kind — product promotions, then order ones, then shipping ones —
 *    each kind joined by `stackingBlocker`. A product promotion takes from units (never below
 *    zero), an order one from what the lines still cost, a shipping one from what shipping still
 *    costs; each percentage is of what is left when it applies; a campaign's promotions together
 *    never take more than its budget left. One that finds nothing to take is refused and blocks
 *    nothing.
 */

export const PROMOTION_KINDS = ["product", "order", "shipping"] as const;
/** what a promotion takes from: stacking is decided within a kind */
export type PromotionKind = (typeof PROMOTION_KINDS)[number];

/**
 * Which items a condition counts or an action takes from: an item matches when it is one of the
 * products or variants, or in one of the categories or brands, listed; nothing listed matches all.
 */
export interface ItemTarget {
  productIds?: readonly number[];
  variantIds?: readonly number[];
  categories?: readonly string[];
  brands?: readonly string[];
}

export type PromotionCondition =
  /** the lines' amount before discounts */
  | { type: "min-subtotal"; cents: number }
  | { type: "min-quantity"; quantity: number }
  /** at least `quantity` units of the target in the cart */
  | { type: "items"; target: ItemTarget; quantity: number }
  | { type: "customer-group"; groupIds: readonly number[] }
  | { type: "first-order" }
  | { type: "signed-in" }
  | { type: "zone"; zoneIds: readonly string[] };

/** Which matching units an items action takes from. */
export type ItemSelection = "all" | "cheapest" | "most-expensive";

export type PromotionAction =
  | { type: "order-percent"; basisPoints: number }
  | { type: "order-fixed"; cents: number }
  /** a percentage off each selected unit */
  | { type: "items-percent"; target: ItemTarget; basisPoints: number; apply: ItemSelection }
  /** an amount off each selected unit */
  | { type: "items-fixed"; target: ItemTarget; cents: number; apply: ItemSelection }
  /**
   * for every `buy` units bought, `get` more units at `basisPoints` off (10 000: free), as many
   * times as the cart holds (at most `maxTimes`); the cheapest get-units are the ones discounted
   */
  | {
      type: "buy-x-get-y";
      buy: { target: ItemTarget; quantity: number };
      get: { target: ItemTarget; quantity: number };
      basisPoints: number;
      maxTimes: number | null;
    }
  /** `quantity` units of the target for `priceCents` ("3 for $50"), as many sets as the cart holds */
  | { type: "set-price"; target: ItemTarget; quantity: number; priceCents: number; maxTimes: number | null }
  /** shipping free, by these methods' codes (null: any) */
  | { type: "free-shipping"; methods: readonly string[] | null };

export interface Promotion {
  id: number;
  name: string;
  /** the code that applies it (stored upper-case), or null: automatic */
  code: string | null;
  conditions: readonly PromotionCondition[];
  action: PromotionAction;
  /** ISO instants; null: open */
  startsAt: string | null;
  endsAt: string | null;
  /** higher applies first */
  priority: number;
  /** whether it applies beside other promotions of its kind */
  combines: boolean;
  /** the campaign whose budget it spends, if any */
  campaignId: number | null;
  /** `code` is one of its single-use codes (taken by the order that uses it) */
  singleUse?: boolean;
}

export interface PromotionLine {
  key: string;
  productId: number;
  variantId: number;
  /** the product's category slug */
  category: string;
  brand: string;
  unitPriceCents: number;
  quantity: number;
  /**
   * promotions whose actions take nothing from this line's units (its conditions still count it):
   * a line at a member price is not also on a catalogue sale (price lists, decision 037)
   */
  excludedPromotionIds?: readonly number[];
}

/** A limit of a promotion that is used up (counted by the database before pricing). */
export type LimitReached = "uses" | "customer-uses";

export interface PromotionContext {
  now: Date;
  signedIn: boolean;
  groupIds: readonly number[];
  /** the shopper has no earlier order (by account, or by e-mail for a guest) */
  firstOrder: boolean;
  zoneId: string | null;
  /** the shipping method chosen or estimated, at its price; null while unknown */
  shipping: { methodCode: string; priceCents: number } | null;
  /** the codes the shopper entered, upper-case */
  codes: readonly string[];
  exhausted?: ReadonlyMap<number, LimitReached>;
  /** what is left of each campaign's budget, in cents (a campaign missing here has no budget) */
  budgets?: ReadonlyMap<number, number>;
}

/** What is missing to meet a condition, when it can be counted. */
export type Shortfall = { cents: number } | { units: number; target: ItemTarget | null };

export type Refusal =
  | { reason: "not-started" }
  | { reason: "ended" }
  | { reason: "limit"; limit: LimitReached }
  | { reason: "condition"; condition: PromotionCondition; shortfall: Shortfall | null }
  /** its action found nothing to take from; `shortfall`: the units that would make it apply */
  | { reason: "nothing-to-discount"; shortfall: Shortfall | null }
  | { reason: "does-not-combine"; with: number }
  | { reason: "budget-spent" };

export interface AppliedPromotion {
  promotion: Promotion;
  kind: PromotionKind;
  amountCents: number;
}

export interface PromotionResult {
  /** what product promotions took from each line, by key (never more than the line's amount) */
  lineDiscounts: Map<string, number>;
  /** off the order, after the lines' own discounts (never more than they still cost) */
  orderDiscountCents: number;
  /** off shipping (never more than its price) */
  shippingDiscountCents: number;
  applied: AppliedPromotion[];
  refused: { promotion: Promotion; refusal: Refusal }[];
}

export function kindOf(action: PromotionAction): PromotionKind {
  switch (action.type) {
    case "order-percent":
    case "order-fixed":
      return "order";
    case "free-shipping":
      return "shipping";
    default:
      return "product";
  }
}

/**
 * The stacking rule: whether `candidate` may join the promotions of its kind already applied
 * (`applied`, all of higher or equal precedence). It may when none applied yet, or when it and every
 * one applied combine; otherwise the answer is the promotion it yields to — the first applied one
 * that does not combine, else the first applied one. So a promotion that does not combine applies
 * alone in its kind when it comes first, and not at all after another.
 */
export function stackingBlocker(applied: readonly Promotion[], candidate: Promotion): Promotion | null {
  const [first] = applied;
  if (!first) return null;
  const exclusive = applied.find((promotion) => !promotion.combines);
  if (exclusive) return exclusive;
  return candidate.combines ? null : first;
}

/** The order promotions are considered in: priority (higher first), then id (older first). */
export function byPrecedence(a: Promotion, b: Promotion): number {
  return b.priority - a.priority || a.id - b.id;
}

/** `amount` × `basisPoints` / 10 000, rounded half up. */
const percentOf = (amount: number, basisPoints: number) => divideRounded(amount * basisPoints, 10_000);

export function matches(target: ItemTarget | null | undefined, line: PromotionLine): boolean {
  if (!target) return true;
  const lists = [target.productIds, target.variantIds, target.categories, target.brands];
  if (lists.every((list) => !list || list.length === 0)) return true;
  return (
    (target.productIds?.includes(line.productId) ?? false) ||
    (target.variantIds?.includes(line.variantId) ?? false) ||
    (target.categories?.includes(line.category) ?? false) ||
    (target.brands?.includes(line.brand) ?? false)
  );
}

/** Units of a cart, each with what is left of its price. */
interface Unit {
  line: number;
  price: number;
  left: number;
}

/** Conditions on what the cart holds: adding to the cart can meet them. */
const isCartCondition = (condition: PromotionCondition) =>
  condition.type === "min-subtotal" || condition.type === "min-quantity" || condition.type === "items";

/**
 * The first condition the cart fails, with what is missing; null when all hold. Those about the
 * shopper and the destination are checked first, so a refusal for what the cart holds means the
 * rest hold (the cart's explainer can say what to add).
 */
function failedCondition(
  conditions: readonly PromotionCondition[],
  lines: readonly PromotionLine[],
  context: PromotionContext,
  totals: CartTotals,
): Extract<Refusal, { reason: "condition" }> | null {
  for (const aboutTheCart of [false, true]) {
    for (const condition of conditions) {
      if (isCartCondition(condition) !== aboutTheCart) continue;
      const shortfall = conditionShortfall(condition, lines, context, totals);
      if (shortfall !== true) return { reason: "condition", condition, shortfall };
    }
  }
  return null;
}

/** true when the condition holds, else what is missing (null when it cannot be counted). */
/** The cart's subtotal and units before any discount (what conditions read), counted once per pricing. */
interface CartTotals {
  subtotal: number;
  units: number;
}

function conditionShortfall(
  condition: PromotionCondition,
  lines: readonly PromotionLine[],
  context: PromotionContext,
  totals: CartTotals,
): true | Shortfall | null {
  switch (condition.type) {
    case "min-subtotal":
      return totals.subtotal >= condition.cents ? true : { cents: condition.cents - totals.subtotal };
    case "min-quantity":
      return totals.units >= condition.quantity
        ? true
        : { units: condition.quantity - totals.units, target: null };
    case "items": {
      const units = lines.reduce(
        (sum, line) => sum + (matches(condition.target, line) ? line.quantity : 0),
        0,
      );
      return units >= condition.quantity
        ? true
        : { units: condition.quantity - units, target: condition.target };
    }
    case "customer-group":
      return context.groupIds.some((id) => condition.groupIds.includes(id)) ? true : null;
    case "first-order":
      return context.firstOrder ? true : null;
    case "signed-in":
      return context.signedIn ? true : null;
    case "zone":
      return context.zoneId !== null && condition.zoneIds.includes(context.zoneId) ? true : null;
  }
}

/**
 * An ISO instant in milliseconds, remembered: a cart is priced against the same few windows again
 * and again, and parsing them was a third of the engine's time (bench: 1 000 promotions).
 */
const instants = new Map<string, number>();
function instant(iso: string): number {
  let at = instants.get(iso);
  if (at === undefined) {
    if (instants.size >= 10_000) instants.clear();
    at = Date.parse(iso);
    instants.set(iso, at);
  }
  return at;
}

/** Why a promotion cannot apply before its action is tried (window, limits, conditions); null: eligible. */
function ineligibility(
  promotion: Promotion,
  lines: readonly PromotionLine[],
  context: PromotionContext,
  totals: CartTotals,
): Refusal | null {
  const now = context.now.getTime();
  if (promotion.startsAt !== null && now < instant(promotion.startsAt)) return { reason: "not-started" };
  if (promotion.endsAt !== null && now >= instant(promotion.endsAt)) return { reason: "ended" };
  const limit = context.exhausted?.get(promotion.id);
  if (limit) return { reason: "limit", limit };
  return failedCondition(promotion.conditions, lines, context, totals);
}

/** What a product action would take, per unit (indexes into `units`), or why it takes nothing. */
function productTake(
  promotionId: number,
  action: Exclude<PromotionAction, { type: "order-percent" | "order-fixed" | "free-shipping" }>,
  lines: readonly PromotionLine[],
  units: readonly Unit[],
): { take: Map<number, number> } | { shortfall: Shortfall | null } {
  const take = new Map<number, number>();
  /** the units of lines the target matches (each line asked once) that still cost something */
  const matching = (target: ItemTarget) => {
    const lineMatches = lines.map(
      (line) => matches(target, line) && !line.excludedPromotionIds?.includes(promotionId),
    );
    const found: number[] = [];
    for (let index = 0; index < units.length; index++) {
      const unit = units[index]!;
      if (unit.left > 0 && lineMatches[unit.line]) found.push(index);
    }
    return found;
  };
  // cheapest first by what is left, ties by the cart's order
  const ascending = (a: number, b: number) => units[a]!.left - units[b]!.left || a - b;
  switch (action.type) {
    case "items-percent":
    case "items-fixed": {
      const found = matching(action.target);
      // the cheapest is the first in `ascending` order, the dearest the last (no sort needed)
      const pick = (better: (a: number, b: number) => boolean) =>
        found.length === 0 ? [] : [found.reduce((best, index) => (better(index, best) ? index : best))];
      const chosen =
        action.apply === "all"
          ? found
          : action.apply === "cheapest"
            ? pick((a, b) => ascending(a, b) < 0)
            : pick((a, b) => ascending(a, b) > 0);
      for (const index of chosen) {
        const left = units[index]!.left;
        const off =
          action.type === "items-percent"
            ? percentOf(left, action.basisPoints)
            : Math.min(action.cents, left);
        if (off > 0) take.set(index, off);
      }
      return take.size > 0
        ? { take }
        : { shortfall: found.length === 0 ? { units: 1, target: action.target } : null };
    }
    case "buy-x-get-y": {
      const buyable = new Set(matching(action.buy.target));
      const gettable = new Set(matching(action.get.target));
      // bought: units that cannot be got first, dearest first; got: units that cannot be bought
      // first, cheapest first — so as many applications fit as the cart holds
      const buyOrder = [...buyable].sort((a, b) => +gettable.has(a) - +gettable.has(b) || ascending(b, a));
      const getOrder = [...gettable].sort((a, b) => +buyable.has(a) - +buyable.has(b) || ascending(a, b));
      const used = new Set<number>();
      const cursor = { buy: 0, get: 0 };
      /** the next `count` units of `order` not used yet, from `cursor[side]` on (all earlier ones are) */
      const pick = (side: "buy" | "get", order: readonly number[], count: number) => {
        const picked: number[] = [];
        while (picked.length < count && cursor[side] < order.length) {
          const index = order[cursor[side]++]!;
          if (!used.has(index)) {
            picked.push(index);
            used.add(index);
          }
        }
        return picked.length === count ? picked : null;
      };
      let times = 0;
      while (action.maxTimes === null || times < action.maxTimes) {
        if (!pick("buy", buyOrder, action.buy.quantity)) break;
        const got = pick("get", getOrder, action.get.quantity);
        if (!got) break;
        for (const index of got) {
          const off = percentOf(units[index]!.left, action.basisPoints);
          if (off > 0) take.set(index, off);
        }
        times++;
      }
      if (take.size > 0) return { take };
      return { shortfall: missingForBuyXGetY(buyable, gettable, action) };
    }
    case "set-price": {
      const found = matching(action.target).sort((a, b) => ascending(b, a));
      let times = 0;
      for (let start = 0; start + action.quantity <= found.length; start += action.quantity) {
        if (action.maxTimes !== null && times >= action.maxTimes) break;
        const set = found.slice(start, start + action.quantity);
        const lefts = set.map((index) => units[index]!.left);
        const over = lefts.reduce((a, b) => a + b, 0) - action.priceCents;
        if (over <= 0) break; // dearest sets first: the rest cost no more than the set price either
        allocate(over, lefts).forEach((off, k) => {
          if (off > 0) take.set(set[k]!, off);
        });
        times++;
      }
      return take.size > 0
        ? { take }
        : {
            shortfall:
              found.length < action.quantity
                ? { units: action.quantity - found.length, target: action.target }
                : null,
          };
    }
  }
}

/** The units to add for one buy-x-get-y application (of the buy target first, then the get target). */
function missingForBuyXGetY(
  buyable: ReadonlySet<number>,
  gettable: ReadonlySet<number>,
  action: Extract<PromotionAction, { type: "buy-x-get-y" }>,
): Shortfall | null {
  const both = [...buyable].filter((index) => gettable.has(index)).length;
  const buyOnly = buyable.size - both;
  const missingBuy = Math.max(0, action.buy.quantity - buyable.size);
  // what is left to get once buying took what it needs, from units that cannot be got first
  const bothLeft = Math.max(0, both - Math.max(0, action.buy.quantity - buyOnly));
  const missingGet = Math.max(0, action.get.quantity - (gettable.size - both + bothLeft));
  if (missingBuy > 0 && missingGet > 0 && sameTarget(action.buy.target, action.get.target)) {
    return { units: missingBuy + missingGet, target: action.buy.target };
  }
  if (missingBuy > 0) return { units: missingBuy, target: action.buy.target };
  if (missingGet > 0) return { units: missingGet, target: action.get.target };
  return null;
}

function sameTarget(a: ItemTarget, b: ItemTarget): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Why an order or shipping promotion took nothing: its campaign's budget, else nothing was left. */
function tookNothing(budget: number | undefined): Refusal {
  return budget === 0 ? { reason: "budget-spent" } : { reason: "nothing-to-discount", shortfall: null };
}

/** Prices `lines` with the shop's `promotions` (see the module's comment). */
export function applyPromotions(
  promotions: readonly Promotion[],
  lines: readonly PromotionLine[],
  context: PromotionContext,
): PromotionResult {
  const refused: PromotionResult["refused"] = [];
  const applied: AppliedPromotion[] = [];
  const budgets = new Map(context.budgets ?? []);
  const units: Unit[] = lines.flatMap((line, index) =>
    Array.from({ length: line.quantity }, () => ({
      line: index,
      price: line.unitPriceCents,
      left: line.unitPriceCents,
    })),
  );
  const candidates = promotions
    .filter((promotion) => promotion.code === null || context.codes.includes(promotion.code))
    .sort(byPrecedence);
  const eligible: Promotion[] = [];
  const totals: CartTotals = {
    subtotal: lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0),
    units: lines.reduce((sum, line) => sum + line.quantity, 0),
  };
  for (const promotion of candidates) {
    const refusal = ineligibility(promotion, lines, context, totals);
    if (refusal) refused.push({ promotion, refusal });
    else eligible.push(promotion);
  }

  let orderDiscount = 0;
  let shippingDiscount = 0;
  const byKind = new Map<PromotionKind, Promotion[]>(PROMOTION_KINDS.map((kind) => [kind, []]));
  for (const promotion of eligible) byKind.get(kindOf(promotion.action))!.push(promotion);
  for (const kind of PROMOTION_KINDS) {
    const joined: Promotion[] = [];
    for (const promotion of byKind.get(kind)!) {
      const blocker = stackingBlocker(joined, promotion);
      if (blocker) {
        refused.push({ promotion, refusal: { reason: "does-not-combine", with: blocker.id } });
        continue;
      }
      const budget = promotion.campaignId === null ? undefined : budgets.get(promotion.campaignId);
      let amount: number;
      const action = promotion.action;
      if (action.type === "order-percent" || action.type === "order-fixed") {
        const left = units.reduce((sum, unit) => sum + unit.left, 0) - orderDiscount;
        amount = Math.min(
          action.type === "order-percent" ? percentOf(left, action.basisPoints) : action.cents,
          left,
          budget ?? Number.POSITIVE_INFINITY,
        );
        if (amount <= 0) {
          refused.push({ promotion, refusal: tookNothing(budget) });
          continue;
        }
        orderDiscount += amount;
      } else if (action.type === "free-shipping") {
        const shipping = context.shipping;
        const left =
          shipping && (action.methods === null || action.methods.includes(shipping.methodCode))
            ? shipping.priceCents - shippingDiscount
            : 0;
        amount = Math.min(left, budget ?? Number.POSITIVE_INFINITY);
        if (amount <= 0) {
          refused.push({ promotion, refusal: tookNothing(budget) });
          continue;
        }
        shippingDiscount += amount;
      } else {
        const outcome = productTake(promotion.id, action, lines, units);
        if (!("take" in outcome)) {
          refused.push({
            promotion,
            refusal: { reason: "nothing-to-discount", shortfall: outcome.shortfall },
          });
          continue;
        }
        let take = [...outcome.take];
        const wanted = take.reduce((sum, [, off]) => sum + off, 0);
        if (budget !== undefined && wanted > budget) {
          const capped = allocate(
            budget,
            take.map(([, off]) => off),
          );
          take = take.map(([index], k) => [index, capped[k]!]);
        }
        amount = take.reduce((sum, [, off]) => sum + off, 0);
        if (amount <= 0) {
          refused.push({ promotion, refusal: { reason: "budget-spent" } });
          continue;
        }
        for (const [index, off] of take) units[index]!.left -= off;
      }
      if (budget !== undefined && promotion.campaignId !== null)
        budgets.set(promotion.campaignId, budget - amount);
      joined.push(promotion);
      applied.push({ promotion, kind, amountCents: amount });
    }
  }

  const lineDiscounts = new Map<string, number>();
  for (const unit of units) {
    const key = lines[unit.line]!.key;
    lineDiscounts.set(key, (lineDiscounts.get(key) ?? 0) + (unit.price - unit.left));
  }
  return {
    lineDiscounts,
    orderDiscountCents: orderDiscount,
    shippingDiscountCents: shippingDiscount,
    applied,
    refused,
  };
}
