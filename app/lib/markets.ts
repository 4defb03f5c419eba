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
import { countryCode, regionCode } from "./countries.ts";
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

/** Every country some zone ships to, and whether a zone covers only some of its regions. */
export function shippingCountries(markets: Pick<Markets, "zones">): string[] {
  return [...new Set(markets.zones.flatMap((zone) => zone.countries))];
}

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
}

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

/**
 * The order priced for a destination: the lines at their classes' rates there, the order's discount
 * spread over them, the chosen shipping method (by code; an unknown or unavailable one: the zone's
 * first that can carry the cart) at its price, taxed as the zone says.
 */
export function priceForDestination(
  markets: Markets,
  {
    lines,
    orderDiscountCents = 0,
    destination,
    methodCode,
  }: {
    lines: readonly MarketLine[];
    orderDiscountCents?: number;
    destination: Destination;
    methodCode?: string | null;
  },
): PricedOrder {
  const zone = zoneFor(markets, destination);
  if (!zone) return { ok: false, problem: "no-zone" };
  const region = normalDestination(destination)?.region ?? "";
  const subtotalCents = lines.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0);
  const weightGrams = lines.reduce((sum, l) => sum + l.weightGrams * l.quantity, 0);
  const quotes = shippingQuotes(zone, { subtotalCents, weightGrams });
  const shipping = quotes.find((q) => q.method.code === methodCode) ?? quotes[0] ?? null;
  const calculatorLines: CalculatorLine[] = lines.map((line) => ({
    key: line.key,
    unitPriceCents: line.unitPriceCents,
    quantity: line.quantity,
    rate: taxRateFor(zone, region, line.taxClass),
    discountCents: line.discountCents,
  }));
  const calculation = calculateOrder({
    mode: markets.taxMode,
    rounding: markets.rounding,
    lines: calculatorLines,
    orderDiscountCents,
    shipping: shipping
      ? {
          priceCents: shipping.priceCents,
          rate: zone.taxShipping ? taxRateFor(zone, region, "standard") : null,
        }
      : null,
  });
  return { ok: true, zone, shipping, quotes, calculation };
}

/** "4-6 business days", "2 business days", "1 business day". */
export function deliveryDays({ daysMin, daysMax }: Pick<ShippingMethodDef, "daysMin" | "daysMax">): string {
  if (daysMin === daysMax) return `${daysMin} business ${daysMin === 1 ? "day" : "days"}`;
  return `${daysMin}-${daysMax} business days`;
}
