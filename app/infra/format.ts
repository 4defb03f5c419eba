/**
 * Numbers and dates as the shop shows them (en-US, dates in UTC), without `Intl`: creating an
 * `Intl` formatter loads ICU locale data, which on a phone costs tens of milliseconds while the
 * page hydrates; and the server and every browser write the same text, whatever ICU version
 * each has (no hydration mismatch). The tests check every function against `Intl` itself.
 */

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

/** 1234567 → "1,234,567" (an integer count with thousands separators). */
export function formatCount(count: number): string {
  const sign = count < 0 ? "-" : "";
  return sign + groupThousands(Math.round(Math.abs(count)));
}

/** The digits of a non-negative integer with a separator (a comma) every three from the right. */
export function groupThousands(whole: number, separator = ","): string {
  const digits = String(whole);
  let grouped = "";
  for (let end = digits.length; end > 0; end -= 3) {
    const part = digits.slice(Math.max(0, end - 3), end);
    grouped = grouped ? `${part}${separator}${grouped}` : part;
  }
  return grouped;
}

/** An ISO timestamp, or a YYYY-MM-DD date read as midnight UTC. */
const utcDate = (iso: string) => new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);

/** An ISO timestamp or YYYY-MM-DD → "November 23, 2026" (the UTC calendar date). */
export function formatLongDate(iso: string): string {
  const date = utcDate(iso);
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/** An ISO timestamp or YYYY-MM-DD → "Nov 23, 2026" (the UTC calendar date). */
export function formatShortDate(iso: string): string {
  const date = utcDate(iso);
  return `${MONTHS[date.getUTCMonth()]?.slice(0, 3)} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/** An ISO timestamp → "Nov 20, 2026, 15:30 UTC" (the audit log: when, to the minute). */
export function formatDateTime(iso: string): string {
  const date = utcDate(iso);
  const hh = String(date.getUTCHours()).padStart(2, "0");
  const mm = String(date.getUTCMinutes()).padStart(2, "0");
  return `${formatShortDate(iso)}, ${hh}:${mm} UTC`;
}

/** An ISO timestamp or YYYY-MM-DD → "Monday, November 23, 2026" (the UTC calendar date). */
export function formatLongDateWithWeekday(iso: string): string {
  return `${WEEKDAYS[utcDate(iso).getUTCDay()]}, ${formatLongDate(iso)}`;
}
