import { randomUUID } from "node:crypto";
import type { Mailer } from "../../adapters/mail/mail-message.ts";
import { PAYMENT_MESSAGES, type PaymentGateway } from "../../adapters/payments/payment-gateway.ts";
import type { Database } from "../../db/database.server.ts";
import { formatExpiry } from "../../lib/payment-card.ts";
import { type ShopIdentity, sendCompletedOrderConfirmation } from "../orders/order-confirmation.server.ts";
import { PLACED_STATUSES } from "../orders/order-status.ts";
import { HOSTED_PAYMENT, settleReturning } from "../payments/charges.server.ts";
import { findOrderByKey } from "../payments/idempotency.server.ts";
import type { CheckoutState } from "./checkout-progress.server.ts";
import { CHECKOUT_MESSAGES, type StepOutcome, stepPath } from "./checkout-steps.server.ts";

/**
 * The payment step and the way back with a provider that takes the card in the shopper's browser
 * (Stripe, decision 020): with JavaScript its Payment Element makes a PaymentMethod the shop keeps
 * the id of (never the card); without, the shopper pays on the provider's hosted page after the
 * review. Place Order then sends them to the provider when it asks (3-D Secure, the hosted page),
 * and the provider sends them back to /checkout/return, where their order is settled from what the
 * provider says — their own checkout's order, whatever the address carries.
 */
export const PROVIDER_MESSAGES = {
  stillProcessing:
    "Your payment is still being processed. We will e-mail you as soon as your order is confirmed.",
} as const;

/** Step 2 with the provider: the Payment Element's payment method, or (none) the hosted page. */
export async function submitProviderPayment(
  state: CheckoutState,
  { paymentMethodId }: { paymentMethodId: string | null },
  gateway: PaymentGateway,
): Promise<StepOutcome> {
  if (!state.shipping) return { to: stepPath("shipping"), state };
  const browser = gateway.browser;
  if (!browser) return { to: stepPath("payment"), state };
  if (paymentMethodId === null) {
    // the card is entered on the provider's page, after the review
    return {
      to: stepPath("review"),
      state: {
        ...state,
        payment: {
          token: HOSTED_PAYMENT,
          brand: "Card",
          last4: "-",
          expiry: "-",
          cardName: "",
          saveInfo: false,
        },
        idempotencyKey: randomUUID(),
      },
    };
  }
  const card = await browser.describe(paymentMethodId);
  if (!card) {
    return {
      to: stepPath("payment"),
      state: { ...state, payment: undefined },
      toast: { type: "error", message: PAYMENT_MESSAGES.invalid_token },
    };
  }
  return {
    to: stepPath("review"),
    state: {
      ...state,
      payment: {
        token: paymentMethodId,
        brand: card.brand,
        last4: card.last4,
        expiry: formatExpiry(
          `${String(card.expMonth).padStart(2, "0")}${String(card.expYear % 100).padStart(2, "0")}`,
        ),
        cardName: "",
        saveInfo: false,
      },
      idempotencyKey: randomUUID(),
    },
  };
}

/**
 * The shopper is back from the provider (3-D Secure, or the hosted page — paid, or given up:
 * `cancelled`, which the caller has verified came from the provider's cancel address for this very
 * checkout: a signed value only the shop could have put there, worthless once the order is settled):
 * the order of their checkout in progress is settled from the provider's answer.
 * Paid → the confirmation (its e-mail sent once, the cart emptied); failed → the payment step with
 * the reason; still processing → the cart page, with an e-mail to come.
 */
export async function returnFromProvider(
  state: CheckoutState,
  { cancelled }: { cancelled: boolean },
  deps: { db: Database; gateway: PaymentGateway; mailer: Mailer; shop: ShopIdentity; cartId: string | null },
): Promise<StepOutcome> {
  const { db, gateway } = deps;
  const key = state.idempotencyKey;
  if (!key) {
    return state.placedOrder
      ? { to: stepPath("confirmation"), state }
      : { to: "/cart", state, toast: { type: "error", message: CHECKOUT_MESSAGES.sessionExpired } };
  }
  const order = await findOrderByKey(db, key);
  if (!order) return { to: stepPath(state.payment ? "review" : "payment"), state };

  let status = order.status;
  let message = order.paymentError ?? PAYMENT_MESSAGES.processing_error;
  if (status === "pending_payment") {
    const settled = await settleReturning(db, gateway, order, {
      cartId: deps.cartId ?? undefined,
      cancelled,
    });
    if (settled.status === "paid") {
      status = "paid";
      await sendCompletedOrderConfirmation(db, deps.mailer, deps.shop, order.number);
    } else if (settled.status === "failed") {
      status = "payment_failed";
      message = settled.message;
    } else {
      return {
        to: "/cart",
        state,
        toast: { type: "info", message: PROVIDER_MESSAGES.stillProcessing },
      };
    }
  }
  if (status === "payment_failed") {
    return {
      to: stepPath("payment"),
      state: { ...state, payment: undefined, idempotencyKey: undefined },
      toast: { type: "error", message },
    };
  }
  if (PLACED_STATUSES.includes(status)) {
    // the provider's event may have recorded the payment first: the cart is emptied here then
    if (deps.cartId) await emptyCart(db, deps.cartId);
    return { to: stepPath("confirmation"), state: { placedOrder: order.number } };
  }
  return { to: "/cart", state };
}

async function emptyCart(db: Database, cartId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("cartItems").where("cartId", "=", cartId).execute();
    await trx
      .updateTable("carts")
      .set({ couponCode: null, updatedAt: new Date().toISOString() })
      .where("id", "=", cartId)
      .execute();
  });
}
