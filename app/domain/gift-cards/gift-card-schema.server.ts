import { z } from "zod";
import { toCents } from "../../lib/money.ts";
import { endOfDayIn } from "../../lib/time-zones.ts";
import {
  GIFT_CARD_CHECK_MESSAGES,
  GIFT_CARD_REFUSALS,
  GIFT_CARD_LIMITS as LIMITS,
  GIFT_CARD_MESSAGES as M,
} from "./gift-card-form.ts";
import type { IssueGiftCardInput } from "./gift-cards.server.ts";

/** A text field as the form sends it (Conform gives an empty one as undefined): trimmed. */
const text = () =>
  z
    .string()
    .optional()
    .transform((value) => (value ?? "").trim());

const AMOUNT = /^\d{1,5}(\.\d{1,2})?$/;

/**
 * The admin's issue form (Admin → Gift cards → Issue): an amount in the shop's currency, an optional
 * last day (the card works through it, on the shop's clocks), an optional recipient to e-mail the code
 * to, and a message. The currency is the shop's; the key is the form's own.
 */
export function issueGiftCardSchema({
  currency,
  timeZone,
}: Pick<IssueGiftCardInput, "currency"> & { timeZone: string }) {
  return z
    .object({
      key: z.uuid(),
      amount: text().pipe(
        z
          .string()
          .regex(AMOUNT, M.amount)
          .transform(toCents)
          .pipe(z.number().int().min(LIMITS.minCents, M.amount).max(LIMITS.maxCents, M.amount)),
      ),
      expiresOn: text().pipe(
        z.string().transform((day, ctx) => {
          if (day === "") return null;
          const at = endOfDayIn(day, timeZone);
          if (!at) {
            ctx.addIssue({ code: "custom", message: M.expiresAt });
            return z.NEVER;
          }
          return at;
        }),
      ),
      recipientEmail: text().pipe(
        z.union([z.literal(""), z.email(M.recipientEmail).max(254, M.recipientEmail)]),
      ),
      recipientName: text().pipe(z.string().max(LIMITS.name, M.recipientName)),
      message: text()
        .transform((value) => value.replace(/\r\n?/g, "\n"))
        .pipe(z.string().max(LIMITS.message, M.message)),
    })
    .transform(
      (form): IssueGiftCardInput => ({
        key: form.key,
        amountCents: form.amount,
        currency,
        expiresAt: form.expiresOn,
        recipientEmail: form.recipientEmail || null,
        recipientName: form.recipientName || null,
        message: form.message || null,
      }),
    );
}

/** The card page's forms: disable or enable. */
export const giftCardActionSchema = z.object({ intent: z.enum(["disable", "enable"]) });

/** The shopper's balance check: a code as typed (its form is the lookup's to judge). */
export const giftCardBalanceSchema = z.object({
  code: z
    .string({ error: GIFT_CARD_CHECK_MESSAGES.required })
    .trim()
    .min(1, GIFT_CARD_CHECK_MESSAGES.required)
    .max(40, GIFT_CARD_REFUSALS.unknown),
});
