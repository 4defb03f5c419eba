import { z } from "zod";
import { CATEGORIES, type CategoryId } from "../../lib/catalog-constants.ts";
import { toCents } from "../../lib/money.ts";
import { postedList as list, postedRecord as record, postedText as text } from "../../lib/posted-values.ts";
import type { ItemSelection } from "../../lib/promotions/engine.ts";
import { instantOf } from "../../lib/time-zones.ts";
import { COUPON_CODE_PATTERN, normalizeCouponCode } from "../coupons/coupon-rules.ts";
import {
  ACTION_TYPES,
  type ActionInput,
  type ActionType,
  CODE_MESSAGES_ADMIN,
  CODES_LIMITS,
  type ConditionInput,
  PROMOTION_LIMITS as LIMITS,
  PROMOTION_MESSAGES as M,
  type PromotionInput,
  SELECTIONS,
  SIMULATOR_ROWS,
  type SimulatorValues,
  type TargetInput,
} from "./promotion-form.ts";

/**
 * The promotion forms' zod schemas (parsed by the routes through Conform, which reads
 * `target.refs` as nested values), giving the typed input the domain takes. Server only, like the
 * other forms' (zod's eval probe and the shop's CSP). Each refusal is an issue at the field it is
 * about, so Conform shows it beside that field. Rules that need the database (a code in use, a
 * product or SKU that exists, a campaign) are the domain's.
 */

type Path = (string | number)[];
type Refusals = [Path, string][];

/** "19", "8.25", "7.5 %" → basis points; null unless from 0.01 to 100 (0 when `zero`). */
function basisPointsOf(value: string, { zero = false } = {}): number | null {
  const typed = value.replace(/\s*%$/, "");
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(typed)) return null;
  const basisPoints = toCents(typed);
  return basisPoints <= 10_000 && (zero || basisPoints > 0) ? basisPoints : null;
}

/** "4.99" → 499; null unless from 0.01 (0 when `zero`) to the largest amount. */
function centsOf(value: string, { zero = false } = {}): number | null {
  const typed = value.replace(/^[$€£]\s*/, "").replaceAll(",", "");
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(typed)) return null;
  const cents = toCents(typed);
  return cents <= LIMITS.amount * 100 && (zero || cents > 0) ? cents : null;
}

/** A whole number from `min` to `max`; null otherwise. */
function wholeOf(value: string, min: number, max: number): number | null {
  if (!/^\d{1,7}$/.test(value)) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
}

const splitList = (value: string) =>
  value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");

function checkTarget(form: unknown, at: string, refusals: Refusals): TargetInput {
  const fields = record(form);
  const refs = [...new Set(splitList(text(fields.refs)))];
  if (refs.length > LIMITS.refs || refs.some((ref) => ref.length > 100))
    refusals.push([[at, "refs"], M.refs]);
  const brands = [...new Set(splitList(text(fields.brands)))];
  if (brands.length > LIMITS.brands || brands.some((brand) => brand.length > 100)) {
    refusals.push([[at, "brands"], M.brands]);
  }
  const posted = list(fields.categories).map(text);
  if (posted.some((category) => !(CATEGORIES as readonly string[]).includes(category))) {
    refusals.push([[at, "categories"], M.category]);
  }
  const categories = [...new Set(posted)].filter((category): category is CategoryId =>
    (CATEGORIES as readonly string[]).includes(category),
  );
  return { refs, categories, brands };
}

const named = (target: TargetInput) =>
  target.refs.length + target.categories.length + target.brands.length > 0;

