/**
 * The owner's zone forms (Admin → Settings → Zones, issue 30): the fields, labels and messages of a
 * zone (its countries and regions, its tax, its shipping methods) and of the market settings (how
 * prices carry tax, rounding, the cart's estimate country), the values shown for what is stored,
 * and the typed input the domain takes. Pure: the rules are zone-schema.server.ts's, the writes
 * zone-admin.server.ts's.
 *
 * Percentages are typed with up to 2 decimals and kept in basis points (19 → 1900, 8.25 → 825);
 * amounts in the shop's currency with a point before the cents and kept in cents; weights in kg
 * with up to 3 decimals and kept in grams.
 */
import { COUNTRY_CODES, countryName, REGIONS, regionName } from "../../lib/countries.ts";
import {
  deliveryDays,
  formatTaxRate,
  type RateBand,
  type ShippingMethodDef,
  type ShippingRule,
  TAX_CLASS_LABELS,
  type TaxClass,
  type Zone,
  type ZoneTaxRate,
} from "../../lib/markets.ts";
import type { TaxRounding } from "../../lib/order-calculator.ts";
import { kgText, MAX_WEIGHT_GRAMS } from "../../lib/weight.ts";

export const ZONE_LIMITS = {
  name: 100,
  taxLabel: 40,
  methodName: 60,
  code: 40,
  // the largest form these allow fits in an admin form's body limit (server/request-guard.ts)
  methods: 12,
  bands: 20,
  regionalRates: 160,
  /** the largest price or threshold, in the currency's units */
  amount: 100_000,
  days: 90,
} as const;

/** The classes whose rate the owner types (exempt is always 0 %). */
export const RATE_CLASSES = ["standard", "reduced", "zero"] as const satisfies readonly TaxClass[];
export type RateClass = (typeof RATE_CLASSES)[number];

/** What a country's regions are called, in the forms and their messages. */
export const REGION_WORDS: Record<string, string> = {
  US: "states",
  CA: "provinces and territories",
  AU: "states and territories",
};

