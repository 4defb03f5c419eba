import { z } from "zod";
import { CART_MESSAGES } from "./messages.server.ts";

/** The largest quantity a form may carry (the stock caps it further). */
export const MAX_FORM_QUANTITY = 999;

const rowId = z
  .string()
  .trim()
  .regex(/^\d{1,10}$/)
  .transform(Number)
  .pipe(z.number().int().min(1).max(2_147_483_647));
const productId = rowId;
/** the variant chosen; may be left out for a product with one variant (or one line in the cart) */
const variantId = z.preprocess((value) => (value === "" ? undefined : value), rowId.optional());

/** add / buy-now: 1…999 */
const addQuantity = z
  .string()
  .trim()
  .regex(/^\+?\d{1,3}$/)
  .transform(Number)
  .pipe(z.number().int().min(1).max(MAX_FORM_QUANTITY));

/** update: −999…999; 0 or less removes the line */
const setQuantity = z
  .string()
  .trim()
  .regex(/^[-+]?\d{1,3}$/)
  .transform(Number)
  .pipe(z.number().int().min(-MAX_FORM_QUANTITY).max(MAX_FORM_QUANTITY));

const redirectTo = z.string().max(2000).optional();

/** Empty (or absent): none. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => (value ? value : null));

/** A gift card's recipient (the product page of a gift card): none given, the card is the buyer's. */
const giftCardFields = {
  recipientEmail: z
    .string()
    .trim()
    .max(254)
    .optional()
    .transform((value) => (value ? value.toLowerCase() : null))
    .pipe(z.email().nullable()),
  recipientName: optionalText(100),
  giftMessage: optionalText(500),
};

/**
 * The one cart action (POST /cart), switched on `intent`. Prices are never read from the form.
 * Other pages post here too: product cards (add), the product page (add, buy-now). Read as posted
 * (parseForm with `disableAutoCoercion`): an empty quantity is a bad quantity, not the default.
 */
export const cartActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("add"),
    productId,
    variantId,
    quantity: addQuantity.default(1),
    redirectTo,
    ...giftCardFields,
  }),
  z.object({
    intent: z.literal("buy-now"),
    productId,
    variantId,
    quantity: addQuantity.default(1),
    redirectTo,
    ...giftCardFields,
  }),
  z.object({ intent: z.literal("update"), productId, variantId, quantity: setQuantity, redirectTo }),
  z.object({ intent: z.literal("remove"), productId, variantId, redirectTo }),
  z.object({ intent: z.literal("clear"), redirectTo }),
  z.object({ intent: z.literal("apply-coupon"), code: z.string().max(200).default(""), redirectTo }),
  z.object({ intent: z.literal("remove-coupon"), redirectTo }),
  z.object({
    intent: z.literal("estimate"),
    country: z.string().trim().max(60).default(""),
    region: z.string().trim().max(100).default(""),
    redirectTo,
  }),
]);

export type CartAction = z.infer<typeof cartActionSchema>;

/**
 * The message for a refused cart form (Conform's `submission.error`, or zod's issues by field): a
 * bad quantity gets its own, any other bad input the general one.
 */
export function cartRefusalMessage(error: Record<string, unknown> | null | undefined): string {
  if (error && "recipientEmail" in error) return CART_MESSAGES.invalidRecipient;
  return error && "quantity" in error ? CART_MESSAGES.invalidQuantity : CART_MESSAGES.invalidRequest;
}
