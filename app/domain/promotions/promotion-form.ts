/**
 * The promotion forms (Admin → Promotions, issue 31): the fields, labels and messages of a
 * promotion — what it does (its action, chosen first: the form shows only that action's fields), when
 * it applies (its conditions), how often (its limits) and when (its schedule) — the values shown for a
 * stored promotion, the typed input the domain takes, and the words the list and the simulator use to
 * describe a promotion and why one did not apply. Pure: the rules are promotion-schema.server.ts's,
 * the writes promotion-admin.server.ts's.
 *
 * Percentages are typed with up to 2 decimals and kept in basis points; amounts in the shop's
 * currency and kept in cents; the schedule on the shop's clocks (its time zone, Admin → Settings).
 */

import { CATEGORIES, type CategoryId } from "../../lib/catalog-constants.ts";
import { type Currency, formatMoney } from "../../lib/money.ts";
import type {
  ItemSelection,
  ItemTarget,
  LimitReached,
  PromotionAction,
  PromotionCondition,
  Refusal,
} from "../../lib/promotions/engine.ts";
import { formatDateTimeIn, localOf } from "../../lib/time-zones.ts";

export const PROMOTION_LIMITS = {
  name: 120,
  code: 32,
  /** products or SKUs, brands: per target */
  refs: 100,
  brands: 50,
  quantity: 1_000,
  priority: 1_000,
  uses: 1_000_000,
  /** the largest amount, in the currency's units */
  amount: 100_000,
} as const;

export const ACTION_TYPES = [
  "order-percent",
  "order-fixed",
  "items-percent",
  "items-fixed",
  "buy-x-get-y",
  "set-price",
  "free-shipping",
] as const satisfies readonly PromotionAction["type"][];
export type ActionType = (typeof ACTION_TYPES)[number];

export const ACTION_LABELS: Record<ActionType, { label: string; hint: string }> = {
  "order-percent": { label: "Percentage off the order", hint: "e.g. 10% off everything in the cart" },
  "order-fixed": { label: "Amount off the order", hint: "e.g. $5 off orders over $40" },
  "items-percent": {
    label: "Percentage off products",
    hint: "e.g. 20% off all shoes, or off the cheapest item",
  },
  "items-fixed": { label: "Amount off products", hint: "e.g. $3 off each T-shirt" },
  "buy-x-get-y": {
    label: "Buy X get Y",
    hint: "e.g. buy 2 get 1 free, repeated for every 3 in the cart",
  },
  "set-price": { label: "Fixed price for a set", hint: "e.g. 3 for $50" },
  "free-shipping": { label: "Free shipping", hint: "by every method, or only some" },
};

export const SELECTION_LABELS: Record<ItemSelection, string> = {
  all: "Every matching item",
  cheapest: "The cheapest matching item",
  "most-expensive": "The most expensive matching item",
};
export const SELECTIONS = Object.keys(SELECTION_LABELS) as ItemSelection[];

