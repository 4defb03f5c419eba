import type { Selectable } from "kysely";
import { type Database, dataChangeStamp, engineOf } from "../../db/database.server.ts";
import type { DB, ShopSettingsTable } from "../../db/schema.ts";
import { DEFAULT_CURRENCY, isCurrency } from "../../lib/money.ts";
import { type ShopSettings, SOCIAL_NETWORKS } from "../../lib/shop-settings.ts";
import { type Actor, recordAudit } from "../audit/audit-log.server.ts";

/**
 * The shop's settings, stored in one row (`shop_settings`, id 1) once the owner has saved them;
 * before that the defaults (the environment's name and contact details, the spec's pricing).
 */

function fromRow(row: Selectable<ShopSettingsTable>): ShopSettings {
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
    taxRateBasisPoints: row.taxRateBasisPoints,
    taxLabel: row.taxLabel,
    standardShippingCents: row.standardShippingCents,
    freeShippingThresholdCents: row.freeShippingThresholdCents,
    expressShippingCents: row.expressShippingCents,
    standardDays: { min: row.standardDaysMin, max: row.standardDaysMax },
    expressDays: { min: row.expressDaysMin, max: row.expressDaysMax },
  };
}

function toRow(settings: ShopSettings, now: Date): Selectable<ShopSettingsTable> {
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
    taxRateBasisPoints: settings.taxRateBasisPoints,
    taxLabel: settings.taxLabel,
    standardShippingCents: settings.standardShippingCents,
    freeShippingThresholdCents: settings.freeShippingThresholdCents,
    expressShippingCents: settings.expressShippingCents,
    standardDaysMin: settings.standardDays.min,
    standardDaysMax: settings.standardDays.max,
    expressDaysMin: settings.expressDays.min,
    expressDaysMax: settings.expressDays.max,
    updatedAt: now.toISOString(),
  };
}

/** The stored settings, or `defaults` while the owner has saved none. */
export async function readShopSettings(db: Database, defaults: ShopSettings): Promise<ShopSettings> {
  const row = await db.selectFrom("shopSettings").selectAll().where("id", "=", 1).executeTakeFirst();
  return row ? fromRow(row) : defaults;
}

/** The names of the settings that differ (social links as "socialLinks.x"). */
export function changedSettings(before: ShopSettings, after: ShopSettings): string[] {
  const changed: string[] = [];
  for (const key of Object.keys(after) as (keyof ShopSettings)[]) {
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
  }: { settings: ShopSettings; defaults: ShopSettings; actor: Actor; now?: Date },
): Promise<SaveSettingsOutcome> {
  return db.transaction().execute(async (trx) => {
    let query = trx.selectFrom("shopSettings").selectAll().where("id", "=", 1);
    // PostgreSQL: two owners saving at once take turns (SQLite's writer already does)
    if (engineOf<DB>(trx) === "postgres") query = query.forUpdate();
    const row = await query.executeTakeFirst();
    const before = row ? fromRow(row) : defaults;
    const changed = changedSettings(before, settings);
    if (changed.length === 0) return { saved: false };
    const values = toRow(settings, now);
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

function valueAt(settings: ShopSettings, name: string): unknown {
  const [key, network] = name.split(".") as [
    keyof ShopSettings,
    keyof ShopSettings["socialLinks"] | undefined,
  ];
  return network ? settings.socialLinks[network] : settings[key];
}

/**
 * The settings as this process serves them: read from the database, and kept in memory only
 * while the database's change stamp says nothing was written since (SQLite: a write by any
 * process moves it). On PostgreSQL, where other instances write unseen, every call reads the row
 * (one primary-key lookup; `shopSettingsFrom` makes that once per request). So a saved change
 * shows on every process's next request.
 */
export class ShopSettingsSource {
  readonly #db: Database;
  readonly defaults: ShopSettings;
  #cached: { stamp: string; settings: ShopSettings } | null = null;

  constructor(db: Database, defaults: ShopSettings) {
    this.#db = db;
    this.defaults = defaults;
  }

  async current(): Promise<ShopSettings> {
    const stamp = dataChangeStamp(this.#db);
    if (stamp !== null && this.#cached?.stamp === stamp) return this.#cached.settings;
    const settings = await readShopSettings(this.#db, this.defaults);
    // the stamp read before the query: a write meanwhile makes the next call read again
    this.#cached = stamp === null ? null : { stamp, settings };
    return settings;
  }
}
