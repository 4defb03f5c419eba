import type { Generated } from "kysely";
import type { Flag, Timestamp } from "./schema-types.ts";

/** Where the shop sells (migration 2026-11-28T0400, decision 030). */

/** One row (id 1): how prices carry tax, and the revision the zones are cached by. */
export interface MarketsTable {
  id: number;
  pricesIncludeTax: Flag;
  taxRounding: "per-order" | "per-line";
  /** the country the cart estimates for until the shopper says otherwise */
  estimateCountry: string;
  /** moved by every change to the zones, their rates or methods */
  revision: number;
  updatedAt: Timestamp;
}

export interface ZonesTable {
  id: Generated<number>;
  name: string;
  position: number;
  /** JSON array of ISO 3166-1 alpha-2 codes */
  countries: string;
  /** JSON object: country → the region codes of it the zone covers (a country not named: all of it) */
  regions: string;
  taxLabel: string;
  taxShipping: Flag;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export type TaxClassColumn = "standard" | "reduced" | "zero" | "exempt";

export interface ZoneTaxRatesTable {
  id: Generated<number>;
  zoneId: number;
  /** "" for the zone's own rate; a region code for that region's */
  region: string;
  taxClass: TaxClassColumn;
  basisPoints: number;
}

export interface ShippingMethodsTable {
  id: Generated<number>;
  zoneId: number;
  code: string;
  name: string;
  rule: "flat" | "subtotal" | "weight";
  flatCents: number;
  /** JSON array of { upTo: number | null, priceCents } */
  bands: string;
  freeOverCents: number | null;
  daysMin: number;
  daysMax: number;
  position: number;
}

/** The tax an order was charged per rate, as it was (never recomputed). */
export interface OrderTaxLinesTable {
  id: Generated<number>;
  orderId: number;
  rateId: string;
  label: string;
  basisPoints: number;
  netCents: number;
  taxCents: number;
}
