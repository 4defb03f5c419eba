import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../app/api/api.server.ts";
import type { StaffActor } from "../../app/domain/audit/audit-log.server.ts";
import { createGroup } from "../../app/domain/customer-groups/customer-groups.server.ts";
import { issueGiftCard } from "../../app/domain/gift-cards/gift-cards.server.ts";
import {
  type ApiKeyInput,
  createApiKey,
  revokeApiKey,
} from "../../app/domain/integrations/api-keys.server.ts";
import { transitionOrder } from "../../app/domain/orders/orders.server.ts";
import { moveReturn, requestReturn } from "../../app/domain/returns/returns.server.ts";
import { API_SCOPES, type ApiScope } from "../../app/lib/api-scopes.ts";
import { ENGINES } from "../db-utils.ts";
import { insertOrder, insertUser } from "../helpers/account-fixtures.ts";
import { insertProduct } from "../helpers/catalog.ts";
import { insertCoupon } from "../helpers/coupons.ts";
import { png } from "../helpers/images.ts";
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
    // a return in the status each of the return page's buttons starts from
    samplesOf.getReturn = { number: await returnIn([]) };
    samplesOf.approveReturn = { number: await returnIn([]) };
    samplesOf.rejectReturn = { number: await returnIn([]) };
    samplesOf.receiveReturn = { number: await returnIn(["approved"]) };
    samplesOf.refundReturn = { number: await returnIn(["approved", "received"]) };
    samplesOf.getCustomer = { id: await insertUser(shop.db, "contract@customers.example") };
    const group = await createGroup(shop.db, { input: { name: "Contract", description: "" }, actor: OWNER });
    if (!group.ok) throw new Error(group.error.code);
    samplesOf.addCustomerGroupMembers = { id: String(group.value.id) };
    const promotion = await shop.db
      .insertInto("promotions")
      .values({
        name: "Contract",
        code: null,
        // disabled: it must not take its 10 % off the Store API's sample cart
        active: 0,
        action: JSON.stringify({ type: "order-percent", basisPoints: 1_000 }),
        conditions: "[]",
        createdAt: "2026-11-01T12:00:00.000Z",
        updatedAt: "2026-11-01T12:00:00.000Z",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    samplesOf.getPromotion = samplesOf.createPromotionCodes = { id: String(promotion.id) };
    const card = await issueGiftCard(shop.db, {
      input: {
        key: randomUUID(),
        amountCents: 1_000,
        currency: "USD",
        expiresAt: null,
        recipientEmail: null,
        recipientName: null,
        message: null,
      },
      actor: OWNER,
    });
    if (!card.ok) throw new Error(card.error.code);
    samplesOf.getGiftCard = { id: String(card.value.card.id) };
    await storeSamples();
    await catalogueSamples();
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

  /** query values an operation needs (by operationId) */
  const QUERIES: Record<string, Record<string, string>> = {};

  /**
   * The Store API's cart: one guest cart holding one product and a code that applies, priced for an
   * address; its checkout's body carries the test gateway's token and that total (the checkout, one
   * of the last operations, empties it); another order placed through it is the one tracked.
   */
  async function storeSamples() {
    const buyer = await key({ kind: "publishable" });
    const send = async (path: string, body?: unknown) => {
      const response = await api.request(`/api/v1${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: {
          Authorization: `Bearer ${buyer.secret}`,
          "Content-Type": "application/json",
          "Idempotency-Key": randomUUID(),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as Record<string, unknown>;
    };
    const productId = await insertProduct(shop.db, { stock: 100 });
    await insertCoupon(shop.db, { code: "CONTRACT10" });
    const cart = await send("/store/carts", {});
    samples.cartId = String(cart.id);
    const added = (await send(`/store/carts/${samples.cartId}/lines`, { productId, quantity: 1 })) as {
      cart: { lines: { variantId: number }[] };
    };
    samples.variantId = String(added.cart.lines[0]?.variantId);
    // one more of it, set back to one by the next operation: the checkout's total stays
    BODIES.addCartLine = { productId, quantity: 1 };
    const place = { country: "US", region: "IL", shippingMethod: "standard" };
    QUERIES.quoteCart = place;
    const quote = (await send(`/store/carts/${samples.cartId}/quote?${new URLSearchParams(place)}`)) as {
      totals: { total: { amount: number } };
    };
    const token = await send("/store/payment-tokens", CARD);
    BODIES.checkoutCart = {
      firstName: "Ada",
      lastName: "Lovelace",
      email: "contract@example.com",
      phone: "+1 555 0100",
      address: "1 Analytical Way",
      city: "Springfield",
      state: "IL",
      zipCode: "62701",
      country: "US",
      shippingMethod: "standard",
      payment: { token: token.token },
      expectedTotal: quote.totals.total.amount,
    };
    // an order placed through the API to track (the fixtures' numbers are not the shop's kind)
    const other = await send("/store/carts", {});
    await send(`/store/carts/${other.id}/lines`, { productId, quantity: 1 });
    const placed = (await send(`/store/carts/${other.id}/checkout`, {
      ...(BODIES.checkoutCart as object),
      email: "tracked@example.com",
      payment: { token: (await send("/store/payment-tokens", CARD)).token },
    })) as { order: { number: string } };
    samplesOf.trackOrder = { number: placed.order.number };
    QUERIES.trackOrder = { email: "tracked@example.com" };
  }

  /** a product added (its category exists), the sample product's details saved, its stock counted */
  async function catalogueSamples() {
    const details = {
      name: "Contract Lamp",
      description: "Lights up.",
      brand: "Contract",
      category: "electronics",
      subcategory: "audio",
      price: { amount: 1_999 },
    };
    BODIES.createProduct = {
      ...details,
      stock: 3,
      images: [{ filename: "lamp.png", data: Buffer.from(await png()).toString("base64") }],
    };
    BODIES.updateProduct = details;
    const variant = await shop.db
      .selectFrom("productVariants")
      .select("sku")
      .where("productId", "=", Number(samples.id))
      .executeTakeFirstOrThrow();
    BODIES.setStockLevels = { levels: [{ sku: variant.sku, stock: 7 }] };
    const sampleVariant = await shop.db
      .selectFrom("productVariants")
      .select("id")
      .where("productId", "=", Number(samples.id))
      .executeTakeFirstOrThrow();
    samplesOf.updateVariant = { id: String(samples.id), variantId: String(sampleVariant.id) };
    BODIES.updateVariant = { barcode: "CONTRACT-1" };
    BODIES.setProductOptions = { options: [] };
    // delivering needs a shipped order of its own
    samplesOf.deliverOrder = {
      number: await insertOrder(shop.db, {
        userId: null,
        createdAt: "2026-11-01T12:00:00.000Z",
        status: "shipped",
      }),
    };
  }

  const CARD = { cardNumber: "4242424242424242", cardName: "Ada Lovelace", expiryDate: "12/30", cvv: "123" };

  /** A return asked for a delivered order, moved through `moves`: its number. */
  async function returnIn(moves: ("approved" | "received")[]) {
    const number = await insertOrder(shop.db, {
      userId: null,
      createdAt: new Date(Date.now() - 86_400_000).toISOString(),
      status: "shipped",
    });
    const order = await shop.db
      .selectFrom("orders")
      .select("id")
      .where("number", "=", number)
      .executeTakeFirstOrThrow();
    await transitionOrder(shop.db, { orderId: order.id, to: "delivered", actor: "admin" });
    const item = await shop.db
      .selectFrom("orderItems")
      .select("id")
      .where("orderId", "=", order.id)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const shopOf = { shopName: "Cartwheel", publicUrl: "http://shop.test" };
    const asked = await requestReturn(shop.db, shop.services.mail, shopOf, {
      orderNumber: number,
      lines: [{ itemId: item.id, quantity: 1 }],
      reason: "Changed my mind",
    });
    if (!asked.ok) throw new Error(asked.error.code);
    for (const to of moves) {
      const { gateway, mail } = shop.services;
      await moveReturn(
        shop.db,
        { gateway, mail, shop: shopOf },
        { number: asked.value.number, to, actor: OWNER },
      );
    }
    return asked.value.number;
  }

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
  /** the operation's URL with its samples and the query it needs */
  const sampleUrl = (op: Operation) =>
    urlOf(op) + (QUERIES[op.id] ? `?${new URLSearchParams(QUERIES[op.id])}` : "");
  /** a valid body for each POST (an operation not named here takes an empty object) */
  const BODIES: Record<string, unknown> = {
    setCartLineQuantity: { quantity: 1 },
    applyCartCode: { code: "CONTRACT10" },
    createPaymentToken: { cardNumber: "4242424242424242", cardName: "Ada", expiryDate: "12/30", cvv: "123" },
    changeStock: { delta: 1 },
    refundOrder: { amount: { amount: 1, currency: "USD" } },
    rejectReturn: { reason: "Worn" },
    addCustomerGroupMembers: { emails: ["contract@customers.example"] },
    createPromotionCodes: { count: 1 },
    issueGiftCard: { amount: { amount: 1_000, currency: "USD" } },
  };
  /** the operation called as documented: a POST with a new Idempotency-Key and its JSON body */
  const call = (op: Operation, secret: string | null, url = sampleUrl(op)) =>
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
      expect(op.responses, op.path).toEqual(expect.arrayContaining(["400", "401", "429"]));
      expect(
        op.responses.some((status) => status.startsWith("2")),
        op.path,
      ).toBe(true);
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
      // its one success: 200, or 201 for what it makes
      const successes = op.responses.filter((status) => status.startsWith("2"));
      if (op.scope === "store") {
        const answered = await call(op, publishable.secret);
        expect(successes, `${op.method} ${op.path} → ${answered.status}`).toContain(String(answered.status));
        continue;
      }
      const [area] = op.scope.split(":");
      const others = await key({ scopes: API_SCOPES.filter((scope) => !scope.startsWith(`${area}:`)) });
      const refused = await call(op, others.secret);
      expect(refused.status, `${op.path} without ${op.scope}`).toBe(403);
      expect(refused.headers.get("Content-Type")).toContain("application/problem+json");
      expect((await call(op, publishable.secret)).status, op.path).toBe(403);
      const allowed = await key({ scopes: [op.scope, ...op.scopeAlso] as ApiScope[] });
      const answered = await call(op, allowed.secret);
      expect(successes, `${op.path} with ${op.scope} → ${answered.status}`).toContain(
        String(answered.status),
      );
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
  it("answers malformed bodies on every POST with a documented 4xx, never a 5xx", async () => {
    const all = await key({ scopes: [...API_SCOPES] });
    /** a valid body with one field replaced by anything (or dropped), or something that is no body at all */
    const mutated = (valid: Record<string, unknown>) =>
      fc.oneof(
        fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
        fc.string({ maxLength: 60 }),
        fc.constantFrom("", "{", "[]", "null", '{"__proto__":{"x":1}}', "\u0000", `{"a":${"[".repeat(500)}`),
        fc
          .tuple(
            fc.constantFrom(...Object.keys(valid), "unknown"),
            fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)),
          )
          .map(([field, value]) => JSON.stringify({ ...valid, [field]: value })),
      );
    for (const op of operations.filter((o) => o.method === "POST")) {
      const valid = (BODIES[op.id] ?? {}) as Record<string, unknown>;
      await fc.assert(
        fc.asyncProperty(mutated(valid), async (body) => {
          const response = await api.request(sampleUrl(op), {
            method: "POST",
            headers: {
              Authorization: `Bearer ${all.secret}`,
              "Idempotency-Key": randomUUID(),
              "Content-Type": "application/json",
            },
            body,
          });
          expect(response.status, `${op.path} ${body.slice(0, 200)}`).toBeLessThan(500);
          expect(op.responses, `${op.path} ${body.slice(0, 200)} → ${response.status}`).toContain(
            String(response.status),
          );
        }),
        { numRuns: 30 },
      );
    }
  });
});
