import { TZDate } from "@date-fns/tz";
import { formatShortDate } from "../infra/format.ts";

/**
 * The shop's time zone (Admin → Settings): the admin enters and reads promotions' schedules in it,
 * while every instant is stored in UTC. Zone arithmetic is @date-fns/tz's (the IANA rules as the
 * runtime's Intl has them); a wall-clock time a clock change skips moves forward (02:30 on the
 * night clocks go from 02:00 to 03:00 is 03:30), one it repeats is the earlier.
 */

/** The zones an owner can choose: UTC, then the runtime's IANA names (server-side: lists differ between runtimes). */
export function timeZoneNames(): string[] {
  return ["UTC", ...Intl.supportedValuesOf("timeZone").filter((name) => name !== "UTC")];
}

let known: Set<string> | undefined;

export function isTimeZone(value: string): boolean {
  known ??= new Set(timeZoneNames());
  return known.has(value);
}

/** "2026-12-01T09:00" (a form's datetime-local, or with a space) in `zone` → the ISO instant; null when not one. */
export function instantOf(local: string, zone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})$/.exec(local.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < 2000 || year > 9998 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59)
    return null;
  // the day must exist in its month (no February 30th rolling into March)
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  const at = new TZDate(year, month - 1, day, hour, minute, zone).getTime();
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}

/** An ISO instant → "YYYY-MM-DDTHH:mm" on the wall clocks of `zone` (what a datetime-local field shows). */
export function localOf(iso: string, zone: string): string {
  const at = new TZDate(Date.parse(iso), zone);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}`;
}

/** An instant as read in `zone`: "Dec 1, 2026, 09:00 Europe/Berlin" (formatDateTime's form; "… UTC" in UTC). */
export function formatDateTimeIn(iso: string, zone: string): string {
  const local = localOf(iso, zone);
  return `${formatShortDate(local.slice(0, 10))}, ${local.slice(11)} ${zone}`;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The end of the day "YYYY-MM-DD" on `zone`'s clocks, as an instant (the start of the day after):
 * something that expires on a day works through it. Null for a day that does not exist.
 */
export function endOfDayIn(day: string, zone: string): string | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (date.toISOString().slice(0, 10) !== day) return null;
  date.setUTCDate(date.getUTCDate() + 1);
  return instantOf(`${date.toISOString().slice(0, 10)}T00:00`, zone);
}
