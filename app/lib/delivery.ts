/** Estimated delivery (spec §9): order day + 5 days standard, + 2 days express. */
import { formatLongDateWithWeekday } from "../infra/format.ts";
import { SHIPPING_METHODS, type ShippingMethod } from "./pricing.ts";

const DAY_MS = 86_400_000;

/** The calendar date (YYYY-MM-DD, UTC) an order placed at `now` should arrive. */
export function estimatedDeliveryDate(method: ShippingMethod, now: Date): string {
  return new Date(now.getTime() + SHIPPING_METHODS[method].deliveryDays * DAY_MS).toISOString().slice(0, 10);
}

/** "2026-11-27" → "Friday, November 27, 2026" (the date itself, whatever the reader's zone). */
export function formatDeliveryDate(isoDate: string): string {
  return formatLongDateWithWeekday(isoDate);
}
