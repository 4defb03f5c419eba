import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database, dataChangeStamp } from "../../app/db/database.server.ts";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import { addToCart } from "../../app/domain/cart/add-item.server.ts";
import { getCart } from "../../app/domain/cart/get-cart.server.ts";
import { getOrderByNumber } from "../../app/domain/orders/orders.server.ts";
import { placeOrder } from "../../app/domain/orders/place-order.server.ts";
import { SETTINGS_MESSAGES, settingsFormValues } from "../../app/domain/settings/settings-form.ts";
import { ShopSettingsSource } from "../../app/domain/settings/shop-settings.server.ts";
import { DEFAULT_SHOP_SETTINGS, type ShopSettings } from "../../app/lib/shop-settings.ts";
import * as root from "../../app/root.tsx";
import * as settingsRoute from "../../app/routes/admin.settings.tsx";
import { ENGINES } from "../db-utils.ts";
import { cookieHeader } from "../helpers/account-fixtures.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { callRoute } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * Shop settings (issue 20; tax and shipping moved to the zones, decision 030) on each engine: the
 * environment's name and contact details, and the spec's pricing as the one seeded zone, until the owner saves; the owner's form (validated beside each field, audited,
 * nothing written when refused); the cart's totals, the pages and new orders follow at once — in
 * another process on the same database too — while placed orders keep their currency.
 */
