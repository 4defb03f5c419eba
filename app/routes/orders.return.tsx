import { redirect } from "react-router";
import { z } from "zod";
import { mailShopFrom, servicesFrom } from "../context.ts";
import { getUserOrder } from "../domain/accounts/account-orders.server.ts";
import { findOrderForTracking } from "../domain/orders/orders.server.ts";
import { TRACK_MESSAGES, TRACK_RATE_LIMIT } from "../domain/orders/track-order.ts";
import { requestReturn } from "../domain/returns/returns.server.ts";
import { parseForm } from "../http/form.server.ts";
import { getSessionUser } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { hitRateLimit } from "../infra/rate-limit.server.ts";
import { lineQuantitiesSchema } from "../lib/line-quantities.ts";
import { requestInfoContext } from "../lib/request-context.ts";
import { RETURN_REASONS } from "../lib/return-reasons.ts";
import type { Route } from "./+types/orders.return";

/**
 * POST /orders/return: a return request from the form on a delivered order (the account's order
 * page, or the tracking result for a guest, who proves it is theirs with the order's e-mail
 * address as on /orders/track, rate limited the same way). Answers with a redirect back and a toast.
 */
const schema = z.object({
  number: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^CW-[0-9A-Z]{1,20}$/),
  email: z.string().trim().max(254).optional(),
  back: z.enum(["account", "track"]),
  reason: z.enum(RETURN_REASONS),
  qty: lineQuantitiesSchema,
});

export const RETURN_MESSAGES = {
  requested: (number: string) => `Return ${number} requested. We have e-mailed you what happens next.`,
  invalid: "Choose what you are returning and why.",
  nothingChosen: "Choose at least one item to return.",
  tooMany: (name: string) => `You cannot return that many of ${name}.`,
  notDelivered: "This order has not been delivered yet, so it cannot be returned.",
  windowClosed: "The 30-day return window for this order has closed.",
} as const;

export function loader() {
  return redirect("/orders/track");
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseForm(request, schema);
  // where to send the shopper back: decided on the parsed form (its payload when it did not validate)
  const { payload } = submission;
  const back = (number?: string) =>
    payload.back === "account" && number ? `/account/orders/${number}` : "/orders/track";
  if (submission.status !== "success") {
    const number = typeof payload.number === "string" ? payload.number.trim().toUpperCase() : "";
    return redirectWithToast(back(/^CW-[0-9A-Z]{1,20}$/.test(number) ? number : ""), {
      type: "error",
      message: RETURN_MESSAGES.invalid,
    });
  }
  const { number, email, reason, qty } = submission.value;
  const services = servicesFrom(context);
  const { db } = services;
  const to = back(number);
  const user = await getSessionUser(request, context);
  let mine = user ? await getUserOrder(db, user.id, number) : null;
  if (!mine) {
    const { clientIp } = context.get(requestInfoContext);
    const limited = await hitRateLimit(db, `track:${clientIp}`, TRACK_RATE_LIMIT);
    if (!limited.allowed) {
      return redirectWithToast(to, {
        type: "error",
        message: TRACK_MESSAGES.tooMany(Math.ceil(limited.retryAfterSeconds / 60)),
      });
    }
    mine = email ? await findOrderForTracking(db, { number, email }) : null;
  }
  if (!mine) return redirectWithToast(to, { type: "error", message: TRACK_MESSAGES.notFound });
  const result = await requestReturn(db, services.mail, await mailShopFrom(context), {
    orderNumber: mine.number,
    reason,
    lines: qty,
  });
  if (result.ok)
    return redirectWithToast(to, {
      type: "success",
      message: RETURN_MESSAGES.requested(result.value.number),
    });
  const message = (() => {
    switch (result.error.code) {
      case "not-found":
        return TRACK_MESSAGES.notFound;
      case "not-delivered":
        return RETURN_MESSAGES.notDelivered;
      case "window-closed":
        return RETURN_MESSAGES.windowClosed;
      case "nothing-chosen":
        return RETURN_MESSAGES.nothingChosen;
      case "too-many":
        return RETURN_MESSAGES.tooMany(result.error.name);
    }
  })();
  return redirectWithToast(to, { type: "error", message });
}
