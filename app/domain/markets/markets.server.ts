import type { Selectable } from "kysely";
import type { Database } from "../../db/database.server.ts";
import type { MarketsTable } from "../../db/schema-markets.ts";
import { countryCode } from "../../lib/countries.ts";
import type { Markets, RateBand, TaxClass, Zone } from "../../lib/markets.ts";
import type { Currency } from "../../lib/money.ts";

/**
 * Where the shop sells, read from the database (migration 2026-11-28T0400, decision 030): the
 * `markets` row (how prices carry tax, the estimate country) and the zones with their tax rates
 * and shipping methods, in position order. Every change to them moves `markets.revision`, so a
 * process keeps the zones it read while the revision stands (`MarketsCache`).
 */
export async function readZones(db: Database): Promise<Zone[]> {
  const [zones, rates, methods] = await Promise.all([
    db.selectFrom("zones").selectAll().orderBy("position").orderBy("id").execute(),
    db
      .selectFrom("zoneTaxRates")
      .select(["zoneId", "region", "taxClass", "basisPoints"])
      .orderBy("id")
      .execute(),
    db.selectFrom("shippingMethods").selectAll().orderBy("position").orderBy("id").execute(),
  ]);
  return zones.map((zone) => ({
    id: zone.id,
    name: zone.name,
    countries: (JSON.parse(zone.countries) as string[]).flatMap((c) => countryCode(c) ?? []),
    regions: JSON.parse(zone.regions) as Record<string, string[]>,
    taxLabel: zone.taxLabel,
    taxShipping: zone.taxShipping === 1,
    rates: rates
      .filter((rate) => rate.zoneId === zone.id)
      .map((rate) => ({
        region: rate.region,
        taxClass: rate.taxClass as TaxClass,
        basisPoints: rate.basisPoints,
      })),
    methods: methods
      .filter((method) => method.zoneId === zone.id)
      .map((method) => ({
        id: method.id,
        code: method.code,
        name: method.name,
        rule: method.rule,
        flatCents: method.flatCents,
        bands: JSON.parse(method.bands) as RateBand[],
        freeOverCents: method.freeOverCents,
        daysMin: method.daysMin,
        daysMax: method.daysMax,
      })),
  }));
}

export type MarketsRow = Selectable<MarketsTable>;

/** The markets as a row and the zones read at its revision say, in the shop's currency. */
export function marketsOf(
  row: Pick<MarketsRow, "pricesIncludeTax" | "taxRounding" | "estimateCountry">,
  zones: Zone[],
  currency: Currency,
): Markets {
  return {
    currency,
    taxMode: row.pricesIncludeTax === 1 ? "inclusive" : "exclusive",
    rounding: row.taxRounding,
    estimateCountry: countryCode(row.estimateCountry) ?? "US",
    zones,
  };
}

/**
 * The zones this process read, kept while `markets.revision` stays the same (each process reads
 * the revision with the settings on every request it does not serve from its page cache).
 */
export class MarketsCache {
  #cached: { revision: number; zones: Zone[] } | null = null;

  async zones(db: Database, revision: number): Promise<Zone[]> {
    if (this.#cached?.revision === revision) return this.#cached.zones;
    const zones = await readZones(db);
    this.#cached = { revision, zones };
    return zones;
  }
}