function checkAction(
  type: ActionType,
  form: Record<string, unknown>,
  refusals: Refusals,
): ActionInput | null {
  const before = refusals.length;
  const refuse = (field: string, message: string) => refusals.push([[field], message]);
  const percent = () => {
    const value = basisPointsOf(text(form.percent));
    if (value === null) refuse("percent", M.percent);
    return value ?? 0;
  };
  const amount = (zero = false) => {
    const value = centsOf(text(form.amount), { zero });
    if (value === null) refuse("amount", zero ? M.price : M.amount);
    return value ?? 0;
  };
  const quantity = (field: string) => {
    const value = wholeOf(text(form[field]), 1, LIMITS.quantity);
    if (value === null) refuse(field, M.quantity);
    return value ?? 1;
  };
  const maxTimes = () => {
    const typed = text(form.maxTimes);
    const value = typed === "" ? null : wholeOf(typed, 1, LIMITS.quantity);
    if (typed !== "" && value === null) refuse("maxTimes", M.maxTimes);
    return value;
  };
  const apply = () => {
    const value = text(form.apply);
    if (!(SELECTIONS as string[]).includes(value)) refuse("apply", M.selection);
    return value as ItemSelection;
  };
  let action: ActionInput;
  switch (type) {
    case "order-percent":
      action = { type, basisPoints: percent() };
      break;
    case "order-fixed":
      action = { type, cents: amount() };
      break;
    case "items-percent":
      action = {
        type,
        basisPoints: percent(),
        apply: apply(),
        target: checkTarget(form.target, "target", refusals),
      };
      break;
    case "items-fixed":
      action = {
        type,
        cents: amount(),
        apply: apply(),
        target: checkTarget(form.target, "target", refusals),
      };
      break;
    case "buy-x-get-y": {
      const basisPoints = basisPointsOf(text(form.getPercent));
      if (basisPoints === null) refuse("getPercent", M.percent);
      const buyTarget = checkTarget(form.target, "target", refusals);
      const getTarget = checkTarget(form.getTarget, "getTarget", refusals);
      action = {
        type,
        buy: { target: buyTarget, quantity: quantity("quantity") },
        // nothing named for Y: the same items as X
        get: { target: named(getTarget) ? getTarget : buyTarget, quantity: quantity("getQuantity") },
        basisPoints: basisPoints ?? 0,
        maxTimes: maxTimes(),
      };
      break;
    }
    case "set-price":
      action = {
        type,
        target: checkTarget(form.target, "target", refusals),
        quantity: quantity("quantity"),
        priceCents: amount(true),
        maxTimes: maxTimes(),
      };
      break;
    case "free-shipping": {
      const methods = [...new Set(list(form.methods).map(text))];
      if (methods.some((code) => !/^[a-z0-9][a-z0-9-]{0,39}$/.test(code))) refuse("methods", M.methods);
      action = { type, methods: methods.length === 0 ? null : methods };
      break;
    }
  }
  return refusals.length > before ? null : action;
}

function checkConditions(form: Record<string, unknown>, refusals: Refusals): ConditionInput[] {
  const conditions: ConditionInput[] = [];
  const minSubtotal = text(form.minSubtotal);
  if (minSubtotal !== "") {
    const cents = centsOf(minSubtotal, { zero: true });
    if (cents === null) refusals.push([["minSubtotal"], M.minSubtotal]);
    else if (cents > 0) conditions.push({ type: "min-subtotal", cents });
  }
  const minQuantity = text(form.minQuantity);
  if (minQuantity !== "") {
    const quantity = wholeOf(minQuantity, 1, LIMITS.quantity);
    if (quantity === null) refusals.push([["minQuantity"], M.optionalQuantity]);
    else conditions.push({ type: "min-quantity", quantity });
  }
  const itemsTarget = checkTarget(form.itemsTarget, "itemsTarget", refusals);
  const itemsQuantity = text(form.itemsQuantity);
  if (itemsQuantity !== "" || named(itemsTarget)) {
    const quantity = itemsQuantity === "" ? 1 : wholeOf(itemsQuantity, 1, LIMITS.quantity);
    if (quantity === null) refusals.push([["itemsQuantity"], M.optionalQuantity]);
    else if (!named(itemsTarget)) refusals.push([["itemsTarget", "refs"], M.itemsTarget]);
    else conditions.push({ type: "items", target: itemsTarget, quantity });
  }
  if (text(form.firstOrder) === "on") conditions.push({ type: "first-order" });
  if (text(form.signedIn) === "on") conditions.push({ type: "signed-in" });
  const zones = [...new Set(list(form.zones).map(text))];
  if (zones.some((zone) => !/^\d{1,10}$/.test(zone))) refusals.push([["zones"], M.zones]);
  else if (zones.length > 0) conditions.push({ type: "zone", zoneIds: zones });
  const groups = [...new Set(list(form.groups).map(text))];
  if (groups.some((group) => !/^[1-9]\d{0,9}$/.test(group))) refusals.push([["groups"], M.groups]);
  else if (groups.length > 0) conditions.push({ type: "customer-group", groupIds: groups.map(Number) });
  return conditions;
}

export type PromotionCheck = { ok: true; value: PromotionInput } | { ok: false; refusals: Refusals };

