import { describe, expect, it, vi } from "vitest";
import { parseEnv } from "../../env.server.ts";
import { createPaymentGateway, mintTestToken } from "./index.server.ts";

const SECRET = "index-secret-0123456789abcdef012345";
const configWith = (env: Record<string, string>) => parseEnv({ SESSION_SECRET: SECRET, ...env });

describe("createPaymentGateway", () => {
  it("returns the test gateway, signing with SESSION_SECRET", async () => {
    const gateway = createPaymentGateway(configWith({ PAYMENT_DELAY_MS: "0" }));
    expect(gateway.name).toBe("test");
    // a token signed with another secret is not this shop's
    const foreign = await gateway.authorize({
      token: mintTestToken("insufficient_funds", { secret: "another-secret-0123456789abcdef0123" }),
      amountCents: 100,
      currency: "USD",
      idempotencyKey: "k0",
    });
    expect(foreign).toMatchObject({ ok: false });
    expect(foreign).not.toMatchObject({ code: "insufficient_funds" });
    const result = await gateway.authorize({
      token: mintTestToken("insufficient_funds", { secret: SECRET }),
      amountCents: 100,
      currency: "USD",
      idempotencyKey: "k",
    });
    expect(result).toMatchObject({ ok: false, code: "insufficient_funds" });
  });

  it("takes the processing delay from PAYMENT_DELAY_MS", async () => {
    const gateway = createPaymentGateway(configWith({ PAYMENT_DELAY_MS: "250" }));
    vi.useFakeTimers();
    try {
      let settled = false;
      const pending = gateway
        .authorize({
          token: mintTestToken("approve", { secret: SECRET }),
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
    const base = { SESSION_SECRET: "x".repeat(32) };
    expect(parseEnv(base)).toMatchObject({ PAYMENT_GATEWAY: "test", PAYMENT_DELAY_MS: 1000 });
    expect(() => parseEnv({ ...base, PAYMENT_GATEWAY: "stripe" })).toThrow(/PAYMENT_GATEWAY/);
    expect(() => parseEnv({ ...base, PAYMENT_DELAY_MS: "-1" })).toThrow(/PAYMENT_DELAY_MS/);
    expect(() => parseEnv({ ...base, PAYMENT_DELAY_MS: "60001" })).toThrow(/PAYMENT_DELAY_MS/);
  });
});
