/**
 * Test set-ups of where the shop sells, written to the database as the zones admin writes them
 * (the markets row's revision moved, so every process reads the zones again), and put back.
 */
import type { Database } from "../../app/db/database.server.ts";
import type { TaxClassColumn } from "../../app/db/schema-markets.ts";
import type { RateBand } from "../../app/lib/markets.ts";

export interface TestZone {
  name: string;
  countries: string[];
  taxLabel: string;
  taxShipping: boolean;
  rates: { region?: string; taxClass: TaxClassColumn; basisPoints: number }[];
  methods: {
    code: string;
    name: string;
    rule: "flat" | "subtotal" | "weight";
    flatCents?: number;
    bands?: RateBand[];
    freeOverCents?: number | null;
    daysMin: number;
    daysMax: number;
  }[];
}

async function moved(db: Database, set: { pricesIncludeTax?: 0 | 1 } = {}) {
  await db
    .updateTable("markets")
    .set((eb) => ({ ...set, revision: eb("revision", "+", 1), updatedAt: new Date().toISOString() }))
    .where("id", "=", 1)
    .execute();
}

/** Adds a zone after the others; returns its id. */
export async function addZone(db: Database, zone: TestZone): Promise<number> {
  const now = new Date().toISOString();
  const last = await db
    .selectFrom("zones")
    .select((eb) => eb.fn.max("position").as("position"))
    .executeTakeFirst();
  const { id } = await db
    .insertInto("zones")
    .values({
      name: zone.name,
      position: Number(last?.position ?? 0) + 1,
      countries: JSON.stringify(zone.countries),
      regions: "{}",
      taxLabel: zone.taxLabel,
      taxShipping: zone.taxShipping ? 1 : 0,
      createdAt: now,
      updatedAt: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("zoneTaxRates")
    .values(zone.rates.map((rate) => ({ zoneId: id, region: rate.region ?? "", ...rate })))
    .execute();
  await db
    .insertInto("shippingMethods")
    .values(
      zone.methods.map((method, position) => ({
        zoneId: id,
        code: method.code,
        name: method.name,
        rule: method.rule,
        flatCents: method.flatCents ?? 0,
        bands: JSON.stringify(method.bands ?? []),
        freeOverCents: method.freeOverCents ?? null,
        daysMin: method.daysMin,
        daysMax: method.daysMax,
        position,
      })),
    )
    .execute();
  await moved(db);
  return id;
}

/** What `changeMarkets` changed, to put back with `restoreMarkets`. */
export interface MarketsSnapshot {
  pricesIncludeTax: 0 | 1;
  zones: { id: number; countries: string }[];
  rateIds: number[];
  zoneIds: number[];
}

export async function snapshotMarkets(db: Database): Promise<MarketsSnapshot> {
  const row = await db.selectFrom("markets").select("pricesIncludeTax").executeTakeFirstOrThrow();
  const zones = await db.selectFrom("zones").select(["id", "countries"]).execute();
  const rates = await db.selectFrom("zoneTaxRates").select("id").execute();
  return {
    pricesIncludeTax: row.pricesIncludeTax,
    zones,
    rateIds: rates.map((r) => r.id),
    zoneIds: zones.map((z) => z.id),
  };
}

/** Takes countries out of every zone that has them (to give them a zone of their own). */
export async function takeCountries(db: Database, countries: string[]): Promise<void> {
  for (const zone of await db.selectFrom("zones").select(["id", "countries"]).execute()) {
    const kept = (JSON.parse(zone.countries) as string[]).filter((c) => !countries.includes(c));
    await db
      .updateTable("zones")
      .set({ countries: JSON.stringify(kept) })
      .where("id", "=", zone.id)
      .execute();
  }
  await moved(db);
}

/** A region's own rate in the zone that holds its country first. */
export async function addRegionalRate(
  db: Database,
  zoneId: number,
  rate: { region: string; taxClass: TaxClassColumn; basisPoints: number },
): Promise<void> {
  await db
    .insertInto("zoneTaxRates")
    .values({ zoneId, ...rate })
    .execute();
  await moved(db);
}

export async function setPricesIncludeTax(db: Database, included: boolean): Promise<void> {
  await moved(db, { pricesIncludeTax: included ? 1 : 0 });
}

/** The zones, their countries and rates, and the tax mode as the snapshot had them. */
export async function restoreMarkets(db: Database, snapshot: MarketsSnapshot): Promise<void> {
  const added = db.selectFrom("zones").select("id").where("id", "not in", snapshot.zoneIds);
  await db.deleteFrom("shippingMethods").where("zoneId", "in", added).execute();
  await db.deleteFrom("zoneTaxRates").where("zoneId", "in", added).execute();
  await db.deleteFrom("zones").where("id", "not in", snapshot.zoneIds).execute();
  await db.deleteFrom("zoneTaxRates").where("id", "not in", snapshot.rateIds).execute();
  for (const zone of snapshot.zones) {
    await db.updateTable("zones").set({ countries: zone.countries }).where("id", "=", zone.id).execute();
  }
  await moved(db, { pricesIncludeTax: snapshot.pricesIncludeTax });
}
