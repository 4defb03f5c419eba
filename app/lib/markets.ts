/**
 * Where the shop sells (issue 30, decision 030), as pure rules shared by the server and the browser:
 * a destination's zone, the tax rate a line bears there, what each of the zone's shipping methods
 * costs for a cart, and the order priced by the one calculator (order-calculator.ts).
 *
 * A zone is a set of countries — and, for a country whose regions the shop tells apart (US states,
 * Canadian provinces, Australian states: countries.ts), optionally only some of its regions. The
 * first zone (by position) that holds the destination is its zone; none: the shop does not ship
 * there. Each zone has a rate per tax class (standard, reduced, zero, exempt), optionally a rate per
 * region for a class (a US state's), whether shipping is taxed (at the zone's standard rate), the
 * label its tax goes by, and its shipping methods.
 */
import {
  COUNTRY_OPTION_VALUES,
  countryCode,
  countryName,
  REGIONS,
  regionCode,
  regionName,
} from "./countries.ts";
import type { Currency } from "./money.ts";
import {
  type CalculatorLine,
  calculateOrder,
  type OrderCalculation,
  type TaxMode,
  type TaxRate,
  type TaxRounding,
} from "./order-calculator.ts";

export const TAX_CLASSES = ["standard", "reduced", "zero", "exempt"] as const;
export type TaxClass = (typeof TAX_CLASSES)[number];

export const TAX_CLASS_LABELS: Record<TaxClass, string> = {
  standard: "Standard",
  reduced: "Reduced",
  zero: "Zero rate",
  exempt: "Exempt",
};

export const SHIPPING_RULES = ["flat", "subtotal", "weight"] as const;
export type ShippingRule = (typeof SHIPPING_RULES)[number];

/** A band of a rate table: up to this subtotal (cents) or weight (grams), inclusive; null: beyond the last. */
export interface RateBand {
  upTo: number | null;
  priceCents: number;
}

export interface ShippingMethodDef {
  id: number;
  /** what an order keeps, unique in its zone (e.g. "standard") */
  code: string;
  name: string;
  rule: ShippingRule;
  /** the price of a flat method */
  flatCents: number;
  /** the bands of a subtotal or weight method, ascending */
  bands: RateBand[];
  /** free from this subtotal on (before discounts), or never */
  freeOverCents: number | null;
  daysMin: number;
  daysMax: number;
}

export interface ZoneTaxRate {
  /** "" for the zone's own; a region code for that region's */
  region: string;
  taxClass: TaxClass;
  basisPoints: number;
}

export interface Zone {
  id: number;
  name: string;
  countries: string[];
  /** country → the regions of it the zone covers; a country not named here: all of it */
  regions: Record<string, string[]>;
  taxLabel: string;
  taxShipping: boolean;
  rates: ZoneTaxRate[];
  /** in the order they are offered */
  methods: ShippingMethodDef[];
}

/** What the shop sells by: its zones in order, and how its prices carry tax. */
export interface Markets {
  currency: Currency;
  /** prices are entered including tax (inclusive) or excluding it (exclusive) */
  taxMode: TaxMode;
  rounding: TaxRounding;
  /** the country the cart estimates shipping and tax for until the shopper says otherwise */
  estimateCountry: string;
  zones: Zone[];
}

export interface Destination {
  country: string;
  /** the region typed (a state's code or name), when the country has regions */
  region?: string | null;
}

/** The destination as the zones read it: its country's code, and its region's code when known. */
export function normalDestination(destination: Destination): { country: string; region: string } | null {
  const country = countryCode(destination.country);
  if (!country) return null;
  return { country, region: regionCode(country, destination.region) ?? "" };
}

/** The first zone that holds the destination, or null (the shop does not ship there). */
export function zoneFor(markets: Pick<Markets, "zones">, destination: Destination): Zone | null {
  const place = normalDestination(destination);
  if (!place) return null;
  return (
    markets.zones.find((zone) => {
      if (!zone.countries.includes(place.country)) return false;
      const only = zone.regions[place.country];
      return !only || only.length === 0 || only.includes(place.region);
    }) ?? null
  );
}

