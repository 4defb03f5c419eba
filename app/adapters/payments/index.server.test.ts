import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, ENGINES, type TestDatabase } from "../../../tests/db-utils.ts";
import { type StripeServer, startStripeServer } from "../../../tests/support/stripe-server/index.ts";
import type { Database } from "../../db/database.server.ts";
import { ConfigError, parseEnv } from "../../env.server.ts";
import { createPaymentGateway, mintTestToken, stripeApiAddress } from "./index.server.ts";

const SECRET = "index-secret-0123456789abcdef012345";
const configWith = (env: Record<string, string>) => parseEnv({ SESSION_SECRET: SECRET, ...env });
const STRIPE_KEYS = {
  STRIPE_SECRET_KEY: "sk_test_cartwheel",
  STRIPE_PUBLISHABLE_KEY: "pk_test_cartwheel",
  STRIPE_WEBHOOK_SECRET: "whsec_cartwheel",
};
const charge = (token: string, idempotencyKey: string) =>
  ({ token, amountCents: 100, currency: "USD", idempotencyKey }) as const;

describe.each(ENGINES)("createPaymentGateway on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("returns the test gateway, signing with SESSION_SECRET", async () => {
    const gateway = createPaymentGateway(configWith({ PAYMENT_DELAY_MS: "0" }), t.db);
    expect(gateway.name).toBe("test");
    // a token signed with another secret is not this shop's
    const foreign = mintTestToken("insufficient_funds", { secret: "another-secret-0123456789abcdef0123" });
    const refused = await gateway.authorize(charge(foreign, "k0"));
    expect(refused).toMatchObject({ ok: false });
    expect(refused).not.toMatchObject({ code: "insufficient_funds" });
    const own = mintTestToken("insufficient_funds", { secret: SECRET });
    expect(await gateway.authorize(charge(own, "k1"))).toMatchObject({
      ok: false,
      code: "insufficient_funds",
    });
  });

  it("keeps its ledger in the database it is given", async () => {
    const config = configWith({ PAYMENT_DELAY_MS: "0" });
    const result = await createPaymentGateway(config, t.db).authorize(
      charge(mintTestToken("approve", { secret: SECRET }), "k2"),
    );
    if (!result.ok) throw new Error(result.code);
    const row = await t.db
      .selectFrom("testGatewayPayments")
      .select(["authorizationId", "amountCents", "status"])
      .where("idempotencyKey", "=", "k2")
      .executeTakeFirst();
    expect(row).toEqual({ authorizationId: result.authorizationId, amountCents: 100, status: "authorized" });
    // another gateway made from the same configuration and database (a restarted process) knows it
    expect(await createPaymentGateway(config, t.db).outcome("k2")).toEqual({
      status: "authorized",
      authorizationId: result.authorizationId,
      amountCents: 100,
    });
  });

  it("takes the processing delay from PAYMENT_DELAY_MS", async () => {
    const gateway = createPaymentGateway(configWith({ PAYMENT_DELAY_MS: "250" }), t.db);
    const { setTimeout: realSetTimeout } = globalThis;
    // only the delay is faked: the SQLite driver's commit (setImmediate) and pg keep real time
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let settled = false;
      const pending = gateway
        .authorize(charge(mintTestToken("approve", { secret: SECRET }), "k3"))
        .then((r) => {
          settled = true;
          return r;
        });
      await vi.advanceTimersByTimeAsync(249);
      await new Promise((resolve) => realSetTimeout(resolve, 100)); // time enough for the ledger
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await pending).toMatchObject({ ok: true });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("payment settings", () => {
  it("defaults to the test gateway with a 1 second delay, and validates both variables", async () => {
    const base = { SESSION_SECRET: "x".repeat(32) };
    expect(parseEnv(base)).toMatchObject({ PAYMENT_GATEWAY: "test", PAYMENT_DELAY_MS: 1000 });
    expect(() => parseEnv({ ...base, PAYMENT_GATEWAY: "paypal" })).toThrow(/PAYMENT_GATEWAY/);
    expect(() => parseEnv({ ...base, PAYMENT_DELAY_MS: "-1" })).toThrow(/PAYMENT_DELAY_MS/);
    expect(() => parseEnv({ ...base, PAYMENT_DELAY_MS: "60001" })).toThrow(/PAYMENT_DELAY_MS/);
  });

  it("refuses PAYMENT_GATEWAY=stripe without its keys, naming each missing one, and takes it with them", () => {
    const base = { SESSION_SECRET: "x".repeat(32), PAYMENT_GATEWAY: "stripe" };
    const refusal = (env: Record<string, string>) => {
      try {
        parseEnv({ ...base, ...env });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    expect(refusal({})).toBe(
      [
        "Invalid configuration:",
        "  STRIPE_SECRET_KEY: required when PAYMENT_GATEWAY is stripe",
        "  STRIPE_PUBLISHABLE_KEY: required when PAYMENT_GATEWAY is stripe",
        "  STRIPE_WEBHOOK_SECRET: required when PAYMENT_GATEWAY is stripe",
      ].join("\n"),
    );
    expect(refusal({ STRIPE_SECRET_KEY: STRIPE_KEYS.STRIPE_SECRET_KEY })).not.toContain("STRIPE_SECRET_KEY");
    expect(refusal({ ...STRIPE_KEYS, STRIPE_WEBHOOK_SECRET: "" })).toMatch(
      /STRIPE_WEBHOOK_SECRET: must start with whsec_/,
    );
    expect(refusal({ ...STRIPE_KEYS, STRIPE_SECRET_KEY: "pk_test_swapped" })).toMatch(
      /STRIPE_SECRET_KEY: must start with sk_/,
    );
    expect(refusal({ ...STRIPE_KEYS, STRIPE_PUBLISHABLE_KEY: "sk_test_swapped" })).toMatch(
      /STRIPE_PUBLISHABLE_KEY: must start with pk_/,
    );
    expect(refusal({ ...STRIPE_KEYS, STRIPE_PUBLISHABLE_KEY: "pk_live_abc" })).toMatch(
      /STRIPE_PUBLISHABLE_KEY: a live key, but STRIPE_SECRET_KEY is a test key/,
    );
    expect(refusal({ ...STRIPE_KEYS, STRIPE_API_URL: "ftp://127.0.0.1" })).toMatch(/STRIPE_API_URL/);

    expect(parseEnv({ ...base, ...STRIPE_KEYS })).toMatchObject({
      PAYMENT_GATEWAY: "stripe",
      ...STRIPE_KEYS,
    });
    // the keys alone, with the test gateway, are fine too (set up before switching)
    expect(parseEnv({ SESSION_SECRET: "x".repeat(32), ...STRIPE_KEYS })).toMatchObject({
      PAYMENT_GATEWAY: "test",
    });
  });
});

describe("createPaymentGateway with PAYMENT_GATEWAY=stripe", () => {
  let server: StripeServer;
  beforeAll(async () => {
    server = await startStripeServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("reads STRIPE_API_URL as the API's address and pays through it", async () => {
    expect(stripeApiAddress(server.url)).toEqual({ host: "127.0.0.1", port: server.port, protocol: "http" });
    expect(stripeApiAddress("https://api.example")).toEqual({
      host: "api.example",
      port: 443,
      protocol: "https",
    });
    expect(stripeApiAddress(undefined)).toEqual({});
    const config = configWith({ PAYMENT_GATEWAY: "stripe", ...STRIPE_KEYS, STRIPE_API_URL: server.url });
    const gateway = createPaymentGateway(config, undefined as unknown as Database); // Stripe keeps the ledger
    expect(gateway.name).toBe("stripe");
    const result = await gateway.authorize(charge("pm_card_visa", "stripe-k1"));
    if (!result.ok) throw new Error(result.code);
    expect(server.state.paymentIntents.get(result.authorizationId)).toMatchObject({
      amount: 100,
      status: "requires_capture",
      metadata: { idempotency_key: "stripe-k1" },
    });
    expect(await gateway.outcome("stripe-k1")).toMatchObject({ status: "authorized" });
  });
});