describe.each(ENGINES)("shop settings on %s", (engine) => {
  let shop: TestShop;
  let ownerCookie = "";
  let adminCookie = "";
  let other: Database;
  let otherSource: ShopSettingsSource;
  const URL = `${TEST_ORIGIN}/admin/settings`;

  beforeAll(async () => {
    shop = await createTestShop(engine, { SHOP_NAME: "Env Shop", CONTACT_EMAIL: "env@shop.example" });
    const { auth } = shop.services;
    for (const [email, role] of [
      ["owner@settings.example", "owner"],
      ["admin@settings.example", "admin"],
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
    ownerCookie = await signIn("owner@settings.example");
    adminCookie = await signIn("admin@settings.example");
    // a second app process on the same database: its own connections, its own settings in memory
    other = createDatabase(shop.services.config.DATABASE_URL, { poolSize: 2 });
    otherSource = new ShopSettingsSource(other, shop.services.settings.defaults);
  });

  afterAll(async () => {
    await other?.destroy();
    await shop?.destroy();
  });

  const formOf = (settings: ShopSettings, changes: Record<string, string> = {}) => ({
    ...settingsFormValues(settings),
    ...changes,
  });
  const save = (fields: Record<string, string>, cookie = ownerCookie) =>
    callRoute(settingsRoute, "action", URL, { cookie, fields, context: shop.context() });
  const auditRows = () =>
    shop.db
      .selectFrom("auditLog")
      .selectAll()
      .where("action", "=", "settings.update")
      .orderBy("id")
      .execute();

  it("runs on the environment's name and contact details and the spec's pricing until the owner saves", async () => {
    const current = await shop.services.settings.current();
    expect(current).toEqual({
      ...DEFAULT_SHOP_SETTINGS,
      shopName: "Env Shop",
      contactEmail: "env@shop.example",
    });
    expect(current).toMatchObject({
      currency: "USD",
      legalName: "",
      legalAddress: "",
      taxId: "",
      timeZone: "UTC",
    });
    // the spec's pricing is the one zone the migration seeds (decision 030)
    const [zone, ...others] = current.markets.zones;
    expect(others).toEqual([]);
    expect(current.markets).toMatchObject({
      taxMode: "exclusive",
      rounding: "per-order",
      estimateCountry: "US",
    });
    expect(zone).toMatchObject({
      countries: ["US", "CA", "GB", "AU", "DE", "FR"],
      taxLabel: "Including VAT",
      taxShipping: false,
    });
    expect(zone!.rates).toContainEqual({ region: "", taxClass: "standard", basisPoints: 700 });
    expect(zone!.methods.map((m) => [m.name, m.flatCents, m.freeOverCents, m.daysMin, m.daysMax])).toEqual([
      ["Standard Shipping", 499, 5000, 4, 6],
      ["Express Shipping", 999, null, 1, 3],
    ]);
    const page = await callRoute(settingsRoute, "loader", URL, {
      cookie: ownerCookie,
      context: shop.context(),
    });
    expect((page.data as unknown as { values: Record<string, string> }).values).toMatchObject({
      shopName: "Env Shop",
      currency: "USD",
      legalName: "",
      taxId: "",
      timeZone: "UTC",
    });
    const { timeZones } = page.data as unknown as { timeZones: string[] };
    expect(timeZones[0]).toBe("UTC");
    expect(timeZones).toEqual(expect.arrayContaining(["Europe/Berlin", "America/New_York", "Asia/Tokyo"]));
  });

  it("is the owner's alone: an admin is refused on the server", async () => {
    const refused = await save(formOf(DEFAULT_SHOP_SETTINGS, { shopName: "Admin's shop" }), adminCookie);
    expect(refused.thrown ?? refused.response?.status).toBe(403);
    expect(await shop.db.selectFrom("shopSettings").selectAll().execute()).toEqual([]);
  });

  it("refuses wrong values beside their fields and writes nothing", async () => {
    const base = formOf(await shop.services.settings.current());
    for (const [changes, field, message] of [
      [{ currency: "JPY" }, "currency", SETTINGS_MESSAGES.currency],
      [{ legalName: "x".repeat(121) }, "legalName", SETTINGS_MESSAGES.legalName],
      [{ taxId: "x".repeat(41) }, "taxId", SETTINGS_MESSAGES.taxId],
      [{ contactEmail: "not-an-address" }, "contactEmail", SETTINGS_MESSAGES.contactEmail],
      [{ facebook: "javascript:alert(1)" }, "facebook", SETTINGS_MESSAGES.url],
      [{ shopName: "   " }, "shopName", SETTINGS_MESSAGES.shopName],
      [{ timeZone: "Mars/Olympus_Mons" }, "timeZone", SETTINGS_MESSAGES.timeZone],
      [{ timeZone: "" }, "timeZone", SETTINGS_MESSAGES.timeZone],
    ] as const) {
      const answer = await save({ ...base, ...changes });
      expect(answer.status, JSON.stringify(changes)).toBe(400);
      const { result } = answer.data as unknown as { result: { error: Record<string, string[]> } };
      expect(result.error[field], JSON.stringify(changes)).toEqual([message]);
    }
    expect(await shop.db.selectFrom("shopSettings").selectAll().execute()).toEqual([]);
    expect(await auditRows()).toEqual([]);
  });

  it("saves, audits what changed, and the cart's totals follow at once — in another process too", async () => {
    const productId = await insertProduct(shop.db, { priceCents: 4_000, stock: 50 });
    const cartId = crypto.randomUUID();
    await addToCart(shop.db, { cartId, productId, quantity: 1 });
    const before = await getCart(shop.db, cartId, await otherSource.current());
    // $40 < $50: standard shipping $4.99, tax 7 % of $40 = $2.80
    expect(before.totals).toMatchObject({ shippingCents: 499, taxCents: 280, totalCents: 4_000 + 499 + 280 });

    const current = await shop.services.settings.current();
    // the page cache keeps a page only while this stamp stays the same (decision 010)
    const stampBefore = dataChangeStamp(shop.db);
    const saved = await save(
      formOf(current, {
        shopName: "Settings Shop",
        currency: "EUR",
        legalName: "Settings Shop GmbH",
        legalAddress: "Invalidenstraße 1, 10115 Berlin",
        taxId: "DE123456789",
        youtube: "",
        timeZone: "Europe/Berlin",
      }),
    );
    expect(saved.response?.status).toBe(302);
    expect(saved.response?.headers.get("Location")).toBe("/admin/settings");
    if (engine === "sqlite") expect(dataChangeStamp(shop.db)).not.toBe(stampBefore);

    // the other process reads the saved row on its next request: no restart, no wait
    const seen = await otherSource.current();
    expect(seen).toMatchObject({
      shopName: "Settings Shop",
      currency: "EUR",
      legalName: "Settings Shop GmbH",
      legalAddress: "Invalidenstraße 1, 10115 Berlin",
      taxId: "DE123456789",
      timeZone: "Europe/Berlin",
    });
    expect(seen.markets.currency).toBe("EUR");
    expect(seen.socialLinks.youtube).toBe("");
    const after = await getCart(other, cartId, seen);
    // the same zone's figures (in euros now: the pages say so)
    expect(after.totals).toMatchObject({ shippingCents: 499, taxCents: 280, totalCents: 4_779 });

    const [entry, ...more] = await auditRows();
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ actorEmail: "owner@settings.example", entityType: "settings" });
    expect(JSON.parse(entry!.afterJson ?? "{}")).toMatchObject({ currency: "EUR", taxId: "DE123456789" });
    expect(JSON.parse(entry!.beforeJson ?? "{}")).toMatchObject({ currency: "USD", taxId: "" });
    expect(entry!.summary).toContain("socialLinks.youtube");

    // the same values again change nothing and log nothing
    const again = await save(formOf(seen));
    expect(again.response?.status).toBe(302);
    expect(await auditRows()).toHaveLength(1);
  });

  it("every page gets the settings from the root loader: name, contact, currency, shipping terms", async () => {
    const answer = await callRoute(root as never, "loader", `${TEST_ORIGIN}/`, { context: shop.context() });
    const data = answer.data as unknown as { shop: ShopSettings };
    expect(data.shop).toMatchObject({
      shopName: "Settings Shop",
      currency: "EUR",
      terms: { freeShippingThresholdCents: 5_000, taxLabel: "Including VAT" },
    });
    // the browser gets the storefront's terms, not the zones' tables
    expect(data.shop).not.toHaveProperty("markets");
  });

  it("an order keeps the currency it was placed in when the shop changes its currency", async () => {
    const productId = await insertProduct(shop.db, { priceCents: 10_000, stock: 10 });
    const place = async () => {
      const settings = await shop.services.settings.current();
      const cartId = crypto.randomUUID();
      await addToCart(shop.db, { cartId, productId, quantity: 1 });
      const cart = await getCart(shop.db, cartId, settings);
      const card = await shop.services.gateway.tokenize({
        number: "4242424242424242",
        expMonth: 12,
        expYear: 2035,
        cvv: "123",
        name: "Ada Lovelace",
      });
      if (!card.ok) throw new Error("card");
      const placed = await placeOrder(shop.db, shop.services.gateway, {
        cartId,
        idempotencyKey: crypto.randomUUID(),
        shipping: {
          firstName: "Ada",
          lastName: "Lovelace",
          email: "ada@settings.example",
          phone: "+1 555 0100",
          address: "1 Analytical Row",
          city: "London",
          state: "LDN",
          zipCode: "N1 7AA",
          country: "GB",
        },
        method: "express",
        shop: settings,
        payment: { token: card.token, brand: card.brand, last4: card.last4 },
        // the cart estimates standard shipping; express is $9.99 in the zone
        expectedTotalCents: cart.totals.totalCents + 999 - cart.totals.shippingCents,
      });
      if (!placed.ok) throw new Error(JSON.stringify(placed.error));
      return (await getOrderByNumber(shop.db, placed.value.order.number))!;
    };
    const inEuros = await place();
    expect(inEuros.currency).toBe("EUR");
    // 7 % tax of €100 and express €9.99
    expect(inEuros.totals).toMatchObject({ taxCents: 700, shippingCents: 999, totalCents: 11_699 });

    const current = await shop.services.settings.current();
    expect((await save(formOf(current, { currency: "GBP" }))).response?.status).toBe(302);
    expect((await getOrderByNumber(shop.db, inEuros.number))?.currency).toBe("EUR");
    expect((await place()).currency).toBe("GBP");
  });
});
