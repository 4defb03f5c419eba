import { randomUUID } from "node:crypto";
import { logger } from "../../adapters/logger.server.ts";
import type { Mailer } from "../../adapters/mail/mail-message.ts";
import type { PaymentGateway } from "../../adapters/payments/payment-gateway.ts";
import type { Database } from "../../db/database.server.ts";
import { getEnv } from "../../env.server.ts";
import { formatExpiry, validatePaymentForm } from "../../lib/payment-card.ts";
import type { Toast } from "../../lib/toast.ts";
import { saveCard } from "../accounts/payment-methods.server.ts";
import { CART_MESSAGES } from "../cart/messages.server.ts";
import { sendPlacedOrderConfirmation } from "../orders/order-confirmation.server.ts";
import { placeOrder } from "../orders/place-order.server.ts";
import { boundFeedback, type CheckoutState, type StepFeedback } from "./checkout-progress.server.ts";
import {
  INVALID_FIELDS_MESSAGE,
  parseShippingMethod,
  requiredFieldsMessage,
  validateShipping,
} from "./shipping-form.ts";

export type CheckoutStep = "shipping" | "payment" | "review" | "confirmation";

/** Where to send the shopper next, with what state, toast and one-time feedback. */
export interface StepOutcome {
  to: string;
  state: CheckoutState;
  toast?: Omit<Toast, "id">;
  feedback?: StepFeedback;
}

export const CHECKOUT_MESSAGES = {
  priceChanged: "Prices have changed since you reviewed your order. Please check the new total.",
  emptyCart: "Your cart is empty",
  sessionExpired: "Your checkout session has expired. Please enter your details again.",
} as const;

export const stepPath = (step: CheckoutStep) =>
  step === "shipping" ? "/checkout" : `/checkout?step=${step}`;

const fieldsOf = (form: FormData): Record<string, string> => {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) {
    if (typeof value === "string" && !(name in fields)) fields[name] = value.slice(0, 1000);
  }
  return fields;
};

/** Step 1: all nine fields required, formats checked; the method comes along. */
export function submitShipping(form: FormData, state: CheckoutState): StepOutcome {
  const fields = fieldsOf(form);
  const method = parseShippingMethod(fields.shippingMethod);
  const checked = validateShipping(fields);
  if (!checked.ok) {
    return {
      to: stepPath("shipping"),
      state: { ...state, method },
      toast: {
        type: "error",
        message: checked.missing.length > 0 ? requiredFieldsMessage(checked.missing) : INVALID_FIELDS_MESSAGE,
      },
      // the nine fields' values (cut short) and messages; any other posted name is ignored
      feedback: boundFeedback({ values: fields, fieldErrors: checked.fieldErrors }),
    };
  }
  return { to: stepPath("payment"), state: { ...state, shipping: checked.value, method } };
}

/**
 * Step 2: the four card fields checked here and again by the gateway, which exchanges the card
 * for a token (a declined card stops here). Only the token, brand, last 4 and expiry are kept.
 */
