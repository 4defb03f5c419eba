import type Stripe from "stripe";
import { isCurrency } from "../../lib/money.ts";
import type {
  AuthorizeInput,
  AuthorizeResult,
  BrowserPayments,
  PaymentGateway,
  PaymentOutcome,
  PaymentReport,
  RefundOutcome,
  RefundResult,
} from "./payment-gateway.ts";
import {
  cardBrand,
  cardOfIntent,
  IDEMPOTENCY_METADATA,
  ORDER_METADATA,
  outcomeOfIntent,
  refusal,
  refusalFor,
  TOKENIZE_UNSUPPORTED,
} from "./stripe-meaning.ts";

/**
 * The Stripe gateway, through the official SDK. Card details never reach the shop: the browser
 * hands them to Stripe's Payment Element, which gives back a PaymentMethod id (`pm_…`); that id is
 * the `token` given to `authorize`. So `tokenize` is not supported here (it throws).
 *
 * - authorize: one PaymentIntent per idempotency key (the key is both the request's
 *   `Idempotency-Key` and `metadata.idempotency_key`; the order's number is `metadata.order_number`),
 *   confirmed at once. Card declines are answered with PAYMENT_MESSAGES; an intent that asks for
 *   3-D Secure is answered with the bank's page to send the shopper to when a `returnUrl` was
 *   given, else cancelled and answered `processing_error`. Anything that leaves the outcome unknown — no
 *   connection, Stripe's 5xx, rate limits, a bad API key, a request Stripe refused for a reason
 *   that is not the card's — is thrown, never answered as a decline: the workflow then leaves the
 *   order pending and the reconciliation job asks `outcome` later.
 * - outcome: the PaymentIntents whose metadata carry the key, found by the Search API (or, where
 *   an account cannot search, by listing the last days' intents).
 * - capture / void: already captured / already cancelled is fine.
 * - refund: only a captured (succeeded) intent; Stripe caps refunds at what is left.
 * - browser (BrowserPayments): the card behind the Payment Element's PaymentMethod, hosted Checkout
 *   Sessions for shoppers without JavaScript, where a payment or session stands, its refunds.
 */

export interface StripeGatewayOptions {
  /** `sk_test_…` or `sk_live_…` */
  secretKey: string;
  /** `pk_test_…` or `pk_live_…`: the browser's Payment Element */
  publishableKey?: string;
  /** another API host (a stripe-mock style server or the test server); api.stripe.com by default */
  host?: string;
  port?: number;
  protocol?: "http" | "https";
  /** the SDK's retries of a failed request, with the same idempotency key (default 2) */
  maxNetworkRetries?: number;
  /** per request (default 30 s) */
  timeoutMs?: number;
}

/** How far back `outcome` looks when it has to list instead of search (an authorization lasts 7 days). */
const LIST_LOOKBACK_SECONDS = 8 * 24 * 60 * 60;

const REFUND_MESSAGES = {
  not_captured: "Only a captured payment can be refunded.",
  amount_too_large: "The refund is more than what is left of the payment.",
  key_reused: "This idempotency key was used for another refund.",
} as const;

/**
 * The SDK is loaded when a Stripe gateway is made, not when this module is: it takes ~200 ms to
 * import, which every process on the test gateway (and every test file) would pay for nothing.
 */
type StripeSdk = typeof import("stripe").default;
let sdk: Promise<StripeSdk> | undefined;
/** Stripe's error classes, once the SDK is loaded (it is by the time any call has answered). */
let errors: StripeSdk["errors"] | undefined;
const loadSdk = () => {
  sdk ??= import("stripe").then((module) => {
    errors = module.default.errors;
    return module.default;
  });
  return sdk;
};

type ErrorKind =
  | "StripeCardError"
  | "StripeIdempotencyError"
  | "StripeInvalidRequestError"
  | "StripePermissionError";

const isStripeError = <K extends ErrorKind>(
  error: unknown,
  kind: K,
): error is InstanceType<StripeSdk["errors"][K]> => errors !== undefined && error instanceof errors[kind];

const isInvalidRequest = (error: unknown, code?: string): error is Stripe.errors.StripeInvalidRequestError =>
  isStripeError(error, "StripeInvalidRequestError") && (code === undefined || error.code === code);

/** Search query text: a single-quoted value with `\` and `'` escaped. */
const quoted = (value: string) => `'${value.replace(/[\\']/g, (c) => `\\${c}`)}'`;