/** "A", "A and B", "A, B and C". */
function listText(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

export const ZONE_MESSAGES = {
  invalid: "Please correct the highlighted fields.",
  created: (name: string) => `Zone ${name} created`,
  saved: (name: string) => `Zone ${name} saved`,
  deleted: (name: string) => `Zone ${name} deleted`,
  unchanged: "Nothing changed",
  marketsSaved: "Market settings saved",
  notFound: "This zone no longer exists.",
  forbidden: "Your role does not allow this.",
  badRequest: "Unknown action.",
  deleteUnconfirmed: "The zone was not deleted: confirm with “Yes, delete zone” to delete it.",
  lastZone: "The shop needs at least one zone: add another before deleting this one.",
  name: `Enter the zone's name (at most ${ZONE_LIMITS.name} characters).`,
  countries: "Choose at least one country.",
  country: "Choose countries from the list.",
  regionOutside: (country: string) =>
    `Tick ${countryName(country)} among the countries, or untick its regions.`,
  region: "Choose regions from the list.",
  countryTaken: (country: string, zone: string) =>
    `${countryName(country)} is already in zone ${zone}: a place can be in one zone only. Take it out of ${zone} first${
      REGIONS[country] ? `, or give each zone ${REGION_WORDS[country] ?? "regions"} of its own` : ""
    }.`,
  regionsTaken: (country: string, regions: readonly string[], zone: string) =>
    `${listText(regions.map((code) => regionName(country, code)))} (${countryName(country)}) ${
      regions.length === 1 ? "is" : "are"
    } already in zone ${zone}: a place can be in one zone only.`,
  estimateUncovered: (country: string) =>
    `The cart estimates shipping for ${countryName(country)}, which no other zone covers: choose another estimate country in the market settings first.`,
  taxLabel: `Enter the label shown beside tax, e.g. Including VAT, Sales tax or GST (at most ${ZONE_LIMITS.taxLabel} characters).`,
  rate: "Enter a percentage from 0 to 100 with at most 2 decimals, e.g. 19 or 8.25.",
  regionalRegion: "Choose a region of one of the zone's countries.",
  regionalClass: "Choose a tax class.",
  regionalTwice: "This region already has a rate for this class.",
  regionalAmbiguous: (code: string, countries: string[]) =>
    `${code} is a region of both ${countries.map(countryName).join(" and ")}, which are both in this zone: give them zones of their own to tax ${code} on its own.`,
  regionalRates: `At most ${ZONE_LIMITS.regionalRates} regional rates.`,
  methods: "Add at least one shipping method.",
  methodsMax: `At most ${ZONE_LIMITS.methods} shipping methods per zone.`,
  methodName: `Enter the method's name (at most ${ZONE_LIMITS.methodName} characters).`,
  code: `Use lower-case letters, digits and hyphens, starting with a letter or digit (at most ${ZONE_LIMITS.code} characters), e.g. standard; or leave it empty to make one from the name.`,
  codeTwice: "Another shipping method of this zone has this code: give each its own.",
  rule: "Choose how the method is priced.",
  amount: `Enter an amount of 0 or more, in steps of 0.01 (at most 100,000).`,
  freeOver: `Enter an amount of 0 or more, in steps of 0.01 (at most 100,000), or leave it empty.`,
  bands: "Add at least one band.",
  bandsMax: `At most ${ZONE_LIMITS.bands} bands per method.`,
  upToKg: `Enter a weight in kg of 0 or more, with at most 3 decimals (at most ${(MAX_WEIGHT_GRAMS / 1000).toLocaleString("en")}).`,
  upToAmount: `Enter an amount of 0 or more, in steps of 0.01 (at most 100,000).`,
  upToOpen: "Only the last band can be open (“and above”): enter where this one ends.",
  upToOrder: "Each band must end above the one before it.",
  days: `Enter a whole number of days from 0 to ${ZONE_LIMITS.days}.`,
  daysOrder: "The last day cannot come before the first.",
  roundings: "Choose how tax is rounded.",
  estimateCountry: "Choose one of the countries the zones cover.",
} as const;

export const RULE_LABELS: Record<ShippingRule, string> = {
  flat: "Flat price",
  subtotal: "By order subtotal",
  weight: "By weight",
};

export const ROUNDING_LABELS: Record<TaxRounding, string> = {
  "per-order": "Per order (default): each rate's tax is rounded once, on the order's total at that rate",
  "per-line": "Per line: each line's tax is rounded, then added up",
};

export { TAX_CLASS_LABELS };

/** One band of a method as the form shows it: where it ends ("" on the last: and above) and its price. */
export type BandValues = {
  upTo: string;
  price: string;
};

export type MethodValues = {
  /** what orders keep ("" on a new method: made from its name when saved) */
  code: string;
  name: string;
  rule: string;
  flatPrice: string;
  bands: BandValues[];
  freeOver: string;
  daysMin: string;
  daysMax: string;
};

export type RegionalRateValues = {
  /** "US-CA": the country and the region (ISO 3166-2) */
  region: string;
  taxClass: string;
  rate: string;
};

/** The zone form's values (strings, as typed; Conform's default value). */
export type ZoneFormValues = {
  name: string;
  countries: string[];
  /** country → the region codes ticked */
  regions: Record<string, string[]>;
  taxLabel: string;
  taxShipping: boolean;
  rates: Record<RateClass, string>;
  regionalRates: RegionalRateValues[];
  methods: MethodValues[];
};

/** A shipping method as the domain takes it. */
export interface MethodInput {
  /** what orders keep, unique in the zone (lower case, digits, hyphens) */
  code: string;
  name: string;
  rule: ShippingRule;
  /** a flat method's price (0 for the others) */
  flatCents: number;
  /** a subtotal or weight method's bands, ascending (none for a flat one) */
  bands: RateBand[];
  freeOverCents: number | null;
  daysMin: number;
  daysMax: number;
}

/** A zone as the domain takes it (the form's values checked and converted). */
export interface ZoneInput {
  name: string;
  countries: string[];
  regions: Record<string, string[]>;
  taxLabel: string;
  taxShipping: boolean;
  /** the zone's own rate per class (exempt 0), then its regional rates */
  rates: ZoneTaxRate[];
  methods: MethodInput[];
}

export interface MarketSettingsInput {
  pricesIncludeTax: boolean;
  taxRounding: TaxRounding;
  estimateCountry: string;
}

export const EMPTY_BAND: BandValues = { upTo: "", price: "" };

export const EMPTY_METHOD: MethodValues = {
  code: "",
  name: "",
  rule: "flat",
  flatPrice: "",
  bands: [EMPTY_BAND],
  freeOver: "",
  daysMin: "",
  daysMax: "",
};

export const EMPTY_REGIONAL_RATE: RegionalRateValues = { region: "", taxClass: "standard", rate: "" };

export const EMPTY_ZONE_FORM: ZoneFormValues = {
  name: "",
  countries: [],
  regions: {},
  taxLabel: "",
  taxShipping: false,
  rates: { standard: "", reduced: "", zero: "0" },
  regionalRates: [],
  methods: [EMPTY_METHOD],
};

/** 499 → "4.99" (a point before the cents, whatever the currency writes). */
export const amountText = (cents: number) =>
  `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

/** 1900 → "19", 825 → "8.25", 750 → "7.5". */
export const percentText = (basisPoints: number) =>
  basisPoints % 100 === 0 ? String(basisPoints / 100) : (basisPoints / 100).toFixed(2).replace(/0$/, "");

/** "US-CA" for a region of a country (the form's value for a regional rate). */
export const regionKey = (country: string, region: string) => `${country}-${region}`;

/** The country of the zone's that has a region of this code (the first: codes are unique in a zone's rates). */
export function regionCountry(countries: readonly string[], region: string): string | null {
  return (
    countries.find((country) => REGIONS[country]?.some((candidate) => candidate.code === region)) ?? null
  );
}

function methodValues(method: ShippingMethodDef): MethodValues {
  const upTo = (limit: number | null) =>
    limit === null ? "" : method.rule === "weight" ? kgText(limit) : amountText(limit);
  return {
    code: method.code,
    name: method.name,
    rule: method.rule,
    flatPrice: method.rule === "flat" ? amountText(method.flatCents) : "",
    bands:
      method.rule === "flat"
        ? [EMPTY_BAND]
        : method.bands.map((band) => ({ upTo: upTo(band.upTo), price: amountText(band.priceCents) })),
    freeOver: method.freeOverCents === null ? "" : amountText(method.freeOverCents),
    daysMin: String(method.daysMin),
    daysMax: String(method.daysMax),
  };
}

/** What the form shows for a stored zone. */
export function zoneFormValues(zone: Zone): ZoneFormValues {
  const own = (taxClass: RateClass) =>
    percentText(zone.rates.find((r) => r.region === "" && r.taxClass === taxClass)?.basisPoints ?? 0);
  return {
    name: zone.name,
    countries: [...zone.countries],
    regions: Object.fromEntries(Object.entries(zone.regions).filter(([, codes]) => codes.length > 0)),
    taxLabel: zone.taxLabel,
    taxShipping: zone.taxShipping,
    rates: { standard: own("standard"), reduced: own("reduced"), zero: own("zero") },
    regionalRates: zone.rates
      .filter((rate) => rate.region !== "" && rate.taxClass !== "exempt")
      .map((rate) => {
        const country = regionCountry(zone.countries, rate.region);
        return {
          region: country ? regionKey(country, rate.region) : rate.region,
          taxClass: rate.taxClass,
          rate: percentText(rate.basisPoints),
        };
      }),
    methods: zone.methods.map(methodValues),
  };
}

/**
 * A method's code from its name, for a method the owner gave none: lower case, letters and digits
 * joined by hyphens ("Express Shipping" → "express-shipping"), made unique among `taken` with a
 * number ("express-shipping-2"). Orders keep the code they were placed with.
 */
export function methodCodeFor(name: string, taken: ReadonlySet<string>): string {
  const base =
    name
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 36)
      .replace(/-+$/, "") || "method";
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const code = `${base}-${n}`;
    if (!taken.has(code)) return code;
  }
}

/** A country and its name, for the forms' lists. */
export interface CountryOption {
  code: string;
  name: string;
}

/** The regions the forms offer, per country that has them: "US" → [{ code: "CA", name: "California" }, …]. */
export const REGION_OPTIONS = REGIONS;

/** A zone as the zone list tells it: where, its tax and its methods, in words. */
export interface ZoneSummary {
  id: number;
  name: string;
  /** "Germany, Austria" or "United States (California, Oregon only), Canada" */
  countries: string;
  tax: string;
  methods: { name: string; price: string; days: string }[];
}

/** "4,99 €", "by weight: up to 2 kg 4,99 €, up to 10 kg 9,99 €, above 19,99 €; free from 50,00 €". */
export function methodPriceText(method: ShippingMethodDef, money: (cents: number) => string): string {
  const limit = (upTo: number) => (method.rule === "weight" ? `${kgText(upTo)} kg` : money(upTo));
  const price =
    method.rule === "flat"
      ? money(method.flatCents)
      : `${method.rule === "weight" ? "by weight" : "by subtotal"}: ${method.bands
          .map((band, index) =>
            band.upTo === null
              ? `${index === 0 ? "any" : "above"} ${money(band.priceCents)}`
              : `up to ${limit(band.upTo)} ${money(band.priceCents)}`,
          )
          .join(", ")}`;
  return method.freeOverCents === null ? price : `${price}; free from ${money(method.freeOverCents)}`;
}

export function zoneSummary(
  zone: Zone,
  money: (cents: number) => string,
  nameOf: (country: string) => string = countryName,
): ZoneSummary {
  const own = (taxClass: TaxClass) =>
    zone.rates.find((rate) => rate.region === "" && rate.taxClass === taxClass)?.basisPoints ?? 0;
  const regional = zone.rates.filter((rate) => rate.region !== "").length;
  const tax = [
    `${zone.taxLabel}: standard ${formatTaxRate(own("standard"))}, reduced ${formatTaxRate(own("reduced"))}, zero rate ${formatTaxRate(own("zero"))}`,
    zone.taxShipping ? "shipping taxed" : "shipping not taxed",
    ...(regional > 0 ? [`${regional} regional ${regional === 1 ? "rate" : "rates"}`] : []),
  ].join("; ");
  return {
    id: zone.id,
    name: zone.name,
    countries: zone.countries
      .map((country) => {
        const only = zone.regions[country] ?? [];
        return only.length > 0
          ? `${nameOf(country)} (${only.map((code) => regionName(country, code)).join(", ")} only)`
          : nameOf(country);
      })
      .join(", "),
    tax,
    methods: zone.methods.map((method) => ({
      name: method.name,
      price: methodPriceText(method, money),
      days: deliveryDays(method),
    })),
  };
}

/** Every country by its English name (server side: the names are the runtime's, Intl.DisplayNames). */
export function countryOptions(): CountryOption[] {
  return COUNTRY_CODES.map((code) => ({ code, name: countryName(code) })).sort((a, b) =>
    a.name.localeCompare(b.name, "en"),
  );
}

/**
 * A refusal of the zone commands as the pages say it: a status, the form's message, and the
 * messages beside the fields they are about — the countries (or a country's regions, when the zone
 * names some) that another zone already holds; the countries, when the estimate country would be
 * left outside every zone.
 */
export function zoneRefusal(error: ZoneAdminError): {
  status: number;
  message: string;
  fieldErrors?: Record<string, string[]>;
} {
  switch (error.code) {
    case "forbidden":
      return { status: 403, message: ZONE_MESSAGES.forbidden };
    case "not-found":
      return { status: 404, message: ZONE_MESSAGES.notFound };
    case "last-zone":
      return { status: 409, message: ZONE_MESSAGES.lastZone };
    case "estimate-uncovered":
      return {
        status: 409,
        message: ZONE_MESSAGES.invalid,
        fieldErrors: { countries: [ZONE_MESSAGES.estimateUncovered(error.country)] },
      };
    case "overlap": {
      const fieldErrors: Record<string, string[]> = {};
      for (const conflict of error.conflicts) {
        const field = conflict.byRegion ? `regions.${conflict.country}` : "countries";
        const message = conflict.regions
          ? ZONE_MESSAGES.regionsTaken(conflict.country, conflict.regions, conflict.zone)
          : ZONE_MESSAGES.countryTaken(conflict.country, conflict.zone);
        fieldErrors[field] = [...(fieldErrors[field] ?? []), message];
      }
      return { status: 409, message: ZONE_MESSAGES.invalid, fieldErrors };
    }
  }
}

/** Why the zones admin refused a change (zone-admin.server.ts), as the form tells it. */
export type ZoneAdminError =
  /** the acting staff member's role may not change the shop's settings */
  | { code: "forbidden" }
  | { code: "not-found" }
  | { code: "last-zone" }
  /** the change would leave the cart's estimate country outside every zone */
  | { code: "estimate-uncovered"; country: string }
  /** places the zone would share with other zones */
  | { code: "overlap"; conflicts: Overlap[] };

/** A place two zones would both hold. */
export interface Overlap {
  country: string;
  /** the regions of it both hold; null: all of the country */
  regions: string[] | null;
  /** the other zone's name */
  zone: string;
  /** the zone being written names regions of this country (its refusal goes beside them) */
  byRegion: boolean;
}