export async function submitPayment(
  form: FormData,
  state: CheckoutState,
  gateway: PaymentGateway,
  now = new Date(),
): Promise<StepOutcome> {
  if (!state.shipping) return { to: stepPath("shipping"), state };
  const fields = fieldsOf(form);
  // Never echo the card number or CVV back (not even into the checkout in progress).
  const keep = {
    cardName: (fields.cardName ?? "").slice(0, 100),
    expiryDate: (fields.expiryDate ?? "").slice(0, 5),
  };
  const checked = validatePaymentForm(fields, now);
  if (!checked.ok) {
    return {
      to: stepPath("payment"),
      state: { ...state, payment: undefined },
      toast: {
        type: "error",
        message: checked.missing.length > 0 ? requiredFieldsMessage(checked.missing) : INVALID_FIELDS_MESSAGE,
      },
      feedback: boundFeedback({ values: keep, fieldErrors: checked.fieldErrors }),
    };
  }
  const card = checked.value;
  const tokenized = await gateway.tokenize({
    number: card.cardNumber,
    expMonth: card.expMonth,
    expYear: card.expYear,
    cvv: card.cvv,
    name: card.cardName,
  });
  if (!tokenized.ok) {
    return {
      to: stepPath("payment"),
      state: { ...state, payment: undefined },
      toast: { type: "error", message: tokenized.message },
      feedback: { values: keep, fieldErrors: { cardNumber: tokenized.message } },
    };
  }
  return {
    to: stepPath("review"),
    state: {
      ...state,
      payment: {
        token: tokenized.token,
        brand: tokenized.brand,
        last4: tokenized.last4,
        expiry: formatExpiry(
          `${String(tokenized.expMonth).padStart(2, "0")}${String(tokenized.expYear % 100).padStart(2, "0")}`,
        ),
        cardName: card.cardName,
        saveInfo: fields.saveInfo === "on" || fields.saveInfo === "true",
      },
      idempotencyKey: randomUUID(),
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Step 3 → 4: places the order. A repeated submission (same key) lands on the same
 * confirmation; every refusal sends the shopper to the step that can fix it.
 */
export async function submitPlaceOrder(
  form: FormData,
  state: CheckoutState,
  deps: {
    db: Database;
    gateway: PaymentGateway;
    mailer: Mailer;
    cartId: string | null;
    userId?: string | null;
  },
): Promise<StepOutcome> {
  const fields = fieldsOf(form);
  const key = fields.idempotencyKey ?? "";
  const expectedTotalCents = Number(fields.expectedTotalCents);
  if (!UUID.test(key)) return { to: stepPath("review"), state };
  if (!state.shipping || !state.payment || !deps.cartId || !Number.isSafeInteger(expectedTotalCents)) {
    // nothing to place with; but this may be a resubmission of an order already placed (its
    // checkout state is gone): then it lands on that confirmation (placeOrder checks the key too)
    const placed = await deps.db
      .selectFrom("orders")
      .select("number")
      .where("idempotencyKey", "=", key)
      .executeTakeFirst();
    if (placed) return { to: stepPath("confirmation"), state: { placedOrder: placed.number } };
    if (!state.shipping)
      return {
        to: stepPath("shipping"),
        state,
        toast: { type: "error", message: CHECKOUT_MESSAGES.sessionExpired },
      };
    if (!state.payment || !deps.cartId) return { to: stepPath("payment"), state };
    return { to: stepPath("review"), state };
  }

  const result = await placeOrder(deps.db, deps.gateway, {
    cartId: deps.cartId,
    idempotencyKey: key,
    shipping: state.shipping,
    method: state.method ?? "standard",
    payment: { token: state.payment.token, brand: state.payment.brand, last4: state.payment.last4 },
    expectedTotalCents,
    userId: deps.userId ?? null,
  });
  switch (result.status) {
    case "placed":
      if (!result.replayed) {
        const env = getEnv();
        await sendPlacedOrderConfirmation(
          deps.db,
          deps.mailer,
          { shopName: env.SHOP_NAME, publicUrl: env.PUBLIC_URL },
          result.order.number,
        );
        if (deps.userId && state.payment.saveInfo) await rememberCard(deps.db, deps.userId, state.payment);
      }
      return { to: stepPath("confirmation"), state: { placedOrder: result.order.number } };
    case "empty-cart":
      return { to: "/cart", state, toast: { type: "error", message: CHECKOUT_MESSAGES.emptyCart } };
    case "out-of-stock":
      return {
        to: "/cart",
        state,
        toast: { type: "error", message: CART_MESSAGES.outOfStock(result.productName) },
      };
    case "coupon-invalid":
      return { to: "/cart", state, toast: { type: "error", message: result.message } };
    case "price-changed":
      return {
        to: stepPath("review"),
        state,
        toast: { type: "warning", message: CHECKOUT_MESSAGES.priceChanged },
      };
    case "payment-declined":
      return {
        to: stepPath("payment"),
        state: { ...state, payment: undefined },
        toast: { type: "error", message: result.message },
        feedback: {
          values: { cardName: state.payment.cardName, expiryDate: state.payment.expiry },
          fieldErrors: { cardNumber: result.message },
        },
      };
  }
}

/** "Save this card": brand, last 4, expiry and the gateway's token — never the number. */
async function rememberCard(db: Database, userId: string, payment: NonNullable<CheckoutState["payment"]>) {
  const [month, year] = payment.expiry.split("/").map(Number);
  try {
    await saveCard(db, {
      userId,
      brand: payment.brand,
      last4: payment.last4,
      expMonth: month ?? 0,
      expYear: 2000 + (year ?? 0),
      cardholderName: payment.cardName,
      gatewayToken: payment.token,
    });
  } catch (error) {
    logger.warn({ err: error }, "could not save the card for later");
  }
}