/** The promotion form's rules, on the payload as Conform reads it (its action type is fixed by the page). */
export function checkPromotionForm(
  form: Record<string, unknown>,
  type: ActionType,
  /** the shop's: the start and end are typed on its clocks */
  timeZone: string,
): PromotionCheck {
  const refusals: Refusals = [];
  const refuse = (field: string, message: string) => refusals.push([[field], message]);
  const name = text(form.name);
  if (name.length < 1 || name.length > LIMITS.name) refuse("name", M.name);
  const typedCode = normalizeCouponCode(text(form.code).slice(0, 100));
  if (typedCode !== "" && !COUPON_CODE_PATTERN.test(typedCode)) refuse("code", M.code);
  const moment = (field: "startsAt" | "endsAt") => {
    const typed = text(form[field]);
    if (typed === "") return null;
    const at = instantOf(typed, timeZone);
    if (at === null) refuse(field, M.date);
    return at;
  };
  const startsAt = moment("startsAt");
  const endsAt = moment("endsAt");
  if (startsAt && endsAt && endsAt <= startsAt) refuse("endsAt", M.endBeforeStart);
  const priority = wholeOf(text(form.priority) || "0", 0, LIMITS.priority);
  if (priority === null) refuse("priority", M.priority);
  const limit = (field: "usageLimit" | "perCustomerLimit") => {
    const typed = text(form[field]);
    const value = typed === "" ? null : wholeOf(typed, 1, LIMITS.uses);
    if (typed !== "" && value === null) refuse(field, M.uses);
    return value;
  };
  const usageLimit = limit("usageLimit");
  const perCustomerLimit = limit("perCustomerLimit");
  const campaignText = text(form.campaignId);
  const campaignId = campaignText === "" ? null : wholeOf(campaignText, 1, 2_000_000_000);
  if (campaignText !== "" && campaignId === null) refuse("campaignId", M.campaign);
  const action = checkAction(type, form, refusals);
  const conditions = checkConditions(form, refusals);
  if (refusals.length > 0 || !action || priority === null) return { ok: false, refusals };
  return {
    ok: true,
    value: {
      name,
      code: typedCode === "" ? null : typedCode,
      active: text(form.active) === "on",
      startsAt,
      endsAt,
      priority,
      combines: text(form.combines) === "on",
      usageLimit,
      perCustomerLimit,
      campaignId,
      action,
      conditions,
    },
  };
}

function refuseAll(ctx: z.RefinementCtx, refusals: Refusals) {
  for (const [path, message] of refusals) ctx.addIssue({ code: "custom", path, message });
  return z.NEVER;
}

const actionTypeOf = (value: unknown): ActionType | null =>
  (ACTION_TYPES as readonly string[]).includes(text(value)) ? (text(value) as ActionType) : null;

/** The new-promotion form: the action type it was opened for, and the promotion (its times in `timeZone`). */
export function newPromotionSchema(timeZone: string) {
  return z.looseObject({}).transform((form, ctx) => {
    const type = actionTypeOf(form.actionType);
    if (!type) return refuseAll(ctx, [[["actionType"], M.badRequest]]);
    const checked = checkPromotionForm(form, type, timeZone);
    return checked.ok ? checked.value : refuseAll(ctx, checked.refusals);
  });
}

/**
 * The edit page's forms: `save` (the promotion; its action type stays), `enable`, `disable`, and
 * `codes` (make `count` single-use codes with `prefix`).
 */
export function promotionEditSchema(type: ActionType, timeZone: string) {
  return z.looseObject({}).transform((form, ctx) => {
    const intent = text(form.intent) || "save";
    if (intent === "enable" || intent === "disable") return { intent } as const;
    if (intent === "codes") {
      const refusals: Refusals = [];
      const count = wholeOf(text(form.count).replaceAll(",", ""), 1, CODES_LIMITS.perRequest);
      if (count === null) refusals.push([["count"], CODE_MESSAGES_ADMIN.count]);
      const prefix = text(form.prefix).toUpperCase();
      if (!new RegExp(`^[A-Z0-9]{0,${CODES_LIMITS.prefix}}$`).test(prefix)) {
        refusals.push([["prefix"], CODE_MESSAGES_ADMIN.prefix]);
      }
      if (refusals.length > 0 || count === null) return refuseAll(ctx, refusals);
      return { intent, count, prefix } as const;
    }
    if (intent !== "save") return refuseAll(ctx, [[["intent"], M.badRequest]]);
    const checked = checkPromotionForm(form, type, timeZone);
    return checked.ok ? ({ intent, promotion: checked.value } as const) : refuseAll(ctx, checked.refusals);
  });
}

