import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import { PAYMENT_MESSAGES, type PaymentGateway } from "../../adapters/payments/payment-gateway.ts";
import { type Database, engineOf } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import { recordOrder } from "../../infra/metrics.server.ts";
import { estimatedDeliveryDate } from "../../lib/delivery.ts";
import { calculateTotals, type Pricing, type ShippingMethod, type Totals } from "../../lib/pricing.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import type { CartView } from "../cart/cart-types.ts";
import { getCart } from "../cart/get-cart.server.ts";
import type { ShippingDetails } from "../checkout/shipping-form.ts";
import { checkCoupon, redeemCoupon } from "../coupons/coupons.server.ts";
import { takeStock } from "../inventory/inventory.server.ts";
import {
  DEFAULT_RESERVATION_MS,
  ORDER_COLUMNS,
  type OrderRow,
  type ProviderReturn,
  settlePayment,
  settleReturning,
} from "../payments/charges.server.ts";
import { findOrderByKey } from "../payments/idempotency.server.ts";

export interface PlaceOrderInput {
  cartId: string;
  /** one per checkout attempt: the same submission twice makes one order */
  idempotencyKey: string;
  shipping: ShippingDetails;
  method: ShippingMethod;
  /** the shop's pricing now (its settings): fees, free-shipping threshold, tax, delivery days, currency */
  pricing: Pricing;
  /**
   * the gateway's token for the card checked at the payment step (never the card itself), or
   * HOSTED_PAYMENT for the provider's hosted page
   */
  payment: { token: string; brand: string; last4: string };
  /** where a provider that takes cards in the browser sends the shopper back (3-D Secure, hosted page) */
  provider?: ProviderReturn;
  /** the total the shopper saw on the review step */
  expectedTotalCents: number;
  userId?: string | null;
  /** how long the order holds its stock while the payment is pending (DEFAULT_RESERVATION_MS) */
  reservationMs?: number;
  now?: Date;
}

export interface PlacedOrder {
  id: number;
  number: string;
  email: string;
  totalCents: number;
  estimatedDelivery: string;
}

/** Why an order was not placed: each names what the shopper can fix. */
export type PlaceOrderError =
  | { code: "empty-cart" }
  | { code: "out-of-stock"; productName: string }
  | { code: "price-changed"; totalCents: number }
  | { code: "coupon-invalid"; message: string }
  | { code: "payment-declined"; message: string };

/**
 * The order placed (or, for a repeated submission, the one placed before: `replayed`) — or, with
 * `redirectUrl`, reserved and waiting for the shopper to pay or authenticate at the provider.
 */
export type PlaceOrderResult = Result<
  { order: PlacedOrder; replayed: boolean; redirectUrl: string | null },
  PlaceOrderError
>;

/** Thrown inside the order transaction to roll it back with a reason the shopper can act on. */
class OrderAbort extends Error {
  readonly reason: PlaceOrderError;
  constructor(reason: PlaceOrderError) {
    super(reason.code);
    this.reason = reason;
  }
}

/** Crockford base32 without look-alikes (no I, L, O, U). */
const ORDER_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** "CW-" + 10 random characters (50 bits): unique in practice and not guessable in sequence. */
export function newOrderNumber(): string {
  const bytes = randomBytes(10);
  let suffix = "";
  for (const byte of bytes) suffix += ORDER_ALPHABET[byte & 31];
  return `CW-${suffix}`;
}

/**
 * Places the cart as an order, as steps none of which holds a transaction across a call to the
 * gateway (decision 020):
 * 1. a submission already placed (same idempotency key) answers with that order (one still
 *    pending is settled now: the gateway answers the same key with the same payment); the cart is
 *    priced from the database, and anything short, a coupon that stopped applying, or a total
 *    other than the one the shopper reviewed stops here;
 * 2. one short transaction reserves: the order is written `pending_payment` with its item
 *    snapshots, the stock is taken with guarded updates (never below 0) and the coupon use counted;
 * 3. outside any transaction the gateway authorizes and captures, with the order's idempotency key;
 * 4. one short transaction marks the order `paid` and empties the cart — or, on a decline,
 *    `payment_failed`, giving the stock and the coupon use back.
 * An order left pending (the process died between 2 and 4) is settled by `reconcilePayments`.
 */