export const PROMOTION_MESSAGES = {
  invalid: "Please correct the highlighted fields.",
  created: (name: string) => `Promotion ${name} created`,
  saved: (name: string) => `Promotion ${name} saved`,
  unchanged: "Nothing changed",
  enabled: (name: string) => `Promotion ${name} enabled`,
  disabled: (name: string) => `Promotion ${name} disabled`,
  campaignCreated: (name: string) => `Campaign ${name} created`,
  notFound: "This promotion no longer exists.",
  badRequest: "Unknown action.",
  name: `Enter the promotion's name (at most ${PROMOTION_LIMITS.name} characters).`,
  code: "Codes use 3–32 letters, digits, dashes or underscores.",
  codeTaken: "This code is already in use by another promotion.",
  singleUse: "This promotion is applied by its single-use codes: leave the code empty.",
  date: "Enter a date and time, e.g. 2026-12-01 09:00.",
  endBeforeStart: "The end must come after the start.",
  priority: `Enter a whole number from 0 to ${PROMOTION_LIMITS.priority} (higher applies first).`,
  uses: `Enter a whole number from 1 to ${PROMOTION_LIMITS.uses.toLocaleString("en-US")}, or leave it empty for no limit.`,
  usageBelowUsed: (used: number) => `The limit cannot be below the ${used} uses already made.`,
  campaign: "Choose a campaign from the list.",
  percent: "Enter a percentage from 0.01 to 100.",
  amount: `Enter an amount from 0.01 to ${PROMOTION_LIMITS.amount.toLocaleString("en-US")}.00.`,
  price: `Enter a price from 0.00 to ${PROMOTION_LIMITS.amount.toLocaleString("en-US")}.00.`,
  minSubtotal: `Enter an amount from 0.00 to ${PROMOTION_LIMITS.amount.toLocaleString("en-US")}.00, or leave it empty.`,
  quantity: `Enter a whole number from 1 to ${PROMOTION_LIMITS.quantity}.`,
  optionalQuantity: `Enter a whole number from 1 to ${PROMOTION_LIMITS.quantity}, or leave it empty.`,
  maxTimes: `Enter a whole number from 1 to ${PROMOTION_LIMITS.quantity}, or leave it empty for no maximum.`,
  selection: "Choose which items it takes from.",
  category: "Choose categories from the list.",
  refs: `List at most ${PROMOTION_LIMITS.refs} products or SKUs, separated by commas.`,
  brands: `List at most ${PROMOTION_LIMITS.brands} brands, separated by commas.`,
  unknownRefs: (refs: readonly string[]) =>
    `No product or SKU ${refs.map((ref) => `“${ref}”`).join(", ")}: use a SKU, or the product's address name (e.g. classic-tee).`,
  methods: "Choose shipping methods from the list.",
  zones: "Choose zones from the list.",
  groups: "Choose customer groups from the list.",
  itemsTarget: "Name the products, categories or brands the cart must hold.",
  campaignName: "Enter the campaign's name (at most 120 characters).",
  budget: `Enter a budget from 0.01 to ${PROMOTION_LIMITS.amount.toLocaleString("en-US")}.00, or leave it empty for none.`,
} as const;

/** A target as typed: products or SKUs and brands as comma-separated text, categories ticked. */
export interface TargetValues {
  refs: string;
  categories: string[];
  brands: string;
}

export interface PromotionFormValues {
  name: string;
  code: string;
  active: boolean;
  /** "YYYY-MM-DDTHH:mm" on the shop's clocks (its time zone), or "" */
  startsAt: string;
  endsAt: string;
  priority: string;
  combines: boolean;
  usageLimit: string;
  perCustomerLimit: string;
  campaignId: string;
  actionType: ActionType;
  /** the action's fields (those of `actionType` are read) */
  percent: string;
  amount: string;
  apply: ItemSelection;
  target: TargetValues;
  /** units bought (buy X get Y), or in a set */
  quantity: string;
  getQuantity: string;
  getTarget: TargetValues;
  getPercent: string;
  maxTimes: string;
  /** free shipping by these methods' codes (none ticked: every method) */
  methods: string[];
  /** the conditions */
  minSubtotal: string;
  minQuantity: string;
  itemsQuantity: string;
  itemsTarget: TargetValues;
  firstOrder: boolean;
  signedIn: boolean;
  zones: string[];
  /** customer groups' ids: only their signed-in members (none ticked: everyone) */
  groups: string[];
}

export const EMPTY_TARGET: TargetValues = { refs: "", categories: [], brands: "" };