/** Every country some zone ships to, in the zones' order. */
export function shippingCountries(markets: Pick<Markets, "zones">): string[] {
  return [...new Set(markets.zones.flatMap((zone) => zone.countries))];
}

/**
 * The address form's country choices: the countries some zone ships to, by name, each with the
 * value the form posts — the ISO code, except the United Kingdom's "UK" (the spec's option value).
 */
export function countryOptions(markets: Pick<Markets, "zones">): { value: string; name: string }[] {
  return shippingCountries(markets).map((code) => ({
    value: COUNTRY_OPTION_VALUES[code] ?? code,
    name: countryName(code),
  }));
}

const REGION_NOUNS: Record<string, string> = {
  US: "state",
  CA: "province or territory",
  AU: "state or territory",
};

/**
 * Why the shop cannot ship to an address, beside the field that says so: a country no zone holds;
 * or, where a zone tells the country's regions apart (covers only some, or has a regional tax
 * rate), a state the shop cannot read or that no zone holds. Null: some zone holds it.
 */
export function destinationProblem(
  markets: Pick<Markets, "zones">,
  destination: Destination,
): { field: "country" | "state"; message: string } | null {
  const country = countryCode(destination.country);
  if (!country) return { field: "country", message: "Choose a country from the list." };
  const zones = markets.zones.filter((zone) => zone.countries.includes(country));
  if (zones.length === 0)
    return { field: "country", message: `We don't ship to ${countryName(country)} yet.` };
  const regions = REGIONS[country];
  const regionsMatter =
    regions !== undefined &&
    zones.some(
      (zone) =>
        (zone.regions[country]?.length ?? 0) > 0 ||
        zone.rates.some((rate) => regions.some((region) => region.code === rate.region)),
    );
  if (!regionsMatter) return null;
  const region = regionCode(country, destination.region);
  if (!region) {
    const example = regions[0]!;
    return {
      field: "state",
      message: `Enter a ${REGION_NOUNS[country] ?? "region"} of ${countryName(country)}, like ${example.code} or ${example.name}.`,
    };
  }
  if (!zoneFor(markets, { country, region })) {
    return { field: "state", message: `We don't ship to ${regionName(country, region)} yet.` };
  }
  return null;
}

/**
 * Where a line's rate comes from: the shop's own tables (`BUILT_IN_TAX_TABLES`: the zone's rates
 * per class, a region's own first). An external engine (a tax service) would be another provider
 * behind this one question; the calculator only does the arithmetic with what it answers.
 */
export interface TaxProvider {
  rateFor(zone: Zone, region: string, taxClass: TaxClass): TaxRate;
}

export const BUILT_IN_TAX_TABLES: TaxProvider = {
  rateFor: (zone, region, taxClass) => taxRateFor(zone, region, taxClass),
};

/** The rate a line of `taxClass` bears in the zone, for the destination's region. */
export function taxRateFor(zone: Zone, region: string, taxClass: TaxClass): TaxRate {
  const regional = region
    ? zone.rates.find((r) => r.region === region && r.taxClass === taxClass)
    : undefined;
  const own = zone.rates.find((r) => r.region === "" && r.taxClass === taxClass);
  const basisPoints = taxClass === "exempt" ? 0 : ((regional ?? own)?.basisPoints ?? 0);
  const where = regional ? `${zone.id}:${region}` : `${zone.id}`;
  return { id: `${where}:${taxClass}:${basisPoints}`, label: zone.taxLabel, basisPoints };
}

/**
 * What a method costs for a cart: flat, by the band its subtotal (before discounts) or weight falls
 * in, free from its threshold. Null when the method cannot carry it (heavier than its last band).
 */
