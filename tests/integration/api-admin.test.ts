import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../app/api/api.server.ts";
import type { StaffActor } from "../../app/domain/audit/audit-log.server.ts";
import { createGroup, getGroup } from "../../app/domain/customer-groups/customer-groups.server.ts";
import { findGiftCard, getGiftCard } from "../../app/domain/gift-cards/gift-cards.server.ts";
import { type ApiKeyInput, createApiKey } from "../../app/domain/integrations/api-keys.server.ts";
import { getAdminOrder } from "../../app/domain/orders/order-admin.server.ts";
import { transitionOrder } from "../../app/domain/orders/orders.server.ts";
import { codeCounts, generateCodes } from "../../app/domain/promotions/promotion-codes.server.ts";
import { requestReturn } from "../../app/domain/returns/returns.server.ts";
import { CONFIRM_VALUE } from "../../app/lib/confirm.ts";
import * as groupRoute from "../../app/routes/admin.customer-groups.$id.tsx";
import * as customersRoute from "../../app/routes/admin.customers._index.tsx";
import * as customerRoute from "../../app/routes/admin.customers.$id.tsx";
import * as giftCardsRoute from "../../app/routes/admin.gift-cards._index.tsx";
import * as issueCardRoute from "../../app/routes/admin.gift-cards.new.tsx";
import * as orderRoute from "../../app/routes/admin.orders.$number.tsx";
import * as promotionsRoute from "../../app/routes/admin.promotions._index.tsx";
import * as promotionRoute from "../../app/routes/admin.promotions.$id.tsx";
import * as returnRoute from "../../app/routes/admin.returns.$number.tsx";
import * as settingsRoute from "../../app/routes/admin.settings.tsx";
import { cartwheelClient } from "../../clients/typescript/client.ts";
import { ENGINES } from "../db-utils.ts";
import { insertOrder, insertUser, signedInStaff } from "../helpers/account-fixtures.ts";
import { callRoute } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * The rest of the Admin API (issue 32) through the typed client: refunds and cancelling, returns,
 * customers and groups, promotions and codes, gift cards, settings. For each area one outcome is
 * driven through the admin page and through the API and the two compared: the API calls the pages'
 * own domain functions, so they must agree.
 */
const M_EXPIRES = "Enter a date after today, or leave it empty for a card that never expires.";
const OWNER: StaffActor = { id: "owner-1", email: "owner@example.com", role: "owner" };