export function emptyPromotionForm(actionType: ActionType): PromotionFormValues {
  return {
    name: "",
    code: "",
    active: true,
    startsAt: "",
    endsAt: "",
    priority: "0",
    combines: true,
    usageLimit: "",
    perCustomerLimit: "",
    campaignId: "",
    actionType,
    percent: "",
    amount: "",
    apply: "all",
    target: EMPTY_TARGET,
    quantity: actionType === "set-price" ? "3" : actionType === "buy-x-get-y" ? "2" : "",
    getQuantity: "1",
    getTarget: EMPTY_TARGET,
    getPercent: "100",
    maxTimes: "",
    methods: [],
    minSubtotal: "",
    minQuantity: "",
    itemsQuantity: "",
    itemsTarget: EMPTY_TARGET,
    firstOrder: false,
    signedIn: false,
    zones: [],
    groups: [],
  };
}

/** A target as the domain takes it: products or SKUs still as typed (the domain finds them). */
export interface TargetInput {
  refs: string[];
  categories: CategoryId[];
  brands: string[];
}

/** An action whose targets are still as typed. */
export type ActionInput =
  | Extract<PromotionAction, { type: "order-percent" | "order-fixed" | "free-shipping" }>
  | { type: "items-percent"; target: TargetInput; basisPoints: number; apply: ItemSelection }
  | { type: "items-fixed"; target: TargetInput; cents: number; apply: ItemSelection }
  | {
      type: "buy-x-get-y";
      buy: { target: TargetInput; quantity: number };
      get: { target: TargetInput; quantity: number };
      basisPoints: number;
      maxTimes: number | null;
    }
  | { type: "set-price"; target: TargetInput; quantity: number; priceCents: number; maxTimes: number | null };

export type ConditionInput =
  | Exclude<PromotionCondition, { type: "items" }>
  | { type: "items"; target: TargetInput; quantity: number };

/** A promotion as the form gives it to the domain. */
export interface PromotionInput {
  name: string;
  /** upper-case; null: automatic */
  code: string | null;
  active: boolean;
  startsAt: string | null;
  endsAt: string | null;
  priority: number;
  combines: boolean;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  campaignId: number | null;
  action: ActionInput;
  conditions: ConditionInput[];
}

/** The fields whose values the form can refuse (Conform's names). */
export type PromotionField =
  | keyof PromotionFormValues
  | `${"target" | "getTarget" | "itemsTarget"}.${keyof TargetValues}`;

const decimal = (cents: number) => (cents / 100).toFixed(2);
const percentText = (basisPoints: number) =>
  basisPoints % 100 === 0 ? String(basisPoints / 100) : (basisPoints / 100).toFixed(2);

/** A stored instant → the form's "YYYY-MM-DDTHH:mm" on the shop's clocks ("" for none). */
const localIn = (iso: string | null, timeZone: string) => (iso ? localOf(iso, timeZone) : "");

/** How the form shows a stored target: its products or SKUs by `refOf` (what the admin typed). */
function targetValues(target: ItemTarget | undefined, refOf: RefNames): TargetValues {
  if (!target) return EMPTY_TARGET;
  const refs = [
    ...(target.variantIds ?? []).map((id) => refOf.variants.get(id) ?? `#${id}`),
    ...(target.productIds ?? []).map((id) => refOf.products.get(id) ?? `#${id}`),
  ];
  return {
    refs: refs.join(", "),
    categories: [...(target.categories ?? [])],
    brands: (target.brands ?? []).join(", "),
  };
}

/** The SKUs of the variants and the slugs of the products a stored promotion names. */
export interface RefNames {
  variants: Map<number, string>;
  products: Map<number, string>;
}

export interface StoredPromotion {
  name: string;
  code: string | null;
  active: boolean;
  startsAt: string | null;
  endsAt: string | null;
  priority: number;
  combines: boolean;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  campaignId: number | null;
  action: PromotionAction;
  conditions: readonly PromotionCondition[];
}

