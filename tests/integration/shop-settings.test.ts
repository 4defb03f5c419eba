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
 * Shop settings (issue 20) on each engine: the environment's name and contact details and the
 * spec's pricing until the owner saves; the owner's form (validated beside each field, audited,
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
      taxRateBasisPoints: 700,
      taxLabel: "Including VAT",
      standardShippingCents: 499,
      freeShippingThresholdCents: 5000,
      expressShippingCents: 999,
      standardDays: { min: 4, max: 6 },
      expressDays: { min: 1, max: 3 },
    });
    const page = await callRoute(settingsRoute, "loader", URL, {
      cookie: ownerCookie,
      context: shop.context(),
    });
    expect((page.data as unknown as { values: Record<string, string> }).values).toMatchObject({
      shopName: "Env Shop",
      taxRate: "7",
      standardShipping: "4.99",
      freeShippingThreshold: "50.00",
      standardDaysMin: "4",
    });
  });

  it("is the owner's alone: an admin is refused on the server", async () => {
    const refused = await save(formOf(DEFAULT_SHOP_SETTINGS, { shopName: "Admin's shop" }), adminCookie);
    expect(refused.thrown ?? refused.response?.status).toBe(403);
    expect(await shop.db.selectFrom("shopSettings").selectAll().execute()).toEqual([]);
  });

  it("refuses wrong values beside their fields and writes nothing", async () => {
    const base = formOf(await shop.services.settings.current());
    for (const [changes, field, message] of [
      [{ taxRate: "101" }, "taxRate", SETTINGS_MESSAGES.taxRate],
      [{ taxRate: "7.125" }, "taxRate", SETTINGS_MESSAGES.taxRate],
      [{ standardShipping: "-1" }, "standardShipping", SETTINGS_MESSAGES.amount],
      [{ freeShippingThreshold: "abc" }, "freeShippingThreshold", SETTINGS_MESSAGES.amount],
      [{ standardDaysMin: "5", standardDaysMax: "3" }, "standardDaysMax", SETTINGS_MESSAGES.daysOrder],
      [{ expressDaysMin: "0" }, "expressDaysMin", SETTINGS_MESSAGES.days],
      [{ currency: "JPY" }, "currency", SETTINGS_MESSAGES.currency],
      [{ contactEmail: "not-an-address" }, "contactEmail", SETTINGS_MESSAGES.contactEmail],
      [{ facebook: "javascript:alert(1)" }, "facebook", SETTINGS_MESSAGES.url],
      [{ shopName: "   " }, "shopName", SETTINGS_MESSAGES.shopName],
      [{ taxLabel: "x".repeat(41) }, "taxLabel", SETTINGS_MESSAGES.taxLabel],
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
        taxRate: "20",
        taxLabel: "VAT included",
        standardShipping: "3.50",
        freeShippingThreshold: "35",
        currency: "EUR",
        standardDaysMin: "2",
        standardDaysMax: "3",
        youtube: "",
      }),
    );
    expect(saved.response?.status).toBe(302);
    expect(saved.response?.headers.get("Location")).toBe("/admin/settings");
    if (engine === "sqlite") expect(dataChangeStamp(shop.db)).not.toBe(stampBefore);

    // the other process reads the saved row on its next request: no restart, no wait
    const seen = await otherSource.current();
    expect(seen).toMatchObject({
      shopName: "Settings Shop",
      taxRateBasisPoints: 2_000,
      taxLabel: "VAT included",
      standardShippingCents: 350,
      freeShippingThresholdCents: 3_500,
      currency: "EUR",
      standardDays: { min: 2, max: 3 },
    });
    expect(seen.socialLinks.youtube).toBe("");
    const after = await getCart(other, cartId, seen);
    // €40 ≥ €35: free standard shipping; tax 20 % of €40 = €8.00
    expect(after.totals).toMatchObject({ shippingCents: 0, taxCents: 800, totalCents: 4_800 });

    const [entry, ...more] = await auditRows();
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ actorEmail: "owner@settings.example", entityType: "settings" });
    expect(JSON.parse(entry!.afterJson ?? "{}")).toMatchObject({
      currency: "EUR",
      taxRateBasisPoints: 2_000,
    });
    expect(JSON.parse(entry!.beforeJson ?? "{}")).toMatchObject({ currency: "USD", taxRateBasisPoints: 700 });
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
      freeShippingThresholdCents: 3_500,
    });
  });

  it("an order keeps the currency it was placed in when the shop changes its currency", async () => {
    const productId = await insertProduct(shop.db, { priceCents: 10_000, stock: 10 });
    const place = async () => {
      const pricing = await shop.services.settings.current();
      const cartId = crypto.randomUUID();
      await addToCart(shop.db, { cartId, productId, quantity: 1 });
      const cart = await getCart(shop.db, cartId, pricing);
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
        pricing,
        payment: { token: card.token, brand: card.brand, last4: card.last4 },
        expectedTotalCents: cart.totals.totalCents + pricing.expressShippingCents - cart.totals.shippingCents,
      });
      if (!placed.ok) throw new Error(JSON.stringify(placed.error));
      return (await getOrderByNumber(shop.db, placed.value.order.number))!;
    };
    const inEuros = await place();
    expect(inEuros.currency).toBe("EUR");
    // 20 % tax of €100 and express €9.99
    expect(inEuros.totals).toMatchObject({ taxCents: 2_000, shippingCents: 999, totalCents: 12_999 });

    const current = await shop.services.settings.current();
    expect((await save(formOf(current, { currency: "GBP" }))).response?.status).toBe(302);
    expect((await getOrderByNumber(shop.db, inEuros.number))?.currency).toBe("EUR");
    expect((await place()).currency).toBe("GBP");
  });
});
