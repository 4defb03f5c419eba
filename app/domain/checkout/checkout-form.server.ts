import { z } from "zod";
import { shippingSchema } from "./address-schema.server.ts";
import { paymentFields } from "./payment-schema.server.ts";

/**
 * POST /checkout: one form per step, told apart by `intent`. The shipping and payment steps carry
 * their fields; the review carries its idempotency key and the total the shopper saw (checked by
 * submitPlaceOrder, which sends a malformed one back to the review).
 */
export function checkoutActionSchema({ provider = false }: { provider?: boolean } = {}) {
  // built once per kind: a zod schema (and Conform's coercing copy of it) costs more to build than
  // to run, on every step's submission
  return provider ? providerSchema : cardSchema;
}

function buildSchema(provider: boolean) {
  return z.discriminatedUnion("intent", [
    shippingSchema.extend({ intent: z.literal("shipping") }),
    provider
      ? // a provider's element made a payment method (pm_…) in the browser; none: its hosted page
        z.object({
          intent: z.literal("payment"),
          paymentMethodId: z
            .string()
            .regex(/^pm_[A-Za-z0-9_]{1,200}$/, "Your payment details could not be used.")
            .optional(),
        })
      : z.object({
          intent: z.literal("payment"),
          ...paymentFields(),
          saveInfo: z
            .string()
            .optional()
            .transform((value) => value === "on" || value === "true"),
        }),
    z.object({ intent: z.literal("keep-payment") }),
    // gift cards and store credit at the payment step (their refusals are the route's to word)
    z.object({
      intent: z.literal("apply-gift-card"),
      giftCardCode: z.string().trim().max(100).optional().default(""),
    }),
    z.object({ intent: z.literal("use-store-credit") }),
    z.object({ intent: z.literal("remove-gift-card"), giftCardId: z.coerce.number().int().positive() }),
    z.object({ intent: z.literal("pay-with-gift-cards") }),
    z.object({ intent: z.literal("back-to-shipping") }),
    z.object({
      intent: z.literal("place-order"),
      idempotencyKey: z.string().optional().default(""),
      expectedTotalCents: z
        .string()
        .optional()
        .transform((value) => Number(value ?? "")),
      expectedGiftCardCents: z
        .string()
        .optional()
        .transform((value) => Number(value ?? "0")),
    }),
  ]);
}

const cardSchema = buildSchema(false);
const providerSchema = buildSchema(true);

/** The posted values as text, each cut short (what a refused step shows again). */
export function postedText(payload: Record<string, unknown>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload)) {
    if (typeof value === "string") values[name] = value.slice(0, 1000);
  }
  return values;
}
