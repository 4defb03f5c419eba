import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../app/api/api.server.ts";
import { API_RATE_WINDOW_MS } from "../../app/api/api-auth.server.ts";
import type { StaffActor } from "../../app/domain/audit/audit-log.server.ts";
import { getAdminProduct, listAdminProducts } from "../../app/domain/catalog/admin/product-list.server.ts";
import { loadListing } from "../../app/domain/catalog/listing-page.server.ts";
import {
  type ApiKeyInput,
  createApiKey,
  listApiKeys,
  revokeApiKey,
} from "../../app/domain/integrations/api-keys.server.ts";
import { listAdminOrders, ORDER_ADMIN_MESSAGES } from "../../app/domain/orders/order-admin.server.ts";
import { getOrderByNumber } from "../../app/domain/orders/orders.server.ts";
import { hitRateLimit } from "../../app/infra/rate-limit.server.ts";
import { cartwheelClient } from "../../clients/typescript/client.ts";
import { ENGINES } from "../db-utils.ts";
import { insertOrder } from "../helpers/account-fixtures.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { createTestShop, type TestShop } from "../helpers/test-shop.ts";

const OWNER: StaffActor = { id: "owner-1", email: "owner@example.com", role: "owner" };
const ADMIN: StaffActor = { id: "admin-1", email: "admin@example.com", role: "admin" };

