import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase, ENGINES, type TestDatabase } from "../../../tests/db-utils.ts";
import { createDatabase, type Database } from "../../db/database.server.ts";
import { PAYMENT_MESSAGES, type PaymentGateway } from "./payment-gateway.ts";
import { createTestGateway, mintTestToken } from "./test-gateway.server.ts";

const SECRET = "test-secret-0123456789abcdef0123456789";
const OTHER_SECRET = "another-secret-0123456789abcdef0123";
const NOW = new Date("2026-11-22T12:00:00Z");
const DECLINES = ["card_declined", "insufficient_funds", "processing_error"] as const;
const UNKNOWN_IDS = ["auth_test_made.up", "auth_test_", "", "tok_test_x.y"];
const CARD = { number: "4242424242424242", expMonth: 12, expYear: 2028, cvv: "123", name: "Ada Lovelace" };

const gatewayOn = (db: Database, processingDelayMs = 0, secret = SECRET): PaymentGateway =>
  createTestGateway({ processingDelayMs, secret, db, now: () => NOW });

async function tokenOf(gateway: PaymentGateway, card = CARD): Promise<string> {
  const result = await gateway.tokenize(card);
  if (!result.ok) throw new Error(`tokenize failed: ${result.code}`);
  return result.token;
}

// every payment in a test database is its own: keys never repeat unless a test means them to
let sequence = 0;
const newKey = (name = "order") => `${name}-${++sequence}`;

type Code = keyof typeof PAYMENT_MESSAGES;
const refusal = (code: Code) => ({ ok: false, code, message: PAYMENT_MESSAGES[code] });

const authorizeInput = (token: string, idempotencyKey = newKey(), amountCents = 12_999) => ({
  token,
  amountCents,
  currency: "USD" as const,
  idempotencyKey,
});

// the real clock's timers, for a bound on a wait while fake timers are installed
const { setTimeout: realSetTimeout } = globalThis;
const late = new Error("not settled within 2 s of real time");
const within = <T>(promise: Promise<T>) =>
  Promise.race([promise, new Promise<never>((_, reject) => realSetTimeout(reject, 2000, late).unref())]);
/** whether the promise has settled by now */
const settled = async (promise: Promise<unknown>) => {
  const pending = Symbol("pending");
  return (await Promise.race([promise, Promise.resolve(pending)])) !== pending;
};
// only the gateway's delay is faked: the SQLite driver's commit (setImmediate) and pg keep real time
const fakeDelays = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });

afterEach(() => {
  vi.useRealTimers();
});

// tokenize never reaches the ledger: a database never opened (in memory, no tables) is enough
const unopened = createDatabase("file::memory:");
const tokenizer = () => gatewayOn(unopened);

describe("test gateway: tokenize", () => {
  it("approves 4242 4242 4242 4242 with brand, last 4 and expiry", async () => {
    const result = await tokenizer().tokenize(CARD);
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
    const result = await tokenizer().tokenize({ ...CARD, number });
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
    expect(await tokenizer().tokenize({ ...CARD, number })).toEqual({ ok: false, code, message });
  });

  it.each(["4242424242424241", "42424242424", "42424242424242424242", "", "4242abcd42424242", "0000"])(
    "refuses the number %j as invalid_number",
    async (number) => {
      expect(await tokenizer().tokenize({ ...CARD, number })).toEqual(refusal("invalid_number"));
    },
  );

  it.each([
    [10, 2026],
    [12, 2025],
    [13, 2030],
    [0, 2030],
    [1.5, 2030],
  ])("refuses the expiry %i/%i as expired_card", async (expMonth, expYear) => {
    expect(await tokenizer().tokenize({ ...CARD, expMonth, expYear })).toEqual(refusal("expired_card"));
  });

  it("accepts a card in its expiry month, and a two-digit year", async () => {
    const inItsMonth = await tokenizer().tokenize({ ...CARD, expMonth: 11, expYear: 2026 });
    expect(inItsMonth).toMatchObject({ ok: true });
    const twoDigits = await tokenizer().tokenize({ ...CARD, expMonth: 11, expYear: 26 });
    expect(twoDigits).toMatchObject({ ok: true, expYear: 2026 });
  });

  it.each(["", "12", "12345", "12a", " 123"])("refuses the security code %j as invalid_cvc", async (cvv) => {
    expect(await tokenizer().tokenize({ ...CARD, cvv })).toEqual(refusal("invalid_cvc"));
  });

  it("accepts a 4 digit security code", async () => {
    const amex = await tokenizer().tokenize({ ...CARD, number: "378282246310005", cvv: "1234" });
    expect(amex).toMatchObject({ ok: true });
  });

  it("issues a different token each time", async () => {
    const gateway = tokenizer();
    expect(await tokenOf(gateway)).not.toBe(await tokenOf(gateway));
  });

  it("is named test, and the gateway needs a secret", () => {
    expect(tokenizer().name).toBe("test");
    const withoutSecret = { processingDelayMs: 0, secret: "", db: unopened };
    expect(() => createTestGateway(withoutSecret)).toThrow(/secret/);
  });
});