/** The edit form's first values: the stored promotion's. */
export function promotionFormValues(
  stored: StoredPromotion,
  refOf: RefNames,
  /** the shop's: the form shows the start and end on its clocks */
  timeZone: string,
): PromotionFormValues {
  const values = emptyPromotionForm(stored.action.type);
  Object.assign(values, {
    name: stored.name,
    code: stored.code ?? "",
    active: stored.active,
    startsAt: localIn(stored.startsAt, timeZone),
    endsAt: localIn(stored.endsAt, timeZone),
    priority: String(stored.priority),
    combines: stored.combines,
    usageLimit: stored.usageLimit === null ? "" : String(stored.usageLimit),
    perCustomerLimit: stored.perCustomerLimit === null ? "" : String(stored.perCustomerLimit),
    campaignId: stored.campaignId === null ? "" : String(stored.campaignId),
  });
  const action = stored.action;
  switch (action.type) {
    case "order-percent":
      values.percent = percentText(action.basisPoints);
      break;
    case "order-fixed":
      values.amount = decimal(action.cents);
      break;
    case "items-percent":
      values.percent = percentText(action.basisPoints);
      values.apply = action.apply;
      values.target = targetValues(action.target, refOf);
      break;
    case "items-fixed":
      values.amount = decimal(action.cents);
      values.apply = action.apply;
      values.target = targetValues(action.target, refOf);
      break;
    case "buy-x-get-y":
      values.quantity = String(action.buy.quantity);
      values.target = targetValues(action.buy.target, refOf);
      values.getQuantity = String(action.get.quantity);
      values.getTarget = targetValues(action.get.target, refOf);
      values.getPercent = percentText(action.basisPoints);
      values.maxTimes = action.maxTimes === null ? "" : String(action.maxTimes);
      break;
    case "set-price":
      values.quantity = String(action.quantity);
      values.target = targetValues(action.target, refOf);
      values.amount = decimal(action.priceCents);
      values.maxTimes = action.maxTimes === null ? "" : String(action.maxTimes);
      break;
    case "free-shipping":
      values.methods = [...(action.methods ?? [])];
      break;
  }
  for (const condition of stored.conditions) {
    switch (condition.type) {
      case "min-subtotal":
        values.minSubtotal = decimal(condition.cents);
        break;
      case "min-quantity":
        values.minQuantity = String(condition.quantity);
        break;
      case "items":
        values.itemsQuantity = String(condition.quantity);
        values.itemsTarget = targetValues(condition.target, refOf);
        break;
      case "first-order":
        values.firstOrder = true;
        break;
      case "signed-in":
        values.signedIn = true;
        break;
      case "zone":
        values.zones = [...condition.zoneIds];
        break;
      case "customer-group":
        values.groups = condition.groupIds.map(String);
        break;
    }
  }
  return values;
}

/** What a target names, in words: "Clothing, Acme or 2 products", or "any item". */
export function targetText(target: ItemTarget | undefined): string {
  if (!target) return "any item";
  const parts = [
    ...(target.categories ?? []).map((category) => category.charAt(0).toUpperCase() + category.slice(1)),
    ...(target.brands ?? []),
  ];
  const items = (target.productIds?.length ?? 0) + (target.variantIds?.length ?? 0);
  if (items > 0) parts.push(items === 1 ? "1 product" : `${items} products`);
  return parts.length === 0 ? "any item" : parts.join(", ").replace(/, ([^,]*)$/, " or $1");
}

/** What a promotion does, in a line (the list, the simulator): "Buy 2 get 1 free (Clothing)". */
export function actionText(action: PromotionAction, currency: Currency): string {
  const money = (cents: number) => formatMoney(cents, currency);
  const pct = (basisPoints: number) => `${percentText(basisPoints)}%`;
  const times = (maxTimes: number | null) => (maxTimes === null ? "" : `, at most ${maxTimes}×`);
  switch (action.type) {
    case "order-percent":
      return `${pct(action.basisPoints)} off the order`;
    case "order-fixed":
      return `${money(action.cents)} off the order`;
    case "items-percent":
    case "items-fixed": {
      const off = action.type === "items-percent" ? pct(action.basisPoints) : money(action.cents);
      const which =
        action.apply === "all" ? "each" : action.apply === "cheapest" ? "the cheapest" : "the most expensive";
      return `${off} off ${which} of ${targetText(action.target)}`;
    }
    case "buy-x-get-y": {
      const deal = action.basisPoints === 10_000 ? "free" : `${pct(action.basisPoints)} off`;
      return `Buy ${action.buy.quantity} (${targetText(action.buy.target)}) get ${action.get.quantity} ${deal} (${targetText(action.get.target)})${times(action.maxTimes)}`;
    }
    case "set-price":
      return `${action.quantity} for ${money(action.priceCents)} (${targetText(action.target)})${times(action.maxTimes)}`;
    case "free-shipping":
      return action.methods ? `Free shipping by ${action.methods.join(", ")}` : "Free shipping";
  }
}

