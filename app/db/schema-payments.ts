import type { Generated } from "kysely";
import type { Flag, Timestamp } from "./schema-types.ts";

/**
 * The tables of payments after the order (migration 1400, decision 020): refunds, returns, and the
 * built-in test gateway's ledger. Part of the `DB` interface in schema.ts.
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

/** One refund of an order (migration 1400), through the gateway. */
export interface OrderRefundsTable {
  id: Generated<number>;
  orderId: number;
  /** one per refund form shown: a double click refunds once */
  idempotencyKey: string;
  amountCents: number;
  reason: string;
  /** 1 when the refunded lines went back into stock */
  restocked: Flag;
  /** 1 when it gave the shipping back (a faulty, damaged or wrong item: the returns page's promise) */
  includesShipping: Generated<Flag>;
  gatewayRefundId: string;
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