export function shippingPrice(
  method: ShippingMethodDef,
  { subtotalCents, weightGrams }: { subtotalCents: number; weightGrams: number },
): number | null {
  // free from its threshold (a method with one costs nothing for an empty cart either)
  if (method.freeOverCents !== null && (subtotalCents >= method.freeOverCents || subtotalCents === 0))
    return 0;
  if (method.rule === "flat") return method.flatCents;
  const measure = method.rule === "subtotal" ? subtotalCents : weightGrams;
  const band = method.bands.find((b) => b.upTo === null || measure <= b.upTo);
  return band ? band.priceCents : null;
}

export interface ShippingQuote {
  method: ShippingMethodDef;
  priceCents: number;
}

/** The zone's methods that can carry the cart, with their prices, in their order. */
export function shippingQuotes(
  zone: Zone,
  cart: { subtotalCents: number; weightGrams: number },
): ShippingQuote[] {
  return zone.methods.flatMap((method) => {
    const priceCents = shippingPrice(method, cart);
    return priceCents === null ? [] : [{ method, priceCents }];
  });
}

/** A line of a cart as the markets price it. */
export interface MarketLine {
  key: string;
  unitPriceCents: number;
  quantity: number;
  taxClass: TaxClass;
  weightGrams: number;
  discountCents?: number;
  /** a gift card: delivered by e-mail (nothing to ship), no tax on its sale */
  giftCard?: boolean;
}

/**
 * The one way an order with nothing to ship (gift cards only) is delivered: by e-mail, free, the
 * same day — offered instead of the zone's methods.
 */
export const EMAIL_DELIVERY: ShippingMethodDef = {
  id: 0,
  code: "email",
  name: "E-mail delivery",
  rule: "flat",
  flatCents: 0,
  bands: [],
  freeOverCents: null,
  daysMin: 0,
  daysMax: 0,
};

export type PricedOrder =
  | {
      ok: true;
      zone: Zone;
      /** the method chosen (or the first the zone offers), with its price; null: none can carry it */
      shipping: ShippingQuote | null;
      quotes: ShippingQuote[];
      calculation: OrderCalculation;
    }
  | { ok: false; problem: "no-zone" };

/** What promotions take off once the zone and the shipping method are known (decision 033). */
export interface PriceAdjustments {
  /** off each line, by key */
  lineDiscounts: ReadonlyMap<string, number>;
  /** off the order, beside its own discount */
  orderDiscountCents: number;
  /** off the shipping method's price */
  shippingDiscountCents: number;
}

/**
 * The order priced for a destination: the lines at their classes' rates there, the order's discount
 * spread over them, the chosen shipping method (by code; an unknown or unavailable one: the zone's
 * first that can carry the cart) at its price, taxed as the zone says. `adjust`: what promotions
 * take off, asked once the zone and the method are known (it changes the calculator's input only).
 */
export function priceForDestination(
  markets: Markets,
  {
    lines,
    orderDiscountCents = 0,
    destination,
    methodCode,
    adjust,
  }: {
    lines: readonly MarketLine[];
    orderDiscountCents?: number;
    destination: Destination;
    methodCode?: string | null;
    adjust?: (zone: Zone, shipping: ShippingQuote | null) => PriceAdjustments;
  },
  taxes: TaxProvider = BUILT_IN_TAX_TABLES,
): PricedOrder {
  const zone = zoneFor(markets, destination);
  if (!zone) return { ok: false, problem: "no-zone" };
  const region = normalDestination(destination)?.region ?? "";
  // what ships: gift cards go by e-mail, and neither weigh nor count toward a method's bands
  const shipped = lines.filter((l) => !l.giftCard);
  const subtotalCents = shipped.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0);
  const weightGrams = shipped.reduce((sum, l) => sum + l.weightGrams * l.quantity, 0);
  const quotes =
    lines.length > 0 && shipped.length === 0
      ? [{ method: EMAIL_DELIVERY, priceCents: 0 }]
      : shippingQuotes(zone, { subtotalCents, weightGrams });
  const shipping = quotes.find((q) => q.method.code === methodCode) ?? quotes[0] ?? null;
  const adjusted = adjust?.(zone, shipping);
  const calculatorLines: CalculatorLine[] = lines.map((line) => ({
    key: line.key,
    unitPriceCents: line.unitPriceCents,
    quantity: line.quantity,
    // a gift card's sale bears no tax (what it pays for does, when it is spent)
    rate: taxes.rateFor(zone, region, line.giftCard ? "exempt" : line.taxClass),
    discountCents: (line.discountCents ?? 0) + (adjusted?.lineDiscounts.get(line.key) ?? 0),
  }));
  const calculation = calculateOrder({
    mode: markets.taxMode,
    rounding: markets.rounding,
    lines: calculatorLines,
    orderDiscountCents: orderDiscountCents + (adjusted?.orderDiscountCents ?? 0),
    shipping: shipping
      ? {
          priceCents: Math.max(0, shipping.priceCents - (adjusted?.shippingDiscountCents ?? 0)),
          rate: zone.taxShipping ? taxes.rateFor(zone, region, "standard") : null,
        }
      : null,
  });
  return { ok: true, zone, shipping, quotes, calculation };
}

