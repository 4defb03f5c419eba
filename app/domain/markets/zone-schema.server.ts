import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { CONFIRM_VALUE } from "../../lib/confirm.ts";
import { countryCode, REGIONS } from "../../lib/countries.ts";
import { type RateBand, SHIPPING_RULES, type ShippingRule, type ZoneTaxRate } from "../../lib/markets.ts";
import { toCents } from "../../lib/money.ts";
import { postedList as list, postedRecord as record, postedText as text } from "../../lib/posted-values.ts";
import { gramsFromKg } from "../../lib/weight.ts";
import {
  ZONE_LIMITS as LIMITS,
  ZONE_MESSAGES as M,
  type MarketSettingsInput,
  type MethodInput,
  methodCodeFor,
  RATE_CLASSES,
  type RateClass,
  type ZoneInput,
} from "./zone-form.ts";

/**
 * The zone forms' zod schemas (parsed by the routes through Conform, which reads `methods[0].bands[1].upTo`
 * as nested lists), giving the typed input the domain takes. Server only, like the other forms'
 * (zod's eval probe and the shop's CSP). Each refusal is an issue at the field it is about, so
 * Conform shows it beside that field.
 */

type Path = (string | number)[];
type Refusals = [Path, string][];

/** "19", "8.25", "7.5 %" → basis points (1900, 825, 750); null when not a percentage from 0 to 100. */
export function percentToBasisPoints(value: string): number | null {
  const typed = value.replace(/\s*%$/, "");
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(typed)) return null;
  const basisPoints = toCents(typed);
  return basisPoints <= 10_000 ? basisPoints : null;
}

/** "4.99" → 499; null when not an amount from 0 to 100,000 in steps of 0.01. */
export function amountToCents(value: string): number | null {
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(value)) return null;
  const cents = toCents(value);
  return cents <= LIMITS.amount * 100 ? cents : null;
}

function days(value: string): number | null {
  if (!/^\d{1,2}$/.test(value)) return null;
  const n = Number(value);
  return n <= LIMITS.days ? n : null;
}

/** A method's code, as checkout posts it back (shipping-form.ts's `parseShippingMethod`). */
const CODE = new RegExp(`^[a-z0-9][a-z0-9-]{0,${LIMITS.code - 1}}$`);

const bounded = (value: string, max: number) => value.length >= 1 && value.length <= max;

function checkMethod(form: Record<string, unknown>, at: Path, refusals: Refusals): MethodInput | null {
  const before = refusals.length;
  const refuse = (field: string | Path, message: string) =>
    refusals.push([[...at, ...(Array.isArray(field) ? field : [field])], message]);
  // "" until the zone's codes are known (checkZoneForm makes one from the name)
  const code = text(form.code).toLowerCase();
  if (code !== "" && !CODE.test(code)) refuse("code", M.code);
  const name = text(form.name);
  if (!bounded(name, LIMITS.methodName)) refuse("name", M.methodName);
  const ruleText = text(form.rule);
  const rule = (SHIPPING_RULES as readonly string[]).includes(ruleText) ? (ruleText as ShippingRule) : null;
  if (!rule) refuse("rule", M.rule);
  let flatCents = 0;
  const bands: RateBand[] = [];
  if (rule === "flat") {
    const price = amountToCents(text(form.flatPrice));
    if (price === null) refuse("flatPrice", M.amount);
    else flatCents = price;
  } else if (rule) {
    // rows left blank (an added band not filled in) are no band
    const rows = list(form.bands)
      .map((row, index) => ({ index, upTo: text(record(row).upTo), price: text(record(row).price) }))
      .filter((row) => row.upTo !== "" || row.price !== "");
    if (rows.length === 0) refuse("bands", M.bands);
    else if (rows.length > LIMITS.bands) refuse("bands", M.bandsMax);
    else {
      let previous: number | null = null;
      rows.forEach((row, position) => {
        const band = ["bands", row.index];
        const priceCents = amountToCents(row.price);
        if (priceCents === null) refuse([...band, "price"], M.amount);
        let upTo: number | null = null;
        if (row.upTo === "") {
          if (position < rows.length - 1) refuse([...band, "upTo"], M.upToOpen);
        } else {
          upTo = rule === "weight" ? gramsFromKg(row.upTo) : amountToCents(row.upTo);
          if (upTo === null) refuse([...band, "upTo"], rule === "weight" ? M.upToKg : M.upToAmount);
          else if (previous !== null && upTo <= previous) refuse([...band, "upTo"], M.upToOrder);
          else previous = upTo;
        }
        if (priceCents !== null) bands.push({ upTo, priceCents });
      });
    }
  }
  const freeOverText = text(form.freeOver);
  const freeOverCents = freeOverText === "" ? null : amountToCents(freeOverText);
  if (freeOverText !== "" && freeOverCents === null) refuse("freeOver", M.freeOver);
  const daysMin = days(text(form.daysMin));
  const daysMax = days(text(form.daysMax));
  if (daysMin === null) refuse("daysMin", M.days);
  if (daysMax === null) refuse("daysMax", M.days);
  else if (daysMin !== null && daysMax < daysMin) refuse("daysMax", M.daysOrder);
  if (refusals.length > before || !rule || daysMin === null || daysMax === null) return null;
  return { code, name, rule, flatCents, bands, freeOverCents, daysMin, daysMax };
}

