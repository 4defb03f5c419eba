import { afterEach, describe, expect, it, vi } from "vitest";
import { PAYMENT_MESSAGES, type PaymentGateway } from "./payment-gateway.ts";
import { createTestGateway, mintTestToken } from "./test-gateway.server.ts";

const SECRET = "test-secret-0123456789abcdef0123456789";
const NOW = new Date("2026-11-22T12:00:00Z");
const CARD = { number: "4242424242424242", expMonth: 12, expYear: 2028, cvv: "123", name: "Ada Lovelace" };

const gatewayWith = (processingDelayMs = 0, secret = SECRET): PaymentGateway =>
  createTestGateway({ processingDelayMs, secret, now: () => NOW });

async function tokenOf(gateway: PaymentGateway, card = CARD): Promise<string> {
  const result = await gateway.tokenize(card);
  if (!result.ok) throw new Error(`tokenize failed: ${result.code}`);
  return result.token;
}

const authorizeInput = (token: string, idempotencyKey = "order-1") => ({
  token,
  amountCents: 12_999,
  currency: "USD" as const,
  idempotencyKey,
});

afterEach(() => {
  vi.useRealTimers();
});

describe("test gateway: tokenize", () => {
  it("approves 4242 4242 4242 4242 with brand, last 4 and expiry", async () => {
    const result = await gatewayWith().tokenize(CARD);
    expect(result).toEqual({
      ok: true,
      token: expect.stringMatching(/^tok_test_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/),
      brand: "Visa",
      last4: "4242",
      expMonth: 12,
      expYear: 2028,
    });
  });

  it.each([
    ["5555555555554444", "MasterCard", "4444"],
    ["378282246310005", "American Express", "0005"],
    ["6011111111111117", "Discover", "1117"],
    ["3056930009020004", "Card", "0004"],
    ["4242 4242-4242 4242", "Visa", "4242"],
  ])("approves any other Luhn-valid number: %s", async (number, brand, last4) => {
    const result = await gatewayWith().tokenize({ ...CARD, number });
    expect(result).toMatchObject({ ok: true, brand, last4 });
  });

  it.each([
    ["4000000000000002", "card_declined", "Your card was declined. Please use a different card."],
    [
      "4000 0000 0000 9995",
      "insufficient_funds",
      "Your card has insufficient funds. Please use a different card.",
    ],
  ])("answers %s with %s", async (number, code, message) => {
    expect(await gatewayWith().tokenize({ ...CARD, number })).toEqual({ ok: false, code, message });
  });

  it.each(["4242424242424241", "42424242424", "42424242424242424242", "", "4242abcd42424242", "0000"])(
    "refuses the number %j as invalid_number",
    async (number) => {
      expect(await gatewayWith().tokenize({ ...CARD, number })).toEqual({
        ok: false,
        code: "invalid_number",
        message: PAYMENT_MESSAGES.invalid_number,
      });
    },
  );

  it.each([
    [10, 2026],
    [12, 2025],
    [13, 2030],
    [0, 2030],
    [1.5, 2030],
  ])("refuses the expiry %i/%i as expired_card", async (expMonth, expYear) => {
    expect(await gatewayWith().tokenize({ ...CARD, expMonth, expYear })).toEqual({
      ok: false,
      code: "expired_card",
      message: PAYMENT_MESSAGES.expired_card,
    });
  });

  it("accepts a card in its expiry month, and a two-digit year", async () => {
    expect(await gatewayWith().tokenize({ ...CARD, expMonth: 11, expYear: 2026 })).toMatchObject({
      ok: true,
    });
    expect(await gatewayWith().tokenize({ ...CARD, expMonth: 11, expYear: 26 })).toMatchObject({
      ok: true,
      expYear: 2026,
    });
  });

  it.each(["", "12", "12345", "12a", " 123"])("refuses the security code %j as invalid_cvc", async (cvv) => {
    expect(await gatewayWith().tokenize({ ...CARD, cvv })).toEqual({
      ok: false,
      code: "invalid_cvc",
      message: PAYMENT_MESSAGES.invalid_cvc,
    });
  });

  it("accepts a 4 digit security code", async () => {
    expect(await gatewayWith().tokenize({ ...CARD, number: "378282246310005", cvv: "1234" })).toMatchObject({
      ok: true,
    });
  });

  it("issues a different token each time", async () => {
    const gateway = gatewayWith();
    expect(await tokenOf(gateway)).not.toBe(await tokenOf(gateway));
  });
});