/** An order's figures as every page shows them (the cart, checkout, confirmation, e-mails, orders). */
export interface Totals {
  /** the lines as entered (gross when prices include tax) */
  subtotalCents: number;
  discountCents: number;
  /** as entered (gross when prices include tax) */
  shippingCents: number;
  taxCents: number;
  totalCents: number;
  /** the tax is inside the prices (shown, not added) */
  taxIncluded: boolean;
  /** what the destination's tax goes by ('Including VAT', 'Sales tax', 'GST') */
  taxLabel: string;
  /** the tax per rate that bears any, in the order rates first appear */
  taxLines: { label: string; basisPoints: number; taxCents: number }[];
}

export function totalsOf(calculation: OrderCalculation, taxLabel: string): Totals {
  return {
    subtotalCents: calculation.subtotalCents,
    discountCents: calculation.discountCents,
    shippingCents: calculation.shippingCents,
    taxCents: calculation.taxCents,
    totalCents: calculation.totalCents,
    taxIncluded: calculation.mode === "inclusive",
    taxLabel,
    taxLines: calculation.taxLines.map(({ label, basisPoints, taxCents }) => ({
      label,
      basisPoints,
      taxCents,
    })),
  };
}

/**
 * The tax rows an order's summary shows: one, named by its label, while one rate bears tax (the
 * spec's "Tax (Including VAT)"); else one per rate, with the rate ("VAT 19%", "VAT 7%"). Tax inside
 * the prices says so (", included"): it is shown, not added to the total.
 */
export function taxRows(
  totals: Pick<Totals, "taxLines" | "taxLabel" | "taxIncluded" | "taxCents">,
): { label: string; taxCents: number }[] {
  const suffix = totals.taxIncluded ? ", included" : "";
  const named = (label: string) => (label || suffix ? `Tax (${label || "tax"}${suffix})` : "Tax");
  if (totals.taxLines.length <= 1) {
    return [{ label: named(totals.taxLines[0]?.label ?? totals.taxLabel), taxCents: totals.taxCents }];
  }
  return totals.taxLines.map((line) => ({
    label: named(`${line.label} ${formatTaxRate(line.basisPoints)}`),
    taxCents: line.taxCents,
  }));
}

/** "4-6 business days", "2 business days", "1 business day". */
export function deliveryDays({ daysMin, daysMax }: Pick<ShippingMethodDef, "daysMin" | "daysMax">): string {
  if (daysMax === 0) return "by e-mail, once paid";
  if (daysMin === daysMax) return `${daysMin} business ${daysMin === 1 ? "day" : "days"}`;
  return `${daysMin}-${daysMax} business days`;
}

/** The days added to the order date for its estimated delivery: the range's middle (5 and 2 by default). */
export function deliveryDayCount({
  daysMin,
  daysMax,
}: Pick<ShippingMethodDef, "daysMin" | "daysMax">): number {
  return Math.round((daysMin + daysMax) / 2);
}