export async function placeOrder(
  db: Database,
  gateway: PaymentGateway,
  input: PlaceOrderInput,
): Promise<PlaceOrderResult> {
  const replay = await findOrderByKey(db, input.idempotencyKey);
  if (replay) return answerFor(db, gateway, replay, input);

  const cart = await getCart(db, input.cartId, input.pricing);
  const totals = priceOrder(input.pricing, cart, input.method);
  const problem: PlaceOrderError | null =
    cartProblem(cart) ??
    (totals.totalCents !== input.expectedTotalCents
      ? { code: "price-changed", totalCents: totals.totalCents }
      : null);
  if (problem) {
    // A twin submission may have placed this very order (emptying the cart, clearing its coupon)
    // since the lookup above: then the answer is that order, not the cart's new state.
    const twin = await findOrderByKey(db, input.idempotencyKey);
    return twin ? answerFor(db, gateway, twin, input) : fail(problem);
  }

  const now = input.now ?? new Date();
  let order: OrderRow;
  try {
    order = await db
      .transaction()
      .execute((trx) => reserveOrder(trx, { input, cart, totals, now, gateway: gateway.name }));
  } catch (error) {
    // A twin submission may have won the race: then this one is that order.
    const twin = await findOrderByKey(db, input.idempotencyKey);
    if (twin) return answerFor(db, gateway, twin, input);
    if (error instanceof OrderAbort) return fail(error.reason);
    throw error;
  }
  recordOrder("placed");
  return payFor(db, gateway, order, input, false);
}

/** A submission whose order exists: its answer, settling the payment of one still pending. */
async function answerFor(
  db: Database,
  gateway: PaymentGateway,
  order: OrderRow,
  input: PlaceOrderInput,
): Promise<PlaceOrderResult> {
  switch (order.status) {
    case "pending_payment": {
      // sent to the provider before (3-D Secure, the hosted page): what became of it there first
      if (order.paymentReference) {
        const settled = await settleReturning(db, gateway, order, { cartId: input.cartId, now: input.now });
        if (settled.status === "paid") return ok({ order: placed(order), replayed: true, redirectUrl: null });
        if (settled.status === "failed") return fail({ code: "payment-declined", message: settled.message });
      }
      return payFor(db, gateway, order, input, true);
    }
    case "payment_failed":
      return fail({
        code: "payment-declined",
        message: order.paymentError ?? PAYMENT_MESSAGES.processing_error,
      });
    default:
      return ok({ order: placed(order), replayed: true, redirectUrl: null });
  }
}

/** Steps 3 and 4 for a pending order. */
async function payFor(
  db: Database,
  gateway: PaymentGateway,
  order: OrderRow,
  input: PlaceOrderInput,
  replayed: boolean,
): Promise<PlaceOrderResult> {
  const settled = await settlePayment(db, gateway, {
    order,
    token: input.payment.token,
    cartId: input.cartId,
    now: input.now,
    provider: input.provider,
  });
  switch (settled.status) {
    case "paid":
      // the submission that reserved the order answers as its placer (its caller sends the
      // confirmation), whichever request recorded the payment
      return ok({ order: placed(order), replayed, redirectUrl: null });
    case "redirect":
      return ok({ order: placed(order), replayed, redirectUrl: settled.url });
    case "failed":
      return fail({ code: "payment-declined", message: settled.message });
    case "unknown":
      // left pending: the reconciliation job asks the gateway later and settles it either way
      return fail({ code: "payment-declined", message: PAYMENT_MESSAGES.processing_error });
  }
}

function cartProblem(cart: CartView): PlaceOrderError | null {
  if (cart.lines.length === 0) return { code: "empty-cart" };
  const short = cart.lines.find((line) => line.status !== "ok");
  if (short) return { code: "out-of-stock", productName: short.name };
  if (cart.couponProblem) return { code: "coupon-invalid", message: cart.couponProblem.message };
  return null;
}

function priceOrder(pricing: Pricing, cart: CartView, method: ShippingMethod): Totals {
  return calculateTotals(pricing, cart.totals.subtotalCents, {
    method,
    discountCents: cart.coupon?.discountCents ?? 0,
  });
}

/**
 * Step 2: the order as `pending_payment`, its stock taken (through the inventory, at the prices the
 * shopper reviewed) and its coupon use counted.
 */
