/** The dashboard's periods (issue 20): whole UTC days; presets end today. Shared by server and page. */

/** Days are UTC calendar days, "YYYY-MM-DD"; `to` is included. */
export interface Period {
  from: string;
  to: string;
}

export const PERIOD_PRESETS = ["today", "7d", "30d"] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];
export const MAX_PERIOD_DAYS = 366;

const DAY_MS = 86_400_000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
export const addDays = (day: string, days: number) =>
  dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
export const daysIn = (period: Period) =>
  Math.round((Date.parse(`${period.to}T00:00:00Z`) - Date.parse(`${period.from}T00:00:00Z`)) / DAY_MS) + 1;

/** A preset's period ending today. */
export function presetPeriod(preset: PeriodPreset, now = new Date()): Period {
  const today = dayOf(now);
  const days = preset === "today" ? 1 : preset === "7d" ? 7 : 30;
  return { from: addDays(today, 1 - days), to: today };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A custom range from the form, or null when it is not one (bad dates, reversed, too long). */
export function customPeriod(from: string | null, to: string | null): Period | null {
  if (!from || !to || !DAY.test(from) || !DAY.test(to)) return null;
  if (Number.isNaN(Date.parse(`${from}T00:00:00Z`)) || Number.isNaN(Date.parse(`${to}T00:00:00Z`)))
    return null;
  if (dayOf(new Date(`${from}T00:00:00Z`)) !== from || dayOf(new Date(`${to}T00:00:00Z`)) !== to) return null;
  const period = { from, to };
  const days = daysIn(period);
  return days >= 1 && days <= MAX_PERIOD_DAYS ? period : null;
}

/** The period of the same length just before. */
export function previousPeriod(period: Period): Period {
  const days = daysIn(period);
  return { from: addDays(period.from, -days), to: addDays(period.from, -1) };
}
