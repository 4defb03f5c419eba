import { createHmac, createSecretKey, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Database } from "../../db/database.server.ts";
import { getEnv } from "../../env.server.ts";
import { isCurrency } from "../../lib/money.ts";
import { cardBrand, isExpired, luhnValid } from "../../lib/payment-card.ts";
import {
  type AuthorizeErrorCode,
  type AuthorizeResult,
  PAYMENT_MESSAGES,
  type PaymentGateway,
  type PaymentOutcome,
  type RefundOutcome,
  type RefundResult,
} from "./payment-gateway.ts";

/**
 * The built-in test gateway: answers like the well-known test cards, moves no money, and never
 * keeps the card number or security code. Tokens and authorization ids are signed rather than
 * stored, so any app process with the same secret accepts them, across restarts too.
 *
 *   4242 4242 4242 4242 (and any other Luhn-valid number)  → approved
 *   4000 0000 0000 0002                                    → card_declined (at tokenize)
 *   4000 0000 0000 9995                                    → insufficient_funds (at tokenize)
 *
 * Declines at charge time (authorize) are exercised with tokens from `mintTestToken(outcome)`.
 */

export type TestOutcome = "approve" | "card_declined" | "insufficient_funds" | "processing_error";

export interface TestGatewayOptions {
  /** simulated provider processing time for authorize */
  processingDelayMs: number;
  /** signs tokens and authorization ids (the app's SESSION_SECRET) */
  secret: string;
  /** where the gateway keeps its ledger (`test_gateway_payments`, migration 1400), as a provider would */
  db: Database;
  /** the clock for the expiry check; the real one by default */
  now?: () => Date;
}

const DECLINING_CARDS: Record<string, TestOutcome> = {
  "4000000000000002": "card_declined",
  "4000000000009995": "insufficient_funds",
};

const TOKEN_PREFIX = "tok_test_";
const AUTHORIZATION_PREFIX = "auth_test_";

const tokenPayload = z.object({
  n: z.string(),
  b: z.enum(["Visa", "MasterCard", "American Express", "Discover", "Card"]),
  l: z.string().regex(/^\d{4}$/),
  m: z.number().int().min(1).max(12),
  y: z.number().int(),
  o: z.enum(["approve", "card_declined", "insufficient_funds", "processing_error"]),
});
type TokenPayload = z.infer<typeof tokenPayload>;

/** A key of its own for this purpose, so nothing signed here is valid anywhere else the secret is used. */
function signer(secret: string) {
  if (!secret) throw new Error("The test payment gateway needs a secret");
  // a KeyObject made once: an HMAC with it costs a few µs, with raw key bytes ~15 µs (re-imported each time)
  const key = createSecretKey(createHmac("sha256", secret).update("cartwheel:test-gateway:v1").digest());
  const sign = (purpose: string, data: string) =>
    createHmac("sha256", key).update(`${purpose}:${data}`).digest().subarray(0, 16).toString("base64url");
  const verify = (purpose: string, data: string, signature: string) => {
    const expected = Buffer.from(sign(purpose, data));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  };
  return { sign, verify };
}

type Signer = ReturnType<typeof signer>;

function encodeToken(signing: Signer, payload: Omit<TokenPayload, "n">): string {
  const body = Buffer.from(JSON.stringify({ n: randomBytes(12).toString("base64url"), ...payload })).toString(
    "base64url",
  );
  return `${TOKEN_PREFIX}${body}.${signing.sign("token", body)}`;
}

