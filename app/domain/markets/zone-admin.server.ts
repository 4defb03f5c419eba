import type { Transaction } from "kysely";
import type { Database } from "../../db/database.server.ts";
import { engineOf } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import type { TaxClass, Zone, ZoneTaxRate } from "../../lib/markets.ts";
import type { TaxRounding } from "../../lib/order-calculator.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { actorCan } from "../../lib/staff-roles.ts";
import { recordAudit, type StaffActor } from "../audit/audit-log.server.ts";
import { readZones } from "./markets.server.ts";
import type { MarketSettingsInput, MethodInput, Overlap, ZoneAdminError, ZoneInput } from "./zone-form.ts";

export type { Overlap, ZoneAdminError } from "./zone-form.ts";

/**
 * Where the shop sells, as the owner edits it (Admin → Settings → Zones, issue 30): zones created,
 * changed and deleted, and the market settings (whether prices include tax, how tax is rounded, the
 * cart's estimate country). Each command checks the actor's `settings` permission
 * itself, and writes in one short transaction that also moves `markets.revision` (every process
 * re-reads the zones on its next request when it moved: markets.server.ts's `MarketsCache`) and
 * records an audit entry (`settings.update`, entity `zone:<id>` or `markets`). A change that
 * changes nothing writes nothing.
 *
 * Rules that need more than the form: a place is in one zone only (a country, or for a country
 * whose regions zones may split, each region: `overlaps`), the shop keeps at least one zone, and
 * the cart's estimate country stays in some zone. Zones are listed in the order they were made.
 * Orders keep the code and name of the method they were shipped by, so a method's rows are simply
 * written again with the zone.
 */

/**
 * Where a zone's places meet other zones': a country in both, unless each names regions of it and
 * none is in both (a zone naming none of a country's regions holds all of it).
 */
export function overlaps(
  zone: Pick<Zone, "countries" | "regions">,
  others: readonly Pick<Zone, "name" | "countries" | "regions">[],
): Overlap[] {
  const found: Overlap[] = [];
  for (const country of zone.countries) {
    const mine = zone.regions[country] ?? [];
    for (const other of others) {
      if (!other.countries.includes(country)) continue;
      const theirs = other.regions[country] ?? [];
      const regions =
        mine.length === 0 && theirs.length === 0
          ? null
          : mine.length === 0
            ? [...theirs]
            : theirs.length === 0
              ? [...mine]
              : mine.filter((region) => theirs.includes(region));
      if (regions && regions.length === 0) continue;
      found.push({ country, regions, zone: other.name, byRegion: mine.length > 0 });
    }
  }
  return found;
}

export interface MarketSettings extends MarketSettingsInput {
  revision: number;
  updatedAt: string;
}

export interface ZonesOverview {
  settings: MarketSettings;
  /** in position order: the first zone holding a destination is its zone */
  zones: Zone[];
}

/** The market settings and every zone, as the zone list shows them (read fresh, not from a cache). */
export async function readZonesOverview(db: Database): Promise<ZonesOverview> {
  const [row, zones] = await Promise.all([
    db.selectFrom("markets").selectAll().where("id", "=", 1).executeTakeFirstOrThrow(),
    readZones(db),
  ]);
  return {
    settings: {
      pricesIncludeTax: row.pricesIncludeTax === 1,
      taxRounding: row.taxRounding,
      estimateCountry: row.estimateCountry,
      revision: row.revision,
      updatedAt: row.updatedAt,
    },
    zones,
  };
}

export async function getZone(db: Database, id: number): Promise<Zone | null> {
  return (await readZones(db)).find((zone) => zone.id === id) ?? null;
}

type Trx = Transaction<DB>;

/** A zone created or changed: its id and name, and whether anything was written. */
export type ZoneChange = Result<{ id: number; name: string; changed: boolean }, ZoneAdminError>;

