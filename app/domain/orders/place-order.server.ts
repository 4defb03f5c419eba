import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import { PAYMENT_MESSAGES, type PaymentGateway } from "../../adapters/payments/payment-gateway.ts";
import { type Database, engineOf } from "../../db/database.server.ts";
import type { DB } from "../../db/schema.ts";
import { recordOrder } from "../../infra/metrics.server.ts";
import { estimatedDeliveryDate } from "../../lib/delivery.ts";
import type { PricedOrder } from "../../lib/markets.ts";
import type { Refusal } from "../../lib/promotions/engine.ts";
import { fail, ok, type Result } from "../../lib/result.ts";
import { type PricedCart, priceCart } from "../cart/cart-pricing.ts";
import type { CartView } from "../cart/cart-types.ts";
import { type CartShop, getCartForOrder } from "../cart/get-cart.server.ts";
import type { ShippingDetails } from "../checkout/shipping-form.ts";
import { recordGiftCardDeliveries } from "../gift-cards/gift-card-delivery.server.ts";
import { type GiftCardPlan, giftCardGoodsCents, planGiftCards } from "../gift-cards/gift-card-plan.ts";
import { takeGiftCards, usableTenders } from "../gift-cards/gift-card-spending.server.ts";
import { orderEventRow } from "../integrations/webhook-outbox.server.ts";
import { takeStock } from "../inventory/inventory.server.ts";
import {
  type InvoiceFacts,
  invoiceDocumentOf,
  type SellerSettings,
  sellerOf,
} from "../invoices/build-documents.server.ts";
import type { IssuedDocument } from "../invoices/invoice-document.ts";
import {
  DEFAULT_RESERVATION_MS,
  GIFT_CARD_PAYMENT,
  ORDER_COLUMNS,
  type OrderRow,
  type ProviderReturn,
  settlePayment,
  settleReturning,
} from "../payments/charges.server.ts";
import { findOrderByKey } from "../payments/idempotency.server.ts";
import { codeRefusalMessage } from "../promotions/code-messages.ts";
import { redeemPromotions, unlimitedRedemptions } from "../promotions/promotion-redemptions.server.ts";
import { customerKeyOf } from "../promotions/promotions.server.ts";
import { type OrderDetails, type OrderDetailsRow, orderDetailsOf } from "./orders.server.ts";

export interface PlaceOrderInput {
  cartId: string;
  /** one per checkout attempt: the same submission twice makes one order */
  idempotencyKey: string;
  shipping: ShippingDetails;
  /** the shipping method's code in the address's zone */
  method: string;
  /**
   * the shop's currency and markets now (its settings): zones, tax rates, shipping methods; and
   * the seller's details its invoice names
   */
  shop: OrderShop;
  /**
   * the gateway's token for the card checked at the payment step (never the card itself), or
   * HOSTED_PAYMENT for the provider's hosted page
   */
  payment: { token: string; brand: string; last4: string };
  /** where a provider that takes cards in the browser sends the shopper back (3-D Secure, hosted page) */
  provider?: ProviderReturn;
  /** the total the shopper saw on the review step */
  expectedTotalCents: number;
  /** the gift cards and store credit applied at the payment step (ids, in the order applied) */
  giftCardIds?: readonly number[];
  /** what the review said they pay (the gateway is asked for the rest) */
  expectedGiftCardCents?: number;
  userId?: string | null;
  /** how long the order holds its stock while the payment is pending (DEFAULT_RESERVATION_MS) */
  reservationMs?: number;
  now?: Date;
}

/** The shop an order is placed in: its currency and markets, and the seller its invoice names. */
export type OrderShop = CartShop & SellerSettings;

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
  | { code: "payment-declined"; message: string }
  /** an applied gift card no longer pays what the review said (spent elsewhere, disabled, expired) */
  | { code: "gift-card-changed" }
  /** no zone holds the address (the owner changed the zones since the shipping step) */
  | { code: "no-zone" }
  /** the method chosen is not one the address's zone offers for this cart */
  | { code: "shipping-unavailable" };

/**
 * The order placed (or, for a repeated submission, the one placed before: `replayed`) — or, with
 * `redirectUrl`, reserved and waiting for the shopper to pay or authenticate at the provider.
 */
export type PlaceOrderResult = Result<
  {
    order: PlacedOrder;
    replayed: boolean;
    redirectUrl: string | null;
    /**
     * what the confirmation e-mail is made of, when this submission placed the order (and it was
     * paid): the order as written, and the invoice its payment issued (none when another request
     * recorded the payment first)
     */
    confirmation?: PlacedConfirmation;
  },
  PlaceOrderError
>;