describe("test gateway: the token never reveals the card", () => {
  it.each(["4242424242424242", "5555555555554444", "6011111111111117"])(
    "token for %s holds neither the number, its first 12 digits, nor the code",
    async (number) => {
      const token = await tokenOf(tokenizer(), { ...CARD, number, cvv: "987" });
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
    const gateway = tokenizer();
    const answers = [
      await gateway.tokenize({ ...CARD, number: "4242424242424241", cvv: "987" }),
      await gateway.tokenize({ ...CARD, number: "4000000000000002", cvv: "987" }),
      await gateway.tokenize({ ...CARD, cvv: "98" }),
    ];
    const text = JSON.stringify(answers);
    expect(text).not.toMatch(/424242424241|400000000000|987|98"/);
  });
});

describe.each(ENGINES)("test gateway's ledger on %s", (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const gatewayWith = (processingDelayMs = 0, secret = SECRET) => gatewayOn(t.db, processingDelayMs, secret);
  const payments = () => t.db.selectFrom("testGatewayPayments").selectAll();
  const paymentsOf = (key: string) => payments().where("idempotencyKey", "=", key).execute();
  const paymentCount = async () => (await payments().execute()).length;
  const refundedOf = async (authorizationId: string) =>
    (await payments().where("authorizationId", "=", authorizationId).executeTakeFirstOrThrow()).refundedCents;
  const refundsOf = (id: string) =>
    t.db.selectFrom("testGatewayRefunds").selectAll().where("authorizationId", "=", id).execute();

  async function authorized(gateway = gatewayWith(), key = newKey(), amountCents = 12_999): Promise<string> {
    const result = await gateway.authorize(authorizeInput(await tokenOf(gateway), key, amountCents));
    if (!result.ok) throw new Error(result.code);
    return result.authorizationId;
  }
  async function captured(amountCents = 10_000): Promise<string> {
    const id = await authorized(gatewayWith(), newKey(), amountCents);
    await gatewayWith().capture(id);
    return id;
  }

  describe("authorize", () => {
    it("authorizes a token it issued, and a minted approve token", async () => {
      const gateway = gatewayWith();
      const result = await gateway.authorize(authorizeInput(await tokenOf(gateway)));
      expect(result).toEqual({ ok: true, authorizationId: expect.stringMatching(/^auth_test_/) });
      const minted = mintTestToken("approve", { secret: SECRET, brand: "MasterCard", last4: "4444" });
      expect(await gateway.authorize(authorizeInput(minted))).toMatchObject({ ok: true });
    });

    it("gives the same authorization for the same key, from a second instance on the same database too", async () => {
      const [first, second] = [gatewayWith(), gatewayWith()];
      const key = newKey();
      const token = await tokenOf(first);
      const result = await first.authorize(authorizeInput(token, key));
      if (!result.ok) throw new Error(result.code);
      expect(await second.authorize(authorizeInput(token, key))).toEqual(result);
      const other = await first.authorize(authorizeInput(token));
      expect(other).toMatchObject({ ok: true });
      expect(other).not.toEqual(result);
      // the second instance sees the payment, and what the first does to it
      const paid = { authorizationId: result.authorizationId, amountCents: 12_999 };
      expect(await second.outcome(key)).toEqual({ status: "authorized", ...paid });
      await second.capture(paid.authorizationId);
      expect(await first.outcome(key)).toEqual({ status: "captured", ...paid });
      await expect(first.void(paid.authorizationId)).rejects.toThrow(/captured/);
      expect(await paymentsOf(key)).toHaveLength(1);
    });

    it("records a decline, and the same key answers the same decline again", async () => {
      const key = newKey();
      const declining = mintTestToken("card_declined", { secret: SECRET });
      const first = await gatewayWith().authorize(authorizeInput(declining, key));
      expect(first).toEqual(refusal("card_declined"));
      expect(await paymentsOf(key)).toEqual([
        expect.objectContaining({ status: "declined", declineCode: "card_declined", amountCents: 12_999 }),
      ]);
      // the key's first answer stands, even for a retry with a card that would be approved
      const approvable = await tokenOf(gatewayWith());
      expect(await gatewayWith().authorize(authorizeInput(approvable, key))).toEqual(first);
      expect(await paymentsOf(key)).toEqual([expect.objectContaining({ status: "declined" })]);
    });

    it("refuses the same key with another amount (processing_error), never making a second payment", async () => {
      const gateway = gatewayWith();
      const key = newKey();
      const token = await tokenOf(gateway);
      const first = await gateway.authorize(authorizeInput(token, key));
      if (!first.ok) throw new Error(first.code);
      const count = await paymentCount();
      expect(await gateway.authorize(authorizeInput(token, key, 5_000))).toEqual(refusal("processing_error"));
      expect(await paymentCount()).toBe(count);
      expect(await paymentsOf(key)).toEqual([
        expect.objectContaining({ authorizationId: first.authorizationId, amountCents: 12_999 }),
      ]);
    });

    it.each(DECLINES)("declines a minted %s token at charge time", async (code) => {
      const token = mintTestToken(code, { secret: SECRET });
      expect(await gatewayWith().authorize(authorizeInput(token))).toEqual(refusal(code));
    });

    it("refuses a token signed with another secret, recording nothing", async () => {
      const token = await tokenOf(gatewayWith(0, OTHER_SECRET));
      const key = newKey();
      expect(await gatewayWith().authorize(authorizeInput(token, key))).toEqual(refusal("invalid_token"));
      expect(await paymentsOf(key)).toEqual([]);
    });

    it("refuses tampered and malformed tokens", async () => {
      const gateway = gatewayWith();
      const token = await tokenOf(gateway);
      const [body, signature] = token.slice("tok_test_".length).split(".") as [string, string];
      const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
      const forgedBody = Buffer.from(JSON.stringify({ ...payload, l: "0000" })).toString("base64url");
      const flipped = signature.slice(0, -1) + (signature.endsWith("A") ? "B" : "A");
      const [declinedBody] = mintTestToken("card_declined", { secret: SECRET }).slice(9).split(".");
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
        expect(await gateway.authorize(authorizeInput(bad)), bad).toEqual(refusal("invalid_token"));
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
        await expect(gateway.authorize(authorizeInput(token, newKey(), amount))).rejects.toThrow(RangeError);
      },
    );

    it.each([
      ["an approval", 30, true],
      ["a refusal (no timing difference to probe)", 1000, false],
    ])("waits the processing delay before %s", async (_, delay, valid) => {
      const gateway = gatewayWith(delay);
      const token = valid ? await tokenOf(gateway) : "tok_test_bogus.sig";
      fakeDelays();
      const pending = gateway.authorize(authorizeInput(token));
      await vi.advanceTimersByTimeAsync(delay - 1);
      await new Promise((resolve) => realSetTimeout(resolve, 100)); // time enough for the ledger
      expect(await settled(pending)).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await within(pending)).toMatchObject(valid ? { ok: true } : { code: "invalid_token" });
    });

    it("answers at once with no delay", async () => {
      const gateway = gatewayWith(0);
      const token = await tokenOf(gateway);
      fakeDelays();
      expect(await within(gateway.authorize(authorizeInput(token)))).toMatchObject({ ok: true });
    });
  });

  describe("capture and void", () => {
    it("captures an authorization (twice is harmless)", async () => {
      const gateway = gatewayWith();
      const id = await authorized(gateway);
      await expect(gateway.capture(id)).resolves.toBeUndefined();
      await expect(gateway.capture(id)).resolves.toBeUndefined();
    });

    it("refuses to capture after void, and to void after capture", async () => {
      const [voided, taken] = [await authorized(), await authorized()];
      await gatewayWith().void(voided);
      await expect(gatewayWith().capture(voided)).rejects.toThrow(/voided/);
      await gatewayWith().capture(taken);
      await expect(gatewayWith().void(taken)).rejects.toThrow(/captured/);
    });

    it("voiding one authorization leaves another capturable", async () => {
      const gateway = gatewayWith();
      const [first, second] = [await authorized(gateway), await authorized(gateway)];
      await gateway.void(first);
      await expect(gateway.capture(second)).resolves.toBeUndefined();
    });

    it.each(UNKNOWN_IDS)("refuses to capture or void the unknown id %j", async (id) => {
      const gateway = gatewayWith();
      await expect(gateway.capture(id)).rejects.toThrow(/unknown/i);
      await expect(gateway.void(id)).rejects.toThrow(/unknown/i);
    });

    it("refuses an id signed with another secret, even on the same database", async () => {
      const id = await authorized(gatewayWith(0, OTHER_SECRET));
      await expect(gatewayWith().capture(id)).rejects.toThrow(/unknown/i);
    });
  });

  describe("outcome", () => {
    it("answers none for a key never used, or used with a refused token", async () => {
      expect(await gatewayWith().outcome(newKey())).toEqual({ status: "none" });
      const key = newKey();
      await gatewayWith().authorize(authorizeInput("tok_test_bogus.sig", key));
      expect(await gatewayWith().outcome(key)).toEqual({ status: "none" });
    });

    it("answers declined with the code", async () => {
      const key = newKey();
      const token = mintTestToken("insufficient_funds", { secret: SECRET });
      await gatewayWith().authorize(authorizeInput(token, key));
      expect(await gatewayWith().outcome(key)).toEqual({ status: "declined", code: "insufficient_funds" });
    });

    it("answers authorized, captured and voided with the authorization and its amount", async () => {
      const gateway = gatewayWith();
      const [keptKey, releasedKey] = [newKey(), newKey()];
      const kept = { authorizationId: await authorized(gateway, keptKey, 4_200), amountCents: 4_200 };
      const released = { authorizationId: await authorized(gateway, releasedKey, 1_500), amountCents: 1_500 };
      expect(await gateway.outcome(keptKey)).toEqual({ status: "authorized", ...kept });
      await gateway.capture(kept.authorizationId);
      await gateway.void(released.authorizationId);
      expect(await gateway.outcome(keptKey)).toEqual({ status: "captured", ...kept });
      expect(await gateway.outcome(releasedKey)).toEqual({ status: "voided", ...released });
    });
  });

  describe("refund", () => {
    const refund = (authorizationId: string, amountCents: number, idempotencyKey = newKey("refund")) =>
      gatewayWith().refund({ authorizationId, amountCents, idempotencyKey });
    const refunded = { ok: true, refundId: expect.any(String) };
    const tooLarge = { ok: false, code: "amount_too_large", message: expect.any(String) };

    it("refuses a payment not captured: authorized, voided or unknown", async () => {
      const id = await authorized();
      const notCaptured = { ok: false, code: "not_captured", message: expect.any(String) };
      expect(await refund(id, 100)).toEqual(notCaptured);
      await gatewayWith().void(id);
      expect(await refund(id, 100)).toEqual(notCaptured);
      expect(await refund("auth_test_made.up", 100)).toEqual(notCaptured);
      expect(await refundedOf(id)).toBe(0);
      expect(await refundsOf(id)).toEqual([]);
    });

    it("refunds part, then the rest; more than what is left is refused (amount_too_large)", async () => {
      const id = await captured(10_000);
      expect(await refund(id, 10_001)).toEqual(tooLarge);
      expect(await refund(id, 2_500)).toEqual(refunded);
      expect(await refundedOf(id)).toBe(2_500);
      expect(await refund(id, 7_501)).toEqual(tooLarge);
      expect(await refundedOf(id)).toBe(2_500);
      expect(await refund(id, 7_500)).toEqual(refunded);
      expect(await refund(id, 1)).toEqual(tooLarge);
      expect(await refundedOf(id)).toBe(10_000);
      const rows = await refundsOf(id);
      expect(rows.map((row) => row.amountCents).sort((a, b) => a - b)).toEqual([2_500, 7_500]);
    });

    it("refunds once for the same idempotency key", async () => {
      const id = await captured(10_000);
      const key = newKey("refund");
      const first = await refund(id, 3_000, key);
      expect(first).toEqual(refunded);
      expect(await refund(id, 3_000, key)).toEqual(first);
      expect(await refund(id, 3_000, key)).toEqual(first);
      expect(await refundedOf(id)).toBe(3_000);
      const rows = await refundsOf(id);
      expect(rows.map((row) => [row.idempotencyKey, row.amountCents])).toEqual([[key, 3_000]]);
    });

    it("never refunds more than was captured, however many refunds run at once", async () => {
      const id = await captured(10_000);
      const results = await Promise.all(Array.from({ length: 10 }, () => refund(id, 3_000)));
      expect(results.filter((r) => r.ok)).toHaveLength(3);
      expect(results.filter((r) => !r.ok)).toEqual(Array.from({ length: 7 }, () => tooLarge));
      expect(await refundedOf(id)).toBe(9_000);
      const rows = await refundsOf(id);
      expect(rows.reduce((sum, row) => sum + row.amountCents, 0)).toBe(9_000);
    });

    it.each([0, -100, 12.5])("throws for the amount %d", async (amount) => {
      await expect(refund(await captured(), amount)).rejects.toThrow(RangeError);
    });
  });
});