export type ZoneCheck = { ok: true; value: ZoneInput } | { ok: false; refusals: Refusals };

/**
 * The zone form's rules, on the payload as Conform reads it. A rule that needs other zones (the
 * cart's estimate country staying covered) is the domain's.
 */
export function checkZoneForm(form: Record<string, unknown>): ZoneCheck {
  const refusals: Refusals = [];
  const refuse = (path: Path, message: string) => refusals.push([path, message]);

  const name = text(form.name);
  if (!bounded(name, LIMITS.name)) refuse(["name"], M.name);

  const posted = list(form.countries).map(text);
  const countries = [...new Set(posted.flatMap((code) => countryCode(code) ?? []))];
  if (posted.some((code) => countryCode(code) === null)) refuse(["countries"], M.country);
  else if (countries.length === 0) refuse(["countries"], M.countries);

  const regions: Record<string, string[]> = {};
  const postedRegions = record(form.regions);
  for (const country of Object.keys(REGIONS)) {
    const codes = [...new Set(list(postedRegions[country]).map(text))];
    if (codes.length === 0) continue;
    const known = REGIONS[country] ?? [];
    if (codes.some((code) => !known.some((region) => region.code === code))) {
      refuse(["regions", country], M.region);
    } else if (!countries.includes(country)) {
      refuse(["regions", country], M.regionOutside(country));
    } else {
      // in the list's order
      regions[country] = known.filter((region) => codes.includes(region.code)).map((region) => region.code);
    }
  }

  const taxLabel = text(form.taxLabel);
  if (!bounded(taxLabel, LIMITS.taxLabel)) refuse(["taxLabel"], M.taxLabel);
  const taxShipping = text(form.taxShipping) === "on";

  const rates: ZoneTaxRate[] = [];
  const postedRates = record(form.rates);
  for (const taxClass of RATE_CLASSES) {
    const basisPoints = percentToBasisPoints(text(postedRates[taxClass]));
    if (basisPoints === null) refuse(["rates", taxClass], M.rate);
    else rates.push({ region: "", taxClass, basisPoints });
  }
  rates.push({ region: "", taxClass: "exempt", basisPoints: 0 });

  const regional = list(form.regionalRates);
  if (regional.length > LIMITS.regionalRates) refuse(["regionalRates"], M.regionalRates);
  else {
    const seen = new Set<string>();
    regional.forEach((row, index) => {
      const fields = record(row);
      const at = (field: string): Path => ["regionalRates", index, field];
      const [country = "", code = ""] = text(fields.region).split(/-(.*)/s);
      const inZone =
        countries.includes(country) &&
        (REGIONS[country] ?? []).some((region) => region.code === code) &&
        (!regions[country] || regions[country].includes(code));
      const taxClassText = text(fields.taxClass);
      const taxClass = (RATE_CLASSES as readonly string[]).includes(taxClassText)
        ? (taxClassText as RateClass)
        : null;
      const basisPoints = percentToBasisPoints(text(fields.rate));
      if (!inZone) refuse(at("region"), M.regionalRegion);
      else {
        // a rate names its region by code alone: Washington and Western Australia are both WA
        const sharing = countries.filter((other) => REGIONS[other]?.some((region) => region.code === code));
        if (sharing.length > 1) refuse(at("region"), M.regionalAmbiguous(code, sharing));
        else if (taxClass && seen.has(`${code}:${taxClass}`)) refuse(at("region"), M.regionalTwice);
      }
      if (!taxClass) refuse(at("taxClass"), M.regionalClass);
      if (basisPoints === null) refuse(at("rate"), M.rate);
      if (inZone && taxClass && basisPoints !== null) {
        seen.add(`${code}:${taxClass}`);
        rates.push({ region: code, taxClass, basisPoints });
      }
    });
  }

  const postedMethods = list(form.methods);
  const methods: MethodInput[] = [];
  if (postedMethods.length === 0) refuse(["methods"], M.methods);
  else if (postedMethods.length > LIMITS.methods) refuse(["methods"], M.methodsMax);
  else {
    const checked = postedMethods.map((method, index) =>
      checkMethod(record(method), ["methods", index], refusals),
    );
    // the codes typed: each once in the zone; a method without one gets one from its name
    const typed = new Set<string>();
    checked.forEach((method, index) => {
      const code = method?.code ?? text(record(postedMethods[index]).code).toLowerCase();
      if (code === "" || !CODE.test(code)) return;
      if (typed.has(code)) refuse(["methods", index, "code"], M.codeTwice);
      typed.add(code);
    });
    for (const method of checked) {
      if (!method) continue;
      if (method.code === "") {
        method.code = methodCodeFor(method.name, typed);
        typed.add(method.code);
      }
      methods.push(method);
    }
  }

  if (refusals.length > 0) return { ok: false, refusals };
  return { ok: true, value: { name, countries, regions, taxLabel, taxShipping, rates, methods } };
}