describe("test gateway: the token never reveals the card", () => {
  it.each(["4242424242424242", "5555555555554444", "6011111111111117"])(
    "token for %s holds neither the number, its first 12 digits, nor the code",
    async (number) => {
      const token = await tokenOf(gatewayWith(), { ...CARD, number, cvv: "987" });
      const [body] = token.slice("tok_test_".length).split(".");
      const decoded = Buffer.from(body!, "base64url").toString("utf8");
      for (const text of [token, decoded]) {
        expect(text).not.toContain(number);
        expect(text).not.toContain(number.slice(0, 12));
        expect(text).not.toContain(number.slice(0, 6));
        expect(text).not.toContain("987");
        expect(text).not.toContain("Ada");
      }
      expect(Object.keys(JSON.parse(decoded)).sort()).toEqual(["b", "l", "m", "n", "o", "y"]);
    },
  );

  it("keeps the number and code out of every answer", async () => {
    const gateway = gatewayWith();
    const answers = [
      await gateway.tokenize({ ...CARD, number: "4242424242424241", cvv: "987" }),
      await gateway.tokenize({ ...CARD, number: "4000000000000002", cvv: "987" }),
      await gateway.tokenize({ ...CARD, cvv: "98" }),
    ];
    const text = JSON.stringify(answers);
    expect(text).not.toMatch(/424242424241|400000000000|987|98"/);
  });
});

describe("test gateway: authorize", () => {
  it("authorizes a token it issued", async () => {
    const gateway = gatewayWith();
    const result = await gateway.authorize(authorizeInput(await tokenOf(gateway)));
    expect(result).toEqual({ ok: true, authorizationId: expect.stringMatching(/^auth_test_/) });
  });

  it("accepts tokens across instances with the same secret (stateless, survives restarts)", async () => {
    const token = await tokenOf(gatewayWith());
    expect(await gatewayWith().authorize(authorizeInput(token))).toMatchObject({ ok: true });
  });

  it("gives the same authorization for the same idempotency key, a new one for another key", async () => {
    const gateway = gatewayWith();
    const token = await tokenOf(gateway);
    const first = await gateway.authorize(authorizeInput(token, "key-a"));
    const again = await gatewayWith().authorize(authorizeInput(token, "key-a"));
    const other = await gateway.authorize(authorizeInput(token, "key-b"));
    expect(first.ok && again.ok && other.ok).toBe(true);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it.each([
    ["card_declined", "Your card was declined. Please use a different card."],
    ["insufficient_funds", "Your card has insufficient funds. Please use a different card."],
    ["processing_error", PAYMENT_MESSAGES.processing_error],
  ] as const)("declines a minted %s token at charge time", async (outcome, message) => {
    const token = mintTestToken(outcome, { secret: SECRET });
    expect(await gatewayWith().authorize(authorizeInput(token))).toEqual({
      ok: false,
      code: outcome,
      message,
    });
  });

  it("approves a minted approve token", async () => {
    const token = mintTestToken("approve", { secret: SECRET, brand: "MasterCard", last4: "4444" });
    expect(await gatewayWith().authorize(authorizeInput(token))).toMatchObject({ ok: true });
  });

  it("refuses a token signed with another secret", async () => {
    const token = await tokenOf(gatewayWith(0, "another-secret-0123456789abcdef0123"));
    expect(await gatewayWith().authorize(authorizeInput(token))).toEqual({
      ok: false,
      code: "invalid_token",
      message: PAYMENT_MESSAGES.invalid_token,
    });
  });

  it("refuses tampered and malformed tokens", async () => {
    const gateway = gatewayWith();
    const token = await tokenOf(gateway);
    const [body, signature] = token.slice("tok_test_".length).split(".") as [string, string];
    const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
    const forgedBody = Buffer.from(JSON.stringify({ ...payload, l: "0000" })).toString("base64url");
    const flipped = signature.slice(0, -1) + (signature.endsWith("A") ? "B" : "A");
    const declined = mintTestToken("card_declined", { secret: SECRET });
    const [declinedBody] = declined.slice("tok_test_".length).split(".");
    const tampered = [
      `tok_test_${forgedBody}.${signature}`,
      `tok_test_${body}.${flipped}`,
      `tok_test_${body}`,
      `tok_test_${body}.${signature}.x`,
      `tok_live_${body}.${signature}`,
      `tok_test_${declinedBody}.${signature}`,
      `tok_test_.${signature}`,
      "",
      "4242424242424242",
    ];
    for (const bad of tampered) {
      expect(await gateway.authorize(authorizeInput(bad)), bad).toEqual({
        ok: false,
        code: "invalid_token",
        message: PAYMENT_MESSAGES.invalid_token,
      });
    }
  });

  it("refuses a signed token whose payload is not what the gateway issues", async () => {
    // mintTestToken signs whatever it is given; a last4 that is not 4 digits is refused on reading
    const token = mintTestToken("approve", { secret: SECRET, last4: "42" });
    expect(await gatewayWith().authorize(authorizeInput(token))).toMatchObject({ code: "invalid_token" });
  });

  it.each([0, -100, 12.5, Number.NaN])(
    "throws for the amount %d (a bug, not a shopper error)",
    async (amount) => {
      const gateway = gatewayWith();
      const token = await tokenOf(gateway);
      await expect(gateway.authorize({ ...authorizeInput(token), amountCents: amount })).rejects.toThrow(
        RangeError,
      );
    },
  );

  it("waits the processing delay before answering", async () => {
    vi.useFakeTimers({ now: NOW });
    const gateway = gatewayWith(30);
    const token = await tokenOf(gateway);
    let settled = false;
    const pending = gateway.authorize(authorizeInput(token)).then((result) => {
      settled = true;
      return result;
    });
    await vi.advanceTimersByTimeAsync(29);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
    expect(await pending).toMatchObject({ ok: true });
  });

  it("waits the delay for refusals too (no timing difference to probe)", async () => {
    vi.useFakeTimers({ now: NOW });
    let settled = false;
    const pending = gatewayWith(1000)
      .authorize(authorizeInput("tok_test_bogus.sig"))
      .then((r) => {
        settled = true;
        return r;
      });
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ code: "invalid_token" });
  });

  it("answers at once with no delay", async () => {
    vi.useFakeTimers({ now: NOW });
    const gateway = gatewayWith(0);
    const result = await gateway.authorize(authorizeInput(await tokenOf(gateway)));
    expect(result.ok).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("test gateway: capture and void", () => {
  async function authorized(gateway: PaymentGateway, key = "order-1"): Promise<string> {
    const result = await gateway.authorize(authorizeInput(await tokenOf(gateway), key));
    if (!result.ok) throw new Error(result.code);
    return result.authorizationId;
  }

  it("captures an authorization (twice is harmless)", async () => {
    const gateway = gatewayWith();
    const id = await authorized(gateway);
    await expect(gateway.capture(id)).resolves.toBeUndefined();
    await expect(gateway.capture(id)).resolves.toBeUndefined();
  });

  it("captures an authorization made by another instance with the same secret", async () => {
    const id = await authorized(gatewayWith());
    await expect(gatewayWith().capture(id)).resolves.toBeUndefined();
  });

  it("refuses to capture after void", async () => {
    const gateway = gatewayWith();
    const id = await authorized(gateway);
    await gateway.void(id);
    await expect(gateway.capture(id)).rejects.toThrow(/voided/);
  });

  it("refuses to void after capture", async () => {
    const gateway = gatewayWith();
    const id = await authorized(gateway);
    await gateway.capture(id);
    await expect(gateway.void(id)).rejects.toThrow(/captured/);
  });

  it("voiding one authorization leaves another capturable", async () => {
    const gateway = gatewayWith();
    const first = await authorized(gateway, "a");
    const second = await authorized(gateway, "b");
    await gateway.void(first);
    await expect(gateway.capture(second)).resolves.toBeUndefined();
  });

  it.each(["auth_test_made.up", "auth_test_", "", "tok_test_x.y"])(
    "refuses to capture or void the unknown id %j",
    async (id) => {
      const gateway = gatewayWith();
      await expect(gateway.capture(id)).rejects.toThrow(/unknown/i);
      await expect(gateway.void(id)).rejects.toThrow(/unknown/i);
    },
  );

  it("refuses an id signed with another secret", async () => {
    const id = await authorized(gatewayWith(0, "another-secret-0123456789abcdef0123"));
    await expect(gatewayWith().capture(id)).rejects.toThrow(/unknown/i);
  });
});

describe("createTestGateway", () => {
  it("is named test and needs a secret", () => {
    expect(gatewayWith().name).toBe("test");
    expect(() => createTestGateway({ processingDelayMs: 0, secret: "" })).toThrow(/secret/);
  });
});
