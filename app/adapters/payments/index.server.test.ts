import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

async function freshModule(env: Record<string, string>) {
  vi.resetModules();
  vi.stubEnv("SESSION_SECRET", "index-secret-0123456789abcdef012345");
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return import("./index.server.ts");
}

describe("getPaymentGateway", () => {
  it("returns the test gateway, built once, signing with SESSION_SECRET", async () => {
    const { getPaymentGateway, mintTestToken } = await freshModule({ PAYMENT_DELAY_MS: "0" });
    const gateway = getPaymentGateway();
    expect(gateway.name).toBe("test");
    expect(getPaymentGateway()).toBe(gateway);
    // mintTestToken defaults to the same secret, so its tokens work with the configured gateway
    const result = await gateway.authorize({
      token: mintTestToken("insufficient_funds"),
      amountCents: 100,
      currency: "USD",
      idempotencyKey: "k",
    });
    expect(result).toMatchObject({ ok: false, code: "insufficient_funds" });
  });

  it("takes the processing delay from PAYMENT_DELAY_MS", async () => {
    const { getPaymentGateway, mintTestToken } = await freshModule({ PAYMENT_DELAY_MS: "250" });
    vi.useFakeTimers();
    try {
      let settled = false;
      const pending = getPaymentGateway()
        .authorize({
          token: mintTestToken("approve"),
          amountCents: 100,
          currency: "USD",
          idempotencyKey: "k",
        })
        .then((r) => {
          settled = true;
          return r;
        });
      await vi.advanceTimersByTimeAsync(249);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await pending).toMatchObject({ ok: true });
    } finally {
      vi.useRealTimers();
    }
  });

  it("defaults to the test gateway with a 1 second delay, and validates both variables", async () => {
    const { parseEnv } = await import("../../env.server.ts");
    const base = { SESSION_SECRET: "x".repeat(32) };
    expect(parseEnv(base)).toMatchObject({ PAYMENT_GATEWAY: "test", PAYMENT_DELAY_MS: 1000 });
    expect(() => parseEnv({ ...base, PAYMENT_GATEWAY: "stripe" })).toThrow(/PAYMENT_GATEWAY/);
    expect(() => parseEnv({ ...base, PAYMENT_DELAY_MS: "-1" })).toThrow(/PAYMENT_DELAY_MS/);
    expect(() => parseEnv({ ...base, PAYMENT_DELAY_MS: "60001" })).toThrow(/PAYMENT_DELAY_MS/);
  });
});
