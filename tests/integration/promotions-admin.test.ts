import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import {
  PROMOTION_MESSAGES as M,
  type PromotionFormValues,
} from "../../app/domain/promotions/promotion-form.ts";
import { readPromotionState } from "../../app/domain/promotions/promotions.server.ts";
import { saveShopSettings } from "../../app/domain/settings/shop-settings.server.ts";
import * as promotionsRoute from "../../app/routes/admin.promotions._index.tsx";
import * as promotionRoute from "../../app/routes/admin.promotions.$id.tsx";
import * as newPromotionRoute from "../../app/routes/admin.promotions.new.tsx";
import * as simulateRoute from "../../app/routes/admin.promotions.simulate.tsx";
import { ENGINES } from "../db-utils.ts";
import { cookieHeader } from "../helpers/account-fixtures.ts";
import { type AdminAnswer, adminAction } from "../helpers/admin-route.ts";
import { ensureCategory, insertProductWithVariants } from "../helpers/catalog.ts";
import { insertCoupon } from "../helpers/coupons.ts";
import { insertPendingOrder } from "../helpers/invoice-orders.ts";
import { callRoute } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * Admin → Promotions (issue 31) on each engine, through the routes as the server calls them: the
 * owner creates promotions of each kind from the form (products named by SKU or address name),
 * edits, disables and enables them, creates a campaign, and simulates a cart. Every write is
 * audited; every refusal is shown beside its field and writes nothing; the simulator writes nothing.
 */

const URL_BASE = `${TEST_ORIGIN}/admin/promotions`;

/** The form's values as the browser posts them (Conform's names: `target.refs`). */
function promotionFields(values: Partial<PromotionFormValues> & { actionType: string }): [string, string][] {
  const fields: [string, string][] = [["intent", "save"]];
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === "boolean") {
      if (value) fields.push([name, "on"]);
    } else if (Array.isArray(value)) {
      for (const item of value) fields.push([name, item]);
    } else if (typeof value === "object" && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (Array.isArray(inner)) for (const item of inner) fields.push([`${name}.${key}`, item]);
        else fields.push([`${name}.${key}`, String(inner)]);
      }
    } else fields.push([name, String(value)]);
  }
  return fields;
}

