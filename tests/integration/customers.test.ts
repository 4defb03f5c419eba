import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import * as account from "../../app/routes/account.tsx";
import * as customersRoute from "../../app/routes/admin.customers._index.tsx";
import * as customerRoute from "../../app/routes/admin.customers.$id.tsx";
import { ENGINES } from "../db-utils.ts";
import { cookieHeader, insertOrder } from "../helpers/account-fixtures.ts";
import { callRoute, Jar, postForm } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * Customers in the back office (issue 20), through the routes on each engine: the list with search,
 * order count and total spent (net of refunds, placed orders only), the detail, and disabling an
 * account — signed out everywhere, refused at sign-in with its own message — and enabling it again.
 */
describe.each(ENGINES)("customers on %s", (engine) => {
  let shop: TestShop;
  let adminCookie = "";
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    shop = await createTestShop(engine);
    const { auth } = shop.services;
    for (const [email, role] of [
      ["boss@customers.example", "admin"],
      ["grace.hopper@customers.example", "customer"],
      ["alan@customers.example", "customer"],
      ["packer@customers.example", "staff"],
    ] as const) {
      const created = await createOrUpdateUser(
        { auth, db: shop.db },
        { email, password: "correct horse", role },
      );
      if (!created.ok) throw new Error(email);
      ids[email] = created.value.userId;
    }
    const { headers } = await auth.api.signInEmail({
      body: { email: "boss@customers.example", password: "correct horse" },
      returnHeaders: true,
    });
    adminCookie = cookieHeader(headers);
    const grace = ids["grace.hopper@customers.example"]!;
    await insertOrder(shop.db, { userId: grace, createdAt: "2026-11-01T10:00:00.000Z" }); // $38.00
    const refunded = await insertOrder(shop.db, { userId: grace, createdAt: "2026-11-02T10:00:00.000Z" });
    await shop.db
      .updateTable("orders")
      .set({ refundedCents: 800, status: "partially_refunded" })
      .where("number", "=", refunded)
      .execute();
    await insertOrder(shop.db, {
      userId: grace,
      createdAt: "2026-11-03T10:00:00.000Z",
      status: "payment_failed",
    });
  });

  afterAll(async () => {
    await shop?.destroy();
  });

  const list = async (search = "") => {
    const answer = await callRoute(
      customersRoute,
      "loader",
      `${TEST_ORIGIN}/admin/customers?search=${encodeURIComponent(search)}`,
      { cookie: adminCookie, context: shop.context() },
    );
    return (
      answer.data as unknown as { customers: { email: string; orderCount: number; spentCents: number }[] }
    ).customers.map(({ email, orderCount, spentCents }) => ({ email, orderCount, spentCents }));
  };

  it("lists customers only (no staff), with placed orders counted and refunds taken off; search by name or e-mail", async () => {
    const all = await list();
    expect(all.map((c) => c.email).sort()).toEqual([
      "alan@customers.example",
      "grace.hopper@customers.example",
    ]);
    expect(all).toContainEqual({
      email: "grace.hopper@customers.example",
      orderCount: 2,
      spentCents: 3_800 + 3_000,
    });
    expect(all).toContainEqual({ email: "alan@customers.example", orderCount: 0, spentCents: 0 });
    expect((await list("GRACE")).map((c) => c.email)).toEqual(["grace.hopper@customers.example"]);
    expect(await list("100%_")).toEqual([]);
  });

  it("the detail shows the orders; a staff account or an unknown id is 404", async () => {
    const grace = ids["grace.hopper@customers.example"]!;
    const answer = await callRoute(customerRoute, "loader", `${TEST_ORIGIN}/admin/customers/${grace}`, {
      cookie: adminCookie,
      params: { id: grace },
      context: shop.context(),
    });
    const { customer } = answer.data as unknown as { customer: { orders: unknown[]; spentCents: number } };
    expect(customer.orders).toHaveLength(2);
    expect(customer.spentCents).toBe(6_800);
    for (const id of [ids["packer@customers.example"]!, "nobody", "../../etc"]) {
      const missing = await callRoute(customerRoute, "loader", `${TEST_ORIGIN}/admin/customers/x`, {
        cookie: adminCookie,
        params: { id },
        context: shop.context(),
      });
      expect(missing.thrown).toBe(404);
    }
  });

  it("disabling ends the customer's sessions and refuses sign-in with its message; enabling lets them in again", async () => {
    const email = "alan@customers.example";
    const alan = ids[email]!;
    const jar = new Jar();
    const signIn = () =>
      postForm(
        account,
        `${TEST_ORIGIN}/account`,
        { intent: "sign-in", email, password: "correct horse" },
        jar,
        shop.context(),
      );
    const status = (answer: unknown) =>
      answer instanceof Response
        ? answer.status
        : ((answer as { init?: { status?: number } }).init?.status ?? 200);
    expect(status(await signIn())).toBe(302);
    const act = (fields: Record<string, string>) =>
      callRoute(customerRoute, "action", `${TEST_ORIGIN}/admin/customers/${alan}`, {
        cookie: adminCookie,
        fields,
        params: { id: alan },
        context: shop.context(),
      });

    // unconfirmed: nothing happens
    expect((await act({ intent: "disable" })).status).toBe(400);
    expect(
      await shop.db.selectFrom("sessions").select("id").where("userId", "=", alan).execute(),
    ).not.toEqual([]);

    expect((await act({ intent: "disable", confirm: "yes" })).response?.status).toBe(302);
    expect(await shop.db.selectFrom("sessions").select("id").where("userId", "=", alan).execute()).toEqual(
      [],
    );
    const refused = await signIn();
    expect(status(refused)).toBe(401);
    expect(JSON.stringify(refused)).toContain("This account has been disabled.");
    expect(await shop.db.selectFrom("sessions").select("id").where("userId", "=", alan).execute()).toEqual(
      [],
    );

    expect((await act({ intent: "enable" })).response?.status).toBe(302);
    expect(status(await signIn())).toBe(302);
    const audit = await shop.db
      .selectFrom("auditLog")
      .select(["action", "actorEmail"])
      .where("entityId", "=", alan)
      .orderBy("id")
      .execute();
    expect(audit).toEqual([
      { action: "customer.disable", actorEmail: "boss@customers.example" },
      { action: "customer.enable", actorEmail: "boss@customers.example" },
    ]);
  });
});
