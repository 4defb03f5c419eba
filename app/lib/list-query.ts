import { type ZodType, z } from "zod";

/**
 * The query of an admin list (coupons, reported reviews, audit log) read with zod: every field
 * falls back on its own (`catch`), so a hand-edited URL — an unknown sort, a garbage date,
 * `page=-3`, a value given twice — lists with the defaults instead of failing. The same rules as
 * the orders list's inline parsing: a page is 1..100 000, a day is a real calendar day (UTC).
 */

/** Values a query parameter may carry; `Object.fromEntries` keeps the last of repeated names. */
type QueryValues = Record<string, string | undefined>;

const text = z.string();

/** A page number: a whole number 1..100 000, else page 1. */
export const listPage = text
  .regex(/^\d{1,6}$/)
  .transform(Number)
  .pipe(z.number().int().min(1).max(100_000))
  .catch(1);

/** Free text trimmed and cut to `max` characters; "" when absent. */
export const listSearch = (max: number) => text.transform((value) => value.trim().slice(0, max)).catch("");

/** One of `values`, else `fallback` (a sort's default). */
export const listChoice = <
  const Values extends readonly [string, ...string[]],
  Fallback extends Values[number],
>(
  values: Values,
  fallback: Fallback,
) => z.enum(values).catch(fallback);

/** One of `values`, else null (a filter left out). */
export const listFilter = <const Values extends readonly [string, ...string[]]>(values: Values) =>
  z.enum(values).nullable().catch(null);

/** A calendar day `YYYY-MM-DD` that exists (no 2026-02-30), years 2000..9998; else null. */
export const listDay = text
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((day) => {
    const at = Date.parse(`${day}T00:00:00.000Z`);
    return (
      !Number.isNaN(at) &&
      new Date(at).toISOString().slice(0, 10) === day &&
      day >= "2000-01-01" &&
      day <= "9998-12-31"
    );
  })
  .nullable()
  .catch(null);

/** The instant a UTC day starts, and the instant the next one starts (a day's range, end excluded). */
export const dayStart = (day: string) => `${day}T00:00:00.000Z`;
export const dayEnd = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

/**
 * `%term%` for a SQL `like … escape '\'` that finds the term as typed: its own `%`, `_` and
 * backslashes escaped.
 */
export const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A list's query parameters through its schema (whose every field catches its own errors). */
export function parseListQuery<Schema extends ZodType>(
  params: URLSearchParams,
  schema: Schema,
): z.output<Schema> {
  const values: QueryValues = Object.fromEntries(params);
  return schema.parse(values);
}
