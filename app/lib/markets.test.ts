import { describe, expect, it } from "vitest";
import { specTotals } from "../../tests/helpers/spec-pricing.ts";
import { countryCode, countryName, regionCode } from "./countries.ts";
import {
  BUILT_IN_TAX_TABLES,
  type Markets,
  priceForDestination,
  type ShippingMethodDef,
  shippingPrice,
  type TaxProvider,
  taxRateFor,
  type Zone,
  zoneFor,
} from "./markets.ts";

const method = (overrides: Partial<ShippingMethodDef> = {}): ShippingMethodDef => ({
  id: 1,
  code: "standard",
  name: "Standard Shipping",
  rule: "flat",
  flatCents: 499,
  bands: [],
  freeOverCents: 5_000,
  daysMin: 4,
  daysMax: 6,
  ...overrides,
});

/** The shop as it was: one zone, 7 % on everything, standard free from $50, express flat. */
const DEFAULT_ZONE: Zone = {
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
    method(),
    method({
      id: 2,
      code: "express",
      name: "Express Shipping",
      flatCents: 999,
      freeOverCents: null,
      daysMin: 1,
      daysMax: 3,
    }),
  ],
};

const CALIFORNIA: Zone = {
  id: 2,
  name: "California",
  countries: ["US"],
  regions: { US: ["CA"] },
  taxLabel: "Sales tax",
  taxShipping: false,
  rates: [{ region: "", taxClass: "standard", basisPoints: 725 }],
  methods: [method({ id: 3 })],
};

const GERMANY: Zone = {
  id: 3,
  name: "Germany",
  countries: ["DE"],
  regions: {},
  taxLabel: "MwSt.",
  taxShipping: true,
  rates: [
    { region: "", taxClass: "standard", basisPoints: 1900 },
    { region: "", taxClass: "reduced", basisPoints: 700 },
  ],
  methods: [
    method({
      id: 4,
      code: "dhl",
      name: "DHL Paket",
      rule: "weight",
      freeOverCents: null,
      bands: [
        { upTo: 2_000, priceCents: 490 },
        { upTo: 10_000, priceCents: 990 },
      ],
      daysMin: 2,
      daysMax: 3,
    }),
  ],
};

const markets = (zones: Zone[], taxMode: "exclusive" | "inclusive" = "exclusive"): Markets => ({
  currency: "USD",
  taxMode,
  rounding: "per-order",
  estimateCountry: "US",
  zones,
});

describe("countries and regions", () => {
  it("reads country codes as the shop stores them, UK being GB", () => {
    expect(countryCode("de")).toBe("DE");
    expect(countryCode("UK")).toBe("GB");
    expect(countryCode("XX")).toBeNull();
    expect(countryName("DE")).toBe("Germany");
    expect(countryName("UK")).toBe("United Kingdom");
  });

  it("reads a region by its code or its name, however typed", () => {
    expect(regionCode("US", "ca")).toBe("CA");
    expect(regionCode("US", " California ")).toBe("CA");
    expect(regionCode("CA", "Québec")).toBe("QC");
    expect(regionCode("US", "Narnia")).toBeNull();
    expect(regionCode("DE", "Bayern")).toBeNull();
  });
});

