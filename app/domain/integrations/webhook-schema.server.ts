import { z } from "zod";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../../lib/webhook-events.ts";
import { WEBHOOK_MESSAGES as M } from "./webhook-form.ts";

/**
 * Admin → Webhooks' forms: a new endpoint (its URL and the events wanted), a secret rotated, a test
 * event sent, an endpoint enabled again, a delivery sent again.
 */
export const webhookFormSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("add"),
    url: z
      .string({ error: M.url })
      .trim()
      .refine((url) => url.length <= 2_000 && /^https?:\/\/\S+$/i.test(url), M.url),
    events: z
      .union([z.string(), z.array(z.string())], { error: M.events })
      .transform((value) => (Array.isArray(value) ? value : [value]))
      .pipe(
        z
          .array(z.enum(WEBHOOK_EVENT_TYPES as unknown as [WebhookEventType, ...WebhookEventType[]]))
          .min(1, M.events),
      ),
  }),
  z.object({ intent: z.literal("rotate"), id: z.coerce.number().int().positive() }),
  z.object({ intent: z.literal("test"), id: z.coerce.number().int().positive() }),
  z.object({ intent: z.literal("enable"), id: z.coerce.number().int().positive() }),
  z.object({ intent: z.literal("resend"), deliveryId: z.coerce.number().int().positive() }),
]);
