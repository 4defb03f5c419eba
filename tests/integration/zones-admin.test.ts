import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { priceCart } from "../../app/domain/cart/cart-pricing.ts";
import { chooseCartEstimate, getCart } from "../../app/domain/cart/get-cart.server.ts";
import { readZones } from "../../app/domain/markets/markets.server.ts";
import {
  EMPTY_METHOD,
  ZONE_MESSAGES as M,
  type ZoneFormValues,
  zoneFormValues,
} from "../../app/domain/markets/zone-form.ts";
import { ENGINES } from "../db-utils.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { callRoute } from "../helpers/route-harness.ts";
import {
  GERMANY,
  openZonesAdmin,
  WEIGHT_METHOD,
  ZONES_URL,
  type ZonesAdmin,
  zoneFields,
  zoneRoute,
  zonesRoute,
} from "../helpers/zones-admin.ts";

/**
 * Admin → Settings → Zones (issue 30) on each engine, through the routes as the server calls them:
 * the owner creates, changes and deletes zones and saves the market settings; every write is
 * audited and moves the markets' revision, so another process's settings (and with them the cart
 * and checkout) price by the new zone on its next read. The refusals: zones-admin-refusals.test.ts.
 */
describe.each(ENGINES)("zones admin on %s", (engine) => {
  let z: ZonesAdmin;
  beforeAll(async () => {
    z = await openZonesAdmin(engine);
  });
  afterAll(async () => {
    await z?.destroy();
  });
  let germanyId = 0;

  it("lists the shop's one zone as the migration made it, with the market settings", async () => {
    const page = await callRoute(zonesRoute, "loader", ZONES_URL, {
      cookie: z.ownerCookie,
      context: z.shop.context(),
    });
    const data = page.data as unknown as Awaited<ReturnType<typeof zonesRoute.loader>>;
    expect(data.settings).toEqual({
      pricesIncludeTax: false,
      taxRounding: "per-order",
      estimateCountry: "US",
    });
    expect(data.zones).toHaveLength(1);
    expect(data.zones[0]).toMatchObject({
      name: "Where we ship",
      countries: "United States, Canada, United Kingdom, Australia, Germany, France",
      tax: "Including VAT: standard 7%, reduced 7%, zero rate 0%; shipping not taxed",
      methods: [
        { name: "Standard Shipping", price: "$4.99; free from $50.00", days: "4-6 business days" },
        { name: "Express Shipping", price: "$9.99", days: "1-3 business days" },
      ],
    });
    expect(data.estimateCountries.map((country) => country.code)).toEqual([
      "AU",
      "CA",
      "FR",
      "DE",
      "GB",
      "US",
    ]);
  });

  it("creates Germany once the shop's zone lets it go: stored, audited, the revision moved, and the cart and checkout price by it", async () => {
    const product = await insertProduct(z.shop.db, { priceCents: 10_000, stock: 50 });
    const book = await insertProduct(z.shop.db, { priceCents: 1_000, stock: 50 });
    await z.shop.db.updateTable("products").set({ taxClass: "reduced" }).where("id", "=", book).execute();
    await z.shop.db
      .updateTable("productVariants")
      .set({ weightGrams: 1_200 })
      .where("productId", "=", product)
      .execute();
    await z.shop.db
      .updateTable("productVariants")
      .set({ weightGrams: 300 })
      .where("productId", "=", book)
      .execute();
    const cartId = crypto.randomUUID();
    await addToCart(z.shop.db, { cartId, productId: product, quantity: 1 });
    await addToCart(z.shop.db, { cartId, productId: book, quantity: 1 });
    // the other process has read the zones (and keeps them while the revision stands)
    expect((await z.otherSource.current()).markets.zones).toHaveLength(1);
    const startRevision = await z.revision();
    const auditsBefore = (await z.audits()).length;

    // the shop's zone gives Germany up
    const without = await z.defaultForm();
    const gaveUp = await z.edit(
      (await z.defaultZone()).id,
      zoneFields({ ...without, countries: without.countries.filter((code) => code !== "DE") }),
    );
    expect(gaveUp).toMatchObject({
      ok: true,
      location: "/admin/settings/zones",
      message: M.saved("Where we ship"),
    });
    const created = await z.create(GERMANY);
    expect(created).toMatchObject({
      ok: true,
      location: "/admin/settings/zones",
      message: M.created("Germany"),
    });

    const germany = (await z.zoneNamed("Germany"))!;
    germanyId = germany.id;
    expect(germany).toMatchObject({
      countries: ["DE"],
      regions: {},
      taxLabel: "VAT",
      taxShipping: true,
      rates: [
        { region: "", taxClass: "standard", basisPoints: 1_900 },
        { region: "", taxClass: "reduced", basisPoints: 700 },
        { region: "", taxClass: "zero", basisPoints: 0 },
        { region: "", taxClass: "exempt", basisPoints: 0 },
      ],
      methods: [
        {
          code: "dhl",
          name: "DHL Parcel",
          rule: "weight",
          flatCents: 0,
          // kg in the form, grams stored
          bands: [
            { upTo: 2_000, priceCents: 590 },
            { upTo: 30_000, priceCents: 1_490 },
          ],
          freeOverCents: null,
          daysMin: 2,
          daysMax: 4,
        },
      ],
    });
    expect((await z.defaultZone()).countries).toEqual(["US", "CA", "GB", "AU", "FR"]);
    expect(await z.revision()).toBe(startRevision + 2);
    const entries = (await z.audits()).slice(auditsBefore);
    expect(entries.map((entry) => [entry.entityId, entry.summary, entry.actorEmail])).toEqual([
      [`zone:${(await z.defaultZone()).id}`, "Changed zone Where we ship", "owner@zones.example"],
      [`zone:${germany.id}`, "Created zone Germany", "owner@zones.example"],
    ]);
    expect(JSON.parse(entries[0]!.beforeJson ?? "{}").countries).toContain("DE");
    expect(JSON.parse(entries[0]!.afterJson ?? "{}").countries).not.toContain("DE");
    expect(JSON.parse(entries[1]!.afterJson ?? "{}")).toMatchObject({ name: "Germany", countries: ["DE"] });

    // the other process prices by Germany on its next read: the cart's estimate for Germany
    const settings = await z.otherSource.current();
    expect(settings.markets.zones.map((zone) => zone.name)).toEqual(["Where we ship", "Germany"]);
    const chosen = await chooseCartEstimate(z.other, cartId, settings.markets, { country: "DE", region: "" });
    expect(chosen.ok).toBe(true);
    const cart = await getCart(z.other, cartId, settings);
    // net prices (the shop's mode): 19 % of $100 and of the $5.90 shipping (1.5 kg), 7 % of $10
    expect(cart.totals).toMatchObject({
      subtotalCents: 11_000,
      shippingCents: 590,
      taxCents: 2_012 + 70,
      totalCents: 11_000 + 590 + 2_082,
      taxIncluded: false,
      taxLabel: "VAT",
      taxLines: [
        { label: "VAT", basisPoints: 1_900, taxCents: 2_012 },
        { label: "VAT", basisPoints: 700, taxCents: 70 },
      ],
    });
    expect(cart.estimate.methodName).toBe("DHL Parcel");
    // checkout's pricing: heavier than 2 kg costs the second band; heavier than 30 kg cannot ship
    const lines = cart.lines;
    const heavy = priceCart(settings.markets, {
      lines: lines.map((line) => ({ ...line, quantity: 2 })),
      destination: { country: "DE" },
      methodCode: "dhl",
    });
    expect(heavy.ok && heavy.shipping).toMatchObject({ priceCents: 1_490, method: { code: "dhl" } });
    const tooHeavy = priceCart(settings.markets, {
      lines: lines.map((line) => ({ ...line, quantity: 30 })),
      destination: { country: "DE" },
    });
    expect(tooHeavy.ok && tooHeavy.shipping).toBeNull();
    // the United States keep the shop's zone: 7 %, standard shipping free over $50
    const us = priceCart(settings.markets, { lines, destination: { country: "US" } });
    expect(us.ok && us.calculation.taxCents).toBe(770);
    expect(us.ok && us.shipping?.priceCents).toBe(0);
  });

  it("saves the market settings with a message: prices including tax, rounding, the estimate country", async () => {
    const startRevision = await z.revision();
    await z.expectNothingWritten(async () => {
      const uncovered = await z.onList({
        intent: "markets",
        taxRounding: "per-order",
        estimateCountry: "JP",
      });
      expect(uncovered).toMatchObject({ ok: false, status: 409, message: M.invalid });
      expect(uncovered.fieldErrors).toEqual({ estimateCountry: M.estimateCountry });
      const wrong = await z.onList({ intent: "markets", taxRounding: "sometimes", estimateCountry: "US" });
      expect(wrong).toMatchObject({ ok: false, status: 400 });
      expect(wrong.fieldErrors).toEqual({ taxRounding: M.roundings });
      // the same settings again change nothing
      const same = await z.onList({ intent: "markets", taxRounding: "per-order", estimateCountry: "US" });
      expect(same).toMatchObject({ ok: true, message: M.unchanged });
    });
    const saved = await z.onList({
      intent: "markets",
      pricesIncludeTax: "on",
      taxRounding: "per-line",
      estimateCountry: "DE",
    });
    expect(saved).toMatchObject({ ok: true, location: "/admin/settings/zones", message: M.marketsSaved });
    expect(await z.revision()).toBe(startRevision + 1);
    const [entry] = (await z.audits()).slice(-1);
    expect(entry).toMatchObject({
      entityId: "markets",
      summary: "Changed prices include tax, tax rounding, estimate country",
    });
    expect(JSON.parse(entry!.afterJson ?? "{}")).toEqual({
      pricesIncludeTax: true,
      taxRounding: "per-line",
      estimateCountry: "DE",
    });

    // a new cart estimates for Germany, its prices including the tax
    const settings = await z.otherSource.current();
    expect(settings.markets).toMatchObject({
      taxMode: "inclusive",
      rounding: "per-line",
      estimateCountry: "DE",
    });
    const productId = await insertProduct(z.shop.db, { priceCents: 11_900, stock: 5 });
    const cartId = crypto.randomUUID();
    await addToCart(z.shop.db, { cartId, productId, quantity: 1 });
    const cart = await getCart(z.other, cartId, settings);
    expect(cart.estimate.country).toBe("DE");
    // $119 with 19 % in it ($19), and the $5.90 shipping with 0.94 in it (5.90 × 19/119)
    expect(cart.totals).toMatchObject({
      subtotalCents: 11_900,
      shippingCents: 590,
      taxCents: 1_900 + 94,
      totalCents: 12_490,
      taxIncluded: true,
    });

    // back as the shop was, for the tests after this one
    expect(
      await z.onList({ intent: "markets", taxRounding: "per-order", estimateCountry: "US" }),
    ).toMatchObject({ ok: true, message: M.marketsSaved });
  });

  it("changes a zone: a regional rate, a second method by subtotal; the same form again changes nothing", async () => {
    const form = zoneFormValues((await z.zoneNamed("Germany"))!);
    expect(form).toEqual({ ...GERMANY, methods: [{ ...WEIGHT_METHOD, flatPrice: "", freeOver: "" }] });
    const startRevision = await z.revision();
    await z.expectNothingWritten(async () => {
      const same = await z.edit(germanyId, zoneFields(form));
      expect(same).toMatchObject({ ok: true, message: M.unchanged });
    });
    const changed: ZoneFormValues = {
      ...form,
      name: "Germany and Austria",
      countries: ["DE", "AT"],
      methods: [
        { ...WEIGHT_METHOD, freeOver: "150" },
        {
          ...EMPTY_METHOD,
          code: "",
          name: "Express Kurier",
          rule: "subtotal",
          bands: [
            { upTo: "50", price: "19" },
            { upTo: "", price: "9.50" },
          ],
          daysMin: "1",
          daysMax: "1",
        },
      ],
    };
    const saved = await z.edit(germanyId, zoneFields(changed));
    expect(saved).toMatchObject({ ok: true, message: M.saved("Germany and Austria") });
    const zone = (await z.zoneNamed("Germany and Austria"))!;
    expect(zone.id).toBe(germanyId);
    expect(zone.countries).toEqual(["DE", "AT"]);
    expect(zone.methods.map((method) => [method.code, method.freeOverCents, method.bands])).toEqual([
      [
        "dhl",
        15_000,
        [
          { upTo: 2_000, priceCents: 590 },
          { upTo: 30_000, priceCents: 1_490 },
        ],
      ],
      // a code made from the name
      [
        "express-kurier",
        null,
        [
          { upTo: 5_000, priceCents: 1_900 },
          { upTo: null, priceCents: 950 },
        ],
      ],
    ]);
    expect(await z.revision()).toBe(startRevision + 1);
    const [entry] = (await z.audits()).slice(-1);
    expect(entry).toMatchObject({
      entityId: `zone:${germanyId}`,
      summary: "Changed zone Germany and Austria",
    });

    // a regional rate (a Canadian province's), in a zone of Canada's own
    const shopZone = await z.defaultForm();
    expect(
      await z.edit(
        (await z.defaultZone()).id,
        zoneFields({ ...shopZone, countries: shopZone.countries.filter((code) => code !== "CA") }),
      ),
    ).toMatchObject({ ok: true });
    const canada = await z.create({
      ...GERMANY,
      name: "Canada",
      countries: ["CA"],
      taxLabel: "GST",
      rates: { standard: "5", reduced: "5", zero: "0" },
      regionalRates: [{ region: "CA-QC", taxClass: "standard", rate: "14.975" }],
    });
    expect(canada.fieldErrors["regionalRates[0].rate"]).toBe(M.rate);
    expect(
      await z.create({
        ...GERMANY,
        name: "Canada",
        countries: ["CA"],
        taxLabel: "GST",
        rates: { standard: "5", reduced: "5", zero: "0" },
        regionalRates: [{ region: "CA-QC", taxClass: "standard", rate: "14.98" }],
      }),
    ).toMatchObject({ ok: true, message: M.created("Canada") });
    const settings = await z.otherSource.current();
    const quebec = priceCart(settings.markets, {
      lines: [
        {
          productId: 1,
          variantId: 1,
          brand: "",
          category: "home",
          unitPriceCents: 10_000,
          quantity: 1,
          taxClass: "standard",
          weightGrams: 100,
        },
      ],
      destination: { country: "CA", region: "Quebec" },
    });
    // Quebec's 14.98 % on $100 and on the $5.90 shipping (taxed at the region's standard rate)
    expect(quebec.ok && quebec.calculation.taxCents).toBe(1_586);
    const ontario = priceCart(settings.markets, {
      lines: [
        {
          productId: 1,
          variantId: 1,
          brand: "",
          category: "home",
          unitPriceCents: 10_000,
          quantity: 1,
          taxClass: "standard",
          weightGrams: 100,
        },
      ],
      destination: { country: "CA", region: "ON" },
    });
    // elsewhere in Canada the zone's 5 % (529.5 rounded half up)
    expect(ontario.ok && ontario.calculation.taxCents).toBe(530);
  });

  it("deletes a zone from its confirm step; never the last, nor the estimate country's only one", async () => {
    const shopZone = await z.defaultZone();
    await z.expectNothingWritten(async () => {
      // not confirmed
      const unconfirmed = await z.onList({ intent: "delete", zoneId: String(germanyId) });
      expect(unconfirmed).toMatchObject({ ok: false, status: 400, message: M.deleteUnconfirmed });
      // the estimate country (the United States) is the shop's zone's alone
      const estimate = await z.onList({ intent: "delete", zoneId: String(shopZone.id), confirm: "yes" });
      expect(estimate).toMatchObject({ ok: false, status: 409, message: M.estimateUncovered("US") });
      const leaving = await z.edit(
        shopZone.id,
        zoneFields({ ...(await z.defaultForm()), countries: ["GB"] }),
      );
      expect(leaving).toMatchObject({ ok: false, status: 409 });
      expect(leaving.fieldErrors).toEqual({ countries: M.estimateUncovered("US") });
      const unknown = await z.onList({ intent: "delete", zoneId: "99999", confirm: "yes" });
      expect(unknown).toMatchObject({ ok: false, status: 404, message: M.notFound });
    });
    const startRevision = await z.revision();
    const deleted = await z.onList({ intent: "delete", zoneId: String(germanyId), confirm: "yes" });
    expect(deleted).toMatchObject({ ok: true, message: M.deleted("Germany and Austria") });
    const canada = (await z.zoneNamed("Canada"))!;
    const fromItsPage = await z.post(
      zoneRoute,
      `${ZONES_URL}/${canada.id}`,
      [
        ["intent", "delete"],
        ["confirm", "yes"],
      ],
      { params: { id: String(canada.id) } },
    );
    expect(fromItsPage).toMatchObject({ ok: true, message: M.deleted("Canada") });
    expect((await readZones(z.shop.db)).map((zone) => zone.name)).toEqual(["Where we ship"]);
    expect(
      await z.shop.db
        .selectFrom("shippingMethods")
        .select("zoneId")
        .where("zoneId", "=", germanyId)
        .execute(),
    ).toEqual([]);
    expect(
      await z.shop.db.selectFrom("zoneTaxRates").select("zoneId").where("zoneId", "=", germanyId).execute(),
    ).toEqual([]);
    expect(await z.revision()).toBe(startRevision + 2);
    expect((await z.audits()).slice(-2).map((entry) => entry.summary)).toEqual([
      "Deleted zone Germany and Austria",
      "Deleted zone Canada",
    ]);
    // the last zone stays
    await z.expectNothingWritten(async () => {
      const last = await z.onList({ intent: "delete", zoneId: String(shopZone.id), confirm: "yes" });
      expect(last).toMatchObject({ ok: false, status: 409, message: M.lastZone });
    });
    // Germany no longer ships: the other process refuses it
    const settings = await z.otherSource.current();
    expect(settings.markets.zones).toHaveLength(1);
    expect(priceCart(settings.markets, { lines: [], destination: { country: "DE" } })).toEqual({
      ok: false,
      problem: "no-zone",
      promotions: null,
    });
  });
});
