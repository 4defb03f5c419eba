import type Stripe from "stripe";

/**
 * The objects this server keeps, named and typed after the official SDK's own types (`Pick` of
 * `Stripe.PaymentIntent` and so on), so a field the SDK does not know cannot creep in. Where the
 * SDK's field holds a deep object this server only fills in part, the field is narrowed.
 */

/** A form-encoded parameter value once its brackets are unfolded: `a[b][0]=x` → `{ a: { b: ["x"] } }`. */
export type Param = string | Param[] | { [key: string]: Param };
export type Params = { [key: string]: Param };

export type Metadata = Stripe.Metadata;

export interface CardDetails {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  funding: "credit" | "debit";
  country: string;
}

export type PaymentMethodObject = Pick<
  Stripe.PaymentMethod,
  "id" | "object" | "created" | "livemode" | "metadata"
> & { type: "card"; card: CardDetails; customer: string | null };

export type LastPaymentError = Omit<
  Stripe.PaymentIntent.LastPaymentError,
  "payment_method" | "payment_intent"
> & {
  payment_method?: PaymentMethodObject;
};

export type PaymentIntentStatus =
  | "requires_payment_method"
  | "requires_confirmation"
  | "requires_action"
  | "processing"
  | "requires_capture"
  | "succeeded"
  | "canceled";

export type PaymentIntentObject = Pick<
  Stripe.PaymentIntent,
  | "id"
  | "object"
  | "amount"
  | "amount_capturable"
  | "amount_received"
  | "automatic_payment_methods"
  | "canceled_at"
  | "cancellation_reason"
  | "capture_method"
  | "client_secret"
  | "confirmation_method"
  | "created"
  | "currency"
  | "description"
  | "livemode"
  | "metadata"
  | "next_action"
  | "payment_method_types"
  | "receipt_email"
> & {
  status: PaymentIntentStatus;
  customer: string | null;
  latest_charge: string | null;
  payment_method: string | null;
  last_payment_error: LastPaymentError | null;
};

export type ChargeObject = Pick<
  Stripe.Charge,
  | "id"
  | "object"
  | "amount"
  | "amount_captured"
  | "amount_refunded"
  | "captured"
  | "created"
  | "currency"
  | "description"
  | "disputed"
  | "failure_code"
  | "failure_message"
  | "livemode"
  | "metadata"
  | "paid"
  | "receipt_email"
  | "refunded"
> & {
  status: "succeeded" | "pending" | "failed";
  payment_intent: string;
  payment_method: string;
  payment_method_details: { type: "card"; card: CardDetails };
};

export type RefundObject = Pick<Stripe.Refund, "id" | "object" | "amount" | "created" | "currency"> & {
  charge: string;
  payment_intent: string;
  metadata: Metadata;
  reason: "duplicate" | "fraudulent" | "requested_by_customer" | null;
  status: "succeeded";
};

export type DisputeObject = Pick<
  Stripe.Dispute,
  | "id"
  | "object"
  | "amount"
  | "created"
  | "currency"
  | "is_charge_refundable"
  | "livemode"
  | "metadata"
  | "reason"
> & { charge: string; payment_intent: string; status: "needs_response" | "won" | "lost" };

export type CheckoutSessionObject = Pick<
  Stripe.Checkout.Session,
  | "id"
  | "object"
  | "amount_subtotal"
  | "amount_total"
  | "cancel_url"
  | "client_reference_id"
  | "created"
  | "currency"
  | "customer_email"
  | "expires_at"
  | "livemode"
  | "payment_method_types"
  | "success_url"
  | "url"
> & {
  mode: "payment";
  ui_mode: "hosted";
  status: "open" | "complete" | "expired";
  payment_status: "paid" | "unpaid";
  metadata: Metadata;
  payment_intent: string | null;
  customer_details: { email: string | null; name: string | null } | null;
};

export interface LineItemObject {
  id: string;
  object: "item";
  amount_discount: number;
  amount_subtotal: number;
  amount_tax: number;
  amount_total: number;
  currency: string;
  description: string;
  quantity: number;
  price: {
    id: string;
    object: "price";
    active: boolean;
    currency: string;
    product: string;
    type: "one_time";
    unit_amount: number;
  };
}

export type EventObject = Pick<
  Stripe.Event,
  "id" | "object" | "api_version" | "created" | "livemode" | "pending_webhooks"
> & {
  type: string;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  request: { id: string | null; idempotency_key: string | null };
};

/** The request an action runs for, as an event's `request` records it (null for the test pages). */
export interface RequestInfo {
  id: string | null;
  idempotencyKey: string | null;
}

/** One call to the API as this server answered it. */
export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  idempotencyKey: string | null;
  replayed: boolean;
}

/** One attempt to deliver an event to the webhook URL. */
export interface DeliveryRecord {
  eventId: string;
  type: string;
  attempt: number;
  /** the endpoint's HTTP status, or null when it could not be reached */
  status: number | null;
  error: string | null;
}
