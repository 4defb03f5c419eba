import type { Database } from "../../db/database.server.ts";
import { SHIPPING_FIELDS, type ShippingDetails, type ShippingField } from "./shipping-form.ts";

/**
 * The checkout in progress, kept on the server in one `checkout_progress` row per cart (decision
 * 012): the shipping details, the method, the payment step's result (the gateway's token with
 * brand, last 4 and expiry — never the card number or CVV), the review's idempotency key and the
 * number of the order just placed. Nothing of it travels in a cookie: the cart (the account's, or
 * the guest cookie's id) is the key. A row untouched for CHECKOUT_PROGRESS_TTL_MS is as good as
 * none, and the background jobs delete it.
 */
export const CHECKOUT_PROGRESS_TTL_MS = 24 * 60 * 60_000;

export interface SavedPayment {
  token: string;
  brand: string;
  last4: string;
  expiry: string;
  cardName: string;
  saveInfo: boolean;
}

export interface CheckoutState {
  shipping?: ShippingDetails;
  /** the shipping method's code in the address's zone */
  method?: string;
  payment?: SavedPayment;
  /** one per review: placing twice with it makes one order */
  idempotencyKey?: string;
  /** the number of the order just placed, for the confirmation step */
  placedOrder?: string;
  /** the gift cards and store credit applied at the payment step (ids, in the order applied) */
  giftCards?: number[];
}

/** The values a refused step may show again: the shipping form's, and the payment form's but the card. */
export const FEEDBACK_VALUE_FIELDS = [...SHIPPING_FIELDS, "cardName", "expiryDate", "giftCardCode"] as const;
/** The fields a message may stand beside. */
export const FEEDBACK_ERROR_FIELDS = [
  ...SHIPPING_FIELDS,
  "shippingMethod",
  "cardNumber",
  "cardName",
  "expiryDate",
  "cvv",
  "giftCardCode",
] as const;
export type FeedbackValueField = (typeof FEEDBACK_VALUE_FIELDS)[number];
export type FeedbackErrorField = (typeof FEEDBACK_ERROR_FIELDS)[number];
/** Longest text kept of a refused value or a message (the page shows it once). */
export const FEEDBACK_TEXT_MAX = 300;
/** The stored JSON's bound (the column's CHECK): values are dropped before it is exceeded. */
const FEEDBACK_JSON_MAX = 16_000;

/** A refused step's input and messages, shown once on the step the shopper is sent back to. */
export interface StepFeedback {
  values: Partial<Record<FeedbackValueField, string>>;
  fieldErrors: Partial<Record<FeedbackErrorField, string>>;
}

function pick<F extends string>(fields: readonly F[], record: unknown): Partial<Record<F, string>> {
  const picked: Partial<Record<F, string>> = {};
  if (typeof record !== "object" || record === null) return picked;
  for (const field of fields) {
    const value = (record as Record<string, unknown>)[field];
    if (typeof value === "string") picked[field] = value.slice(0, FEEDBACK_TEXT_MAX);
  }
  return picked;
}

/**
 * Known fields only, each cut to FEEDBACK_TEXT_MAX (never the card number or CVV as a value):
 * whatever was posted, the row stays small.
 */
export function boundFeedback(feedback: { values: unknown; fieldErrors: unknown }): StepFeedback {
  return {
    values: pick(FEEDBACK_VALUE_FIELDS, feedback.values),
    fieldErrors: pick(FEEDBACK_ERROR_FIELDS, feedback.fieldErrors),
  };
}

function serializeFeedback(feedback: StepFeedback): string {
  const bounded = boundFeedback(feedback);
  const json = JSON.stringify(bounded);
  // escaping can multiply odd input's length: then the messages alone
  return json.length <= FEEDBACK_JSON_MAX
    ? json
    : JSON.stringify({ values: {}, fieldErrors: bounded.fieldErrors });
}

const SHIPPING_COLUMNS: Record<ShippingField, ShippingField> = {
  firstName: "firstName",
  lastName: "lastName",
  email: "email",
  phone: "phone",
  address: "address",
  city: "city",
  state: "state",
  zipCode: "zipCode",
  country: "country",
};

/**
 * The cart's checkout in progress, and the feedback of a refused step waiting to be shown (the
 * page that shows it clears it: clearCheckoutFeedback). A row older than the TTL counts as none.
 */
