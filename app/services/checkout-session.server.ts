import { createCookieSessionStorage, type Session } from "react-router";
import { z } from "zod";
import { SHIPPING_FIELDS, type ShippingField } from "../domain/checkout/shipping-form.ts";
import { getEnv } from "../env.server.ts";
import { createSignedCookie } from "./signed-cookie.server.ts";

/**
 * What the shopper entered so far in checkout, kept between steps in a signed, HttpOnly cookie
 * of its own: the shipping details, the method, and the payment step's result — the gateway's
 * token with brand, last 4 and expiry. The card number and CVV are never in it.
 */
const shippingSchema = z.object(
  Object.fromEntries(SHIPPING_FIELDS.map((field) => [field, z.string().max(300)])) as Record<
    ShippingField,
    z.ZodString
  >,
);

const paymentSchema = z.object({
  token: z.string().max(1000),
  brand: z.string().max(40),
  last4: z.string().regex(/^\d{4}$/),
  expiry: z.string().max(5),
  cardName: z.string().max(100),
  saveInfo: z.boolean(),
});

const stateSchema = z.object({
  shipping: shippingSchema.optional(),
  method: z.enum(["standard", "express"]).optional(),
  payment: paymentSchema.optional(),
  /** one per review: placing twice with it makes one order */
  idempotencyKey: z.string().max(100).optional(),
  /** the number of the order just placed, for the confirmation step */
  placedOrder: z.string().max(40).optional(),
});

export type CheckoutState = z.infer<typeof stateSchema>;
export type SavedPayment = z.infer<typeof paymentSchema>;

/** A failed step's input and messages, shown once on the step the shopper is sent back to. */
const feedbackSchema = z.object({
  values: z.record(z.string(), z.string().max(300)),
  fieldErrors: z.record(z.string(), z.string().max(300)),
});
export type StepFeedback = z.infer<typeof feedbackSchema>;

const STATE_KEY = "checkout";
const FEEDBACK_KEY = "feedback";

let storage: ReturnType<typeof createStorage> | undefined;
function createStorage() {
  const env = getEnv();
  return createCookieSessionStorage({
    cookie: createSignedCookie("cw_checkout", {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: env.PUBLIC_URL.startsWith("https:"),
      secrets: [env.SESSION_SECRET],
      maxAge: 24 * 60 * 60,
    }),
  });
}
function checkoutStorage() {
  storage ??= createStorage();
  return storage;
}

export async function getCheckoutSession(request: Request): Promise<Session> {
  return checkoutStorage().getSession(request.headers.get("Cookie"));
}

export function readCheckoutState(session: Session): CheckoutState {
  const parsed = stateSchema.safeParse(session.get(STATE_KEY) ?? {});
  return parsed.success ? parsed.data : {};
}

export function writeCheckoutState(session: Session, state: CheckoutState): void {
  session.set(STATE_KEY, state);
}

/** Reads (and clears) the feedback of a step that was sent back. */
export function takeStepFeedback(session: Session): StepFeedback | null {
  const parsed = feedbackSchema.safeParse(session.get(FEEDBACK_KEY));
  return parsed.success ? parsed.data : null;
}

export function flashStepFeedback(session: Session, feedback: StepFeedback): void {
  session.flash(FEEDBACK_KEY, feedback);
}

export async function commitCheckoutSession(session: Session): Promise<string> {
  return checkoutStorage().commitSession(session);
}