function decodeToken(signing: Signer, token: string): TokenPayload | null {
  if (typeof token !== "string" || !token.startsWith(TOKEN_PREFIX) || token.length > 1000) return null;
  const [body, signature, ...rest] = token.slice(TOKEN_PREFIX.length).split(".");
  if (!body || !signature || rest.length > 0 || !signing.verify("token", body, signature)) return null;
  try {
    const parsed = tokenPayload.safeParse(JSON.parse(Buffer.from(body, "base64url").toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function isKnownAuthorization(signing: Signer, id: string): boolean {
  if (typeof id !== "string" || !id.startsWith(AUTHORIZATION_PREFIX)) return false;
  const [body, signature, ...rest] = id.slice(AUTHORIZATION_PREFIX.length).split(".");
  return Boolean(body && signature && rest.length === 0 && signing.verify("authorization", body, signature));
}

const REFUND_MESSAGES = {
  not_captured: "Only a captured payment can be refunded.",
  amount_too_large: "The refund is more than what is left of the payment.",
  key_reused: "This idempotency key was used for another refund.",
} as const;

class RefundRefused extends Error {
  readonly code: "not_captured" | "amount_too_large";
  constructor(code: "not_captured" | "amount_too_large") {
    super(code);
    this.code = code;
  }
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createTestGateway(options: TestGatewayOptions): PaymentGateway {
  const signing = signer(options.secret);
  const now = options.now ?? (() => new Date());
  const delay = Math.max(0, options.processingDelayMs);
  const { db } = options;
  const ledger = () => db.selectFrom("testGatewayPayments");

  return {
    name: "test",
    // the shop's own card form (tokenize) takes the card
    browser: null,

    async tokenize(card) {
      const number = typeof card.number === "string" ? card.number.replace(/[\s-]/g, "") : "";
      if (!/^\d{12,16}$/.test(number) || !luhnValid(number)) {
        return { ok: false, code: "invalid_number", message: PAYMENT_MESSAGES.invalid_number };
      }
      const expMonth = card.expMonth;
      const expYear = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
      if (
        !Number.isInteger(expMonth) ||
        !Number.isInteger(expYear) ||
        expMonth < 1 ||
        expMonth > 12 ||
        isExpired({ month: expMonth, year: expYear }, now())
      ) {
        return { ok: false, code: "expired_card", message: PAYMENT_MESSAGES.expired_card };
      }
      if (typeof card.cvv !== "string" || !/^\d{3,4}$/.test(card.cvv)) {
        return { ok: false, code: "invalid_cvc", message: PAYMENT_MESSAGES.invalid_cvc };
      }
      const outcome = DECLINING_CARDS[number];
      if (outcome === "card_declined" || outcome === "insufficient_funds") {
        return { ok: false, code: outcome, message: PAYMENT_MESSAGES[outcome] };
      }
      const brand = cardBrand(number);
      const last4 = number.slice(-4);
      const token = encodeToken(signing, { b: brand, l: last4, m: expMonth, y: expYear, o: "approve" });
      return { ok: true, token, brand, last4, expMonth, expYear };
    },

    async describeToken(token) {
      const payload = decodeToken(signing, token);
      return payload ? { brand: payload.b, last4: payload.l, expMonth: payload.m, expYear: payload.y } : null;
    },

    async authorize(input): Promise<AuthorizeResult> {
      if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) {
        throw new RangeError(`Payment amount must be a positive number of cents, got ${input.amountCents}`);
      }
      if (!isCurrency(input.currency))
        throw new RangeError(`Unsupported currency: ${String(input.currency)}`);
      if (delay > 0) await wait(delay);

      const payload = decodeToken(signing, input.token);
      if (!payload) return { ok: false, code: "invalid_token", message: PAYMENT_MESSAGES.invalid_token };

      // Derived from the request, so a retry with the same idempotency key gets the same id.
      const body = signing.sign(
        "idempotency",
        JSON.stringify([input.idempotencyKey, input.amountCents, input.currency, input.token]),
      );
      const authorizationId = `${AUTHORIZATION_PREFIX}${body}.${signing.sign("authorization", body)}`;
      const declined = payload.o === "approve" ? null : payload.o;
      const columns = ["authorizationId", "amountCents", "status", "declineCode"] as const;
      // the key's first answer stands (a provider replays it): a new key is one write, a replay
      // finds nothing inserted and reads what the first call stored
      const stored =
        (await db
          .insertInto("testGatewayPayments")
          .values({
            idempotencyKey: input.idempotencyKey,
            authorizationId,
            amountCents: input.amountCents,
            status: declined ? "declined" : input.capture ? "captured" : "authorized",
            declineCode: declined,
            createdAt: now().toISOString(),
          })
          .onConflict((oc) => oc.column("idempotencyKey").doNothing())
          .returning(columns)
          .executeTakeFirst()) ??
        (await ledger()
          .select(columns)
          .where("idempotencyKey", "=", input.idempotencyKey)
          .executeTakeFirstOrThrow());
      if (stored.amountCents !== input.amountCents) {
        return { ok: false, code: "processing_error", message: PAYMENT_MESSAGES.processing_error };
      }
      if (stored.status === "declined") {
        const code = (stored.declineCode ?? "card_declined") as Exclude<TestOutcome, "approve">;
        return { ok: false, code, message: PAYMENT_MESSAGES[code] };
      }
      return { ok: true, authorizationId: stored.authorizationId };
    },

    async capture(authorizationId) {
      if (!isKnownAuthorization(signing, authorizationId)) throw new Error("Unknown payment authorization");
      const done = await db
        .updateTable("testGatewayPayments")
        .set({ status: "captured" })
        .where("authorizationId", "=", authorizationId)
        .where("status", "in", ["authorized", "captured"])
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1)
        throw new Error("The payment authorization was voided or is unknown");
    },

    async void(authorizationId) {
      if (!isKnownAuthorization(signing, authorizationId)) throw new Error("Unknown payment authorization");
      const done = await db
        .updateTable("testGatewayPayments")
        .set({ status: "voided" })
        .where("authorizationId", "=", authorizationId)
        .where("status", "in", ["authorized", "voided"])
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1)
        throw new Error("The payment authorization was captured or is unknown");
    },

    async outcome(idempotencyKey): Promise<PaymentOutcome> {
      const stored = await ledger()
        .select(["authorizationId", "amountCents", "status", "declineCode"])
        .where("idempotencyKey", "=", idempotencyKey)
        .executeTakeFirst();
      if (!stored) return { status: "none" };
      if (stored.status === "declined") {
        return { status: "declined", code: (stored.declineCode ?? "card_declined") as AuthorizeErrorCode };
      }
      return {
        status: stored.status,
        authorizationId: stored.authorizationId,
        amountCents: stored.amountCents,
      };
    },

    async refund({ authorizationId, amountCents, idempotencyKey }): Promise<RefundResult> {
      if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
        throw new RangeError(`Refund amount must be a positive number of cents, got ${amountCents}`);
      }
      // the ledger's own transaction (no network call: the ledger is the provider); the refund's
      // row goes in first, so a twin with the same key waits for this one and then replays it
      const refused = (code: "not_captured" | "amount_too_large" | "key_reused"): RefundResult => ({
        ok: false,
        code,
        message: REFUND_MESSAGES[code],
      });
      try {
        return await db.transaction().execute(async (trx): Promise<RefundResult> => {
          const inserted = await trx
            .insertInto("testGatewayRefunds")
            .values({ idempotencyKey, authorizationId, amountCents, createdAt: now().toISOString() })
            .onConflict((oc) => oc.column("idempotencyKey").doNothing())
            .executeTakeFirst();
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
            const stored = await trx
              .selectFrom("testGatewayRefunds")
              .select(["authorizationId", "amountCents"])
              .where("idempotencyKey", "=", idempotencyKey)
              .executeTakeFirstOrThrow();
            // a key stands for one refund: the same one replays, another is refused
            return stored.authorizationId === authorizationId && stored.amountCents === amountCents
              ? { ok: true, refundId: `re_test_${idempotencyKey}` }
              : refused("key_reused");
          }
          const payment = await trx
            .selectFrom("testGatewayPayments")
            .select(["status"])
            .where("authorizationId", "=", authorizationId)
            .executeTakeFirst();
          if (payment?.status !== "captured") throw new RefundRefused("not_captured");
          const taken = await trx
            .updateTable("testGatewayPayments")
            .set((eb) => ({ refundedCents: eb("refundedCents", "+", amountCents) }))
            .where("authorizationId", "=", authorizationId)
            .where((eb) => eb(eb("refundedCents", "+", amountCents), "<=", eb.ref("amountCents")))
            .executeTakeFirst();
          if (Number(taken.numUpdatedRows) !== 1) throw new RefundRefused("amount_too_large");
          return { ok: true, refundId: `re_test_${idempotencyKey}` };
        });
      } catch (error) {
        // thrown to roll the refund's row back with it
        if (error instanceof RefundRefused) return refused(error.code);
        throw error;
      }
    },

    async refundOutcome({ authorizationId, idempotencyKey }): Promise<RefundOutcome> {
      // a refused refund leaves no row (its transaction rolled back): asking again is safe
      const stored = await db
        .selectFrom("testGatewayRefunds")
        .select(["amountCents"])
        .where("idempotencyKey", "=", idempotencyKey)
        .where("authorizationId", "=", authorizationId)
        .executeTakeFirst();
      return stored
        ? { status: "succeeded", refundId: `re_test_${idempotencyKey}`, amountCents: stored.amountCents }
        : { status: "none" };
    },
  };
}

export interface MintTestTokenOptions {
  /** defaults to the app's SESSION_SECRET, i.e. what getPaymentGateway() verifies with */
  secret?: string;
  brand?: TokenPayload["b"];
  last4?: string;
  expMonth?: number;
  expYear?: number;
}

/**
 * For tests: a token as the test gateway would issue, carrying the given outcome, so that a
 * decline or a provider failure can be produced at authorize (charge) time.
 */
export function mintTestToken(outcome: TestOutcome, options: MintTestTokenOptions = {}): string {
  const signing = signer(options.secret ?? getEnv().SESSION_SECRET);
  return encodeToken(signing, {
    b: options.brand ?? "Visa",
    l: options.last4 ?? "4242",
    m: options.expMonth ?? 12,
    y: options.expYear ?? new Date().getUTCFullYear() + 3,
    o: outcome,
  });
}