/**
 * Runs a change to the markets in one transaction: the markets row is locked first (PostgreSQL:
 * two owners' changes take turns; SQLite's writer already does), and when the change says it
 * wrote, the revision moves with it.
 */
async function changeMarkets<T extends { changed: boolean }>(
  db: Database,
  actor: StaffActor,
  now: Date,
  change: (trx: Trx, markets: { estimateCountry: string }) => Promise<Result<T, ZoneAdminError>>,
): Promise<Result<T, ZoneAdminError>> {
  if (!actorCan(actor, "settings")) return fail({ code: "forbidden" });
  return db.transaction().execute(async (trx) => {
    let query = trx.selectFrom("markets").select(["estimateCountry"]).where("id", "=", 1);
    if (engineOf<DB>(trx) === "postgres") query = query.forUpdate();
    const markets = await query.executeTakeFirstOrThrow();
    const outcome = await change(trx, markets);
    if (outcome.ok && outcome.value.changed) {
      await trx
        .updateTable("markets")
        .set((eb) => ({ revision: eb("revision", "+", 1), updatedAt: now.toISOString() }))
        .where("id", "=", 1)
        .execute();
    }
    return outcome;
  });
}

/** What the audit log keeps of a zone (and what tells a change from none). */
function zoneSnapshot(
  zone: Pick<Zone, "name" | "countries" | "regions" | "taxLabel" | "taxShipping" | "rates"> & {
    methods: readonly MethodInput[];
  },
) {
  return {
    name: zone.name,
    countries: [...zone.countries].sort(),
    regions: Object.fromEntries(
      Object.entries(zone.regions)
        .filter(([, codes]) => codes.length > 0)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([country, codes]) => [country, [...codes].sort()]),
    ),
    taxLabel: zone.taxLabel,
    taxShipping: zone.taxShipping,
    rates: [...zone.rates]
      .sort((a, b) => a.region.localeCompare(b.region) || a.taxClass.localeCompare(b.taxClass))
      .map((rate) => ({ region: rate.region, taxClass: rate.taxClass, basisPoints: rate.basisPoints })),
    methods: zone.methods.map((method) => ({
      code: method.code,
      name: method.name,
      rule: method.rule,
      flatCents: method.flatCents,
      bands: method.bands.map((band) => ({ upTo: band.upTo, priceCents: band.priceCents })),
      freeOverCents: method.freeOverCents,
      daysMin: method.daysMin,
      daysMax: method.daysMax,
    })),
  };
}

type ZoneSnapshot = ReturnType<typeof zoneSnapshot>;

/** Whether a zone as stored and as the form would write it are the same. */
const sameZone = (a: ZoneSnapshot, b: ZoneSnapshot) => JSON.stringify(a) === JSON.stringify(b);

const zoneRow = (input: ZoneInput, at: string) => ({
  name: input.name,
  countries: JSON.stringify(input.countries),
  regions: JSON.stringify(input.regions),
  taxLabel: input.taxLabel,
  taxShipping: input.taxShipping ? (1 as const) : (0 as const),
  updatedAt: at,
});

async function insertRates(trx: Trx, zoneId: number, rates: readonly ZoneTaxRate[]) {
  if (rates.length === 0) return;
  await trx
    .insertInto("zoneTaxRates")
    .values(
      rates.map((rate) => ({
        zoneId,
        region: rate.region,
        taxClass: rate.taxClass as TaxClass,
        basisPoints: rate.taxClass === "exempt" ? 0 : rate.basisPoints,
      })),
    )
    .execute();
}

/** Writes the zone's methods afresh, in the form's order (their codes are unique in it: the form's rule). */
async function writeMethods(trx: Trx, zoneId: number, methods: readonly MethodInput[]) {
  await trx.deleteFrom("shippingMethods").where("zoneId", "=", zoneId).execute();
  if (methods.length === 0) return;
  await trx
    .insertInto("shippingMethods")
    .values(
      methods.map((method, position) => ({
        zoneId,
        code: method.code,
        name: method.name,
        rule: method.rule,
        flatCents: method.rule === "flat" ? method.flatCents : 0,
        bands: JSON.stringify(method.rule === "flat" ? [] : method.bands),
        freeOverCents: method.freeOverCents,
        daysMin: method.daysMin,
        daysMax: method.daysMax,
        position,
      })),
    )
    .execute();
}

