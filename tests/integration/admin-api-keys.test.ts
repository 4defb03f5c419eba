import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../app/api/api.server.ts";
import { API_KEY_MESSAGES as M } from "../../app/domain/integrations/api-key-form.ts";
import { listApiKeys } from "../../app/domain/integrations/api-keys.server.ts";
import * as route from "../../app/routes/admin.api-keys.tsx";
import { ENGINES } from "../db-utils.ts";
import { signedInStaff } from "../helpers/account-fixtures.ts";
import { callRoute } from "../helpers/route-harness.ts";
import { createTestShop, TEST_ORIGIN, type TestShop } from "../helpers/test-shop.ts";

/**
 * Admin → API keys (decision 038) as the owner's browser uses it: a key made (its secret on that
 * answer only, never in the list), refused forms beside their fields with nothing stored, a revoke
 * that needs its confirmation, and the API refusing the key from then on.
 */
describe.each(ENGINES)("Admin → API keys on %s", (engine) => {
  let shop: TestShop;
  let owner = "";
  const URL = `${TEST_ORIGIN}/admin/api-keys`;

  beforeAll(async () => {
    shop = await createTestShop(engine);
    owner = await signedInStaff(shop, "owner@keys.example");
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  const post = (fields: Record<string, string>) =>
    callRoute(route, "action", URL, { cookie: owner, fields, context: shop.context() });
  const page = async () =>
    (await callRoute(route, "loader", URL, { cookie: owner, context: shop.context() }))
      .data as unknown as Awaited<ReturnType<typeof route.loader>>;
  const errorsOf = (answer: Awaited<ReturnType<typeof post>>) =>
    (answer.data as unknown as { result: { error: Record<string, string[]> } }).result.error;

  it("refuses a key without a name, a secret key without a scope and a day gone by, storing nothing", async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ intent: "create", name: "", kind: "secret", scopes: "orders:read" }, "name", M.name],
      [{ intent: "create", name: "Warehouse", kind: "secret" }, "scopes", M.scopes],
      [
        {
          intent: "create",
          name: "Warehouse",
          kind: "secret",
          scopes: "orders:read",
          expiresOn: "2020-01-01",
        },
        "expiresOn",
        M.expiresOn,
      ],
      // a scope that does not exist (only a crafted form sends one): the form's own message
      [{ intent: "create", name: "Warehouse", kind: "secret", scopes: "orders:launch" }, "", M.invalid],
    ];
    for (const [fields, field, message] of cases) {
      const answer = await post(fields);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(errorsOf(answer)[field]).toEqual([message]);
    }
    expect(await listApiKeys(shop.db)).toEqual([]);
  });

  it("makes a key, shows its secret once, and a confirmed revoke stops it on the API", async () => {
    const made = await post({ intent: "create", name: "Warehouse", kind: "secret", scopes: "orders:write" });
    const created = (made.data as unknown as { created: { name: string; secret: string } }).created;
    expect(created.name).toBe("Warehouse");
    const listed = await page();
    const key = listed.keys.find((k) => k.name === "Warehouse")!;
    expect(key.scopes).toEqual(["orders:write"]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    const api = createApi(async () => shop.services);
    const call = () =>
      api.request("/api/v1/admin/orders", { headers: { Authorization: `Bearer ${created.secret}` } });
    expect((await call()).status).toBe(200);

    // not confirmed: nothing revoked
    const unconfirmed = await post({ intent: "revoke", id: String(key.id) });
    expect(unconfirmed.status).toBe(400);
    expect(errorsOf(unconfirmed)[""]).toEqual([M.unconfirmed]);
    expect((await call()).status).toBe(200);

    const revoked = await post({ intent: "revoke", id: String(key.id), confirm: "yes" });
    expect(revoked.response?.status).toBe(302);
    expect((await call()).status).toBe(401);
    expect((await page()).keys.find((k) => k.id === key.id)?.revoked).not.toBeNull();
    // again: already revoked; an unknown key: not found
    expect((await post({ intent: "revoke", id: String(key.id), confirm: "yes" })).status).toBe(409);
    expect((await post({ intent: "revoke", id: "999999", confirm: "yes" })).status).toBe(404);
  });

  it("makes a publishable key without scopes, whatever scopes the form sent", async () => {
    await post({ intent: "create", name: "Mobile app", kind: "publishable", scopes: "orders:write" });
    const key = (await listApiKeys(shop.db)).find((k) => k.name === "Mobile app");
    expect(key).toMatchObject({ kind: "publishable", scopes: [] });
  });
});
