import { z } from "zod";
import { TRACK_MESSAGES } from "./track-order.ts";

/** Both fields are needed; each is trimmed and cut to 300 characters before the lookup. */
const lookupText = z
  .string({ error: TRACK_MESSAGES.missing })
  .transform((value) => value.trim().slice(0, 300))
  .pipe(z.string({ error: TRACK_MESSAGES.missing }).min(1, TRACK_MESSAGES.missing));

/** The tracking form (/orders/track): the order number and the e-mail used for the order. */
export const trackOrderSchema = z.object({ orderNumber: lookupText, email: lookupText });
