import { expect } from "vitest";
import { createDatabase, type Database, type Engine } from "../../app/db/database.server.ts";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import { readZones } from "../../app/domain/markets/markets.server.ts";
import {
  EMPTY_METHOD,
  EMPTY_ZONE_FORM,
  type MethodValues,
  type ZoneFormValues,
  zoneFormValues,
} from "../../app/domain/markets/zone-form.ts";
import { ShopSettingsSource } from "../../app/domain/settings/shop-settings.server.ts";
import { DEFAULT_ZONE, type Zone } from "../../app/lib/markets.ts";
import * as zonesRoute from "../../app/routes/admin.settings_.zones._index.tsx";
import * as zoneRoute from "../../app/routes/admin.settings_.zones.$id.tsx";
import * as newZoneRoute from "../../app/routes/admin.settings_.zones.new.tsx";
import { cookieHeader } from "./account-fixtures.ts";
import { type AdminAnswer, adminAction } from "./admin-route.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "./test-shop.ts";

/**
 * Admin → Settings → Zones as its integration tests drive it (zones-admin*.test.ts): a shop with an
 * owner and an admin signed in and a second process on its database; the zone form's values posted
 * as the browser posts them; and what the tests read back (the zones, the revision, the audit log).
 */

export const ZONES_URL = `${TEST_ORIGIN}/admin/settings/zones`;
export { newZoneRoute, zoneRoute, zonesRoute };

/** The zone form's values as the browser posts them (Conform's names: `methods[0].bands[1].upTo`). */
export function zoneFields(values: ZoneFormValues): [string, string][] {
  const fields: [string, string][] = [
    ["name", values.name],
    ...values.countries.map((code): [string, string] => ["countries", code]),
    ...Object.entries(values.regions).flatMap(([country, codes]) =>
      codes.map((code): [string, string] => [`regions.${country}`, code]),
    ),
    ["taxLabel", values.taxLabel],
    ...(values.taxShipping ? [["taxShipping", "on"] as [string, string]] : []),
    ["rates.standard", values.rates.standard],
    ["rates.reduced", values.rates.reduced],
    ["rates.zero", values.rates.zero],
  ];
  values.regionalRates.forEach((rate, index) => {
    for (const key of ["region", "taxClass", "rate"] as const)
      fields.push([`regionalRates[${index}].${key}`, rate[key]]);
  });
  values.methods.forEach((method, index) => {
    const at = `methods[${index}]`;
    for (const key of ["code", "name", "rule", "flatPrice", "freeOver", "daysMin", "daysMax"] as const)
      fields.push([`${at}.${key}`, method[key]]);
    method.bands.forEach((band, bandIndex) => {
      fields.push([`${at}.bands[${bandIndex}].upTo`, band.upTo]);
      fields.push([`${at}.bands[${bandIndex}].price`, band.price]);
    });
  });
  return fields;
}

export const WEIGHT_METHOD: MethodValues = {
  ...EMPTY_METHOD,
  code: "dhl",
  name: "DHL Parcel",
  rule: "weight",
  bands: [
    { upTo: "2", price: "5.90" },
    { upTo: "30", price: "14.90" },
  ],
  daysMin: "2",
  daysMax: "4",
};

/** Germany as the owner fills it in: 19 % and 7 %, shipping taxed, by weight up to 30 kg. */
export const GERMANY: ZoneFormValues = {
  ...EMPTY_ZONE_FORM,
  name: "Germany",
  countries: ["DE"],
  taxLabel: "VAT",
  taxShipping: true,
  rates: { standard: "19", reduced: "7", zero: "0" },
  methods: [WEIGHT_METHOD],
};

/** An action's answer, a redirect (ok) or the form again (its messages and values: none on a redirect). */
export type Answer = AdminAnswer & {
  fieldErrors: Record<string, string | undefined>;
  values: Record<string, unknown>;
};

export type ZonesAdmin = Awaited<ReturnType<typeof openZonesAdmin>>;

/** A shop of the test's own on `engine`, its owner and an admin signed in, and a second process on it. */
export async function openZonesAdmin(engine: Engine) {
  const shop: TestShop = await createTestShop(engine);
  const { auth } = shop.services;
  for (const [email, role] of [
    ["owner@zones.example", "owner"],
    ["admin@zones.example", "admin"],
  ] as const) {
    const created = await createOrUpdateUser(
      { auth, db: shop.db },
      { email, password: "correct horse", role },
    );
    if (!created.ok) throw new Error(email);
  }
  const signIn = async (email: string) =>
    cookieHeader(
      (await auth.api.signInEmail({ body: { email, password: "correct horse" }, returnHeaders: true }))
        .headers,
    );
  const ownerCookie = await signIn("owner@zones.example");
  const adminCookie = await signIn("admin@zones.example");
  // a second app process on the same database: its own connections, its own zones in memory
  const other: Database = createDatabase(shop.services.config.DATABASE_URL, { poolSize: 2 });
  const otherSource = new ShopSettingsSource(other, shop.services.settings.defaults);

  const post = (
    module: { action: (args: never) => unknown },
    url: string,
    fields: [string, string][],
    { cookie = ownerCookie, params = {} }: { cookie?: string; params?: Record<string, string> } = {},
  ): Promise<Answer> =>
    adminAction(
      module.action,
      new Request(url, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
        body: new URLSearchParams(fields).toString(),
      }),
      shop.context(),
      params,
    ).then((answer) => (answer.ok ? { ...answer, fieldErrors: {}, values: {} } : answer));
  const revision = async () =>
    (await shop.db.selectFrom("markets").select("revision").executeTakeFirstOrThrow()).revision;
  const audits = () =>
    shop.db
      .selectFrom("auditLog")
      .selectAll()
      .where("action", "=", "settings.update")
      .orderBy("id")
      .execute();
  const zoneNamed = async (name: string): Promise<Zone | undefined> =>
    (await readZones(shop.db)).find((zone) => zone.name === name);
  const defaultZone = async () => (await zoneNamed(DEFAULT_ZONE.name))!;

  return {
    shop,
    ownerCookie,
    adminCookie,
    other,
    otherSource,
    post,
    /** the new zone page's form, posted */
    create: (values: ZoneFormValues, cookie?: string) =>
      post(newZoneRoute, `${ZONES_URL}/new`, zoneFields(values), { cookie }),
    /** a zone's page's form, posted */
    edit: (id: number, fields: [string, string][]) =>
      post(zoneRoute, `${ZONES_URL}/${id}`, fields, { params: { id: String(id) } }),
    /** a form of the zone list (the market settings, a zone's delete) */
    onList: (fields: Record<string, string>) => post(zonesRoute, ZONES_URL, Object.entries(fields)),
    revision,
    audits,
    zoneNamed,
    defaultZone,
    /** the shop's zone's form, changed */
    defaultForm: async (change: Partial<ZoneFormValues> = {}) => ({
      ...zoneFormValues(await defaultZone()),
      ...change,
    }),
    /** Every write refused: the zones, rates, methods, the revision and the audit log as they were. */
    async expectNothingWritten(change: () => Promise<unknown>) {
      const before = {
        zones: await readZones(shop.db),
        revision: await revision(),
        audits: (await audits()).length,
      };
      await change();
      expect(await readZones(shop.db)).toEqual(before.zones);
      expect(await revision()).toBe(before.revision);
      expect(await audits()).toHaveLength(before.audits);
    },
    async destroy() {
      await other.destroy();
      await shop.destroy();
    },
  };
}