/** A rate in basis points as the shop writes it: 700 → "7%", 825 → "8.25%". */
export function formatTaxRate(basisPoints: number): string {
  const whole = Math.floor(basisPoints / 100);
  const fraction = basisPoints % 100;
  if (fraction === 0) return `${whole}%`;
  return `${whole}.${String(fraction).padStart(2, "0").replace(/0$/, "")}%`;
}

/**
 * The shop as it was before zones (the spec's constants), as the migration made it: one zone of
 * the six countries, 7 % on every taxable class, labelled 'Including VAT' though added on top,
 * standard shipping $4.99 (free from $50, 4-6 days) and express $9.99 (1-3 days).
 */
export const DEFAULT_ZONE: Zone = {
  id: 1,
  name: "Where we ship",
  countries: ["US", "CA", "GB", "AU", "DE", "FR"],
  regions: {},
  taxLabel: "Including VAT",
  taxShipping: false,
  rates: [
    { region: "", taxClass: "standard", basisPoints: 700 },
    { region: "", taxClass: "reduced", basisPoints: 700 },
    { region: "", taxClass: "zero", basisPoints: 0 },
    { region: "", taxClass: "exempt", basisPoints: 0 },
  ],
  methods: [
    {
      id: 1,
      code: "standard",
      name: "Standard Shipping",
      rule: "flat",
      flatCents: 499,
      bands: [],
      freeOverCents: 5_000,
      daysMin: 4,
      daysMax: 6,
    },
    {
      id: 2,
      code: "express",
      name: "Express Shipping",
      rule: "flat",
      flatCents: 999,
      bands: [],
      freeOverCents: null,
      daysMin: 1,
      daysMax: 3,
    },
  ],
};

export const DEFAULT_MARKETS: Markets = {
  currency: "USD",
  taxMode: "exclusive",
  rounding: "per-order",
  estimateCountry: "US",
  zones: [DEFAULT_ZONE],
};

/** A shipping method as the storefront's texts tell it. */
export interface MethodTerms {
  code: string;
  name: string;
  /** "4-6 business days" */
  days: string;
  daysMax: number;
  rule: ShippingRule;
  /** what it costs below its threshold: a flat method's price, else its first band's */
  fromCents: number;
  freeOverCents: number | null;
}

/**
 * The shipping and tax a shopper meets in the shop's home market (the estimate country's zone):
 * what the home page, the product pages, the help pages and the cart's free-shipping hint say.
 */
export interface ShippingTerms {
  taxLabel: string;
  /** prices shown include tax */
  taxIncluded: boolean;
  /** the zone's standard rate */
  taxRateBasisPoints: number;
  /** the lowest subtotal some method ships free from; null: none does */
  freeShippingThresholdCents: number | null;
  methods: MethodTerms[];
}

export function shippingTerms(markets: Markets): ShippingTerms {
  const zone = zoneFor(markets, { country: markets.estimateCountry }) ?? markets.zones[0] ?? null;
  const methods: MethodTerms[] = (zone?.methods ?? []).map((method) => ({
    code: method.code,
    name: method.name,
    days: deliveryDays(method),
    daysMax: method.daysMax,
    rule: method.rule,
    fromCents: method.rule === "flat" ? method.flatCents : (method.bands[0]?.priceCents ?? 0),
    freeOverCents: method.freeOverCents,
  }));
  const thresholds = methods.flatMap((m) => (m.freeOverCents === null ? [] : [m.freeOverCents]));
  return {
    taxLabel: zone?.taxLabel ?? "",
    taxIncluded: markets.taxMode === "inclusive",
    taxRateBasisPoints: zone ? taxRateFor(zone, "", "standard").basisPoints : 0,
    freeShippingThresholdCents: thresholds.length > 0 ? Math.min(...thresholds) : null,
    methods,
  };
}
