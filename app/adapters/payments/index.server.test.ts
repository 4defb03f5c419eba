import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, ENGINES, type TestDatabase } from "../../../tests/db-utils.ts";
import { parseEnv } from "../../env.server.ts";
import { createPaymentGateway, mintTestToken } from "./index.server.ts";

const SECRET = "index-secret-0123456789abcdef012345";
const configWith = (env: Record<string, string>) => parseEnv({ SESSION_SECRET: SECRET, ...env });
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
    expect(() => parseEnv({ ...base, PAYMENT_GATEWAY: "stripe" })).toThrow(/PAYMENT_GATEWAY/);
    expect(() => parseEnv({ ...base, PAYMENT_DELAY_MS: "-1" })).toThrow(/PAYMENT_DELAY_MS/);
    expect(() => parseEnv({ ...base, PAYMENT_DELAY_MS: "60001" })).toThrow(/PAYMENT_DELAY_MS/);
  });
});