/** The paid order's view and invoice, from what Place Order wrote (nothing read back). */
export interface PlacedConfirmation {
  order: OrderDetails;
  invoice?: IssuedDocument;
}

/**
 * What the reserving transaction wrote: the order's row as returned, and its columns, lines and tax
 * lines as written — what its invoice and its confirmation's view are made of.
 */
interface Reserved {
  order: OrderRow;
  written: {
    row: Omit<OrderDetailsRow, "id" | "status" | "carrier" | "trackingNumber"> &
      Omit<InvoiceFacts["order"], "paidAt">;
    items: (OrderDetails["items"][number] & InvoiceFacts["items"][number])[];
    taxLines: InvoiceFacts["taxLines"];
  };
}

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
 *    snapshots, the stock is taken with guarded updates (never below 0) and the promotions' uses
 *    (its code's among them) counted;
 * 3. outside any transaction the gateway authorizes and captures, with the order's idempotency key;
 * 4. one short transaction marks the order `paid` and empties the cart — or, on a decline,
 *    `payment_failed`, giving the stock and the promotions' uses back.
 * An order left pending (the process died between 2 and 4) is settled by `reconcilePayments`.
 */
export async function placeOrder(
  db: Database,
  gateway: PaymentGateway,
  input: PlaceOrderInput,
): Promise<PlaceOrderResult> {
  const replay = await findOrderByKey(db, input.idempotencyKey);
  if (replay) return answerFor(db, gateway, replay, input);

  const now = input.now ?? new Date();
  // read and priced once, for the order's address and method
  const { cart, priced } = await getCartForOrder(
    db,
    input.cartId,
    input.shop,
    { userId: input.userId, email: input.shipping.email },
    now,
    { country: input.shipping.country, region: input.shipping.state, methodCode: input.method },
  );
  // what the applied gift cards pay of the total, by the balances they hold now
  const giftCards = planGiftCards(
    await usableTenders(db, input.giftCardIds ?? [], {
      userId: input.userId ?? null,
      currency: input.shop.currency,
      now,
    }),
    input.expectedTotalCents,
    giftCardGoodsCents(cart.lines),
  );
  const problem: PlaceOrderError | null =
    cartProblem(cart) ??
    pricingProblem(priced, input.method) ??
    (priced.ok && priced.calculation.totalCents !== input.expectedTotalCents
      ? { code: "price-changed", totalCents: priced.calculation.totalCents }
      : null) ??
    (giftCards.giftCardCents !== (input.expectedGiftCardCents ?? 0) ||
    (input.payment.token === GIFT_CARD_PAYMENT && giftCards.restCents > 0)
      ? { code: "gift-card-changed" }
      : null);
  if (problem) {
    // A twin submission may have placed this very order (emptying the cart, clearing its coupon)
    // since the lookup above: then the answer is that order, not the cart's new state.
    const twin = await findOrderByKey(db, input.idempotencyKey);
    return twin ? answerFor(db, gateway, twin, input) : fail(problem);
  }

  let reserved: Reserved;
  try {
    reserved = await db
      .transaction()
      .execute((trx) =>
        reserveOrder(trx, { input, cart, now, gateway: gateway.name, quoted: priced, giftCards }),
      );
  } catch (error) {
    // A twin submission may have won the race: then this one is that order.
    const twin = await findOrderByKey(db, input.idempotencyKey);
    if (twin) return answerFor(db, gateway, twin, input);
    if (error instanceof OrderAbort) return fail(error.reason);
    throw error;
  }
  recordOrder("placed");
  return payFor(db, gateway, reserved.order, input, false, reserved);
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
  /** what this submission wrote, when it reserved the order: the payment and its e-mail read nothing back */
  reserved?: Reserved,
): Promise<PlaceOrderResult> {
  const settled = await settlePayment(db, gateway, {
    order,
    token: input.payment.token,
    cartId: input.cartId,
    now: input.now,
    provider: input.provider,
    // its invoice as it will be issued (paidAt aside), made from what was written — outside the
    // transaction (what `buildInvoiceDocument` would read, decision 032)
    invoice: reserved && invoiceDocumentOf(invoiceFactsOf(reserved, input.shop)),
  });
  switch (settled.status) {
    case "paid":
      // the submission that reserved the order answers as its placer (its caller sends the
      // confirmation), whichever request recorded the payment
      return ok({
        order: placed(order),
        replayed,
        redirectUrl: null,
        ...(reserved ? { confirmation: { order: paidView(order, reserved), invoice: settled.invoice } } : {}),
      });
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

/** The cart priced for the order's address and method, with its promotions (its code's among them). */
function priceOrder(input: PlaceOrderInput, cart: Pick<CartView, "lines" | "offers">): PricedCart {
  return priceCart(input.shop.markets, {
    lines: cart.lines,
    destination: { country: input.shipping.country, region: input.shipping.state },
    methodCode: input.method,
    offers: cart.offers,
  });
}

/** The address outside every zone, or the chosen method not one its zone offers for this cart. */
function pricingProblem(priced: PricedOrder, method: string): PlaceOrderError | null {
  if (!priced.ok) return { code: "no-zone" };
  if (priced.shipping?.method.code !== method) return { code: "shipping-unavailable" };
  return null;
}

/** The priced order, or the reason it cannot be placed (inside the reserving transaction). */
function pricedOrThrow(
  priced: PricedCart,
  method: string,
): Extract<PricedCart, { ok: true }> & {
  shipping: NonNullable<Extract<PricedOrder, { ok: true }>["shipping"]>;
} {
  const problem = pricingProblem(priced, method);
  if (problem || !priced.ok || !priced.shipping) throw new OrderAbort(problem ?? { code: "no-zone" });
  return { ...priced, shipping: priced.shipping };
}

/**
 * Step 2: the order as `pending_payment`, its stock taken (through the inventory, at the prices the
 * shopper reviewed) and its promotions' uses (its code's among them) counted.
 */
async function reserveOrder(
  trx: Transaction<DB>,
  {
    input,
    cart,
    now,
    gateway,
    quoted,
    giftCards,
  }: {
    input: PlaceOrderInput;
    cart: CartView;
    now: Date;
    gateway: string;
    /** the cart priced before the transaction, its promotions as the cart read them */
    quoted: PricedCart;
    /** what the gift cards pay (of the total the shopper reviewed, which this order must have) */
    giftCards: GiftCardPlan;
  },
): Promise<Reserved> {
  // the price quoted just before (the pricing, promotions and all, stays out of the write lock); the
  // promotions' uses — the code's among them — are taken last, guarded, and refuse what ran out since
  const priced = pricedOrThrow(quoted, input.method);
  const recomputed = priced.calculation;
  if (recomputed.totalCents !== input.expectedTotalCents) {
    throw new OrderAbort({ code: "price-changed", totalCents: recomputed.totalCents });
  }

  const createdAt = now.toISOString();
  const method = priced.shipping.method;
  const estimatedDelivery = estimatedDeliveryDate(method, now);
  const { shipping } = input;
  const values = {
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
    shippingMethod: method.code,
    shippingMethodName: method.name,
    taxMode: recomputed.mode,
    subtotalCents: recomputed.subtotalCents,
    discountCents: recomputed.discountCents,
    shippingCents: recomputed.shippingCents,
    shippingTaxCents: recomputed.shipping?.taxCents ?? 0,
    taxLabel: priced.zone.taxLabel,
    taxCents: recomputed.taxCents,
    totalCents: recomputed.totalCents,
    currency: input.shop.currency,
    couponCode: cart.coupon?.code ?? null,
    giftCardCents: giftCards.giftCardCents,
    status: "pending_payment" as const,
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
  };
  const order = await trx
    .insertInto("orders")
    .values(values)
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
    const lines = cart.lines.map((line) => ({
      ...line,
      unitPriceCents: taken.value.get(line.variantId)?.priceCents ?? 0,
    }));
    const repriced = priceOrder(input, { lines, offers: cart.offers });
    throw new OrderAbort({
      code: "price-changed",
      totalCents: repriced.ok ? repriced.calculation.totalCents : 0,
    });
  }
  // the lines in the order they were always written: by variant, each as charged
  const charged = new Map(recomputed.lines.map((line) => [line.key, line]));
  const items = [...cart.lines]
    .filter((line) => line.quantity > 0)
    .sort((a, b) => a.variantId - b.variantId)
    .map((line) => {
      const figures = charged.get(String(line.variantId))!;
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
        unitPriceCents: line.unitPriceCents,
        quantity: line.quantity,
        lineTotalCents: line.unitPriceCents * line.quantity,
        discountCents: figures.discountCents,
        netCents: figures.netCents,
        taxCents: figures.taxCents,
        grossCents: figures.grossCents,
        taxBasisPoints: figures.rate.basisPoints,
        taxRateId: figures.rate.id,
        taxLabel: figures.rate.label,
      };
    });
  const taxLines = recomputed.taxLines.map((line) => ({
    orderId: order.id,
    rateId: line.rateId,
    label: line.label,
    basisPoints: line.basisPoints,
    netCents: line.netCents,
    taxCents: line.taxCents,
  }));
  const created = {
    orderId: order.id,
    fromStatus: null,
    toStatus: "pending_payment" as const,
    actor: "checkout",
    createdAt,
  };
  // the promotions' uses and budgets, after the stock (the lock order a cancellation gives them back
  // in): a promotion with a limit is one hot row, held from its guarded update to the commit only
  const applied = priced.promotions?.applied ?? [];
  const customerKey = customerKeyOf({ userId: input.userId, email: shipping.email });
  let unlimited: Set<number> | undefined;
  // order.created for the webhooks (decision 039), in the outbox with the order
  const webhookEvent = orderEventRow("order.created", { ...values, id: order.id }, createdAt);
  if (engineOf<DB>(trx) === "postgres") {
    // the lines, the tax lines, the order's first event, its webhook event and the uses of promotions without a limit in
    // one statement (round trips saved on the checkout's hottest path; SQLite has no data-modifying
    // WITH, and no round trips to save); the others' uses are taken below, guarded
    let statement = trx
      .with("lines", (db) => db.insertInto("orderItems").values(items).returning("orderItems.id"))
      .with("webhook", (db) =>
        db.insertInto("webhookEvents").values(webhookEvent).returning("webhookEvents.id"),
      )
      .with("events", (db) => db.insertInto("orderEvents").values(created).returning("orderEvents.id"));
    if (taxLines.length > 0) {
      statement = statement.with("taxes", (db) =>
        db.insertInto("orderTaxLines").values(taxLines).returning("orderTaxLines.id"),
      ) as unknown as typeof statement;
    }
    const uses = unlimitedRedemptions(trx, applied, {
      orderId: order.id,
      customerKey,
      at: now.toISOString(),
    });
    if (uses === null) {
      await statement.selectFrom("events").select("events.id").execute();
      unlimited = new Set();
    } else {
      const rows = await statement
        .with("uses", () => uses)
        .selectFrom("uses")
        .select("uses.promotionId")
        .execute();
      unlimited = new Set(rows.map((row) => Number(row.promotionId)));
    }
  } else {
    await trx.insertInto("orderItems").values(items).execute();
    if (taxLines.length > 0) await trx.insertInto("orderTaxLines").values(taxLines).execute();
    await trx.insertInto("orderEvents").values(created).execute();
    await trx.insertInto("webhookEvents").values(webhookEvent).execute();
  }
  if (applied.length > 0) {
    const redeemed = await redeemPromotions(trx, applied, { orderId: order.id, customerKey, now, unlimited });
    if (!redeemed.ok) {
      // the shopper's code ran out since the review: said as the cart says it ("This coupon has
      // reached its usage limit."); another promotion: the shopper reviews the new total
      const { promotionId, limit } = redeemed.error;
      const code = applied.find(({ promotion }) => promotion.id === promotionId)?.promotion.code;
      if (code && code === cart.coupon?.code) {
        const refusal: Refusal = limit === "budget" ? { reason: "budget-spent" } : { reason: "limit", limit };
        throw new OrderAbort({
          code: "coupon-invalid",
          message: codeRefusalMessage(refusal, input.shop.currency, () => ""),
        });
      }
      throw new OrderAbort({ code: "price-changed", totalCents: recomputed.totalCents });
    }
  }
  // the gift cards bought, to issue and e-mail once the order is paid (their face value: the regular price)
  await recordGiftCardDeliveries(
    trx,
    order.id,
    items.flatMap((item) => {
      const line = cart.lines.find((l) => l.variantId === item.variantId);
      return line?.giftCard
        ? [
            {
              variantId: line.variantId,
              amountCents: line.regularPriceCents,
              quantity: line.quantity,
              recipient: line.recipient,
            },
          ]
        : [];
    }),
  );
  // the gift cards' parts, last: guarded takes, so racing checkouts never spend a balance twice
  if (!(await takeGiftCards(trx, giftCards.takes, { orderId: order.id, now }))) {
    throw new OrderAbort({ code: "gift-card-changed" });
  }
  // what its views are made of, as just written: the caller makes them once this commits
  return { order, written: { row: values, items, taxLines } };
}

/**
 * The order as its payment left it, from what Place Order wrote: what `getOrderByNumber` would read
 * back (paid, not shipped; the card as the shopper gave it — only a provider's page changes it).
 */
function paidView(order: OrderRow, { written: { row, items, taxLines } }: Reserved): OrderDetails {
  const paid = { ...row, id: order.id, status: "paid" as const, carrier: null, trackingNumber: null };
  return orderDetailsOf(paid, items, taxLines);
}

/** What its invoice is made of (issued when the payment is recorded). */
function invoiceFactsOf({ written: { row, items, taxLines } }: Reserved, shop: OrderShop): InvoiceFacts {
  return { order: { ...row, paidAt: null }, items, taxLines, seller: sellerOf(shop) };
}

function placed({ id, number, email, totalCents, estimatedDelivery }: OrderRow): PlacedOrder {
  return { id, number, email, totalCents, estimatedDelivery };
}