describe.each(ENGINES)("promotions admin on %s", (engine) => {
  let shop: TestShop;
  let cookie = "";
  let teeId = 0;
  const post = (
    module: { action: (args: never) => unknown },
    url: string,
    fields: [string, string][],
    params: Record<string, string> = {},
  ): Promise<AdminAnswer> =>
    adminAction(
      module.action,
      new Request(url, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
        body: new URLSearchParams(fields).toString(),
      }),
      shop.context(),
      params,
    );
  const rows = () => shop.db.selectFrom("promotions").selectAll().orderBy("id").execute();
  const audits = () =>
    shop.db
      .selectFrom("auditLog")
      .select(["action", "summary", "beforeJson", "afterJson"])
      .where("entityType", "in", ["promotion", "campaign"])
      .orderBy("id")
      .execute();

  beforeAll(async () => {
    shop = await createTestShop(engine);
    const created = await createOrUpdateUser(
      { auth: shop.services.auth, db: shop.db },
      { email: "owner@promotions.example", password: "correct horse", role: "owner" },
    );
    if (!created.ok) throw new Error("owner");
    cookie = cookieHeader(
      (
        await shop.services.auth.api.signInEmail({
          body: { email: "owner@promotions.example", password: "correct horse" },
          returnHeaders: true,
        })
      ).headers,
    );
    await ensureCategory(shop.db, "clothing");
    const tee = await insertProductWithVariants(shop.db, {
      slug: "classic-tee",
      name: "Classic Tee",
      categoryId: "clothing",
      subcategoryId: null,
      brand: "Loom",
      options: [{ name: "Size", values: ["S", "M"] }],
      variants: [
        { values: ["S"], sku: "TEE-S", priceCents: 2000, stock: 50 },
        { values: ["M"], sku: "TEE-M", priceCents: 2000, stock: 50 },
      ],
    });
    teeId = tee.productId;
    await insertProductWithVariants(shop.db, {
      slug: "wool-socks",
      name: "Wool Socks",
      categoryId: "clothing",
      subcategoryId: null,
      brand: "Loom",
      options: [{ name: "Size", values: ["One"] }],
      variants: [{ values: ["One"], sku: "SOCK-1", priceCents: 800, stock: 50 }],
    });
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  let bogoId = 0;

  it("creates a buy 2 get 1 free on products named by SKU and by address name, audited", async () => {
    const answer = await post(
      newPromotionRoute,
      `${URL_BASE}/new?type=buy-x-get-y`,
      promotionFields({
        actionType: "buy-x-get-y",
        name: "Tees: buy 2 get 1 free",
        active: true,
        combines: true,
        priority: "5",
        quantity: "2",
        getQuantity: "1",
        getPercent: "100",
        maxTimes: "",
        target: { refs: "classic-tee, sock-1", categories: [], brands: "" },
        getTarget: { refs: "", categories: [], brands: "" },
      }),
    );
    expect(answer).toMatchObject({
      ok: true,
      location: "/admin/promotions",
      message: M.created("Tees: buy 2 get 1 free"),
    });
    const [row] = await rows();
    bogoId = Number(row!.id);
    const sock = await shop.db
      .selectFrom("productVariants")
      .select("id")
      .where("sku", "=", "SOCK-1")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row!.action)).toEqual({
      type: "buy-x-get-y",
      buy: { target: { productIds: [teeId], variantIds: [Number(sock.id)] }, quantity: 2 },
      // nothing named for the items given: the same as those bought
      get: { target: { productIds: [teeId], variantIds: [Number(sock.id)] }, quantity: 1 },
      basisPoints: 10_000,
      maxTimes: null,
    });
    expect(row).toMatchObject({ name: "Tees: buy 2 get 1 free", code: null, priority: 5 });
    expect(Number(row!.active)).toBe(1);
    expect(await audits()).toEqual([
      expect.objectContaining({
        action: "promotion.create",
        summary: "Created promotion Tees: buy 2 get 1 free",
      }),
    ]);
    // live for the cart at once
    const state = await readPromotionState(shop.db, { now: new Date(), codes: [], customerKey: null });
    expect(state.promotions.map((p) => p.id)).toEqual([bogoId]);
  });

  it("refuses bad values beside their fields, and writes nothing", async () => {
    // a coupon: a promotion with its code (migration 0780), taken away at the end
    const couponId = await insertCoupon(shop.db, { code: "WELCOME10" });
    onTestFinished(async () => {
      await shop.db.deleteFrom("promotions").where("id", "=", couponId).execute();
    });
    const before = { rows: await rows(), audits: await audits() };
    const refused = await post(
      newPromotionRoute,
      `${URL_BASE}/new?type=items-percent`,
      promotionFields({
        actionType: "items-percent",
        name: "",
        percent: "0",
        apply: "all",
        startsAt: "2026-12-10T00:00",
        endsAt: "2026-12-01T00:00",
        usageLimit: "0",
        target: { refs: "", categories: ["shoes"], brands: "" },
      }),
    );
    expect(refused).toMatchObject({
      ok: false,
      status: 400,
      message: M.invalid,
      fieldErrors: {
        name: M.name,
        percent: M.percent,
        endsAt: M.endBeforeStart,
        usageLimit: M.uses,
        "target.categories": M.category,
      },
    });
    const unknown = await post(
      newPromotionRoute,
      `${URL_BASE}/new?type=items-percent`,
      promotionFields({
        actionType: "items-percent",
        name: "Ghosts",
        percent: "10",
        apply: "cheapest",
        target: { refs: "TEE-S, NOPE-1", categories: [], brands: "" },
      }),
    );
    expect(unknown).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { "target.refs": M.unknownRefs(["NOPE-1"]) },
    });
    // a coupon's code, whatever its case: the cart reads codes from one namespace
    const taken = await post(
      newPromotionRoute,
      `${URL_BASE}/new?type=order-fixed`,
      promotionFields({ actionType: "order-fixed", name: "Five off", amount: "5", code: "welcome10" }),
    );
    expect(taken).toMatchObject({ ok: false, status: 409, fieldErrors: { code: M.codeTaken } });
    expect(await rows()).toEqual(before.rows);
    expect(await audits()).toEqual(before.audits);
  });

  it("edits through the form as it loads: unchanged is nothing, a change is audited with before and after", async () => {
    const page = await callRoute(promotionRoute, "loader", `${URL_BASE}/${bogoId}`, {
      cookie,
      params: { id: String(bogoId) },
      context: shop.context(),
    });
    const values = (page.data as unknown as { values: PromotionFormValues }).values;
    expect(values.target.refs).toBe("SOCK-1, classic-tee");
    const url = `${URL_BASE}/${bogoId}`;
    const params = { id: String(bogoId) };
    const same = await post(promotionRoute, url, promotionFields(values), params);
    expect(same).toMatchObject({ ok: true, message: M.unchanged });
    const auditsBefore = (await audits()).length;
    const changed = await post(promotionRoute, url, promotionFields({ ...values, maxTimes: "2" }), params);
    expect(changed).toMatchObject({ ok: true, message: M.saved("Tees: buy 2 get 1 free") });
    const entries = await audits();
    expect(entries).toHaveLength(auditsBefore + 1);
    const last = entries.at(-1)!;
    expect(last.action).toBe("promotion.update");
    expect(JSON.parse(last.beforeJson!).action.maxTimes).toBeNull();
    expect(JSON.parse(last.afterJson!).action.maxTimes).toBe(2);
    // its uses are its orders' redemptions (nothing counted on the row of a promotion without a limit):
    // shown on its page and in the list, and a limit below them is refused
    for (let i = 0; i < 3; i++) {
      const order = await insertPendingOrder(shop.db);
      await shop.db
        .insertInto("promotionRedemptions")
        .values({
          promotionId: bogoId,
          orderId: order.id,
          customerKey: `email:use-${i}@example.com`,
          amountCents: 100,
          createdAt: "2026-01-01T00:00:00.000Z",
        })
        .execute();
    }
    const used = await callRoute(promotionRoute, "loader", url, { cookie, params, context: shop.context() });
    expect((used.data as unknown as { promotion: { usedCount: number } }).promotion.usedCount).toBe(3);
    const list = await callRoute(promotionsRoute, "loader", URL_BASE, { cookie, context: shop.context() });
    const listed = (list.data as unknown as Awaited<ReturnType<typeof promotionsRoute.loader>>).promotions;
    expect(listed.find((p) => p.id === bogoId)).toMatchObject({ usedCount: 3, usageLimit: null });
    const below = await post(promotionRoute, url, promotionFields({ ...values, usageLimit: "2" }), params);
    expect(below).toMatchObject({ ok: false, status: 409, fieldErrors: { usageLimit: M.usageBelowUsed(3) } });
    await shop.db.deleteFrom("promotionRedemptions").where("promotionId", "=", bogoId).execute();
  });

  it("disables and enables: a disabled promotion is read by no cart", async () => {
    const url = `${URL_BASE}/${bogoId}`;
    const params = { id: String(bogoId) };
    expect(await post(promotionRoute, url, [["intent", "disable"]], params)).toMatchObject({
      ok: true,
      message: M.disabled("Tees: buy 2 get 1 free"),
    });
    expect(
      (await readPromotionState(shop.db, { now: new Date(), codes: [], customerKey: null })).promotions,
    ).toEqual([]);
    expect(await post(promotionRoute, url, [["intent", "disable"]], params)).toMatchObject({
      ok: true,
      message: M.unchanged,
    });
    expect(await post(promotionRoute, url, [["intent", "enable"]], params)).toMatchObject({
      ok: true,
      message: M.enabled("Tees: buy 2 get 1 free"),
    });
    expect(
      (await audits()).filter(
        (entry) => entry.action === "promotion.disable" || entry.action === "promotion.enable",
      ),
    ).toHaveLength(2);
  });

  it("creates a campaign and lists it with the promotions in the order they apply", async () => {
    const answer = await post(promotionsRoute, URL_BASE, [
      ["campaignName", "Black Friday"],
      ["budget", "500"],
    ]);
    expect(answer).toMatchObject({ ok: true, message: M.campaignCreated("Black Friday") });
    await post(
      newPromotionRoute,
      `${URL_BASE}/new?type=order-percent`,
      promotionFields({
        actionType: "order-percent",
        name: "Big spenders",
        percent: "10",
        priority: "9",
        minSubtotal: "100",
        active: true,
        combines: true,
      }),
    );
    const page = await callRoute(promotionsRoute, "loader", URL_BASE, { cookie, context: shop.context() });
    const data = page.data as unknown as Awaited<ReturnType<typeof promotionsRoute.loader>>;
    expect(data.promotions.map((p) => [p.name, p.does, p.status])).toEqual([
      ["Big spenders", "10% off the order", "active"],
      ["Tees: buy 2 get 1 free", "Buy 2 (2 products) get 1 free (2 products), at most 2×", "active"],
    ]);
    expect(data.campaigns).toEqual([
      { id: expect.any(Number), name: "Black Friday", budgetCents: 50_000, spentCents: 0 },
    ]);
  });

  it("takes and shows the schedule on the shop's clocks (its time zone), stored as instants", async () => {
    const { markets: _markets, ...settings } = await shop.services.settings.current();
    const inBerlin = { ...settings, timeZone: "Europe/Berlin" };
    const owner = { id: "owner", email: "owner@promotions.example" };
    await saveShopSettings(shop.db, { settings: inBerlin, defaults: settings, actor: owner });
    try {
      const created = await post(
        newPromotionRoute,
        `${URL_BASE}/new?type=order-percent`,
        promotionFields({
          actionType: "order-percent",
          name: "Winter evening",
          active: true,
          percent: "15",
          startsAt: "2026-12-01T09:00",
          endsAt: "2026-12-01T21:30",
        }),
      );
      expect(created).toMatchObject({ ok: true });
      const row = (await rows()).find((promotion) => promotion.name === "Winter evening")!;
      // 09:00 in Berlin in winter is 08:00 UTC
      expect(row).toMatchObject({ startsAt: "2026-12-01T08:00:00.000Z", endsAt: "2026-12-01T20:30:00.000Z" });
      const page = await callRoute(promotionRoute, "loader", `${URL_BASE}/${row.id}`, {
        cookie,
        params: { id: String(row.id) },
        context: shop.context(),
      });
      const loaded = page.data as unknown as { values: PromotionFormValues; choices: { timeZone: string } };
      expect(loaded.values).toMatchObject({ startsAt: "2026-12-01T09:00", endsAt: "2026-12-01T21:30" });
      expect(loaded.choices.timeZone).toBe("Europe/Berlin");
      const list = await callRoute(promotionsRoute, "loader", URL_BASE, { cookie, context: shop.context() });
      const listed = (list.data as unknown as { promotions: { name: string; schedule: string }[] })
        .promotions;
      expect(listed.find((promotion) => promotion.name === "Winter evening")?.schedule).toBe(
        "Dec 1, 2026, 09:00 Europe/Berlin – Dec 1, 2026, 21:30 Europe/Berlin",
      );
      // the window is the instants: live at 20:29 UTC, over at 20:30 UTC
      const live = (at: string) =>
        readPromotionState(shop.db, { now: new Date(at), codes: [], customerKey: null }).then((state) =>
          state.promotions.some((promotion) => promotion.id === row.id),
        );
      expect(await live("2026-12-01T20:29:59.999Z")).toBe(true);
      expect(await live("2026-12-01T20:30:00.000Z")).toBe(false);
      expect(await live("2026-12-01T07:59:59.999Z")).toBe(false);
      await shop.db.updateTable("promotions").set({ active: 0 }).where("id", "=", row.id).execute();
    } finally {
      await saveShopSettings(shop.db, { settings, defaults: settings, actor: owner });
    }
  });

  it("simulates a cart: what applied and what it took, what did not and why, the totals — and writes nothing", async () => {
    const counts = async () => ({
      orders: (await shop.db.selectFrom("orders").select("id").execute()).length,
      carts: (await shop.db.selectFrom("carts").select("id").execute()).length,
      redemptions: (await shop.db.selectFrom("promotionRedemptions").select("id").execute()).length,
      promotions: await rows(),
    });
    const before = await counts();
    const query = new URLSearchParams([
      ["sku", "TEE-S"],
      ["quantity", "2"],
      ["sku", "tee-m"],
      ["quantity", "1"],
      ["country", "US"],
      ["region", ""],
      ["method", ""],
      ["email", ""],
      ["code", ""],
      ["at", ""],
    ]);
    const page = await callRoute(simulateRoute, "loader", `${URL_BASE}/simulate?${query}`, {
      cookie,
      context: shop.context(),
    });
    const data = page.data as unknown as Awaited<ReturnType<typeof simulateRoute.loader>>;
    expect(data.errors).toEqual({});
    expect(data.result?.applied).toEqual([
      expect.objectContaining({ name: "Tees: buy 2 get 1 free", kind: "product", amountCents: 2000 }),
    ]);
    expect(data.result?.refused).toEqual([
      expect.objectContaining({ name: "Big spenders", why: "Needs a subtotal of $100.00: $40.00 to go." }),
    ]);
    expect(data.result?.totals).toMatchObject({ subtotalCents: 6000, discountCents: 2000 });
    expect(data.result?.customer).toEqual({ signedIn: false, firstOrder: true, groups: [] });
    // after its end it does not apply: the simulator says so
    await shop.db
      .updateTable("promotions")
      .set({ endsAt: "2026-12-31T00:00:00.000Z" })
      .where("id", "=", bogoId)
      .execute();
    query.set("at", "2027-01-02T10:00");
    const later = await callRoute(simulateRoute, "loader", `${URL_BASE}/simulate?${query}`, {
      cookie,
      context: shop.context(),
    });
    const laterData = later.data as unknown as Awaited<ReturnType<typeof simulateRoute.loader>>;
    expect(laterData.result?.applied).toEqual([]);
    expect(laterData.result?.refused.map((r) => [r.name, r.why])).toEqual([
      ["Big spenders", "Needs a subtotal of $100.00: $40.00 to go."],
      ["Tees: buy 2 get 1 free", "It has ended."],
    ]);
    await shop.db.updateTable("promotions").set({ endsAt: null }).where("id", "=", bogoId).execute();
    // an unknown SKU, a bad quantity: beside their fields
    const bad = await callRoute(
      simulateRoute,
      "loader",
      `${URL_BASE}/simulate?sku=NOPE&quantity=1&sku=TEE-S&quantity=0&country=US`,
      { cookie, context: shop.context() },
    );
    expect((bad.data as unknown as { errors: Record<string, string> }).errors).toEqual({
      "quantity.1": "Enter a quantity from 1 to 1000.",
    });
    const unknown = await callRoute(
      simulateRoute,
      "loader",
      `${URL_BASE}/simulate?sku=NOPE&quantity=1&country=US`,
      {
        cookie,
        context: shop.context(),
      },
    );
    expect((unknown.data as unknown as { errors: Record<string, string> }).errors).toEqual({
      "sku.0": "Unknown SKU “NOPE”.",
    });
    expect(await counts()).toEqual(before);
  });
});