describe("zones", () => {
  it("finds the first zone that holds the destination, a region narrowing its country", () => {
    const zones = markets([CALIFORNIA, DEFAULT_ZONE, GERMANY]);
    expect(zoneFor(zones, { country: "US", region: "California" })?.name).toBe("California");
    expect(zoneFor(zones, { country: "US", region: "IL" })?.name).toBe("Where we ship");
    expect(zoneFor(zones, { country: "DE" })?.name).toBe("Where we ship");
    expect(zoneFor(markets([CALIFORNIA, GERMANY, DEFAULT_ZONE]), { country: "de" })?.name).toBe("Germany");
    expect(zoneFor(zones, { country: "JP" })).toBeNull();
    expect(zoneFor(zones, { country: "not a country" })).toBeNull();
  });

  it("takes a region's own rate for a class before the zone's, and none for an exempt line", () => {
    const zone: Zone = {
      ...DEFAULT_ZONE,
      rates: [...DEFAULT_ZONE.rates, { region: "NY", taxClass: "standard", basisPoints: 888 }],
    };
    expect(taxRateFor(zone, "NY", "standard").basisPoints).toBe(888);
    expect(taxRateFor(zone, "NY", "reduced").basisPoints).toBe(700);
    expect(taxRateFor(zone, "", "standard").basisPoints).toBe(700);
    expect(taxRateFor(zone, "", "exempt").basisPoints).toBe(0);
    expect(taxRateFor(GERMANY, "", "zero").basisPoints).toBe(0);
  });

  it("prices shipping flat, by subtotal band or by weight band, free from a threshold", () => {
    const bySubtotal = method({
      rule: "subtotal",
      freeOverCents: null,
      bands: [
        { upTo: 2_500, priceCents: 700 },
        { upTo: null, priceCents: 300 },
      ],
    });
    expect(shippingPrice(bySubtotal, { subtotalCents: 2_500, weightGrams: 0 })).toBe(700);
    expect(shippingPrice(bySubtotal, { subtotalCents: 2_501, weightGrams: 0 })).toBe(300);
    const dhl = GERMANY.methods[0]!;
    expect(shippingPrice(dhl, { subtotalCents: 100, weightGrams: 2_000 })).toBe(490);
    expect(shippingPrice(dhl, { subtotalCents: 100, weightGrams: 2_001 })).toBe(990);
    // heavier than the last band: this method cannot carry it
    expect(shippingPrice(dhl, { subtotalCents: 100, weightGrams: 10_001 })).toBeNull();
    expect(shippingPrice(method(), { subtotalCents: 4_999, weightGrams: 0 })).toBe(499);
    expect(shippingPrice(method(), { subtotalCents: 5_000, weightGrams: 0 })).toBe(0);
  });

  it("with the shop's zone as it was, every order costs what it cost before", () => {
    for (const subtotal of [0, 1, 1_999, 4_999, 5_000, 12_345, 99_999]) {
      for (const discount of [0, 7, 1_000]) {
        for (const code of ["standard", "express"] as const) {
          const priced = priceForDestination(markets([DEFAULT_ZONE]), {
            lines: subtotal
              ? [{ key: "a", unitPriceCents: subtotal, quantity: 1, taxClass: "standard", weightGrams: 0 }]
              : [],
            orderDiscountCents: discount,
            destination: { country: "US", region: "IL" },
            methodCode: code,
          });
          if (!priced.ok) throw new Error("no zone");
          const { subtotalCents, discountCents, shippingCents, taxCents, totalCents } = priced.calculation;
          expect({ subtotalCents, discountCents, shippingCents, taxCents, totalCents }).toEqual(
            specTotals(subtotal, { method: code, discountCents: discount }),
          );
        }
      }
    }
  });

  it("a German shopper (prices with tax, 19 % and 7 %, shipping by weight and taxed) and a Californian one", () => {
    const shop = markets([CALIFORNIA, GERMANY, DEFAULT_ZONE], "inclusive");
    const lines = [
      {
        key: "chair",
        unitPriceCents: 11_900,
        quantity: 1,
        taxClass: "standard" as const,
        weightGrams: 6_000,
      },
      { key: "book", unitPriceCents: 1_070, quantity: 2, taxClass: "reduced" as const, weightGrams: 500 },
    ];
    const german = priceForDestination(shop, { lines, destination: { country: "DE" } });
    if (!german.ok) throw new Error("no zone");
    expect(german.shipping).toMatchObject({ priceCents: 990, method: { code: "dhl" } });
    expect(german.calculation.taxLines.map((t) => [t.basisPoints, t.netCents, t.taxCents])).toEqual([
      [1900, 10_832, 2_058], // 119.00 + 9.90 = 128.90 with 19 % inside: 20.58
      [700, 2_000, 140], // 21.40 with 7 % inside: 1.40
    ]);
    expect(german.calculation.totalCents).toBe(11_900 + 2_140 + 990);
    const californian = priceForDestination(shop, { lines, destination: { country: "US", region: "CA" } });
    if (!californian.ok) throw new Error("no zone");
    // the same prices, the tax in them by California's rate (the reduced class has no rate there: 0 %)
    expect(californian.zone.name).toBe("California");
    expect(californian.calculation.taxLines.map((t) => [t.basisPoints, t.taxCents])).toEqual([[725, 804]]);
    expect(californian.calculation.totalCents).toBe(11_900 + 2_140);
  });
});

describe("the tax provider", () => {
  it("is asked for every line's rate and the shipping's: another engine can answer instead of the tables", () => {
    const asked: string[] = [];
    const flat20: TaxProvider = {
      rateFor: (zone, region, taxClass) => {
        asked.push(`${zone.name}/${region}/${taxClass}`);
        return { id: "engine:20", label: "Engine tax", basisPoints: 2_000 };
      },
    };
    const zone: Zone = { ...DEFAULT_ZONE, taxShipping: true };
    const priced = priceForDestination(
      markets([zone]),
      {
        lines: [
          { key: "a", unitPriceCents: 1_000, quantity: 1, taxClass: "reduced", weightGrams: 0 },
          { key: "b", unitPriceCents: 2_000, quantity: 1, taxClass: "standard", weightGrams: 0 },
        ],
        destination: { country: "US", region: "CA" },
        methodCode: "standard",
      },
      flat20,
    );
    if (!priced.ok) throw new Error("no zone");
    expect(asked).toEqual([
      `${zone.name}/CA/reduced`,
      `${zone.name}/CA/standard`,
      `${zone.name}/CA/standard`,
    ]);
    // 20 % of $30.00 and of the $4.99 shipping
    expect(priced.calculation.taxCents).toBe(600 + 100);
    expect(BUILT_IN_TAX_TABLES.rateFor(zone, "CA", "standard").basisPoints).toBe(700);
  });
});
