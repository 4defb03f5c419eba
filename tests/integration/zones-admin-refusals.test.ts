import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createZone, overlaps } from "../../app/domain/markets/zone-admin.server.ts";
import {
  ZONE_MESSAGES as M,
  type MethodValues,
  ZONE_LIMITS,
  type ZoneFormValues,
} from "../../app/domain/markets/zone-form.ts";
import { COUNTRY_CODES, REGIONS } from "../../app/lib/countries.ts";
import { bodyLimitFor } from "../../server/request-guard.ts";
import { ENGINES } from "../db-utils.ts";
import { callRoute } from "../helpers/route-harness.ts";
import {
  GERMANY,
  newZoneRoute,
  openZonesAdmin,
  WEIGHT_METHOD,
  ZONES_URL,
  type ZonesAdmin,
  zoneFields,
  zoneRoute,
  zonesRoute,
} from "../helpers/zones-admin.ts";

/**
 * Admin → Settings → Zones (issue 30) refusing, on each engine: an admin (the settings are the
 * owner's), a place another zone holds, and each wrong value — every one answered beside its field
 * with the form as typed, nothing written (no zone, rate or method changed, no revision moved, no
 * audit entry); and the list buttons that add or remove a row, which check nothing.
 */
describe.each(ENGINES)("zones admin refusals on %s", (engine) => {
  let z: ZonesAdmin;
  beforeAll(async () => {
    z = await openZonesAdmin(engine);
  });
  afterAll(async () => {
    await z?.destroy();
  });

  it("refuses an admin (the settings are the owner's): the pages and the domain command", async () => {
    for (const [module, url, params] of [
      [zonesRoute, ZONES_URL, {}],
      [newZoneRoute, `${ZONES_URL}/new`, {}],
      [zoneRoute, `${ZONES_URL}/1`, { id: "1" }],
    ] as const) {
      const answer = await callRoute(module, "loader", url, {
        cookie: z.adminCookie,
        params,
        context: z.shop.context(),
      });
      expect(answer.thrown ?? answer.response?.status).toBe(403);
    }
    await z.expectNothingWritten(async () => {
      const answer = await callRoute(newZoneRoute, "action", `${ZONES_URL}/new`, {
        cookie: z.adminCookie,
        fields: Object.fromEntries(zoneFields(GERMANY)),
        context: z.shop.context(),
      });
      expect(answer.thrown ?? answer.response?.status).toBe(403);
      const refused = await createZone(z.shop.db, {
        input: { ...GERMANY, countries: ["JP"], regions: {}, rates: [], methods: [] },
        actor: { id: "someone", email: "admin@zones.example", role: "admin" },
      });
      expect(refused).toEqual({ ok: false, error: { code: "forbidden" } });
    });
  });

  it("refuses a place another zone holds beside the countries (or the regions) it is about", async () => {
    await z.expectNothingWritten(async () => {
      // Germany is in the shop's zone
      const taken = await z.create(GERMANY);
      expect(taken).toMatchObject({ ok: false, status: 409, message: M.invalid });
      expect(taken.fieldErrors).toEqual({ countries: M.countryTaken("DE", "Where we ship") });
      // California alone: the shop's zone holds all of the United States
      const california = await z.create({
        ...GERMANY,
        name: "California",
        countries: ["US"],
        regions: { US: ["CA"] },
      });
      expect(california.fieldErrors).toEqual({ "regions.US": M.regionsTaken("US", ["CA"], "Where we ship") });
    });
    // regions apart are no overlap; a region in both is
    const west = { name: "West", countries: ["US"], regions: { US: ["CA", "OR"] } };
    expect(overlaps({ countries: ["US"], regions: { US: ["NY"] } }, [west])).toEqual([]);
    expect(overlaps({ countries: ["US", "CA"], regions: { US: ["OR", "NY"] } }, [west])).toEqual([
      { country: "US", regions: ["OR"], zone: "West", byRegion: true },
    ]);
    expect(overlaps({ countries: ["US"], regions: {} }, [west])).toEqual([
      { country: "US", regions: ["CA", "OR"], zone: "West", byRegion: false },
    ]);
  });

  it("refuses each wrong value beside its field, writing nothing", async () => {
    const method = (change: Partial<MethodValues>) => ({ methods: [{ ...WEIGHT_METHOD, ...change }] });
    const fresh = { ...GERMANY, countries: ["AT"], name: "Austria" };
    const cases: [Partial<ZoneFormValues>, string, string][] = [
      [{ name: " " }, "name", M.name],
      [{ countries: [] }, "countries", M.countries],
      [{ countries: ["XX"] }, "countries", M.country],
      [{ regions: { US: ["CA"] } }, "regions.US", M.regionOutside("US")],
      [{ countries: ["US"], regions: { US: ["ZZ"] } }, "regions.US", M.region],
      [{ taxLabel: "" }, "taxLabel", M.taxLabel],
      [{ taxLabel: "x".repeat(41) }, "taxLabel", M.taxLabel],
      [{ rates: { standard: "101", reduced: "7", zero: "0" } }, "rates.standard", M.rate],
      [{ rates: { standard: "19", reduced: "7.125", zero: "0" } }, "rates.reduced", M.rate],
      [{ rates: { standard: "19", reduced: "7", zero: "-1" } }, "rates.zero", M.rate],
      [
        { regionalRates: [{ region: "US-CA", taxClass: "standard", rate: "7.25" }] },
        "regionalRates[0].region",
        M.regionalRegion,
      ],
      [
        {
          countries: ["CA"],
          regionalRates: [
            { region: "CA-QC", taxClass: "standard", rate: "15" },
            { region: "CA-QC", taxClass: "standard", rate: "14" },
          ],
        },
        "regionalRates[1].region",
        M.regionalTwice,
      ],
      [
        { countries: ["CA"], regionalRates: [{ region: "CA-QC", taxClass: "standard", rate: "abc" }] },
        "regionalRates[0].rate",
        M.rate,
      ],
      [{ methods: [] }, "methods", M.methods],
      [method({ name: "" }), "methods[0].name", M.methodName],
      [method({ code: "Bad code!" }), "methods[0].code", M.code],
      [
        { methods: [WEIGHT_METHOD, { ...WEIGHT_METHOD, name: "DHL Express" }] },
        "methods[1].code",
        M.codeTwice,
      ],
      [method({ rule: "teleport" }), "methods[0].rule", M.rule],
      [method({ rule: "flat", flatPrice: "4.999" }), "methods[0].flatPrice", M.amount],
      [method({ rule: "flat", flatPrice: "" }), "methods[0].flatPrice", M.amount],
      [method({ bands: [] }), "methods[0].bands", M.bands],
      [method({ bands: [{ upTo: "", price: "" }] }), "methods[0].bands", M.bands],
      // unordered, and overlapping (the same limit twice)
      [
        method({
          bands: [
            { upTo: "30", price: "14.90" },
            { upTo: "2", price: "5.90" },
          ],
        }),
        "methods[0].bands[1].upTo",
        M.upToOrder,
      ],
      [
        method({
          bands: [
            { upTo: "2", price: "5.90" },
            { upTo: "2", price: "14.90" },
          ],
        }),
        "methods[0].bands[1].upTo",
        M.upToOrder,
      ],
      [
        method({
          bands: [
            { upTo: "", price: "5.90" },
            { upTo: "30", price: "14.90" },
          ],
        }),
        "methods[0].bands[0].upTo",
        M.upToOpen,
      ],
      [method({ bands: [{ upTo: "1.2345", price: "5.90" }] }), "methods[0].bands[0].upTo", M.upToKg],
      [
        method({ rule: "subtotal", bands: [{ upTo: "50.001", price: "5" }] }),
        "methods[0].bands[0].upTo",
        M.upToAmount,
      ],
      [method({ bands: [{ upTo: "2", price: "free" }] }), "methods[0].bands[0].price", M.amount],
      [method({ freeOver: "lots" }), "methods[0].freeOver", M.freeOver],
      [method({ daysMin: "" }), "methods[0].daysMin", M.days],
      [method({ daysMax: "91" }), "methods[0].daysMax", M.days],
      [method({ daysMin: "5", daysMax: "3" }), "methods[0].daysMax", M.daysOrder],
    ];
    await z.expectNothingWritten(async () => {
      for (const [change, field, message] of cases) {
        const answer = await z.create({ ...fresh, ...change });
        expect(answer.ok, JSON.stringify(change)).toBe(false);
        expect(answer.status, JSON.stringify(change)).toBe(400);
        expect(answer.message, JSON.stringify(change)).toBe(M.invalid);
        expect(answer.fieldErrors[field], JSON.stringify(change)).toBe(message);
        // the form comes back as typed
        expect((answer as { values: Record<string, unknown> }).values.name).toBe(change.name ?? fresh.name);
      }
    });
  });

  it("a list button adds or removes a row and answers the form as it was, without messages", async () => {
    await z.expectNothingWritten(async () => {
      const insert = JSON.stringify({
        type: "insert",
        payload: { name: "methods[0].bands", defaultValue: { upTo: "", price: "" } },
      });
      // the name left empty: a list button checks nothing
      const added = await z.post(newZoneRoute, `${ZONES_URL}/new`, [
        ...zoneFields({ ...GERMANY, name: "" }),
        ["__intent__", insert],
      ]);
      expect(added).toMatchObject({ ok: false, status: 200, message: undefined, fieldErrors: {} });
      const methods = added.values.methods as { bands: unknown[] }[];
      expect(methods[0]!.bands).toHaveLength(3);
      const remove = JSON.stringify({ type: "remove", payload: { name: "methods", index: 0 } });
      const removed = await z.post(newZoneRoute, `${ZONES_URL}/new`, [
        ...zoneFields(GERMANY),
        ["__intent__", remove],
      ]);
      expect(removed).toMatchObject({ ok: false, status: 200, fieldErrors: {} });
      expect(removed.values.methods ?? []).toEqual([]);
    });
  });

  it("the largest zone the rules allow fits in an admin form's body limit; a row more is refused beside its list", async () => {
    const wide = (length: number) => "€".repeat(length);
    const band = { upTo: "100000.00", price: "100000.00" };
    const method = (n: number): MethodValues => ({
      code: `${"m".repeat(ZONE_LIMITS.code - 3)}-${String(n).padStart(2, "0")}`,
      name: wide(ZONE_LIMITS.methodName),
      rule: "subtotal",
      flatPrice: "100000.00",
      bands: Array.from({ length: ZONE_LIMITS.bands }, () => band),
      freeOver: "100000.00",
      daysMin: "90",
      daysMax: "90",
    });
    const largest: ZoneFormValues = {
      name: wide(ZONE_LIMITS.name),
      countries: [...COUNTRY_CODES],
      regions: Object.fromEntries(
        Object.entries(REGIONS).map(([country, list]) => [country, list.map((r) => r.code)]),
      ),
      taxLabel: wide(ZONE_LIMITS.taxLabel),
      taxShipping: true,
      rates: { standard: "99.99", reduced: "99.99", zero: "99.99" },
      regionalRates: Array.from({ length: ZONE_LIMITS.regionalRates }, () => ({
        region: "AU-ACT",
        taxClass: "standard",
        rate: "99.99",
      })),
      methods: Array.from({ length: ZONE_LIMITS.methods }, (_, n) => method(n)),
    };
    const body = new URLSearchParams([...zoneFields(largest), ["intent", "save"]]).toString();
    // (about 53 KB of 64)
    expect(body.length).toBeLessThanOrEqual(bodyLimitFor("/admin/settings/zones/new").bytes);
    expect(body.length).toBeLessThanOrEqual(bodyLimitFor("/admin/settings/zones/1").bytes);

    const fresh = { ...GERMANY, name: "Austria", countries: ["AT"] };
    const oneMore: [Partial<ZoneFormValues>, string, string][] = [
      [
        {
          methods: Array.from({ length: ZONE_LIMITS.methods + 1 }, (_, n) => ({
            ...WEIGHT_METHOD,
            code: `m${n}`,
          })),
        },
        "methods",
        M.methodsMax,
      ],
      [
        {
          methods: [
            {
              ...WEIGHT_METHOD,
              bands: Array.from({ length: ZONE_LIMITS.bands + 1 }, (_, n) => ({
                upTo: String(n + 1),
                price: "1",
              })),
            },
          ],
        },
        "methods[0].bands",
        M.bandsMax,
      ],
      [
        {
          countries: ["CA"],
          regionalRates: Array.from({ length: ZONE_LIMITS.regionalRates + 1 }, () => ({
            region: "CA-QC",
            taxClass: "standard",
            rate: "1",
          })),
        },
        "regionalRates",
        M.regionalRates,
      ],
    ];
    await z.expectNothingWritten(async () => {
      for (const [change, field, message] of oneMore) {
        const answer = await z.create({ ...fresh, ...change });
        expect(answer.fieldErrors[field], field).toBe(message);
      }
    });
  });
});
