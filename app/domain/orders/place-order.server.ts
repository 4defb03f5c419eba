import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import { PAYMENT_MESSAGES, type PaymentGateway } from "../../adapters/payments/payment-gateway.ts";
import { type Database, engineOf } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import { syncProductSummary } from "../../db/variant-summary.server.ts";
import { estimatedDeliveryDate } from "../../lib/delivery.ts";
import { calculateTotals, type Pricing, type ShippingMethod, type Totals } from "../../lib/pricing.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import type { CartView } from "../cart/cart-types.ts";
import { getCart } from "../cart/get-cart.server.ts";
import type { ShippingDetails } from "../checkout/shipping-form.ts";
import { checkCoupon, redeemCoupon } from "../coupons/coupons.server.ts";
import {
  DEFAULT_RESERVATION_MS,
  ORDER_COLUMNS,
  type OrderRow,
  type ProviderReturn,
  settlePayment,
  settleReturning,
} from "./order-payment.server.ts";

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
  const replay = await findByIdempotencyKey(db, input.idempotencyKey);
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
    const twin = await findByIdempotencyKey(db, input.idempotencyKey);
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
    const twin = await findByIdempotencyKey(db, input.idempotencyKey);
    if (twin) return answerFor(db, gateway, twin, input);
    if (error instanceof OrderAbort) return fail(error.reason);
    throw error;
  }
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

/** Step 2: the order as `pending_payment`, its stock taken and its coupon use counted. */
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
  // Rows are locked in one fixed order — every variant by id, then every product by id — so two
  // orders never lock the same rows in opposite order (PostgreSQL).
  const lines = [...cart.lines].sort((a, b) => a.variantId - b.variantId);
  /** products a variant of which sold out: their option facets change (variant-summary.server.ts) */
  const soldOut = new Set<number>();
  const priceOf = new Map<number, number>();
  for (const line of lines) {
    const taken = await trx
      .updateTable("productVariants")
      .set((eb) => ({ stock: eb("stock", "-", line.quantity) }))
      .where("id", "=", line.variantId)
      .where("stock", ">=", line.quantity)
      .where("archivedAt", "is", null)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("products")
            .select("products.id")
            .whereRef("products.id", "=", "productVariants.productId")
            .where("products.archivedAt", "is", null),
        ),
      )
      .returning(["stock", "priceCents"])
      .executeTakeFirst();
    if (!taken) throw new OrderAbort({ code: "out-of-stock", productName: line.name });
    if (taken.stock === 0) soldOut.add(line.productId);
    // the price as it is now, read with the row the stock was taken from
    priceOf.set(line.variantId, taken.priceCents);
  }
  // the products' summed stock follows (variant-summary.server.ts)
  const takenPerProduct = new Map<number, number>();
  for (const line of lines) {
    takenPerProduct.set(line.productId, (takenPerProduct.get(line.productId) ?? 0) + line.quantity);
  }
  for (const [productId, quantity] of [...takenPerProduct].sort(([a], [b]) => a - b)) {
    if (soldOut.has(productId)) {
      await syncProductSummary(trx, productId);
      continue;
    }
    await trx
      .updateTable("products")
      .set((eb) => ({ stock: eb("stock", "-", quantity) }))
      .where("id", "=", productId)
      .execute();
  }

  const subtotal = lines.reduce((sum, line) => sum + (priceOf.get(line.variantId) ?? 0) * line.quantity, 0);
  let discount = 0;
  if (cart.coupon) {
    const coupon = await checkCoupon(trx, cart.coupon.code, subtotal, {
      now,
      currency: input.pricing.currency,
    });
    if (!coupon.ok) throw new OrderAbort({ code: "coupon-invalid", message: coupon.error.message });
    if (!(await redeemCoupon(trx, coupon.value.code))) {
      throw new OrderAbort({ code: "coupon-invalid", message: "This coupon has reached its usage limit." });
    }
    discount = coupon.value.discountCents;
  }
  const recomputed = calculateTotals(input.pricing, subtotal, {
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

  const items = lines.map((line) => {
    const unitPriceCents = priceOf.get(line.variantId) ?? line.unitPriceCents;
    return {
      orderId: order.id,
      productId: line.productId,
      variantId: line.variantId,
      variantTitle: line.variantTitle,
      sku: line.sku,
      productSlug: line.slug,
      name: line.name,
      brand: line.brand,
      imageKey: line.image?.key ?? null,
      unitPriceCents,
      quantity: line.quantity,
      lineTotalCents: unitPriceCents * line.quantity,
    };
  });
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

async function findByIdempotencyKey(db: Database, key: string): Promise<OrderRow | null> {
  const row = await db
    .selectFrom("orders")
    .select(ORDER_COLUMNS)
    .where("idempotencyKey", "=", key)
    .executeTakeFirst();
  return row ?? null;
}

function placed({ id, number, email, totalCents, estimatedDelivery }: OrderRow): PlacedOrder {
  return { id, number, email, totalCents, estimatedDelivery };
}
