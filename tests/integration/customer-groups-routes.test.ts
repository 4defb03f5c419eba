import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrUpdateUser } from "../../app/domain/accounts/users.server.ts";
import * as groupsRoute from "../../app/routes/admin.customer-groups._index.tsx";
import * as groupRoute from "../../app/routes/admin.customer-groups.$id.tsx";
import * as importRoute from "../../app/routes/admin.customer-groups.$id_.import.tsx";
import * as customerRoute from "../../app/routes/admin.customers.$id.tsx";
import { ENGINES } from "../db-utils.ts";
import { cookieHeader } from "../helpers/account-fixtures.ts";
import { callRoute } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * Admin → Customer groups through the routes, on each engine: a group made from the list page,
 * customers added by e-mail (an unknown one refused beside the field, naming it), a CSV uploaded
 * (lines naming no customer listed on the import page), a rule saved, a member removed, the
 * customer's page listing their groups, and a group a promotion is for kept from deletion.
 */
describe.each(ENGINES)("customer group pages on %s", (engine) => {
  let shop: TestShop;
  let cookie = "";
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    shop = await createTestShop(engine);
    const { auth } = shop.services;
    for (const [email, role] of [
      ["boss@group-pages.example", "admin"],
      ["ada@group-pages.example", "customer"],
      ["bob@group-pages.example", "customer"],
    ] as const) {
      const created = await createOrUpdateUser(
        { auth, db: shop.db },
        { email, password: "correct horse", role },
      );
      if (!created.ok) throw new Error(email);
      ids[email] = created.value.userId;
    }
    const { headers } = await auth.api.signInEmail({
      body: { email: "boss@group-pages.example", password: "correct horse" },
      returnHeaders: true,
    });
    cookie = cookieHeader(headers);
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  const post = (
    module: typeof groupRoute | typeof groupsRoute,
    path: string,
    fields: Record<string, string>,
  ) =>
    callRoute(module, "action", `${TEST_ORIGIN}${path}`, {
      cookie,
      fields,
      params: { id: path.split("/")[3] ?? "" },
      context: shop.context(),
    });
  const page = async (id: number) => {
    const answer = await callRoute(groupRoute, "loader", `${TEST_ORIGIN}/admin/customer-groups/${id}`, {
      cookie,
      params: { id: String(id) },
      context: shop.context(),
    });
    return answer.data as unknown as Awaited<ReturnType<typeof groupRoute.loader>>;
  };

  it("makes a group, adds customers by e-mail and by CSV, saves a rule, removes a member", async () => {
    const refused = await post(groupsRoute, "/admin/customer-groups", { name: "" });
    expect(refused.status).toBe(400);
    const created = await post(groupsRoute, "/admin/customer-groups", { name: "Regulars", description: "" });
    const location = created.response?.headers.get("Location") ?? "";
    expect(location).toMatch(/^\/admin\/customer-groups\/\d+$/);
    const id = Number(location.split("/").pop());
    const here = `/admin/customer-groups/${id}`;
    const taken = await post(groupsRoute, "/admin/customer-groups", { name: "regulars", description: "" });
    expect(taken.status).toBe(409);

    const unknown = await post(groupRoute, here, {
      intent: "add",
      emails: "ada@group-pages.example, who@x.example",
    });
    expect(unknown.status).toBe(400);
    const reply = (unknown.data as unknown as { result: { error: Record<string, string[]> } }).result;
    expect(reply.error.emails).toEqual(["No customer has the e-mail who@x.example."]);
    const added = await post(groupRoute, here, { intent: "add", emails: "ADA@group-pages.example" });
    expect(added.response?.status).toBe(302);
    expect((await page(id)).group.members.map((m) => [m.email, m.source])).toEqual([
      ["ada@group-pages.example", "Added by hand"],
    ]);

    // the CSV: streamed multipart, one known customer and a stranger
    const body = new FormData();
    body.set(
      "file",
      new File(["email\nbob@group-pages.example\nstranger@group-pages.example\n"], "list.csv", {
        type: "text/csv",
      }),
    );
    const request = new Request(`${TEST_ORIGIN}${here}/import`, {
      method: "POST",
      headers: { Cookie: cookie },
      body,
    });
    const imported = (await importRoute.action({
      request,
      params: { id: String(id) },
      context: shop.context(),
    } as never)) as { imported: string; problems: { line: number; message: string }[] };
    expect(imported).toEqual({
      imported: "1 customer added from the file; 1 line names no customer",
      problems: [{ line: 3, message: "no customer has the e-mail stranger@group-pages.example" }],
    });

    const badRule = await post(groupRoute, here, {
      intent: "save",
      name: "Regulars",
      description: "",
      spentOver: "lots",
    });
    expect(badRule.status).toBe(400);
    const saved = await post(groupRoute, here, {
      intent: "save",
      name: "Regulars",
      description: "Came back",
      spentOver: "500",
    });
    expect(saved.response?.status).toBe(302);
    const after = await page(id);
    expect(after.values).toEqual({ name: "Regulars", description: "Came back", spentOver: "500.00" });
    expect(after.group.rule).toBe("Customers who spent over $500.00 (placed orders, net of refunds)");
    expect(after.group.members.map((m) => [m.email, m.source])).toEqual([
      ["ada@group-pages.example", "Added by hand"],
      ["bob@group-pages.example", "Imported (CSV)"],
    ]);

    const customer = await callRoute(
      customerRoute,
      "loader",
      `${TEST_ORIGIN}/admin/customers/${ids["bob@group-pages.example"]}`,
      { cookie, params: { id: ids["bob@group-pages.example"]! }, context: shop.context() },
    );
    expect((customer.data as unknown as { groups: unknown }).groups).toEqual([
      { id, name: "Regulars", source: "Imported (CSV)" },
    ]);

    const removed = await post(groupRoute, here, {
      intent: "remove",
      userId: ids["bob@group-pages.example"]!,
    });
    expect(removed.response?.status).toBe(302);
    expect((await page(id)).group.memberCount).toBe(1);
  });

  it("keeps a group a promotion is for from deletion, and deletes it once none is", async () => {
    const created = await post(groupsRoute, "/admin/customer-groups", {
      name: "Staff picks",
      description: "",
    });
    const id = Number((created.response?.headers.get("Location") ?? "").split("/").pop());
    const here = `/admin/customer-groups/${id}`;
    const stamp = new Date().toISOString();
    const promotion = await shop.db
      .insertInto("promotions")
      .values({
        name: "Picks 10%",
        action: JSON.stringify({ type: "order-percent", basisPoints: 1_000 }),
        conditions: JSON.stringify([{ type: "customer-group", groupIds: [id] }]),
        createdAt: stamp,
        updatedAt: stamp,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect((await post(groupRoute, here, { intent: "delete" })).status).toBe(400);
    const inUse = await post(groupRoute, here, { intent: "delete", confirm: "yes" });
    expect(inUse.status).toBe(409);
    expect(
      (inUse.data as unknown as { result: { error: Record<string, string[]> } }).result.error[""],
    ).toEqual([
      "The group was not deleted: promotion Picks 10% is for this group. Take it out of their conditions first.",
    ]);
    await shop.db.deleteFrom("promotions").where("id", "=", promotion.id).execute();
    const deleted = await post(groupRoute, here, { intent: "delete", confirm: "yes" });
    expect(deleted.response?.headers.get("Location")).toBe("/admin/customer-groups");
    const gone = await callRoute(groupRoute, "loader", `${TEST_ORIGIN}${here}`, {
      cookie,
      params: { id: String(id) },
      context: shop.context(),
    });
    expect(gone.thrown).toBe(404);
  });
});