/** Whether a promotion is live, waiting or over at `now` (the list's status). */
export type PromotionStatus = "active" | "scheduled" | "ended" | "disabled" | "used-up";
export const STATUS_LABELS: Record<PromotionStatus, string> = {
  active: "Active",
  scheduled: "Scheduled",
  ended: "Ended",
  disabled: "Disabled",
  "used-up": "Used up",
};

export function promotionStatus(
  promotion: Pick<StoredPromotion, "active" | "startsAt" | "endsAt" | "usageLimit"> & { usedCount: number },
  now: Date,
): PromotionStatus {
  const at = now.toISOString();
  if (!promotion.active) return "disabled";
  if (promotion.endsAt !== null && promotion.endsAt <= at) return "ended";
  if (promotion.usageLimit !== null && promotion.usedCount >= promotion.usageLimit) return "used-up";
  if (promotion.startsAt !== null && promotion.startsAt > at) return "scheduled";
  return "active";
}

const LIMIT_TEXT: Record<LimitReached, string> = {
  uses: "its total uses are used up",
  "customer-uses": "this customer has used it as often as allowed",
};

/** Why a promotion did not apply, in a sentence (the simulator). `nameOf` names the one it yields to. */
export function refusalText(refusal: Refusal, currency: Currency, nameOf: (id: number) => string): string {
  const money = (cents: number) => formatMoney(cents, currency);
  switch (refusal.reason) {
    case "not-started":
      return "It has not started yet.";
    case "ended":
      return "It has ended.";
    case "limit":
      return `Not applied: ${LIMIT_TEXT[refusal.limit]}.`;
    case "budget-spent":
      return "Its campaign's budget is spent.";
    case "does-not-combine":
      return `It does not combine with ${nameOf(refusal.with)}, which comes first.`;
    case "nothing-to-discount":
      return refusal.shortfall && "units" in refusal.shortfall
        ? `Nothing to discount yet: ${refusal.shortfall.units} more of ${targetText(refusal.shortfall.target ?? undefined)} needed.`
        : "Nothing in the cart to discount.";
    case "condition": {
      const { condition, shortfall } = refusal;
      switch (condition.type) {
        case "min-subtotal":
          return `Needs a subtotal of ${money(condition.cents)}${shortfall && "cents" in shortfall ? `: ${money(shortfall.cents)} to go` : ""}.`;
        case "min-quantity":
          return `Needs ${condition.quantity} items in the cart${shortfall && "units" in shortfall ? `: ${shortfall.units} more` : ""}.`;
        case "items":
          return `Needs ${condition.quantity} of ${targetText(condition.target)}${shortfall && "units" in shortfall ? `: ${shortfall.units} more` : ""}.`;
        case "first-order":
          return "Only for a customer's first order.";
        case "signed-in":
          return "Only for signed-in customers.";
        case "zone":
          return "Not for this destination's zone.";
        case "customer-group":
          return "Only for members of its customer groups.";
      }
    }
  }
}

