import type { Database } from "../../db/database.server.ts";
import type { OrderStatus, RefundKind, RefundStatus } from "../../db/schema.ts";

/**
 * The payments area's one idempotency mechanism (issue 28, decision 025). Every movement of money
 * — an order's charge, a refund — has a key the shop stores with its record *before* the gateway is
 * asked (the order's `idempotency_key`, the refund's), and the gateway is always called with the key
 * derived from it here. So a repeated submission finds its record by the key and is answered from
 * it, and a call repeated after a crash is the same call to the gateway, which answers it once.
 */
export const gatewayKey = {
  /** an order's payment: authorized and captured once per order */
  charge: (orderKey: string) => orderKey,
  /** a refund: paid back once per refund */
  refund: (refundKey: string) => `refund:${refundKey}`,
} as const;

/** The refund keys the shop makes itself (a form's own key is a random UUID). */
export const refundKeyOf = {
  /** cancelling a paid order: once per order */
  cancel: (orderKey: string) => `cancel:${orderKey}`,
  /** refunding a return: once per return */
  return: (returnNumber: string) => `return:${returnNumber}`,
  /** paying back a payment that went through for an order given up: once per order */
  lapsed: (orderKey: string) => `lapsed:${orderKey}`,
  /** a refund made at the provider (its dashboard), recorded once by its id */
  provider: (providerRefundId: string) => `provider:${providerRefundId}`,
} as const;

/** What Place Order, the payment steps and the jobs read of an order (its charge's record). */
export const ORDER_COLUMNS = [
  "id",
  "number",
  "email",
  "totalCents",
  "estimatedDelivery",
  "status",
  "idempotencyKey",
  "paymentError",
  "paymentReference",
  "createdAt",
  "reservedUntil",
  "currency",
  "giftCardCents",
] as const;

export interface OrderRow {
  id: number;
  number: string;
  email: string;
  totalCents: number;
  estimatedDelivery: string;
  status: OrderStatus;
  idempotencyKey: string;
  paymentError: string | null;
  /** the provider's id of the payment (or, while pending, of the hosted page or 3-D Secure step) */
  paymentReference: string;
  createdAt: string;
  reservedUntil: string | null;
  /** the currency the order was placed in (a stored code; `currencyOf` reads it) */
  currency: string;
  /** what gift cards and store credit paid of the total (the gateway is asked for the rest) */
  giftCardCents: number;
}

/** The order a checkout's key placed (or reserved), or null. */
export async function findOrderByKey(db: Database, key: string): Promise<OrderRow | null> {
  const row = await db
    .selectFrom("orders")
    .select(ORDER_COLUMNS)
    .where("idempotencyKey", "=", key)
    .executeTakeFirst();
  return row ?? null;
}

export interface RefundRecord {
  id: number;
  orderId: number;
  kind: RefundKind;
  status: RefundStatus;
  amountCents: number;
  paymentId: string;
  idempotencyKey: string;
  failure: string | null;
  /** what goes back to gift cards or store credit; the gateway pays back the rest */
  giftCardCents: number;
  /** 1: all of it as store credit on the order's account */
  toStoreCredit: 0 | 1;
}

export const REFUND_COLUMNS = [
  "id",
  "orderId",
  "kind",
  "status",
  "amountCents",
  "paymentId",
  "idempotencyKey",
  "failure",
  "giftCardCents",
  "toStoreCredit",
] as const;

/** The refund recorded under this key, or null. */
export async function findRefundByKey(db: Database, key: string): Promise<RefundRecord | null> {
  const row = await db
    .selectFrom("orderRefunds")
    .select(REFUND_COLUMNS)
    .where("idempotencyKey", "=", key)
    .executeTakeFirst();
  return row ?? null;
}