describe.each(ENGINES)("the REST API, on %s", (engine) => {
  let shop: TestShop;
  let api: ReturnType<typeof createApi>;
  const numbers: string[] = [];

  beforeAll(async () => {
    shop = await createTestShop(engine);
    api = createApi(async () => shop.services);
    for (let i = 0; i < 7; i++) {
      numbers.push(
        await insertOrder(shop.db, {
          userId: null,
          createdAt: new Date(Date.UTC(2026, 10, 1 + (i % 3), 12)).toISOString(),
          status: i % 2 ? "paid" : "shipped",
        }),
      );
    }
    for (let i = 0; i < 30; i++) await insertProduct(shop.db, { priceCents: 1_000 + i * 100 });
  });
  afterAll(async () => {
    await shop?.destroy();
  });

  async function keyFor(input: Partial<ApiKeyInput> = {}) {
    const made = await createApiKey(shop.db, {
      actor: OWNER,
      input: { name: "Warehouse", kind: "secret", scopes: ["orders:read"], expiresAt: null, ...input },
    });
    if (!made.ok) throw new Error(made.error.code);
    return made.value;
  }
  const get = (path: string, secret?: string) =>
    api.request(`/api/v1${path}`, { headers: secret ? { Authorization: `Bearer ${secret}` } : {} });
  async function problemOf(response: Response) {
    expect(response.headers.get("Content-Type")).toContain("application/problem+json");
    return (await response.json()) as { status: number; title: string; detail?: string; errors?: unknown[] };
  }

  it("serves an OpenAPI 3.1 document naming every operation, its key and its errors", async () => {
    const response = await get("/openapi.json");
    expect(response.status).toBe(200);
    const doc = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
      components: { securitySchemes: Record<string, { scheme: string }> };
    };
    expect(doc.openapi).toBe("3.1.0");
    const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
    const ids = operations.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        "changeStock",
        "getOrder",
        "getProduct",
        "listOrders",
        "listProducts",
        "shipOrder",
        "deliverOrder",
        "createProduct",
        "updateProduct",
        "updateVariant",
        "setProductOptions",
        "setStockLevels",
        "listStoreProducts",
        "createCart",
        "getCart",
        "addCartLine",
        "setCartLineQuantity",
        "applyCartCode",
        "removeCartCode",
        "quoteCart",
        "createPaymentToken",
        "checkoutCart",
        "trackOrder",
      ]),
    );
    for (const op of operations) {
      expect(Object.keys(op.responses)).toContain("401");
      expect(Object.keys(op.responses).some((status) => /^2\d\d$/.test(status))).toBe(true);
    }
    expect(doc.components.securitySchemes.apiKey?.scheme).toBe("bearer");
  });

  it("shows a key's secret once and keeps only its hash; only the owner makes or revokes keys", async () => {
    const { key, secret } = await keyFor({ name: "Accounting" });
    expect(secret).toMatch(/^cw_sk_[A-Za-z0-9_-]{43}$/);
    expect(secret.startsWith(key.prefix)).toBe(true);
    const stored = await shop.db
      .selectFrom("apiKeys")
      .selectAll()
      .where("id", "=", key.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect((await listApiKeys(shop.db)).find((k) => k.id === key.id)?.scopes).toEqual(["orders:read"]);
    const refused = await createApiKey(shop.db, {
      actor: ADMIN,
      input: { name: "Sneaky", kind: "secret", scopes: ["orders:write"], expiresAt: null },
    });
    expect(refused).toEqual({ ok: false, error: { code: "forbidden" } });
    expect(await revokeApiKey(shop.db, { id: key.id, actor: ADMIN })).toEqual({
      ok: false,
      error: { code: "forbidden" },
    });
    const audit = await shop.db
      .selectFrom("auditLog")
      .select(["action", "actorEmail"])
      .where("entityType", "=", "api_key")
      .where("entityId", "=", String(key.id))
      .execute();
    expect(audit).toEqual([{ action: "api_key.create", actorEmail: OWNER.email }]);
  });

  it("refuses every operation without a working key (401) and without the scope (403)", async () => {
    const orders = await keyFor();
    const products = await keyFor({ scopes: ["products:read"] });
    const publishable = await keyFor({ kind: "publishable", scopes: ["orders:write"] });
    const expired = await keyFor({ expiresAt: new Date(Date.now() - 1_000) });
    const revoked = await keyFor();
    expect((await revokeApiKey(shop.db, { id: revoked.key.id, actor: OWNER })).ok).toBe(true);
    expect(publishable.key.scopes).toEqual([]);
    const paths = ["/admin/orders", `/admin/orders/${numbers[0]}`, "/store/products"];
    for (const path of paths) {
      for (const [secret, detail] of [
        [undefined, "Send an API key as Authorization: Bearer <key>."],
        ["cw_sk_not-a-key", "This API key is not valid."],
        ["Basic abc", "This API key is not valid."],
        [expired.secret, "This API key has expired."],
        [revoked.secret, "This API key has been revoked."],
      ] as const) {
        const response = await get(path, secret);
        expect(response.status, `${path} ${secret}`).toBe(401);
        expect(response.headers.get("WWW-Authenticate")).toContain("Bearer");
        expect((await problemOf(response)).detail).toBe(detail);
      }
    }
    for (const path of paths.slice(0, 2)) {
      const wrongScope = await get(path, products.secret);
      expect(wrongScope.status).toBe(403);
      expect((await problemOf(wrongScope)).detail).toBe("This API key lacks the orders:read scope.");
      const store = await get(path, publishable.secret);
      expect(store.status).toBe(403);
      expect((await problemOf(store)).detail).toBe("A publishable key reaches the Store API only.");
      expect((await get(path, orders.secret)).status).toBe(200);
    }
    // the Store API takes either kind
    expect((await get("/store/products", publishable.secret)).status).toBe(200);
    expect((await get("/store/products", orders.secret)).status).toBe(200);
    // used: its last use is shown
    const used = (await listApiKeys(shop.db)).find((k) => k.id === orders.key.id);
    expect(used?.lastUsedAt).not.toBeNull();
  });

  it("pages the orders by cursor in the admin list's order and filters, each order as the order page reads it (typed client)", async () => {
    const { secret } = await keyFor();
    const client = cartwheelClient({
      baseUrl: "http://shop.test",
      apiKey: secret,
      fetch: async (request) => api.request(request),
    });
    for (const sort of ["newest", "oldest", "total-desc"] as const) {
      for (const status of [undefined, "paid"] as const) {
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const { data, response } = await client.GET("/api/v1/admin/orders", {
            params: {
              query: { limit: 2, sort, ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) },
            },
          });
          expect(response.status).toBe(200);
          expect(data!.data.length).toBeLessThanOrEqual(2);
          seen.push(...data!.data.map((o) => o.number));
          cursor = data!.nextCursor ?? undefined;
        } while (cursor);
        const listed = await listAdminOrders(shop.db, { sort, status: status ?? null, limit: 100 });
        expect(seen, `${sort} ${status}`).toEqual(listed.orders.map((o) => o.number));
      }
    }
    const { data: order } = await client.GET("/api/v1/admin/orders/{number}", {
      params: { path: { number: numbers[1]! } },
    });
    const page = await getOrderByNumber(shop.db, numbers[1]!);
    expect(order!.total).toEqual({ amount: page!.totals.totalCents, currency: page!.currency });
    expect(order!.items.map((item) => [item.name, item.quantity])).toEqual(
      page!.items.map((item) => [item.name, item.quantity]),
    );
    const missing = await client.GET("/api/v1/admin/orders/{number}", {
      params: { path: { number: "CW-NOSUCH" } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ status: 404, detail: "No order has that number." });
  });

  it("pages the products as the admin's list does, each product with its variants as its edit page reads it", async () => {
    const { secret } = await keyFor({ scopes: ["products:read"] });
    for (const sort of ["newest", "price-desc", "name"] as const) {
      const ids: number[] = [];
      let cursor: string | null = null;
      do {
        const query = new URLSearchParams({ limit: "7", sort, ...(cursor ? { cursor } : {}) });
        const response = await get(`/admin/products?${query}`, secret);
        expect(response.status).toBe(200);
        const page = (await response.json()) as { data: { id: number }[]; nextCursor: string | null };
        ids.push(...page.data.map((p) => p.id));
        cursor = page.nextCursor;
      } while (cursor);
      const listed = await listAdminProducts(shop.db, { sort, pageSize: 100 });
      expect(ids, sort).toEqual(listed.products.map((p) => p.id));
    }
    const id = (await listAdminProducts(shop.db)).products[0]!.id;
    const response = await get(`/admin/products/${id}`, secret);
    const product = (await response.json()) as { name: string; variants: { sku: string; stock: number }[] };
    const page = await getAdminProduct(shop.db, id);
    expect(product.name).toBe(page!.name);
    expect(product.variants).toEqual(
      page!.variants.map((v) => expect.objectContaining({ sku: v.sku, stock: v.stock })),
    );
    expect((await get("/admin/products/999999", secret)).status).toBe(404);
  });

  it("ships an order as the order page does, audited under the key's name; an Idempotency-Key answers once", async () => {
    const { key, secret } = await keyFor({ name: "Warehouse", scopes: ["orders:write"] });
    const number = await insertOrder(shop.db, {
      userId: null,
      createdAt: "2026-11-20T10:00:00.000Z",
      status: "paid",
    });
    const ship = (idempotencyKey: string | null, body: unknown) =>
      api.request(`/api/v1/admin/orders/${number}/shipment`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${secret}`,
          "Content-Type": "application/json",
          ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}),
        },
        body: JSON.stringify(body),
      });
    const missing = await ship(null, { carrier: "ups", trackingNumber: "1Z999AA10123456784" });
    expect(missing.status).toBe(400);
    expect((await problemOf(missing)).detail).toContain("Idempotency-Key");

    const first = await ship("ship-1", { carrier: "ups", trackingNumber: "1Z999AA10123456784" });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ number, status: "shipped" });
    const order = await getOrderByNumber(shop.db, number);
    expect(order?.status).toBe("shipped");
    expect(order?.tracking).toMatchObject({ carrier: "UPS", number: "1Z999AA10123456784" });
    // sent again: the same answer, nothing done twice
    const again = await ship("ship-1", { carrier: "ups", trackingNumber: "1Z999AA10123456784" });
    expect(again.status).toBe(200);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual({ number, status: "shipped" });
    const audit = await shop.db
      .selectFrom("auditLog")
      .select(["actorEmail", "action"])
      .where("entityId", "=", number)
      .execute();
    expect(audit).toEqual([{ actorEmail: "API key Warehouse", action: "order.transition" }]);
    // the same key with another request; a new key: the order's state refuses it
    const other = await ship("ship-1", { carrier: "fedex" });
    expect(other.status).toBe(422);
    const twice = await ship("ship-2", {});
    expect(twice.status).toBe(409);
    expect((await problemOf(twice)).detail).toBe("This order is shipped and cannot become shipped.");
    // a bad body: 400 beside the field; a read-only key: 403
    const bad = await ship("ship-3", { carrier: "pigeon", extra: 1 });
    expect(bad.status).toBe(400);
    const reader = await keyFor({ scopes: ["orders:read"] });
    const refused = await api.request(`/api/v1/admin/orders/${number}/shipment`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${reader.secret}`,
        "Idempotency-Key": "r-1",
        "Content-Type": "application/json",
      },
      body: "{}",
    });
    expect(refused.status).toBe(403);
    expect(key.scopes).toEqual(["orders:write"]);
  });

  it("marks a shipped order delivered as the order page's button does; a paid one cannot skip shipping", async () => {
    const { secret } = await keyFor({ name: "Courier", scopes: ["orders:write"] });
    const deliver = (number: string) =>
      api.request(`/api/v1/admin/orders/${number}/delivery`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${secret}`,
          "Content-Type": "application/json",
          "Idempotency-Key": randomUUID(),
        },
        body: "{}",
      });
    const shipped = await insertOrder(shop.db, {
      userId: null,
      createdAt: "2026-11-20T10:00:00.000Z",
      status: "shipped",
    });
    const answer = await deliver(shipped);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ number: shipped, status: "delivered" });
    expect((await getOrderByNumber(shop.db, shipped))?.status).toBe("delivered");
    const paid = await insertOrder(shop.db, {
      userId: null,
      createdAt: "2026-11-20T10:00:00.000Z",
      status: "paid",
    });
    const skipped = await deliver(paid);
    expect(skipped.status).toBe(409);
    expect((await problemOf(skipped)).detail).toBe(ORDER_ADMIN_MESSAGES.notAllowed("paid", "delivered"));
    expect((await getOrderByNumber(shop.db, paid))?.status).toBe("paid");
  });

  it("changes stock as the product page does, in the ledger and under the key's name, once per Idempotency-Key", async () => {
    const { secret } = await keyFor({ name: "Warehouse sync", scopes: ["products:write"] });
    const id = await insertProduct(shop.db, { stock: 5 });
    const change = (idempotencyKey: string, body: unknown) =>
      api.request(`/api/v1/admin/products/${id}/stock`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${secret}`,
          "Content-Type": "application/json",
          "Idempotency-Key": idempotencyKey,
        },
        body: JSON.stringify(body),
      });
    const first = await change("stock-1", { delta: 7 });
    expect([first.status, await first.json()]).toEqual([200, { before: 5, after: 12 }]);
    // the same request again: the first answer, the stock changed once
    const again = await change("stock-1", { delta: 7 });
    expect([again.status, again.headers.get("Idempotent-Replayed"), await again.json()]).toEqual([
      200,
      "true",
      { before: 5, after: 12 },
    ]);
    expect((await getAdminProduct(shop.db, id))?.stock).toBe(12);
    const ledger = await shop.db
      .selectFrom("stockMovements")
      .select(["delta", "reason"])
      .where("productId", "=", id)
      .where("reason", "=", "admin_adjust")
      .execute();
    expect(ledger).toEqual([{ delta: 7, reason: "admin_adjust" }]);
    const audit = await shop.db
      .selectFrom("auditLog")
      .select(["actorEmail", "action"])
      .where("entityType", "=", "product")
      .where("entityId", "=", String(id))
      .execute();
    expect(audit).toEqual([{ actorEmail: "API key Warehouse sync", action: "product.stock" }]);
    // below 0: refused with the page's message; 0 and a float: 400
    const negative = await change("stock-2", { delta: -13 });
    expect(negative.status).toBe(409);
    expect((await problemOf(negative)).detail).toBe("Stock cannot go below 0.");
    expect((await change("stock-3", { delta: 0 })).status).toBe(400);
    expect((await change("stock-4", { delta: 1.5 })).status).toBe(400);
    expect((await getAdminProduct(shop.db, id))?.stock).toBe(12);
  });

  it("answers malformed parameters with 400 and the field's message, never a 5xx", async () => {
    const { secret } = await keyFor();
    for (const query of [
      "limit=0",
      "limit=101",
      "limit=abc",
      "status=lost",
      "sort=sideways",
      "from=yesterday",
      "cursor=%%%",
      "cursor=eyJ2YWx1ZSI6W119",
      `search=${"x".repeat(300)}`,
    ]) {
      const response = await get(`/admin/orders?${query}`, secret);
      expect(response.status, query).toBe(400);
      const body = await problemOf(response);
      expect(body.status).toBe(400);
    }
    const invalid = await problemOf(await get("/admin/orders?limit=0", secret));
    expect(invalid.errors).toEqual([{ field: "limit", message: expect.any(String) }]);
    for (const query of ["rating=9", "sort=cheapest", "category=boats", "cursor=e30"]) {
      expect((await get(`/store/products?${query}`, secret)).status, query).toBe(400);
    }
    expect((await get("/admin/nothing", secret)).status).toBe(404);
  });

  it("lists the catalogue as the /products page does, page by page", async () => {
    const { secret } = await keyFor({ kind: "publishable" });
    for (const query of ["", "sort=price-desc", "category=electronics&sort=price-asc&minPrice=15"]) {
      const ids: number[] = [];
      let cursor: string | null = null;
      let total = 0;
      do {
        const params = new URLSearchParams(query);
        if (cursor) params.set("cursor", cursor);
        const response = await get(`/store/products?${params}`, secret);
        expect(response.status).toBe(200);
        const page = (await response.json()) as {
          data: { id: number; price: { currency: string } }[];
          total: number;
          nextCursor: string | null;
        };
        ids.push(...page.data.map((p) => p.id));
        total = page.total;
        cursor = page.nextCursor;
      } while (cursor);
      const pages: number[] = [];
      for (let n = 1; ; n++) {
        const params = new URLSearchParams(query);
        params.set("page", String(n));
        const { result } = await loadListing(shop.db, params, {
          path: "/products",
          title: "",
          description: "",
        });
        pages.push(...result.products.map((p) => p.id));
        if (n >= result.pageCount) break;
      }
      expect(ids, query).toEqual(pages);
      expect(ids).toHaveLength(total);
    }
  });

  it("answers a read with an ETag, and 304 to If-None-Match while it is unchanged", async () => {
    const { secret } = await keyFor();
    const first = await get(`/admin/orders/${numbers[2]}`, secret);
    const tag = first.headers.get("ETag");
    expect(tag).toMatch(/^W\/"/);
    expect(first.headers.get("Cache-Control")).toBe("private, no-cache");
    const again = await api.request(`/api/v1/admin/orders/${numbers[2]}`, {
      headers: { Authorization: `Bearer ${secret}`, "If-None-Match": tag! },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    await shop.db
      .updateTable("orders")
      .set({ status: "delivered" })
      .where("number", "=", numbers[2]!)
      .execute();
    const changed = await api.request(`/api/v1/admin/orders/${numbers[2]}`, {
      headers: { Authorization: `Bearer ${secret}`, "If-None-Match": tag! },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(tag);
  });

  it("stops a key past its rate limit with 429 and Retry-After, shared through the database", async () => {
    const { key, secret } = await keyFor();
    // the configured limit (API_RATE_LIMIT_PER_MINUTE: 600 unless set) spent by "another process"
    const limit = { limit: shop.services.config.API_RATE_LIMIT_PER_MINUTE, windowMs: API_RATE_WINDOW_MS };
    expect(limit.limit).toBe(600);
    for (let i = 0; i < limit.limit; i++) await hitRateLimit(shop.db, `api-key:${key.id}`, limit);
    const response = await get("/admin/orders", secret);
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
    // another key is not held back
    expect((await get("/admin/orders", (await keyFor()).secret)).status).toBe(200);
  });
});