export async function readCheckoutProgress(
  db: Database,
  cartId: string,
  now: Date = new Date(),
): Promise<{ state: CheckoutState; feedback: StepFeedback | null }> {
  const row = await db
    .selectFrom("checkoutProgress")
    .selectAll()
    .where("cartId", "=", cartId)
    .where("updatedAt", ">=", new Date(now.getTime() - CHECKOUT_PROGRESS_TTL_MS).toISOString())
    .executeTakeFirst();
  if (!row) return { state: {}, feedback: null };
  const state: CheckoutState = {};
  if (SHIPPING_FIELDS.every((field) => row[SHIPPING_COLUMNS[field]] !== null)) {
    state.shipping = Object.fromEntries(
      SHIPPING_FIELDS.map((field) => [field, row[SHIPPING_COLUMNS[field]] ?? ""]),
    ) as ShippingDetails;
  }
  if (row.shippingMethod) state.method = row.shippingMethod;
  if (
    row.paymentToken &&
    row.paymentBrand &&
    row.paymentLast4 &&
    // a payment gift cards make whole has no expiry
    row.paymentExpiry !== null &&
    row.cardName !== null
  ) {
    state.payment = {
      token: row.paymentToken,
      brand: row.paymentBrand,
      last4: row.paymentLast4,
      expiry: row.paymentExpiry,
      cardName: row.cardName,
      saveInfo: row.saveInfo === 1,
    };
  }
  if (row.idempotencyKey) state.idempotencyKey = row.idempotencyKey;
  if (row.placedOrderNumber) state.placedOrder = row.placedOrderNumber;
  const giftCards = parseIds(row.giftCardIds);
  if (giftCards.length > 0) state.giftCards = giftCards;
  return { state, feedback: row.feedback === null ? null : parseFeedback(row.feedback) };
}

function parseIds(json: string | null): number[] {
  if (json === null) return [];
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isSafeInteger(id)) : [];
  } catch {
    return [];
  }
}

function parseFeedback(json: string): StepFeedback | null {
  try {
    const parsed: unknown = JSON.parse(json);
    return typeof parsed === "object" && parsed !== null
      ? boundFeedback(parsed as { values: unknown; fieldErrors: unknown })
      : null;
  } catch {
    return null;
  }
}

/** The feedback has been shown: it is not shown again. */
export async function clearCheckoutFeedback(db: Database, cartId: string): Promise<void> {
  await db.updateTable("checkoutProgress").set({ feedback: null }).where("cartId", "=", cartId).execute();
}

/**
 * Stores the cart's checkout in progress (the whole state: what it lacks is cleared) and the
 * feedback to show once on the next page, if any. The cart row must exist.
 */
export async function saveCheckoutProgress(
  db: Database,
  cartId: string,
  state: CheckoutState,
  feedback: StepFeedback | null = null,
  now: Date = new Date(),
): Promise<void> {
  const shipping = state.shipping;
  const values = {
    firstName: shipping?.firstName ?? null,
    lastName: shipping?.lastName ?? null,
    email: shipping?.email ?? null,
    phone: shipping?.phone ?? null,
    address: shipping?.address ?? null,
    city: shipping?.city ?? null,
    state: shipping?.state ?? null,
    zipCode: shipping?.zipCode ?? null,
    country: shipping?.country ?? null,
    shippingMethod: state.method ?? null,
    paymentToken: state.payment?.token ?? null,
    paymentBrand: state.payment?.brand ?? null,
    paymentLast4: state.payment?.last4 ?? null,
    paymentExpiry: state.payment?.expiry ?? null,
    cardName: state.payment?.cardName ?? null,
    saveInfo: state.payment?.saveInfo ? 1 : 0,
    idempotencyKey: state.idempotencyKey ?? null,
    placedOrderNumber: state.placedOrder ?? null,
    giftCardIds: state.giftCards?.length ? JSON.stringify(state.giftCards) : null,
    feedback: feedback ? serializeFeedback(feedback) : null,
    updatedAt: now.toISOString(),
  };
  await db
    .insertInto("checkoutProgress")
    .values({ cartId, ...values })
    .onConflict((oc) => oc.column("cartId").doUpdateSet(values))
    .execute();
}

/** Deletes the checkouts in progress untouched for longer than the TTL (a background job). */
export async function pruneCheckoutProgress(
  db: Database,
  now: Date = new Date(),
): Promise<{ pruned: number }> {
  const result = await db
    .deleteFrom("checkoutProgress")
    .where("updatedAt", "<", new Date(now.getTime() - CHECKOUT_PROGRESS_TTL_MS).toISOString())
    .executeTakeFirst();
  return { pruned: Number(result.numDeletedRows) };
}