/** The list page's campaign form: a name and an optional budget. */
export const campaignSchema = z.looseObject({}).transform((form, ctx) => {
  const refusals: Refusals = [];
  const name = text(form.campaignName);
  if (name.length < 1 || name.length > 120) refusals.push([["campaignName"], M.campaignName]);
  const budgetText = text(form.budget);
  const budgetCents = budgetText === "" ? null : centsOf(budgetText);
  if (budgetText !== "" && budgetCents === null) refusals.push([["budget"], M.budget]);
  return refusals.length > 0 ? refuseAll(ctx, refusals) : { name, budgetCents };
});

export type SimulatorQuery =
  | { asked: false; values: SimulatorValues }
  | { asked: true; values: SimulatorValues; errors: Record<string, string> }
  | {
      asked: true;
      values: SimulatorValues;
      errors: null;
      input: {
        lines: { sku: string; quantity: number }[];
        email: string | null;
        destination: { country: string; region: string };
        methodCode: string | null;
        codes: string[];
        at: Date;
      };
    };

export const SIMULATOR_MESSAGES = {
  sku: "Enter a SKU.",
  quantity: `Enter a quantity from 1 to ${LIMITS.quantity}.`,
  lines: "Add at least one SKU with its quantity.",
  email: "Enter an e-mail address, or leave it empty for a new guest.",
  country: "Choose a country.",
} as const;

/**
 * The simulator's query (`/admin/promotions/simulate?sku=…&quantity=…&country=…`): a GET, since
 * nothing is written; each value checked, a message per wrong field (`sku.2`, `quantity.2` for a row).
 */
export function parseSimulatorQuery(params: URLSearchParams, now: Date, timeZone: string): SimulatorQuery {
  const all = (name: string) =>
    params
      .getAll(name)
      .slice(0, SIMULATOR_ROWS)
      .map((value) => value.trim().slice(0, 100));
  const one = (name: string, max = 200) => (params.get(name) ?? "").trim().slice(0, max);
  const values: SimulatorValues = {
    sku: all("sku"),
    quantity: all("quantity"),
    email: one("email", 254),
    country: one("country", 2).toUpperCase(),
    region: one("region", 60),
    method: one("method", 40),
    code: one("code", 40),
    at: one("at", 20),
  };
  if (!params.has("country")) return { asked: false, values };
  const errors: Record<string, string> = {};
  const lines: { sku: string; quantity: number }[] = [];
  for (let row = 0; row < SIMULATOR_ROWS; row++) {
    const sku = values.sku[row] ?? "";
    const quantityText = values.quantity[row] ?? "";
    if (sku === "" && (quantityText === "" || quantityText === "1")) continue;
    if (sku === "") errors[`sku.${row}`] = SIMULATOR_MESSAGES.sku;
    const quantity = wholeOf(quantityText, 1, LIMITS.quantity);
    if (quantity === null) errors[`quantity.${row}`] = SIMULATOR_MESSAGES.quantity;
    if (sku !== "" && quantity !== null) lines.push({ sku, quantity });
  }
  if (lines.length === 0 && Object.keys(errors).length === 0) errors["sku.0"] = SIMULATOR_MESSAGES.lines;
  if (values.email !== "" && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email)) {
    errors.email = SIMULATOR_MESSAGES.email;
  }
  if (!/^[A-Z]{2}$/.test(values.country)) errors.country = SIMULATOR_MESSAGES.country;
  const code = normalizeCouponCode(values.code);
  if (code !== "" && !COUPON_CODE_PATTERN.test(code)) errors.code = M.code;
  const at = values.at === "" ? now.toISOString() : instantOf(values.at, timeZone);
  if (at === null) errors.at = M.date;
  if (Object.keys(errors).length > 0 || at === null) return { asked: true, values, errors };
  return {
    asked: true,
    values,
    errors: null,
    input: {
      lines,
      email: values.email === "" ? null : values.email,
      destination: { country: values.country, region: values.region },
      methodCode: /^[a-z0-9][a-z0-9-]{0,39}$/.test(values.method) ? values.method : null,
      codes: code === "" ? [] : [code],
      at: new Date(at),
    },
  };
}
