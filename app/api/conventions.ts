import { z } from "@hono/zod-openapi";

/**
 * The API's conventions (issue 32, decision 038), shared by every operation: money as integer minor
 * units with the currency; lists paged by an opaque cursor (`nextCursor` of one page is the
 * `cursor` of the next; null at the end) and a `limit` of 1–100.
 */
export const moneySchema = z
  .object({
    amount: z.number().int().openapi({ description: "in minor units (cents)", example: 2499 }),
    currency: z.string().length(3).openapi({ example: "USD" }),
  })
  .openapi("Money");

export const API_PAGE_LIMIT = { default: 25, max: 100 } as const;

export const pageSchema = z.object({
  cursor: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: "the nextCursor of the page before; absent for the first page" }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(API_PAGE_LIMIT.max)
    .default(API_PAGE_LIMIT.default)
    .openapi({ description: `items per page, 1–${API_PAGE_LIMIT.max}` }),
});

/** A page's position as the cursor handed out (base64url JSON: opaque to callers, checked on return). */
export function encodeCursor(position: unknown): string {
  return Buffer.from(JSON.stringify(position)).toString("base64url");
}

/** The position a cursor names, when it is one `encodeCursor` made for this schema; else null. */
export function decodeCursor<T>(cursor: string, schema: z.ZodType<T>): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The header every POST carries (app/api/idempotency.ts), as an operation declares it. */
export const idempotencyHeaders = z.object({
  "idempotency-key": z.string().openapi({ description: "a unique value per operation, e.g. a UUID" }),
});