describe.each(ENGINES)("the Admin API's other areas, on %s", (engine) => {
  let shop: TestShop;
  let api: ReturnType<typeof createApi>;
  let staff = "";

  beforeAll(async () => {
    shop = await createTestShop(engine);
    api = createApi(async () => shop.services);
    staff = await signedInStaff(shop, `owner-${engine}@api-admin.example`);
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  async function clientWith(scopes: ApiKeyInput["scopes"], name = "Back office") {
    const made = await createApiKey(shop.db, {
      actor: OWNER,
      input: { name, kind: "secret", scopes, expiresAt: null },
    });
    if (!made.ok) throw new Error(made.error.code);
    return cartwheelClient({
      baseUrl: TEST_ORIGIN,
      apiKey: made.value.secret,
      fetch: async (request) => api.request(request),
    });
  }
  const idempotency = (key: string = randomUUID()) => ({ "idempotency-key": key });
  const paidOrder = () => insertOrder(shop.db, { userId: null, createdAt: "2026-11-20T10:00:00.000Z" });
  /** what an order's page shows of its money: comparable between two orders */
  async function moneyOf(number: string) {
    const order = await getAdminOrder(shop.db, number);
    return {
      status: order!.status,
      left: order!.refund?.leftCents ?? 0,
      refunds: order!.refunds.map((r) => [r.amountCents, r.status, r.restocked]),
      lines: order!.refund?.lines.map((line) => line.refundable) ?? [],
    };
  }

  describe("refunds", () => {
    it("refunds a line through the API as the order page's refund form does", async () => {
      const client = await clientWith(["refunds:write"], "Accounting");
      const [viaPage, viaApi] = [await paidOrder(), await paidOrder()];

      const pageOrder = await getAdminOrder(shop.db, viaPage);
      const lamp = pageOrder!.refund!.lines[0]!;
      const page = await callRoute(orderRoute, "action", `${TEST_ORIGIN}/admin/orders/${viaPage}`, {
        cookie: staff,
        fields: { intent: "refund", key: randomUUID(), [`qty.${lamp.itemId}`]: "1", reason: "Broken" },
        params: { number: viaPage },
        context: shop.context(),
      });
      expect(page.response?.status).toBe(302);

      const offered = await client.GET("/api/v1/admin/orders/{number}/refunds", {
        params: { path: { number: viaApi } },
      });
      expect(offered.response.status).toBe(200);
      expect(offered.data!.refundable!.left).toEqual({ amount: 3_800, currency: "USD" });
      const line = offered.data!.refundable!.lines[0]!;
      expect(line).toMatchObject({ name: "Desk Lamp", quantity: 2, refundable: 2 });
      const refunded = await client.POST("/api/v1/admin/orders/{number}/refunds", {
        params: { path: { number: viaApi }, header: idempotency() },
        body: { lines: [{ itemId: line.itemId, quantity: 1 }], reason: "Broken" },
      });
      expect(refunded.response.status).toBe(200);
      expect(refunded.data).toEqual({
        number: viaApi,
        amount: { amount: 1_500, currency: "USD" },
        status: "partially_refunded",
        replayed: false,
      });
      expect(await moneyOf(viaApi)).toEqual(await moneyOf(viaPage));
      const audit = await shop.db
        .selectFrom("auditLog")
        .select("actorEmail")
        .where("entityId", "=", viaApi)
        .execute();
      expect(audit.map((row) => row.actorEmail)).toContain("API key Accounting");
    });

    it("refunds an amount once per Idempotency-Key, and refuses what the form refuses in its words", async () => {
      const client = await clientWith(["refunds:write"]);
      const number = await paidOrder();
      const key = idempotency();
      const refund = (
        body: { amount?: { amount: number; currency: string }; storeCredit?: boolean },
        header = idempotency(),
      ) =>
        client.POST("/api/v1/admin/orders/{number}/refunds", { params: { path: { number }, header }, body });
      const first = await refund({ amount: { amount: 500, currency: "USD" } }, key);
      expect(first.data).toMatchObject({ amount: { amount: 500, currency: "USD" }, replayed: false });
      const again = await refund({ amount: { amount: 500, currency: "USD" } }, key);
      expect(again.response.headers.get("Idempotent-Replayed")).toBe("true");
      expect((await moneyOf(number)).left).toBe(3_300);
      // the longest Idempotency-Key: the refund's own key stays short enough for the provider
      const long = idempotency("k".repeat(255));
      expect((await refund({ amount: { amount: 100, currency: "USD" } }, long)).response.status).toBe(200);
      const replayed = (await refund({ amount: { amount: 100, currency: "USD" } }, long)).data;
      expect(replayed && "amount" in replayed ? replayed.amount.amount : null).toBe(100);
      expect((await moneyOf(number)).left).toBe(3_200);
      const keys = await shop.db.selectFrom("orderRefunds").select("idempotencyKey").execute();
      expect(Math.max(...keys.map((row) => row.idempotencyKey.length))).toBeLessThan(100);

      const tooMuch = await refund({ amount: { amount: 5_000, currency: "USD" } });
      expect(tooMuch.response.status).toBe(409);
      expect(tooMuch.error?.detail).toBe("At most $32.00 can be refunded.");
      const nothing = await refund({});
      expect([nothing.response.status, nothing.error?.detail]).toEqual([
        400,
        "Choose the lines to refund, or an amount.",
      ]);
      const euros = await refund({ amount: { amount: 100, currency: "EUR" } });
      expect(euros.response.status).toBe(400);
      const credit = await refund({ amount: { amount: 100, currency: "USD" }, storeCredit: true });
      expect(credit.error?.detail).toBe(
        "This order was placed without an account, so it cannot be refunded as store credit.",
      );
      const missing = await client.POST("/api/v1/admin/orders/{number}/refunds", {
        params: { path: { number: "CW-NOSUCH" }, header: idempotency() },
        body: { amount: { amount: 100, currency: "USD" } },
      });
      expect(missing.response.status).toBe(404);
      // a key that may only read refunds
      const reader = await clientWith(["refunds:read"]);
      const refused = await reader.POST("/api/v1/admin/orders/{number}/refunds", {
        params: { path: { number }, header: idempotency() },
        body: { amount: { amount: 100, currency: "USD" } },
      });
      expect(refused.response.status).toBe(403);
      expect((await moneyOf(number)).left).toBe(3_200);
    });

    it("cancels a paid order as the page's Cancel button does: refunded in full, and only with both scopes", async () => {
      const [viaPage, viaApi] = [await paidOrder(), await paidOrder()];
      const page = await callRoute(orderRoute, "action", `${TEST_ORIGIN}/admin/orders/${viaPage}`, {
        cookie: staff,
        fields: { intent: "move", to: "cancelled", confirm: CONFIRM_VALUE },
        params: { number: viaPage },
        context: shop.context(),
      });
      expect(page.response?.status).toBe(302);

      const ordersOnly = await clientWith(["orders:write"]);
      const refused = await ordersOnly.POST("/api/v1/admin/orders/{number}/cancellation", {
        params: { path: { number: viaApi }, header: idempotency() },
      });
      expect(refused.response.status).toBe(403);
      expect(refused.error?.detail).toBe("This API key lacks the refunds:write scope.");

      const client = await clientWith(["orders:write", "refunds:write"]);
      const cancelled = await client.POST("/api/v1/admin/orders/{number}/cancellation", {
        params: { path: { number: viaApi }, header: idempotency() },
      });
      expect([cancelled.response.status, cancelled.data]).toEqual([
        200,
        { number: viaApi, status: "cancelled" },
      ]);
      expect(await moneyOf(viaApi)).toEqual(await moneyOf(viaPage));
      expect((await moneyOf(viaApi)).status).toBe("cancelled");

      const twice = await client.POST("/api/v1/admin/orders/{number}/cancellation", {
        params: { path: { number: viaApi }, header: idempotency() },
      });
      expect(twice.response.status).toBe(409);
      expect(twice.error?.detail).toBe("This order is cancelled and cannot become cancelled.");
    });
  });
  /** A delivered order (yesterday) with a return asked for one lamp: the return's number. */
  async function requestedReturn() {
    const number = await insertOrder(shop.db, {
      userId: null,
      createdAt: new Date(Date.now() - 3 * 86_400_000).toISOString(),
      status: "shipped",
    });
    const order = await shop.db
      .selectFrom("orders")
      .select("id")
      .where("number", "=", number)
      .executeTakeFirstOrThrow();
    await transitionOrder(shop.db, { orderId: order.id, to: "delivered", actor: "admin" });
    const lamp = (await getAdminOrder(shop.db, number))!.refund!.lines[0]!;
    const asked = await requestReturn(
      shop.db,
      shop.services.mail,
      { shopName: "Cartwheel", publicUrl: TEST_ORIGIN },
      { orderNumber: number, lines: [{ itemId: lamp.itemId, quantity: 1 }], reason: "Wrong item sent" },
    );
    if (!asked.ok) throw new Error(asked.error.code);
    return asked.value.number;
  }

  describe("returns", () => {
    it("lists returns by status with a cursor, and reads one as its page does", async () => {
      const client = await clientWith(["returns:read"]);
      const made = [await requestedReturn(), await requestedReturn(), await requestedReturn()];
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.GET("/api/v1/admin/returns", {
          params: { query: { status: "requested", ...(cursor ? { cursor } : {}) } },
        });
        expect(page.response.status).toBe(200);
        seen.push(...page.data!.data.map((row) => row.number));
        cursor = page.data!.nextCursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(expect.arrayContaining(made));
      const one = await client.GET("/api/v1/admin/returns/{number}", {
        params: { path: { number: made[0]! } },
      });
      const page = await callRoute(returnRoute, "loader", `${TEST_ORIGIN}/admin/returns/${made[0]}`, {
        cookie: staff,
        params: { number: made[0]! },
        context: shop.context(),
      });
      const { found, next } = page.data as unknown as Awaited<ReturnType<typeof returnRoute.loader>>;
      expect(one.data).toMatchObject({
        number: found.number,
        status: "requested",
        reason: "Wrong item sent",
        orderNumber: found.orderNumber,
        refund: null,
        next: [...next],
      });
      expect(one.data!.items).toEqual(found.items);
      const missing = await client.GET("/api/v1/admin/returns/{number}", {
        params: { path: { number: "RT-NOPE" } },
      });
      expect(missing.response.status).toBe(404);
    });

    it("approves, receives and refunds a return as the page's buttons do, ending as the page's does", async () => {
      const client = await clientWith(["returns:write"], "Returns desk");
      const [viaPage, viaApi] = [await requestedReturn(), await requestedReturn()];
      for (const to of ["approved", "received", "refunded"]) {
        const answer = await callRoute(returnRoute, "action", `${TEST_ORIGIN}/admin/returns/${viaPage}`, {
          cookie: staff,
          fields: { to },
          params: { number: viaPage },
          context: shop.context(),
        });
        expect(answer.response?.status, to).toBe(302);
      }
      const path = { path: { number: viaApi } };
      const approved = await client.POST("/api/v1/admin/returns/{number}/approval", {
        params: { ...path, header: idempotency() },
      });
      expect(approved.data).toEqual({ number: viaApi, status: "approved" });
      const early = await client.POST("/api/v1/admin/returns/{number}/refund", {
        params: { ...path, header: idempotency() },
      });
      expect([early.response.status, early.error?.detail]).toEqual([
        409,
        "This return is approved — send the items back and cannot become refunded.",
      ]);
      const received = await client.POST("/api/v1/admin/returns/{number}/receipt", {
        params: { ...path, header: idempotency() },
      });
      expect(received.data).toEqual({ number: viaApi, status: "received" });
      const refunded = await client.POST("/api/v1/admin/returns/{number}/refund", {
        params: { ...path, header: idempotency() },
      });
      expect(refunded.data).toEqual({ number: viaApi, status: "refunded" });

      const read = async (number: string) => {
        const one = await client.GET("/api/v1/admin/returns/{number}", { params: { path: { number } } });
        return { status: one.data!.status, refund: one.data!.refund };
      };
      expect(await read(viaApi)).toEqual(await read(viaPage));
      expect((await read(viaApi)).refund?.amount).toBeGreaterThan(0);
      const audit = await shop.db
        .selectFrom("auditLog")
        .select("actorEmail")
        .where("entityId", "=", viaApi)
        .execute();
      expect(audit.map((row) => row.actorEmail)).toEqual(["API key Returns desk", "API key Returns desk"]);
    });

    it("rejects with the reason the customer reads, and refuses a rejection without one", async () => {
      const client = await clientWith(["returns:write"]);
      const number = await requestedReturn();
      const bare = await client.POST("/api/v1/admin/returns/{number}/rejection", {
        params: { path: { number }, header: idempotency() },
        body: { reason: " " },
      });
      expect(bare.response.status).toBe(400);
      expect(JSON.stringify(bare.error)).toContain("Say why the return is rejected: the customer reads it.");
      const rejected = await client.POST("/api/v1/admin/returns/{number}/rejection", {
        params: { path: { number }, header: idempotency() },
        body: { reason: "Worn" },
      });
      expect(rejected.data).toEqual({ number, status: "rejected" });
      const one = await client.GET("/api/v1/admin/returns/{number}", { params: { path: { number } } });
      expect(one.data).toMatchObject({ status: "rejected", rejectionReason: "Worn", next: [] });
      const reader = await clientWith(["returns:read"]);
      const refused = await reader.POST("/api/v1/admin/returns/{number}/approval", {
        params: { path: { number }, header: idempotency() },
      });
      expect(refused.response.status).toBe(403);
    });
  });
  describe("customers and groups", () => {
    it("lists and searches customers as the admin's list does, and reads one as their page does", async () => {
      const client = await clientWith(["customers:read"]);
      const tag = `${engine}-${randomUUID().slice(0, 8)}`;
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push(await insertUser(shop.db, `buyer${i}-${tag}@customers.example`));
      await insertOrder(shop.db, { userId: ids[0]!, createdAt: "2026-11-21T10:00:00.000Z" });

      const page = await callRoute(customersRoute, "loader", `${TEST_ORIGIN}/admin/customers?search=${tag}`, {
        cookie: staff,
        context: shop.context(),
      });
      const listed = page.data as unknown as Awaited<ReturnType<typeof customersRoute.loader>>;
      const viaApi = await client.GET("/api/v1/admin/customers", { params: { query: { search: tag } } });
      expect(viaApi.response.status).toBe(200);
      expect(viaApi.data!.nextCursor).toBeNull();
      expect(
        viaApi.data!.data.map((row) => [row.id, row.email, row.orderCount, row.spent.amount, row.disabled]),
      ).toEqual(
        listed.customers.map((row) => [row.id, row.email, row.orderCount, row.spentCents, row.disabled]),
      );
      expect(viaApi.data!.data).toHaveLength(3);

      const one = await client.GET("/api/v1/admin/customers/{id}", { params: { path: { id: ids[0]! } } });
      const detail = await callRoute(customerRoute, "loader", `${TEST_ORIGIN}/admin/customers/${ids[0]}`, {
        cookie: staff,
        params: { id: ids[0]! },
        context: shop.context(),
      });
      const { customer } = detail.data as unknown as Awaited<ReturnType<typeof customerRoute.loader>>;
      expect(one.data).toMatchObject({
        id: customer.id,
        email: customer.email,
        orderCount: 1,
        spent: { amount: customer.spentCents, currency: "USD" },
        groups: [],
      });
      expect(one.data!.orders.map((o) => [o.number, o.total.amount])).toEqual(
        customer.orders.map((o) => [o.number, o.totalCents]),
      );
      const missing = await client.GET("/api/v1/admin/customers/{id}", {
        params: { path: { id: "nobody" } },
      });
      expect([missing.response.status, missing.error?.detail]).toEqual([404, "No customer has that id."]);
    });

    it("adds members by e-mail as the group page's form does, and refuses an e-mail that is no customer's", async () => {
      const client = await clientWith(["customers:write"], "CRM");
      const tag = randomUUID().slice(0, 8);
      const emails = [`a-${tag}@groups.example`, `b-${tag}@groups.example`];
      for (const email of emails) await insertUser(shop.db, email);
      const made = async (name: string) => {
        const group = await createGroup(shop.db, { input: { name, description: "" }, actor: OWNER });
        if (!group.ok) throw new Error(group.error.code);
        return group.value.id;
      };
      const [viaPage, viaApi] = [await made(`Page ${tag}`), await made(`API ${tag}`)];
      const page = await callRoute(groupRoute, "action", `${TEST_ORIGIN}/admin/customer-groups/${viaPage}`, {
        cookie: staff,
        fields: { intent: "add", emails: emails.join(", ") },
        params: { id: String(viaPage) },
        context: shop.context(),
      });
      expect(page.response?.status).toBe(302);
      const added = await client.POST("/api/v1/admin/customer-groups/{id}/members", {
        params: { path: { id: viaApi }, header: idempotency() },
        body: { emails },
      });
      expect(added.data).toEqual({ group: `API ${tag}`, added: 2 });
      const members = async (id: number) =>
        (await getGroup(shop.db, id))!.members.map((m) => [m.email, m.source]).sort();
      expect(await members(viaApi)).toEqual(await members(viaPage));

      const unknown = await client.POST("/api/v1/admin/customer-groups/{id}/members", {
        params: { path: { id: viaApi }, header: idempotency() },
        body: { emails: [`nobody-${tag}@groups.example`] },
      });
      expect([unknown.response.status, unknown.error?.detail]).toEqual([
        400,
        `No customer has the e-mail nobody-${tag}@groups.example.`,
      ]);
      const gone = await client.POST("/api/v1/admin/customer-groups/{id}/members", {
        params: { path: { id: 999_999 }, header: idempotency() },
        body: { emails },
      });
      expect([gone.response.status, gone.error?.detail]).toEqual([404, "This group no longer exists."]);

      const groups = await client.GET("/api/v1/admin/customer-groups");
      expect(groups.data!.data.find((g) => g.id === viaApi)).toMatchObject({ memberCount: 2, rule: null });
      const customer = await client.GET("/api/v1/admin/customers/{id}", {
        params: { path: { id: (await getGroup(shop.db, viaApi))!.members[0]!.userId } },
      });
      // write implies read: the member's page lists the group, as added by hand
      expect(customer.data!.groups).toContainEqual({ id: viaApi, name: `API ${tag}`, source: "hand" });
    });
  });
  /** A promotion as the admin stores it: 20 % off the order, with a shared code or none. */
  async function insertPromotion(name: string, code: string | null = null) {
    const at = new Date().toISOString();
    const row = await shop.db
      .insertInto("promotions")
      .values({
        name,
        code,
        action: JSON.stringify({ type: "order-percent", basisPoints: 2_000 }),
        conditions: JSON.stringify([{ type: "min-subtotal", cents: 5_000 }]),
        createdAt: at,
        updatedAt: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  describe("promotions and codes", () => {
    it("lists promotions as the admin's list does, with its code filter, and reads one with its rules", async () => {
      const client = await clientWith(["discounts:read"]);
      const tag = randomUUID().slice(0, 6).toUpperCase();
      const shared = await insertPromotion(`Spring ${tag}`, `SPRING${tag}`);
      await insertPromotion(`Automatic ${tag}`);
      for (const query of ["", "?with=code"]) {
        const page = await callRoute(promotionsRoute, "loader", `${TEST_ORIGIN}/admin/promotions${query}`, {
          cookie: staff,
          context: shop.context(),
        });
        const listed = page.data as unknown as Awaited<ReturnType<typeof promotionsRoute.loader>>;
        const viaApi = await client.GET("/api/v1/admin/promotions", {
          params: { query: query ? { with: "code" } : {} },
        });
        expect(viaApi.response.status).toBe(200);
        expect(viaApi.data!.data.map((p) => [p.id, p.name, p.code, p.does, p.usedCount])).toEqual(
          listed.promotions.map((p) => [p.id, p.name, p.code, p.does, p.usedCount]),
        );
      }
      const one = await client.GET("/api/v1/admin/promotions/{id}", { params: { path: { id: shared } } });
      expect(one.data).toMatchObject({
        id: shared,
        code: `SPRING${tag}`,
        does: "20% off the order",
        status: "active",
        action: { type: "order-percent", basisPoints: 2_000 },
        conditions: [{ type: "min-subtotal", cents: 5_000 }],
        codes: { total: 0, used: 0 },
      });
      const missing = await client.GET("/api/v1/admin/promotions/{id}", {
        params: { path: { id: 999_999 } },
      });
      expect([missing.response.status, missing.error?.detail]).toEqual([
        404,
        "This promotion no longer exists.",
      ]);
    });

    it("makes N unique codes with a prefix as the promotion page's form does, and refuses what it refuses", async () => {
      const client = await clientWith(["discounts:write"], "Mailing");
      const [viaPage, viaApi] = [
        await insertPromotion("Codes by page"),
        await insertPromotion("Codes by API"),
      ];
      const page = await callRoute(promotionRoute, "action", `${TEST_ORIGIN}/admin/promotions/${viaPage}`, {
        cookie: staff,
        fields: { intent: "codes", count: "25", prefix: "vip" },
        params: { id: String(viaPage) },
        context: shop.context(),
      });
      expect(page.response?.status).toBe(302);
      const made = await client.POST("/api/v1/admin/promotions/{id}/codes", {
        params: { path: { id: viaApi }, header: idempotency() },
        body: { count: 25, prefix: "vip" },
      });
      expect(made.data).toEqual({ made: 25, codes: { total: 25, used: 0 } });
      const codesOf = async (id: number) =>
        (
          await shop.db.selectFrom("promotionCodes").select("code").where("promotionId", "=", id).execute()
        ).map((row) => row.code);
      const [pageCodes, apiCodes] = [await codesOf(viaPage), await codesOf(viaApi)];
      expect(new Set(apiCodes).size).toBe(25);
      for (const codes of [pageCodes, apiCodes])
        for (const code of codes) expect(code).toMatch(/^VIP-[A-Z2-9]{10}$/);
      expect(apiCodes.filter((code) => pageCodes.includes(code))).toEqual([]);
      const read = async (id: number) => {
        const one = await client.GET("/api/v1/admin/promotions/{id}", { params: { path: { id } } });
        return [one.data!.uniqueCodes, one.data!.code, one.data!.codes];
      };
      expect(await read(viaApi)).toEqual(await read(viaPage));
      const audit = await shop.db
        .selectFrom("auditLog")
        .select("actorEmail")
        .where("entityType", "=", "promotion")
        .where("entityId", "=", String(viaApi))
        .execute();
      expect(audit).toEqual([{ actorEmail: "API key Mailing" }]);

      const sharedCode = await insertPromotion("Shared", `SHARED${randomUUID().slice(0, 6).toUpperCase()}`);
      const refusedShared = await client.POST("/api/v1/admin/promotions/{id}/codes", {
        params: { path: { id: sharedCode }, header: idempotency() },
        body: { count: 1 },
      });
      expect([refusedShared.response.status, refusedShared.error?.detail]).toEqual([
        409,
        "This promotion has a shared code: remove it first (a promotion is applied either by one shared code or by single-use codes).",
      ]);
      const tooMany = await client.POST("/api/v1/admin/promotions/{id}/codes", {
        params: { path: { id: viaApi }, header: idempotency() },
        body: { count: 100_001 },
      });
      expect(tooMany.response.status).toBe(400);
      expect(JSON.stringify(tooMany.error)).toContain("Enter how many codes to make, from 1 to 100,000.");
      const badPrefix = await client.POST("/api/v1/admin/promotions/{id}/codes", {
        params: { path: { id: viaApi }, header: idempotency() },
        body: { count: 1, prefix: "no-dashes" },
      });
      expect(badPrefix.response.status).toBe(400);
      // the command decides too: a key whose scopes do not grant discounts makes none
      const refused = await generateCodes(shop.db, {
        promotionId: viaApi,
        count: 1,
        prefix: "",
        actor: { id: "api-key:0", email: "API key Other", role: "customer", grants: ["orders"] },
      });
      expect(refused).toEqual({ ok: false, error: { code: "forbidden" } });
      expect((await codeCounts(shop.db, viaApi)).total).toBe(25);
    });
  });
  describe("gift cards", () => {
    it("issues a card as the admin's Issue form does: its code once, e-mailed, never kept with the Idempotency-Key", async () => {
      const client = await clientWith(["refunds:write"], "Loyalty");
      const fields = {
        key: randomUUID(),
        amount: "25.00",
        expiresOn: "2099-12-31",
        recipientEmail: "friend@cards.example",
        recipientName: "Friend",
        message: "Enjoy",
      };
      const page = await callRoute(issueCardRoute, "action", `${TEST_ORIGIN}/admin/gift-cards/new`, {
        cookie: staff,
        fields,
        context: shop.context(),
      });
      const pageIssued = (page.data as unknown as { issued: { id: number; code: string; emailedTo: string } })
        .issued;
      expect(pageIssued.emailedTo).toBe("friend@cards.example");

      const key = idempotency();
      const body = {
        amount: { amount: 2_500, currency: "USD" },
        expiresOn: "2099-12-31",
        recipientEmail: "friend@cards.example",
        recipientName: "Friend",
        message: "Enjoy",
      };
      const issued = await client.POST("/api/v1/admin/gift-cards", { params: { header: key }, body });
      expect(issued.response.status).toBe(200);
      expect(issued.response.headers.get("X-Cartwheel-Secret-Answer")).toBeNull();
      const { card, code, emailedTo } = issued.data!;
      expect(code).toMatch(/\S{8,}/);
      expect(emailedTo).toBe("friend@cards.example");
      // the card works at checkout by its code, as the page's does
      for (const typed of [code!, pageIssued.code])
        expect((await findGiftCard(shop.db, typed)).ok).toBe(true);
      const view = (c: NonNullable<Awaited<ReturnType<typeof getGiftCard>>>) => {
        const { id, last4, createdAt, ...rest } = c.card;
        return { ...rest, message: c.message, movements: c.movements.map((m) => [m.amountCents, m.reason]) };
      };
      expect(view((await getGiftCard(shop.db, card.id))!)).toEqual(
        view((await getGiftCard(shop.db, pageIssued.id))!),
      );
      // the code is nowhere in the API's stored answers; the same key again issues nothing more
      const kept = await shop.db.selectFrom("apiIdempotency").selectAll().execute();
      expect(JSON.stringify(kept)).not.toContain(code!);
      const again = await client.POST("/api/v1/admin/gift-cards", { params: { header: key }, body });
      expect(again.data).toEqual({ card, code: null, emailedTo: null });
      const cards = await shop.db
        .selectFrom("giftCards")
        .select("id")
        .where("recipientEmail", "=", "friend@cards.example")
        .execute();
      expect(cards).toHaveLength(2);

      const refusals = [
        [{ ...body, amount: { amount: 50, currency: "USD" } }, "Enter an amount from 1.00 to 10000.00."],
        [{ ...body, expiresOn: "2001-01-01" }, M_EXPIRES],
        [
          { ...body, amount: { amount: 2_500, currency: "EUR" } },
          "A gift card is in the shop's currency, USD.",
        ],
      ] as const;
      for (const [refused, detail] of refusals) {
        const answer = await client.POST("/api/v1/admin/gift-cards", {
          params: { header: idempotency() },
          body: refused,
        });
        expect(answer.response.status).toBe(400);
        expect(JSON.stringify(answer.error)).toContain(detail);
      }
    });

    it("lists cards as the admin's list does, page by page, and reads one with its movements", async () => {
      const client = await clientWith(["refunds:read"]);
      const page = await callRoute(giftCardsRoute, "loader", `${TEST_ORIGIN}/admin/gift-cards`, {
        cookie: staff,
        context: shop.context(),
      });
      const listed = (page.data as unknown as Awaited<ReturnType<typeof giftCardsRoute.loader>>).cards;
      expect(listed.length).toBeGreaterThanOrEqual(2);
      const seen: number[] = [];
      let cursor: string | undefined;
      do {
        const answer = await client.GET("/api/v1/admin/gift-cards", {
          params: { query: { limit: 1, ...(cursor ? { cursor } : {}) } },
        });
        expect(answer.data!.data.length).toBeLessThanOrEqual(1);
        seen.push(...answer.data!.data.map((c) => c.id));
        cursor = answer.data!.nextCursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(listed.map((c) => c.id));
      const one = await client.GET("/api/v1/admin/gift-cards/{id}", { params: { path: { id: seen[0]! } } });
      expect(one.data).toMatchObject({
        id: seen[0],
        kind: "gift_card",
        initial: { amount: 2_500, currency: "USD" },
        balance: { amount: 2_500, currency: "USD" },
        message: "Enjoy",
        movements: [{ amount: { amount: 2_500, currency: "USD" }, reason: "issued", orderNumber: null }],
      });
      const missing = await client.GET("/api/v1/admin/gift-cards/{id}", {
        params: { path: { id: 999_999 } },
      });
      expect([missing.response.status, missing.error?.detail]).toEqual([
        404,
        "That gift card no longer exists.",
      ]);
      const writer = await clientWith(["refunds:read"]);
      const refused = await writer.POST("/api/v1/admin/gift-cards", {
        params: { header: idempotency() },
        body: { amount: { amount: 1_000, currency: "USD" } },
      });
      expect(refused.response.status).toBe(403);
    });
  });
  describe("settings", () => {
    it("reads the settings the owner saved on the settings page, and nothing secret", async () => {
      const url = `${TEST_ORIGIN}/admin/settings`;
      const loaded = await callRoute(settingsRoute, "loader", url, {
        cookie: staff,
        context: shop.context(),
      });
      const { values } = loaded.data as unknown as Awaited<ReturnType<typeof settingsRoute.loader>>;
      const saved = await callRoute(settingsRoute, "action", url, {
        cookie: staff,
        fields: {
          ...(values as unknown as Record<string, string>),
          shopName: "Cartwheel Outfitters",
          timeZone: "Europe/Berlin",
          legalName: "Cartwheel GmbH",
        },
        context: shop.context(),
      });
      expect(saved.response?.status).toBe(302);
      const client = await clientWith(["settings:read"]);
      const read = await client.GET("/api/v1/admin/settings");
      expect(read.response.status).toBe(200);
      const current = await shop.services.settings.current();
      expect(read.data).toMatchObject({
        shopName: "Cartwheel Outfitters",
        timeZone: "Europe/Berlin",
        currency: current.currency,
        contact: {
          email: current.contactEmail,
          phone: current.contactPhone,
          address: current.contactAddress,
        },
        tax: { mode: current.markets.taxMode, rounding: current.markets.rounding },
        legal: { name: "Cartwheel GmbH", address: current.legalAddress, taxId: current.taxId },
        socialLinks: current.socialLinks,
      });
      expect(read.data!.zones.map((zone) => zone.name)).toEqual(
        current.markets.zones.map((zone) => zone.name),
      );
      expect(Object.keys(read.data!).sort()).toEqual(
        [
          "contact",
          "currency",
          "estimateCountry",
          "legal",
          "shopName",
          "socialLinks",
          "tax",
          "timeZone",
          "zones",
        ].sort(),
      );
      expect(JSON.stringify(read.data)).not.toContain(shop.services.config.SESSION_SECRET);
    });
  });
});
