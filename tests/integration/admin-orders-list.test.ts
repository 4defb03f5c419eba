import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import { listAdminOrders } from "../../app/domain/orders/order-admin.server.ts";
import * as ordersRoute from "../../app/routes/admin.orders._index.tsx";
import { ENGINES } from "../db-utils.ts";
import { cookieHeader, insertOrder } from "../helpers/account-fixtures.ts";
import { readOutbox } from "../helpers/outbox.ts";
import { callRoute } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * The orders list (issue 20): filters by the day placed and the payment's state, sorting, and the
 * bulk "mark as shipped" through the route — paid orders ship (and their customers are e-mailed),
 * the others are named as refused; on each engine.
 */
describe.each(ENGINES)("the admin's orders list on %s", (engine) => {
  let shop: TestShop;
  let cookie = "";
  const n: Record<string, string> = {};

  beforeAll(async () => {
    shop = await createTestShop(engine);
    const { auth } = shop.services;
    await createOrUpdateUser(
      { auth, db: shop.db },
      { email: "packer@orders.example", password: "correct horse", role: "staff" },
    );
    const { headers } = await auth.api.signInEmail({
      body: { email: "packer@orders.example", password: "correct horse" },
      returnHeaders: true,
    });
    cookie = cookieHeader(headers);
    const item = (unitPriceCents: number) => [{ name: "Thing", quantity: 1, unitPriceCents }];
    n.early = await insertOrder(shop.db, {
      userId: null,
      createdAt: "2026-10-01T10:00:00.000Z",
      items: item(500),
    });
    n.mid = await insertOrder(shop.db, {
      userId: null,
      createdAt: "2026-10-15T10:00:00.000Z",
      items: item(9_000),
    });
    n.late = await insertOrder(shop.db, {
      userId: null,
      createdAt: "2026-10-31T23:00:00.000Z",
      items: item(2_000),
    });
    n.failed = await insertOrder(shop.db, {
      userId: null,
      createdAt: "2026-10-20T10:00:00.000Z",
      status: "payment_failed",
      items: item(100),
    });
    await shop.db
      .updateTable("orders")
      .set({ refundedCents: 1_000, status: "partially_refunded" })
      .where("number", "=", n.mid)
      .execute();
    await shop.db
      .updateTable("orders")
      .set({ disputedAt: "2026-11-01T00:00:00.000Z" })
      .where("number", "=", n.late)
      .execute();
  });

  afterAll(async () => {
    await shop?.destroy();
  });

  const numbers = async (query: Parameters<typeof listAdminOrders>[1]) =>
    (await listAdminOrders(shop.db, query)).orders.map((o) => o.number);

  it("filters by the day placed (both ends included) and the payment's state, and sorts", async () => {
    expect(await numbers({ from: "2026-10-15", to: "2026-10-31" })).toEqual([n.late, n.failed, n.mid]);
    expect(await numbers({ to: "2026-10-01" })).toEqual([n.early]);
    expect(await numbers({ payment: "refunded" })).toEqual([n.mid]);
    expect(await numbers({ payment: "disputed" })).toEqual([n.late]);
    expect(await numbers({ payment: "unpaid" })).toEqual([n.failed]);
    expect(await numbers({ sort: "total-desc" })).toEqual([n.mid, n.late, n.early, n.failed]);
    expect(await numbers({ sort: "oldest" })).toEqual([n.early, n.mid, n.failed, n.late]);
  });

  it("marks the selected paid orders as shipped and names the ones that cannot ship", async () => {
    const answer = await callRoute(ordersRoute, "action", `${TEST_ORIGIN}/admin/orders?index`, {
      cookie,
      fields: { number: n.early! },
      context: shop.context(),
    });
    expect(answer.response?.status).toBe(302);
    const form = new URLSearchParams();
    for (const number of [n.late!, n.failed!, n.early!]) form.append("number", number);
    const request = new Request(`${TEST_ORIGIN}/admin/orders?index`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
      body: form.toString(),
    });
    const bulk = (await ordersRoute.action({
      request,
      params: {},
      context: shop.context(),
    } as never)) as Response;
    expect(bulk.status).toBe(302);
    const status = async (number: string) =>
      (
        await shop.db
          .selectFrom("orders")
          .select("status")
          .where("number", "=", number)
          .executeTakeFirstOrThrow()
      ).status;
    expect(await status(n.early!)).toBe("shipped");
    expect(await status(n.late!)).toBe("shipped");
    expect(await status(n.failed!)).toBe("payment_failed");
    const mail = await readOutbox(shop.mailDir);
    expect(
      mail.filter((m) => m.subject.endsWith("has shipped")).map((m) => m.subject.split(" ").at(-3)),
    ).toEqual(expect.arrayContaining([n.early, n.late]));
    const empty = await callRoute(ordersRoute, "action", `${TEST_ORIGIN}/admin/orders?index`, {
      cookie,
      fields: {},
      context: shop.context(),
    });
    expect(empty.status).toBe(400);
  });
});
