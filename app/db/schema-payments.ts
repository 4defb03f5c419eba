import type { Generated } from "kysely";
import type { Flag, Timestamp } from "./schema-types.ts";

/**
 * The tables of payments after the order (migration 1400, decision 020): refunds, returns, and the
 * built-in test gateway's ledger; and the stock ledger (migration 2200). Part of the `DB` interface in schema.ts.
 */
export type ReturnStatus = "requested" | "approved" | "rejected" | "received" | "refunded";

/** A shopper's request to send delivered items back (migration 1400). */
export interface ReturnsTable {
  id: Generated<number>;
  /** public, random, e.g. RT-7K2M9QXD3A */
  number: string;
  orderId: number;
  status: ReturnStatus;
  reason: string;
  rejectionReason: string | null;
  /** what was refunded for it */
  refundCents: number | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface ReturnItemsTable {
  id: Generated<number>;
  returnId: number;
  orderItemId: number;
  quantity: number;
}

export type RefundStatus = "pending" | "succeeded" | "failed";
/**
 * a refund from the order page; a paid order cancelled; a return refunded; one made at the
 * provider (its dashboard); a payment that went through for an order given up, paid back
 */
export type RefundKind = "refund" | "cancel" | "return" | "provider" | "lapsed";

/**
 * One refund of an order (migrations 1400, 2100): recorded `pending` before the gateway is asked,
 * then `succeeded` or `failed` (decision 025).
 */
export interface OrderRefundsTable {
  id: Generated<number>;
  orderId: number;
  /** one per refund form shown (or the cancellation's, the return's): a double click refunds once */
  idempotencyKey: string;
  amountCents: number;
  reason: string;
  /** 1 when the refunded lines go back into stock (once it succeeds) */
  restocked: Flag;
  /** 1 when it gave the shipping back (a faulty, damaged or wrong item: the returns page's promise) */
  includesShipping: Generated<Flag>;
  /** the provider's refund id; "" until it succeeded */
  gatewayRefundId: string;
  actor: string;
  createdAt: Timestamp;
  status: Generated<RefundStatus>;
  kind: Generated<RefundKind>;
  /** the return a `return` refund pays back */
  returnId: number | null;
  /** the provider's payment it is drawn on (the order's payment reference, or a lapsed payment's) */
  paymentId: Generated<string>;
  /** why the gateway refused it (a failed refund) */
  failure: string | null;
  /** when it succeeded or failed */
  settledAt: Timestamp | null;
  /**
   * what of it goes back to the order's gift cards or to store credit, not through the gateway
   * (migration 0740); the gateway pays back amountCents − giftCardCents
   */
  giftCardCents: Generated<number>;
  /** 1: the gift card part is the whole refund, as store credit on the order's account */
  toStoreCredit: Generated<Flag>;
}

/** The lines and units a refund pays back (migration 2100): one row per line. */
export interface OrderRefundItemsTable {
  id: Generated<number>;
  refundId: number;
  orderItemId: number;
  quantity: number;
  /** what the line paid back, and the tax in it (migration 2026-11-28T0400; null before) */
  amountCents: number | null;
  taxCents: number | null;
}

export type StockReason =
  | "opening_balance"
  | "sale"
  | "payment_failed"
  | "cancellation"
  | "refund_restock"
  | "return_received"
  | "admin_set"
  | "admin_adjust"
  | "bulk_set"
  | "csv_import"
  | "variant_removed";

/** One change of a variant's stock (migration 2200): append-only, written by the inventory area. */
export interface StockMovementsTable {
  id: Generated<number>;
  variantId: number;
  productId: number;
  /** + units in, - units out; never 0 */
  delta: number;
  reason: StockReason;
  orderId: number | null;
  returnId: number | null;
  refundId: number | null;
  /** the staff member's id, or checkout / payment-provider / system / cli */
  actor: string;
  createdAt: Timestamp;
}

/** The built-in test gateway's ledger (migration 1400): what a provider would keep. */
export interface TestGatewayPaymentsTable {
  idempotencyKey: string;
  authorizationId: string;
  amountCents: number;
  status: "authorized" | "captured" | "voided" | "declined";
  declineCode: string | null;
  refundedCents: Generated<number>;
  createdAt: Timestamp;
}

export interface TestGatewayRefundsTable {
  idempotencyKey: string;
  authorizationId: string;
  amountCents: number;
  createdAt: Timestamp;
}

/** A payment provider's event the shop has handled (migration 1500): each is handled once. */
export interface PaymentEventsTable {
  /** the provider's event id, e.g. evt_… */
  id: string;
  provider: string;
  /** the shop's reading of it, e.g. payment-succeeded */
  type: string;
  orderNumber: string | null;
  receivedAt: Timestamp;
}
