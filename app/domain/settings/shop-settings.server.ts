import type { Selectable } from "kysely";
import { type Database, dataChangeStamp, engineOf } from "../../db/database.server.ts";
import type { DB, ShopSettingsTable } from "../../db/schema.ts";
import { DEFAULT_CURRENCY, isCurrency } from "../../lib/money.ts";
import { type ShopSettings, SOCIAL_NETWORKS } from "../../lib/shop-settings.ts";
import { isTimeZone } from "../../lib/time-zones.ts";
import { type Actor, recordAudit } from "../audit/audit-log.server.ts";
import { MarketsCache, marketsOf } from "../markets/markets.server.ts";

/**
 * The shop's settings, stored in one row (`shop_settings`, id 1) once the owner has saved them;
 * before that the defaults (the environment's name and contact details); with them the markets
 * (zones, rates and methods: `markets`, edited on their own). The old pricing columns
 * (tax rate, fees, days) are no longer read: migration 2026-11-28T0400 made them the first zone.
 */

type StoredSettings = Omit<ShopSettings, "markets">;

function fromRow(row: Selectable<ShopSettingsTable>): StoredSettings {
  return {
    shopName: row.shopName,
    contactEmail: row.contactEmail,
    contactPhone: row.contactPhone,
    contactAddress: row.contactAddress,
    socialLinks: {
      facebook: row.facebookUrl,
      instagram: row.instagramUrl,
      x: row.xUrl,
      youtube: row.youtubeUrl,
    },
    currency: isCurrency(row.currency) ? row.currency : DEFAULT_CURRENCY,
    legalName: row.legalName,
    legalAddress: row.legalAddress,
    taxId: row.taxId,
    timeZone: isTimeZone(row.timeZone) ? row.timeZone : "UTC",
  };
}

/** The row to store; the old pricing columns keep what they held (the spec's constants on a new row). */
function toRow(
  settings: StoredSettings,
  now: Date,
  old: Selectable<ShopSettingsTable> | undefined,
): Selectable<ShopSettingsTable> {
  return {
    id: 1,
    shopName: settings.shopName,
    contactEmail: settings.contactEmail,
    contactPhone: settings.contactPhone,
    contactAddress: settings.contactAddress,
    facebookUrl: settings.socialLinks.facebook,
    instagramUrl: settings.socialLinks.instagram,
    xUrl: settings.socialLinks.x,
    youtubeUrl: settings.socialLinks.youtube,
    currency: settings.currency,
    taxRateBasisPoints: old?.taxRateBasisPoints ?? 700,
    taxLabel: old?.taxLabel ?? "Including VAT",
    standardShippingCents: old?.standardShippingCents ?? 499,
    freeShippingThresholdCents: old?.freeShippingThresholdCents ?? 5000,
    expressShippingCents: old?.expressShippingCents ?? 999,
    standardDaysMin: old?.standardDaysMin ?? 4,
    standardDaysMax: old?.standardDaysMax ?? 6,
    expressDaysMin: old?.expressDaysMin ?? 1,
    expressDaysMax: old?.expressDaysMax ?? 3,
    legalName: settings.legalName,
    legalAddress: settings.legalAddress,
    taxId: settings.taxId,
    timeZone: settings.timeZone,
    updatedAt: now.toISOString(),
  };
}

/** The settings row (or none yet) and the markets row, in one statement. */
async function readRows(db: Database) {
  const row = await db
    .selectFrom("markets")
    .leftJoin("shopSettings", (join) => join.on("shopSettings.id", "=", 1))
    .select([
      "markets.pricesIncludeTax",
      "markets.taxRounding",
      "markets.estimateCountry",
      "markets.revision",
    ])
    .selectAll("shopSettings")
    .where("markets.id", "=", 1)
    .executeTakeFirstOrThrow();
  const { pricesIncludeTax, taxRounding, estimateCountry, revision, ...settings } = row;
  return {
    settings: settings.id === null ? undefined : (settings as Selectable<ShopSettingsTable>),
    markets: { pricesIncludeTax, taxRounding, estimateCountry, revision },
  };
}

