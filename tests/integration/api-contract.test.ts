import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../app/api/api.server.ts";
import type { StaffActor } from "../../app/domain/audit/audit-log.server.ts";
import {
  type ApiKeyInput,
  createApiKey,
  revokeApiKey,
} from "../../app/domain/integrations/api-keys.server.ts";
import { API_SCOPES, type ApiScope } from "../../app/lib/api-scopes.ts";
import { ENGINES } from "../db-utils.ts";
import { insertOrder } from "../helpers/account-fixtures.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { createTestShop, type TestShop } from "../helpers/test-shop.ts";

/**
 * Contract tests generated from the API's own OpenAPI document (issue 32): every operation it lists
 * × every way to be refused (no key, a key unknown, revoked or expired — 401; the wrong scope, or a
 * publishable key on the Admin API — 403) and with the scope it names (`x-scope`) — 200; then a fuzz
 * of every operation with malformed parameters: each answer is one the operation documents, and
 * never a 5xx. A POST is sent with a new Idempotency-Key and a valid body (the sample order is paid,
 * so the one allowed call ships it). A new operation is covered by being in the document.
 */
const OWNER: StaffActor = { id: "owner-1", email: "owner@example.com", role: "owner" };

type Operation = {
  id: string;
  method: string;
  path: string;
  scope: string;
  /** scopes it needs besides its own (`x-scope-also`): cancelling an order also refunds it */
  scopeAlso: string[];
  responses: string[];
  parameters: { name: string; in: "query" | "path" | "header" }[];
};

describe.each(ENGINES)("the API's contract, from its document, on %s", (engine) => {
  let shop: TestShop;
  let api: ReturnType<typeof createApi>;
  let operations: Operation[] = [];
  const samples: Record<string, string> = {};
  /** path values of an operation whose sample is not the shared one (by operationId) */
  const samplesOf: Record<string, Record<string, string>> = {};

  beforeAll(async () => {
    shop = await createTestShop(engine);
    api = createApi(async () => shop.services);
    samples.number = await insertOrder(shop.db, { userId: null, createdAt: "2026-11-01T12:00:00.000Z" });
    samples.id = String(await insertProduct(shop.db));
    // refunding and cancelling need paid orders of their own: the shared one is shipped by then
    for (const id of ["refundOrder", "cancelOrder"]) {
      samplesOf[id] = {
        number: await insertOrder(shop.db, { userId: null, createdAt: "2026-11-01T12:00:00.000Z" }),
      };
    }
    const doc = (await (await api.request("/api/v1/openapi.json")).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            operationId: string;
            "x-scope": string;
            "x-scope-also"?: string[];
            responses: Record<string, unknown>;
            parameters?: Operation["parameters"];
          }
        >
      >;
    };
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        scope: op["x-scope"],
        scopeAlso: op["x-scope-also"] ?? [],
        responses: Object.keys(op.responses),
        parameters: op.parameters ?? [],
      })),
    );
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  async function key(input: Partial<ApiKeyInput>) {
    const made = await createApiKey(shop.db, {
      actor: OWNER,
      input: { name: "Contract", kind: "secret", scopes: [], expiresAt: null, ...input },
    });
    if (!made.ok) throw new Error(made.error.code);
    return made.value;
  }
  const urlOf = (op: Operation, path: Record<string, string> = { ...samples, ...samplesOf[op.id] }) =>
    op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(path[name] ?? "x"));
  /** a valid body for each POST (an operation not named here takes an empty object) */
  const BODIES: Record<string, unknown> = {
    changeStock: { delta: 1 },
    refundOrder: { amount: { amount: 1, currency: "USD" } },
  };
  /** the operation called as documented: a POST with a new Idempotency-Key and its JSON body */
  const call = (op: Operation, secret: string | null, url = urlOf(op)) =>
    api.request(url, {
      method: op.method,
      headers: {
        ...(secret ? { Authorization: `Bearer ${secret}` } : {}),
        ...(op.method === "POST"
          ? { "Idempotency-Key": randomUUID(), "Content-Type": "application/json" }
          : {}),
      },
      ...(op.method === "POST" ? { body: JSON.stringify(BODIES[op.id] ?? {}) } : {}),
    });

  it("lists every operation with its scope and its documented refusals", () => {
    expect(operations.length).toBeGreaterThanOrEqual(5);
    for (const op of operations) {
      expect(op.scope === "store" || API_SCOPES.includes(op.scope as ApiScope), `${op.path}`).toBe(true);
      expect(op.responses, op.path).toEqual(expect.arrayContaining(["200", "400", "401", "429"]));
      if (op.scope !== "store") expect(op.responses, op.path).toContain("403");
    }
  });

  it("refuses every operation without a working key, and without its scope; answers it with the scope", async () => {
    const revoked = await key({ scopes: [...API_SCOPES] });
    await revokeApiKey(shop.db, { id: revoked.key.id, actor: OWNER });
    const expired = await key({ scopes: [...API_SCOPES], expiresAt: new Date(Date.now() - 1) });
    const publishable = await key({ kind: "publishable" });
    for (const op of operations) {
      for (const secret of [null, "cw_sk_unknown", revoked.secret, expired.secret]) {
        expect((await call(op, secret)).status, `${op.method} ${op.path} ${secret}`).toBe(401);
      }
      if (op.scope === "store") {
        expect((await call(op, publishable.secret)).status, op.path).toBe(200);
        continue;
      }
      const [area] = op.scope.split(":");
      const others = await key({ scopes: API_SCOPES.filter((scope) => !scope.startsWith(`${area}:`)) });
      const refused = await call(op, others.secret);
      expect(refused.status, `${op.path} without ${op.scope}`).toBe(403);
      expect(refused.headers.get("Content-Type")).toContain("application/problem+json");
      expect((await call(op, publishable.secret)).status, op.path).toBe(403);
      const allowed = await key({ scopes: [op.scope, ...op.scopeAlso] as ApiScope[] });
      expect((await call(op, allowed.secret)).status, `${op.path} with ${op.scope}`).toBe(200);
    }
  });

  it("answers malformed parameters on every operation with a documented 4xx, never a 5xx", async () => {
    const all = await key({ scopes: [...API_SCOPES] });
    const hostile = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: "grapheme", maxLength: 20 }),
      fc.integer().map(String),
      fc.double().map(String),
      fc.constantFrom(
        "",
        " ",
        "-1",
        "0",
        "1e999",
        "NaN",
        "null",
        "[]",
        "{}",
        "%00",
        "'; drop table orders; --",
        "x".repeat(5_000),
      ),
    );
    for (const op of operations) {
      const names = op.parameters.filter((p) => p.in === "query").map((p) => p.name);
      const pathNames = op.parameters.filter((p) => p.in === "path").map((p) => p.name);
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.constantFrom(...names, "unknown"), hostile), { maxLength: 6 }),
          fc.array(hostile, { minLength: pathNames.length, maxLength: pathNames.length }),
          async (query, pathValues) => {
            const params = new URLSearchParams();
            for (const [name, value] of query) params.append(name, value);
            const path = urlOf(
              op,
              Object.fromEntries(pathNames.map((name, i) => [name, pathValues[i] || "x"])),
            );
            const response = await call(op, all.secret, `${path}?${params}`);
            expect(response.status, `${op.method} ${path}?${params}`).toBeLessThan(500);
            expect(op.responses, `${op.method} ${path}?${params} → ${response.status}`).toContain(
              String(response.status),
            );
          },
        ),
        { numRuns: 40 },
      );
    }
  });
});