async function reserveOrder(
  trx: Transaction<DB>,
  {
    input,
    cart,
    totals,
    now,
    gateway,
  }: { input: PlaceOrderInput; cart: CartView; totals: Totals; now: Date; gateway: string },
): Promise<OrderRow> {
  // the coupon read now, its use counted after the stock (rows are locked in one order: variants,
  // products, then the coupon — as a cancellation gives them back)
  let discount = 0;
  let couponCode: string | null = null;
  if (cart.coupon) {
    const coupon = await checkCoupon(trx, cart.coupon.code, cart.totals.subtotalCents, {
      now,
      currency: input.pricing.currency,
    });
    if (!coupon.ok) throw new OrderAbort({ code: "coupon-invalid", message: coupon.error.message });
    discount = coupon.value.discountCents;
    couponCode = coupon.value.code;
  }
  const recomputed = calculateTotals(input.pricing, cart.totals.subtotalCents, {
    method: input.method,
    discountCents: discount,
  });
  if (recomputed.totalCents !== totals.totalCents) {
    throw new OrderAbort({ code: "price-changed", totalCents: recomputed.totalCents });
  }

  const createdAt = now.toISOString();
  const estimatedDelivery = estimatedDeliveryDate(input.pricing, input.method, now);
  const { shipping } = input;
  const order = await trx
    .insertInto("orders")
    .values({
      number: newOrderNumber(),
      idempotencyKey: input.idempotencyKey,
      userId: input.userId ?? null,
      email: shipping.email,
      firstName: shipping.firstName,
      lastName: shipping.lastName,
      phone: shipping.phone,
      address: shipping.address,
      city: shipping.city,
      state: shipping.state,
      zipCode: shipping.zipCode,
      country: shipping.country,
      shippingMethod: input.method,
      subtotalCents: recomputed.subtotalCents,
      discountCents: recomputed.discountCents,
      shippingCents: recomputed.shippingCents,
      taxCents: recomputed.taxCents,
      totalCents: recomputed.totalCents,
      currency: input.pricing.currency,
      couponCode: cart.coupon?.code ?? null,
      status: "pending_payment",
      paymentBrand: input.payment.brand,
      paymentLast4: input.payment.last4,
      paymentReference: "",
      paymentGateway: gateway,
      reservedUntil: new Date(now.getTime() + (input.reservationMs ?? DEFAULT_RESERVATION_MS)).toISOString(),
      estimatedDelivery,
      createdAt,
      updatedAt: createdAt,
      // Place Order sends the confirmation right after this commits (attempt 1, claimed now) and
      // marks it sent; if that never happens the resend job takes it up (order-confirmation.server.ts)
      confirmationSentAt: null,
      confirmationAttempts: 1,
      confirmationClaimedAt: createdAt,
    })
    .returning(ORDER_COLUMNS)
    .executeTakeFirstOrThrow();

  // the stock, taken with guarded updates in the inventory's lock order; each variant's price is
  // read with the row it was taken from, so what is charged is what the shopper reviewed
  const taken = await takeStock(trx, cart.lines, {
    reason: "sale",
    actor: "checkout",
    orderId: order.id,
    now,
  });
  if (!taken.ok) {
    const short = cart.lines.find((line) => line.variantId === taken.error.variantId);
    throw new OrderAbort({ code: "out-of-stock", productName: short?.name ?? "" });
  }
  const changed = cart.lines.find(
    (line) => taken.value.get(line.variantId)?.priceCents !== line.unitPriceCents,
  );
  if (changed) {
    const subtotal = cart.lines.reduce(
      (sum, line) => sum + (taken.value.get(line.variantId)?.priceCents ?? 0) * line.quantity,
      0,
    );
    const repriced = calculateTotals(input.pricing, subtotal, {
      method: input.method,
      discountCents: discount,
    });
    throw new OrderAbort({ code: "price-changed", totalCents: repriced.totalCents });
  }
  if (couponCode && !(await redeemCoupon(trx, couponCode))) {
    throw new OrderAbort({ code: "coupon-invalid", message: "This coupon has reached its usage limit." });
  }

  // the lines in the order they were always written: by variant
  const items = [...cart.lines]
    .sort((a, b) => a.variantId - b.variantId)
    .map((line) => ({
      orderId: order.id,
      productId: line.productId,
      variantId: line.variantId,
      variantTitle: line.variantTitle,
      sku: line.sku,
      productSlug: line.slug,
      name: line.name,
      brand: line.brand,
      imageKey: line.image?.key ?? null,
      unitPriceCents: line.unitPriceCents,
      quantity: line.quantity,
      lineTotalCents: line.unitPriceCents * line.quantity,
    }));
  const created = {
    orderId: order.id,
    fromStatus: null,
    toStatus: "pending_payment" as const,
    actor: "checkout",
    createdAt,
  };
  if (engineOf<DB>(trx) === "postgres") {
    // the lines and the order's first event in one statement (one round trip less on the
    // checkout's hottest path; SQLite has no data-modifying WITH, and no round trips to save)
    await trx
      .with("lines", (db) => db.insertInto("orderItems").values(items).returning("orderItems.id"))
      .insertInto("orderEvents")
      .values(created)
      .execute();
  } else {
    await trx.insertInto("orderItems").values(items).execute();
    await trx.insertInto("orderEvents").values(created).execute();
  }
  return order;
}

function placed({ id, number, email, totalCents, estimatedDelivery }: OrderRow): PlacedOrder {
  return { id, number, email, totalCents, estimatedDelivery };
}
