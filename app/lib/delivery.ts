/** Estimated delivery (spec §9): order day + the middle of the method's days (5 standard, 2 express by default). */
import { formatLongDateWithWeekday } from "../infra/format.ts";
import { deliveryDayCount, type ShippingMethodDef } from "./markets.ts";

const DAY_MS = 86_400_000;

/** The calendar date (YYYY-MM-DD, UTC) an order placed at `now` with `method` should arrive. */
export function estimatedDeliveryDate(
  method: Pick<ShippingMethodDef, "daysMin" | "daysMax">,
  now: Date,
): string {
  return new Date(now.getTime() + deliveryDayCount(method) * DAY_MS).toISOString().slice(0, 10);
}

/** "2026-11-27" → "Friday, November 27, 2026" (the date itself, whatever the reader's zone). */
export function formatDeliveryDate(isoDate: string): string {
  return formatLongDateWithWeekday(isoDate);
}