/** When the list shows a promotion runs, on the shop's clocks: "From Dec 1, 2026, 09:00 Europe/Berlin", or "Always". */
export function scheduleText(startsAt: string | null, endsAt: string | null, timeZone: string): string {
  const at = (iso: string) => formatDateTimeIn(iso, timeZone);
  if (!startsAt && !endsAt) return "Always";
  if (!endsAt) return `From ${at(startsAt!)}`;
  if (!startsAt) return `Until ${at(endsAt)}`;
  return `${at(startsAt)} – ${at(endsAt)}`;
}

export const CATEGORY_CHOICES: readonly CategoryId[] = CATEGORIES;

/**
 * The form's lists: the shop's zones, its shipping methods (by code, across zones), its campaigns;
 * and the shop's time zone, on whose clocks the schedule is typed.
 */
export function promotionChoices(
  zones: readonly { id: number; name: string; methods: readonly { code: string; name: string }[] }[],
  campaigns: readonly { id: number; name: string }[],
  timeZone: string,
  /** the customer groups a condition may name (Admin → Customer groups) */
  groups: readonly { id: number; name: string }[] = [],
) {
  const methods = new Map<string, string>();
  for (const zone of zones) {
    for (const method of zone.methods) if (!methods.has(method.code)) methods.set(method.code, method.name);
  }
  return {
    zones: zones.map((zone) => ({ id: String(zone.id), name: zone.name })),
    methods: [...methods].map(([code, name]) => ({ code, name: `${name} (${code})` })),
    campaigns: campaigns.map((campaign) => ({ id: String(campaign.id), name: campaign.name })),
    groups: groups.map((group) => ({ id: String(group.id), name: group.name })),
    timeZone,
  };
}

/** Where the form shows a refusal of the domain, and its words. */
export function promotionRefusal(
  error:
    | { code: "not-found" }
    | { code: "code-taken" }
    | { code: "single-use-codes" }
    | { code: "unknown-campaign" }
    | { code: "usage-below-used"; used: number }
    | { code: "unknown-refs"; field: string; refs: string[] },
): { status: number; message: string; fieldErrors?: Record<string, string[]> } {
  const M = PROMOTION_MESSAGES;
  switch (error.code) {
    case "not-found":
      return { status: 404, message: M.notFound };
    case "code-taken":
      return { status: 409, message: M.invalid, fieldErrors: { code: [M.codeTaken] } };
    case "single-use-codes":
      return { status: 409, message: M.invalid, fieldErrors: { code: [M.singleUse] } };
    case "unknown-campaign":
      return { status: 400, message: M.invalid, fieldErrors: { campaignId: [M.campaign] } };
    case "usage-below-used":
      return { status: 409, message: M.invalid, fieldErrors: { usageLimit: [M.usageBelowUsed(error.used)] } };
    case "unknown-refs":
      return { status: 400, message: M.invalid, fieldErrors: { [error.field]: [M.unknownRefs(error.refs)] } };
  }
}

/** The simulator's rows (SKU and quantity), as many as the page offers. */
export const SIMULATOR_ROWS = 6;

/** The simulator's fields as typed (its query). */
export interface SimulatorValues {
  sku: string[];
  quantity: string[];
  email: string;
  country: string;
  region: string;
  method: string;
  code: string;
  at: string;
}

/** Single-use codes (promotion-codes.server.ts): how many at a time and in all, and the prefix's length. */
export const CODES_LIMITS = { perRequest: 100_000, perPromotion: 1_000_000, prefix: 12 } as const;

export const CODE_MESSAGES_ADMIN = {
  count: `Enter how many codes to make, from 1 to ${CODES_LIMITS.perRequest.toLocaleString("en-US")}.`,
  prefix: `Use up to ${CODES_LIMITS.prefix} letters or digits (or leave it empty).`,
  shared:
    "This promotion has a shared code: remove it first (a promotion is applied either by one shared code or by single-use codes).",
  tooMany: `A promotion can have at most ${CODES_LIMITS.perPromotion.toLocaleString("en-US")} codes.`,
  made: (count: number) => `${count.toLocaleString("en-US")} codes made`,
} as const;