/** The zones other than `except` a zone's places would meet, as a refusal; null: none. */
async function overlapRefusal(
  trx: Trx,
  input: ZoneInput,
  except: number | null,
): Promise<ZoneAdminError | null> {
  const others = (await readZones(trx)).filter((zone) => zone.id !== except);
  const conflicts = overlaps(input, others);
  return conflicts.length > 0 ? { code: "overlap", conflicts } : null;
}

const auditOf = (actor: StaffActor) => ({ id: actor.id, email: actor.email });

/** Adds a zone after the others, unless it would hold a place another zone holds. */
export async function createZone(
  db: Database,
  { input, actor, now = new Date() }: { input: ZoneInput; actor: StaffActor; now?: Date },
): Promise<ZoneChange> {
  return changeMarkets(db, actor, now, async (trx): Promise<ZoneChange> => {
    const overlap = await overlapRefusal(trx, input, null);
    if (overlap) return fail(overlap);
    const at = now.toISOString();
    const last = await trx
      .selectFrom("zones")
      .select((eb) => eb.fn.max("position").as("position"))
      .executeTakeFirst();
    const position = last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1;
    const zone = await trx
      .insertInto("zones")
      .values({ ...zoneRow(input, at), position, createdAt: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    await insertRates(trx, zone.id, input.rates);
    await writeMethods(trx, zone.id, input.methods);
    await recordAudit(trx, {
      actor: auditOf(actor),
      action: "settings.update",
      entityType: "settings",
      entityId: `zone:${zone.id}`,
      summary: `Created zone ${input.name}`,
      after: zoneSnapshot(input),
      now,
    });
    return ok({ id: zone.id, name: input.name, changed: true });
  });
}

/** The countries of every zone but `except`. */
async function otherCountries(trx: Trx, except: number): Promise<Set<string>> {
  const rows = await trx.selectFrom("zones").select("countries").where("id", "<>", except).execute();
  return new Set(rows.flatMap((row) => JSON.parse(row.countries) as string[]));
}

/** Changes a zone: its name, countries, regions, tax and methods. */
export async function updateZone(
  db: Database,
  { id, input, actor, now = new Date() }: { id: number; input: ZoneInput; actor: StaffActor; now?: Date },
): Promise<ZoneChange> {
  return changeMarkets(db, actor, now, async (trx, markets): Promise<ZoneChange> => {
    const before = (await readZones(trx)).find((zone) => zone.id === id);
    if (!before) return fail({ code: "not-found" });
    if (
      !input.countries.includes(markets.estimateCountry) &&
      !(await otherCountries(trx, id)).has(markets.estimateCountry)
    ) {
      return fail({ code: "estimate-uncovered", country: markets.estimateCountry });
    }
    const overlap = await overlapRefusal(trx, input, id);
    if (overlap) return fail(overlap);
    const was = zoneSnapshot(before);
    const will = zoneSnapshot(input);
    if (sameZone(was, will)) return ok({ id, name: before.name, changed: false });
    const at = now.toISOString();
    await trx.updateTable("zones").set(zoneRow(input, at)).where("id", "=", id).execute();
    await trx.deleteFrom("zoneTaxRates").where("zoneId", "=", id).execute();
    await insertRates(trx, id, input.rates);
    await writeMethods(trx, id, input.methods);
    await recordAudit(trx, {
      actor: auditOf(actor),
      action: "settings.update",
      entityType: "settings",
      entityId: `zone:${id}`,
      summary: `Changed zone ${input.name}`,
      before: was,
      after: will,
      now,
    });
    return ok({ id, name: input.name, changed: true });
  });
}

/** Deletes a zone with its rates and methods; never the last one, nor the estimate country's only one. */
export async function deleteZone(
  db: Database,
  { id, actor, now = new Date() }: { id: number; actor: StaffActor; now?: Date },
): Promise<Result<{ name: string; changed: boolean }, ZoneAdminError>> {
  return changeMarkets(
    db,
    actor,
    now,
    async (trx, markets): Promise<Result<{ name: string; changed: boolean }, ZoneAdminError>> => {
      const zones = await readZones(trx);
      const zone = zones.find((candidate) => candidate.id === id);
      if (!zone) return fail({ code: "not-found" });
      if (zones.length <= 1) return fail({ code: "last-zone" });
      if (!zones.some((other) => other.id !== id && other.countries.includes(markets.estimateCountry))) {
        return fail({ code: "estimate-uncovered", country: markets.estimateCountry });
      }
      await trx.deleteFrom("shippingMethods").where("zoneId", "=", id).execute();
      await trx.deleteFrom("zoneTaxRates").where("zoneId", "=", id).execute();
      await trx.deleteFrom("zones").where("id", "=", id).execute();
      await recordAudit(trx, {
        actor: auditOf(actor),
        action: "settings.update",
        entityType: "settings",
        entityId: `zone:${id}`,
        summary: `Deleted zone ${zone.name}`,
        before: zoneSnapshot(zone),
        now,
      });
      return ok({ name: zone.name, changed: true });
    },
  );
}

const SETTING_NAMES: Record<keyof MarketSettingsInput, string> = {
  pricesIncludeTax: "prices include tax",
  taxRounding: "tax rounding",
  estimateCountry: "estimate country",
};

/** Saves whether prices include tax, how tax is rounded and the cart's estimate country (one of the zones'). */
export async function saveMarketSettings(
  db: Database,
  { settings, actor, now = new Date() }: { settings: MarketSettingsInput; actor: StaffActor; now?: Date },
): Promise<Result<{ changed: boolean }, ZoneAdminError>> {
  return changeMarkets(db, actor, now, async (trx): Promise<Result<{ changed: boolean }, ZoneAdminError>> => {
    const row = await trx
      .selectFrom("markets")
      .select(["pricesIncludeTax", "taxRounding", "estimateCountry"])
      .where("id", "=", 1)
      .executeTakeFirstOrThrow();
    const zones = await trx.selectFrom("zones").select("countries").execute();
    const covered = new Set(zones.flatMap((zone) => JSON.parse(zone.countries) as string[]));
    if (!covered.has(settings.estimateCountry)) {
      return fail({ code: "estimate-uncovered", country: settings.estimateCountry });
    }
    const before: MarketSettingsInput = {
      pricesIncludeTax: row.pricesIncludeTax === 1,
      taxRounding: row.taxRounding as TaxRounding,
      estimateCountry: row.estimateCountry,
    };
    const changed = (Object.keys(SETTING_NAMES) as (keyof MarketSettingsInput)[]).filter(
      (key) => before[key] !== settings[key],
    );
    if (changed.length === 0) return ok({ changed: false });
    await trx
      .updateTable("markets")
      .set({
        pricesIncludeTax: settings.pricesIncludeTax ? 1 : 0,
        taxRounding: settings.taxRounding,
        estimateCountry: settings.estimateCountry,
      })
      .where("id", "=", 1)
      .execute();
    await recordAudit(trx, {
      actor: auditOf(actor),
      action: "settings.update",
      entityType: "settings",
      entityId: "markets",
      summary: `Changed ${changed.map((key) => SETTING_NAMES[key]).join(", ")}`,
      before: Object.fromEntries(changed.map((key) => [key, before[key]])),
      after: Object.fromEntries(changed.map((key) => [key, settings[key]])),
      now,
    });
    return ok({ changed: true });
  });
}