function refuseAll(ctx: z.RefinementCtx, refusals: Refusals) {
  for (const [path, message] of refusals) ctx.addIssue({ code: "custom", path, message });
  return z.NEVER;
}

/**
 * The zone page's form: `intent` "delete" (from its confirm step: `confirm`), else the zone to save
 * (the form's Save button, or Enter in a field).
 */
export const zoneEditSchema = z.looseObject({}).transform((form, ctx) => {
  if (text(form.intent) === "delete") {
    return { intent: "delete" as const, confirmed: text(form.confirm) === CONFIRM_VALUE };
  }
  const checked = checkZoneForm(form);
  return checked.ok ? { intent: "save" as const, zone: checked.value } : refuseAll(ctx, checked.refusals);
});

const zoneId = (value: unknown) => {
  const id = text(value);
  return /^\d{1,10}$/.test(id) && Number(id) > 0 ? Number(id) : null;
};

/**
 * The zone list's forms: the market settings (`markets`), and per zone `delete` (with `zoneId`,
 * from its confirm step).
 */
export type ZoneListAction =
  | { intent: "markets"; settings: MarketSettingsInput }
  | { intent: "delete"; zoneId: number; confirmed: boolean };

export const zoneListActionSchema = z.looseObject({}).transform((form, ctx): ZoneListAction => {
  const intent = text(form.intent);
  if (intent === "markets") {
    const refusals: Refusals = [];
    const rounding = text(form.taxRounding);
    if (rounding !== "per-order" && rounding !== "per-line") refusals.push([["taxRounding"], M.roundings]);
    const estimateCountry = countryCode(text(form.estimateCountry));
    if (!estimateCountry) refusals.push([["estimateCountry"], M.estimateCountry]);
    if (refusals.length > 0 || !estimateCountry) return refuseAll(ctx, refusals);
    const settings: MarketSettingsInput = {
      pricesIncludeTax: text(form.pricesIncludeTax) === "on",
      taxRounding: rounding as MarketSettingsInput["taxRounding"],
      estimateCountry,
    };
    return { intent: "markets", settings };
  }
  const id = zoneId(form.zoneId);
  if (intent === "delete" && id !== null) {
    return { intent, zoneId: id, confirmed: text(form.confirm) === CONFIRM_VALUE };
  }
  return refuseAll(ctx, [[["intent"], M.badRequest]]);
});

/**
 * The answer to a list button (a band, a regional rate or a method added or removed): the form as
 * posted with that row added or removed, and no messages — the rows are checked when the zone is
 * saved, not while it is being filled in.
 */
export function listIntentReply(submission: {
  reply: () => SubmissionResult<string[]>;
}): SubmissionResult<string[]> {
  const { error: _error, ...reply } = submission.reply();
  return reply;
}