export function createStripeGateway(options: StripeGatewayOptions): PaymentGateway {
  if (!options.secretKey?.startsWith("sk_")) throw new Error("The Stripe gateway needs a secret key (sk_…)");
  const client = loadSdk().then(
    (StripeSdk) =>
      new StripeSdk(options.secretKey, {
        maxNetworkRetries: options.maxNetworkRetries ?? 2,
        timeout: options.timeoutMs ?? 30_000,
        appInfo: { name: "Cartwheel" },
        ...(options.host !== undefined ? { host: options.host } : {}),
        ...(options.port !== undefined ? { port: options.port } : {}),
        ...(options.protocol !== undefined ? { protocol: options.protocol } : {}),
      }),
  );
  client.catch(() => {}); // a failed load is reported by the first call that awaits it

  /** Cancels an intent nobody will complete; one already cancelled is fine. */
  async function cancelIntent(id: string): Promise<void> {
    try {
      await (await client).paymentIntents.cancel(id, { cancellation_reason: "abandoned" });
    } catch (error) {
      if (!isInvalidRequest(error, "payment_intent_unexpected_state")) throw error;
      const current = await (await client).paymentIntents.retrieve(id);
      if (current.status !== "canceled") throw error;
    }
  }

  /** What an intent made for `authorize` means for the shopper now. */
  async function answerFor(intent: Stripe.PaymentIntent, canRedirect: boolean): Promise<AuthorizeResult> {
    switch (intent.status) {
      case "requires_capture":
      case "succeeded":
        return { ok: true, authorizationId: intent.id };
      case "processing":
        // the card network has not answered yet: unknown, like a lost connection
        throw new Error(`Stripe is still processing payment ${intent.id}; ask for its outcome later`);
      case "requires_action":
      case "requires_confirmation": {
        // 3-D Secure: the shopper goes to the bank's page and comes back to the return URL
        const url = intent.next_action?.redirect_to_url?.url;
        if (canRedirect && intent.status === "requires_action" && url) {
          return { ok: "action", authorizationId: intent.id, redirectUrl: url };
        }
        // a step this payment cannot take the shopper through: the intent is cancelled so that
        // it can never be completed after the order was given up
        await cancelIntent(intent.id);
        return refusal("processing_error");
      }
      case "requires_payment_method": {
        const error = intent.last_payment_error;
        return error ? refusalFor(error.code, error.decline_code) : refusal("processing_error");
      }
      default:
        return refusal("processing_error");
    }
  }

  /** The intents made with this idempotency key, newest first. */
  async function intentsFor(idempotencyKey: string): Promise<Stripe.PaymentIntent[]> {
    let found: Stripe.PaymentIntent[];
    try {
      const result = await (await client).paymentIntents.search({
        query: `metadata[${quoted(IDEMPOTENCY_METADATA)}]:${quoted(idempotencyKey)}`,
        limit: 100,
      });
      found = result.data;
    } catch (error) {
      // an account without the Search API (it is not offered everywhere) is refused; an outage is thrown
      const refused =
        isStripeError(error, "StripeInvalidRequestError") || isStripeError(error, "StripePermissionError");
      if (!refused) throw error;
      found = [];
      const since = Math.floor(Date.now() / 1000) - LIST_LOOKBACK_SECONDS;
      for await (const intent of (await client).paymentIntents.list({
        limit: 100,
        created: { gte: since },
      })) {
        found.push(intent);
      }
    }
    return found.filter((intent) => intent.metadata?.[IDEMPOTENCY_METADATA] === idempotencyKey);
  }

  /**
   * The key was used before with other parameters (another amount, or another card after the
   * first attempt): the first payment's answer stands, as with the test gateway.
   */
  async function answerFromEarlier(input: AuthorizeInput, refused: unknown): Promise<AuthorizeResult> {
    const [intent] = await intentsFor(input.idempotencyKey);
    if (!intent) throw refused; // e.g. the first request is still under way: unknown for now
    if (intent.amount !== input.amountCents) return refusal("processing_error");
    return answerFor(intent, input.returnUrl !== undefined);
  }

  async function authorizeRefused(input: AuthorizeInput, error: unknown): Promise<AuthorizeResult> {
    if (isStripeError(error, "StripeCardError")) return refusalFor(error.code, error.decline_code);
    if (isStripeError(error, "StripeIdempotencyError")) return answerFromEarlier(input, error);
    if (isStripeError(error, "StripeInvalidRequestError")) {
      // refused before anything was charged, for a reason of the payment's own
      if (error.param === "payment_method") return refusal("invalid_token");
      if (error.code === "amount_too_small" || error.code === "amount_too_large") {
        return refusal("processing_error");
      }
    }
    // connection, 5xx, 429, authentication, anything unforeseen: the outcome is not known
    throw error;
  }

  const browser: BrowserPayments = {
    publishableKey: options.publishableKey ?? "",

    async describe(paymentMethodId) {
      if (!/^pm_[A-Za-z0-9_]+$/.test(paymentMethodId)) return null;
      try {
        const method = await (await client).paymentMethods.retrieve(paymentMethodId);
        if (!method.card) return null;
        return {
          brand: cardBrand(method.card.brand),
          last4: method.card.last4,
          expMonth: method.card.exp_month,
          expYear: method.card.exp_year,
        };
      } catch (error) {
        if (isInvalidRequest(error, "resource_missing")) return null;
        throw error;
      }
    },

    async startHostedPayment(input) {
      const metadata = { [IDEMPOTENCY_METADATA]: input.idempotencyKey, [ORDER_METADATA]: input.orderNumber };
      const session = await (await client).checkout.sessions.create(
        {
          mode: "payment",
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: input.currency.toLowerCase(),
                unit_amount: input.amountCents,
                product_data: { name: input.description },
              },
            },
          ],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          client_reference_id: input.orderNumber,
          customer_email: input.email,
          expires_at: Math.floor(input.expiresAt.getTime() / 1000),
          metadata,
          payment_intent_data: { metadata },
        },
        { idempotencyKey: `${input.idempotencyKey}:hosted` },
      );
      if (!session.url) throw new Error(`Stripe gave Checkout Session ${session.id} no URL`);
      return { url: session.url, reference: session.id };
    },

    async report(reference): Promise<PaymentReport> {
      if (reference.startsWith("cs_")) {
        const session = await (await client).checkout.sessions.retrieve(reference, {
          expand: ["payment_intent.latest_charge"],
        });
        const intent = typeof session.payment_intent === "object" ? session.payment_intent : null;
        return {
          paymentId:
            intent?.id ?? (typeof session.payment_intent === "string" ? session.payment_intent : null),
          orderNumber: session.client_reference_id ?? session.metadata?.[ORDER_METADATA] ?? null,
          outcome: intent ? outcomeOfIntent(intent) : { status: "none" },
          card: intent ? cardOfIntent(intent) : null,
        };
      }
      const intent = await (await client).paymentIntents.retrieve(reference, { expand: ["latest_charge"] });
      return {
        paymentId: intent.id,
        orderNumber: intent.metadata?.[ORDER_METADATA] ?? null,
        outcome: outcomeOfIntent(intent),
        card: cardOfIntent(intent),
      };
    },

    async closeHostedPayment(reference) {
      if (!reference.startsWith("cs_")) return;
      try {
        await (await client).checkout.sessions.expire(reference);
      } catch (error) {
        // already expired or paid: nothing to close
        if (!isStripeError(error, "StripeInvalidRequestError")) throw error;
        const session = await (await client).checkout.sessions.retrieve(reference);
        if (session.status === "open") throw error;
      }
    },

    async refundsOf(paymentId) {
      const refunds: { id: string; amountCents: number; shopKey: string | null }[] = [];
      for await (const refund of (await client).refunds.list({ payment_intent: paymentId, limit: 100 })) {
        if (refund.status === "failed" || refund.status === "canceled") continue;
        refunds.push({
          id: refund.id,
          amountCents: refund.amount,
          shopKey: refund.metadata?.[IDEMPOTENCY_METADATA] ?? null,
        });
      }
      return refunds;
    },
  };

  return {
    name: "stripe",
    browser,

    async tokenize() {
      throw new Error(TOKENIZE_UNSUPPORTED);
    },

    // a PaymentMethod the shopper's app made with Stripe's SDK
    describeToken: (token) => browser.describe(token),

    async authorize(input): Promise<AuthorizeResult> {
      if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) {
        throw new RangeError(`Payment amount must be a positive number of cents, got ${input.amountCents}`);
      }
      if (!isCurrency(input.currency))
        throw new RangeError(`Unsupported currency: ${String(input.currency)}`);
      if (typeof input.token !== "string" || !input.token.startsWith("pm_")) {
        return refusal("invalid_token");
      }
      let intent: Stripe.PaymentIntent;
      try {
        intent = await (await client).paymentIntents.create(
          {
            amount: input.amountCents,
            currency: input.currency.toLowerCase(),
            payment_method: input.token,
            confirm: true,
            capture_method: input.capture ? "automatic" : "manual",
            // with a return URL the bank may take the shopper through 3-D Secure and send them back
            ...(input.returnUrl
              ? { automatic_payment_methods: { enabled: true }, return_url: input.returnUrl }
              : { automatic_payment_methods: { enabled: true, allow_redirects: "never" } }),
            metadata: {
              [IDEMPOTENCY_METADATA]: input.idempotencyKey,
              ...(input.orderNumber ? { [ORDER_METADATA]: input.orderNumber } : {}),
            },
          },
          { idempotencyKey: input.idempotencyKey },
        );
      } catch (error) {
        return authorizeRefused(input, error);
      }
      return answerFor(intent, input.returnUrl !== undefined);
    },

    async capture(authorizationId) {
      try {
        await (await client).paymentIntents.capture(authorizationId);
      } catch (error) {
        if (isInvalidRequest(error, "resource_missing")) {
          throw new Error("Unknown payment authorization", { cause: error });
        }
        if (!isInvalidRequest(error, "payment_intent_unexpected_state")) throw error;
        const current = await (await client).paymentIntents.retrieve(authorizationId);
        if (current.status === "succeeded") return; // captured before: a retry
        throw new Error(`The payment authorization cannot be captured (${current.status})`, { cause: error });
      }
    },

    async void(authorizationId) {
      try {
        await (await client).paymentIntents.cancel(authorizationId);
      } catch (error) {
        if (isInvalidRequest(error, "resource_missing")) {
          throw new Error("Unknown payment authorization", { cause: error });
        }
        if (!isInvalidRequest(error, "payment_intent_unexpected_state")) throw error;
        const current = await (await client).paymentIntents.retrieve(authorizationId);
        if (current.status === "canceled") return; // voided before: a retry
        throw new Error(`The payment authorization cannot be voided (${current.status})`, { cause: error });
      }
    },

    async outcome(idempotencyKey): Promise<PaymentOutcome> {
      const intents = await intentsFor(idempotencyKey);
      const withStatus = (status: Stripe.PaymentIntent.Status) => intents.find((i) => i.status === status);
      const captured = withStatus("succeeded");
      if (captured) {
        return { status: "captured", authorizationId: captured.id, amountCents: captured.amount_received };
      }
      const authorized = withStatus("requires_capture");
      if (authorized)
        return { status: "authorized", authorizationId: authorized.id, amountCents: authorized.amount };
      const processing = withStatus("processing");
      if (processing) throw new Error(`Stripe is still processing payment ${processing.id}`);
      const voided = withStatus("canceled");
      if (voided) return { status: "voided", authorizationId: voided.id, amountCents: voided.amount };
      const declined = intents.find((i) => i.status === "requires_payment_method" && i.last_payment_error);
      if (declined?.last_payment_error) {
        const { code, decline_code } = declined.last_payment_error;
        return { status: "declined", code: refusalFor(code, decline_code).code };
      }
      // nothing, or an intent never confirmed: no money was taken or held
      return { status: "none" };
    },

    async refund({ authorizationId, amountCents, idempotencyKey }): Promise<RefundResult> {
      if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
        throw new RangeError(`Refund amount must be a positive number of cents, got ${amountCents}`);
      }
      const refused = (code: keyof typeof REFUND_MESSAGES): RefundResult => ({
        ok: false,
        code,
        message: REFUND_MESSAGES[code],
      });
      let intent: Stripe.PaymentIntent;
      try {
        intent = await (await client).paymentIntents.retrieve(authorizationId);
      } catch (error) {
        if (isInvalidRequest(error, "resource_missing")) {
          throw new Error("Unknown payment authorization", { cause: error });
        }
        throw error;
      }
      // an uncaptured authorization is voided, not refunded
      if (intent.status !== "succeeded") return refused("not_captured");
      try {
        const refund = await (await client).refunds.create(
          {
            payment_intent: authorizationId,
            amount: amountCents,
            metadata: { [IDEMPOTENCY_METADATA]: idempotencyKey },
          },
          { idempotencyKey },
        );
        if (refund.status === "failed" || refund.status === "canceled") {
          throw new Error(
            `Stripe refund ${refund.id} ${refund.status}: ${refund.failure_reason ?? "no reason"}`,
          );
        }
        return { ok: true, refundId: refund.id };
      } catch (error) {
        if (isStripeError(error, "StripeIdempotencyError")) return refused("key_reused");
        if (
          isInvalidRequest(error, "charge_already_refunded") ||
          isInvalidRequest(error, "amount_too_large")
        ) {
          return refused("amount_too_large");
        }
        if (isInvalidRequest(error, "charge_not_refundable")) return refused("not_captured");
        // charge_disputed, outages and the unforeseen: thrown (the refund stays pending: its
        // outcome is asked for later, refundOutcome)
        throw error;
      }
    },

    async refundOutcome({ authorizationId, idempotencyKey }): Promise<RefundOutcome> {
      for await (const refund of (await client).refunds.list({
        payment_intent: authorizationId,
        limit: 100,
      })) {
        if (refund.metadata?.[IDEMPOTENCY_METADATA] !== idempotencyKey) continue;
        if (refund.status === "failed" || refund.status === "canceled") {
          return { status: "failed", message: refund.failure_reason ?? `the refund was ${refund.status}` };
        }
        // succeeded, or pending at the bank: the money is on its way back
        return { status: "succeeded", refundId: refund.id, amountCents: refund.amount };
      }
      return { status: "none" };
    },
  };
}