/** The stored settings (or `defaults` while the owner has saved none), with the markets. */
export async function readShopSettings(
  db: Database,
  defaults: ShopSettings,
  cache: MarketsCache = new MarketsCache(),
): Promise<ShopSettings> {
  const rows = await readRows(db);
  const stored = rows.settings ? fromRow(rows.settings) : withoutMarkets(defaults);
  const zones = await cache.zones(db, rows.markets.revision);
  return { ...stored, markets: marketsOf(rows.markets, zones, stored.currency) };
}

function withoutMarkets({ markets: _markets, ...stored }: ShopSettings): StoredSettings {
  return stored;
}

/** The names of the settings that differ (social links as "socialLinks.x"; the markets are not compared). */
export function changedSettings(before: StoredSettings, after: StoredSettings): string[] {
  const changed: string[] = [];
  for (const key of Object.keys(after) as (keyof StoredSettings)[]) {
    if ((key as string) === "markets") continue;
    if (key === "socialLinks") {
      for (const network of SOCIAL_NETWORKS) {
        if (before.socialLinks[network] !== after.socialLinks[network])
          changed.push(`socialLinks.${network}`);
      }
    } else if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      changed.push(key);
    }
  }
  return changed;
}

export type SaveSettingsOutcome = { saved: true; changed: string[] } | { saved: false };

/**
 * Stores the settings with an audit entry of what changed (before and after), in one
 * transaction; nothing is written when nothing changed. Every process sees them on its next
 * request (`ShopSettingsSource`).
 */
export async function saveShopSettings(
  db: Database,
  {
    settings,
    defaults,
    actor,
    now = new Date(),
  }: { settings: StoredSettings; defaults: StoredSettings; actor: Actor; now?: Date },
): Promise<SaveSettingsOutcome> {
  return db.transaction().execute(async (trx) => {
    let query = trx.selectFrom("shopSettings").selectAll().where("id", "=", 1);
    // PostgreSQL: two owners saving at once take turns (SQLite's writer already does)
    if (engineOf<DB>(trx) === "postgres") query = query.forUpdate();
    const row = await query.executeTakeFirst();
    const before = row ? fromRow(row) : defaults;
    const changed = changedSettings(before, settings);
    if (changed.length === 0) return { saved: false };
    const values = toRow(settings, now, row);
    const { id: _id, ...update } = values;
    await trx
      .insertInto("shopSettings")
      .values(values)
      .onConflict((conflict) => conflict.column("id").doUpdateSet(update))
      .execute();
    await recordAudit(trx, {
      actor,
      action: "settings.update",
      entityType: "settings",
      entityId: "shop",
      summary: `Changed ${changed.join(", ")}`,
      before: Object.fromEntries(changed.map((name) => [name, valueAt(before, name)])),
      after: Object.fromEntries(changed.map((name) => [name, valueAt(settings, name)])),
      now,
    });
    return { saved: true, changed };
  });
}

function valueAt(settings: StoredSettings, name: string): unknown {
  const [key, network] = name.split(".") as [
    keyof StoredSettings,
    keyof StoredSettings["socialLinks"] | undefined,
  ];
  return network ? settings.socialLinks[network] : settings[key];
}

/**
 * The settings as this process serves them: read from the database, and kept in memory only
 * while the database's change stamp says nothing was written since (SQLite: a write by any
 * process moves it). On PostgreSQL, where other instances write unseen, every call reads the row
 * with the markets' revision (one statement; `shopSettingsFrom` makes that once per request), and
 * the zones again only when the revision moved. So a saved change shows on every process's next
 * request.
 */
export class ShopSettingsSource {
  readonly #db: Database;
  readonly defaults: ShopSettings;
  readonly #zones = new MarketsCache();
  #cached: { stamp: string; settings: ShopSettings } | null = null;

  constructor(db: Database, defaults: ShopSettings) {
    this.#db = db;
    this.defaults = defaults;
  }

  async current(): Promise<ShopSettings> {
    const stamp = dataChangeStamp(this.#db);
    if (stamp !== null && this.#cached?.stamp === stamp) return this.#cached.settings;
    const settings = await readShopSettings(this.#db, this.defaults, this.#zones);
    // the stamp read before the query: a write meanwhile makes the next call read again
    this.#cached = stamp === null ? null : { stamp, settings };
    return settings;
  }
}
