import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * Errors as RFC 9457 problem details (`application/problem+json`): a `title` that names the kind of
 * problem, the `status`, and a `detail` in the words the pages use. Validation problems list the
 * fields (`errors`: the field's path and its message).
 */
export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .openapi("Problem");
export type Problem = z.infer<typeof problemSchema>;

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Content Too Large",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
};

const PROBLEM_HEADERS = { "Content-Type": "application/problem+json", "Cache-Control": "no-store" };

/**
 * A problem as an operation's typed answer (the status one of those its route documents); `errors`
 * names the fields refused, as the pages show beside them.
 */
export function problemOf<S extends ContentfulStatusCode>(
  c: Context,
  status: S,
  detail: string,
  errors?: Problem["errors"],
) {
  const body: Problem = {
    type: "about:blank",
    title: TITLES[status] ?? "Error",
    status,
    detail,
    ...(errors ? { errors } : {}),
  };
  return c.json(body, status, PROBLEM_HEADERS);
}

/** A problem as a plain response (middleware, the API's fallbacks). */
export function problem(
  status: ContentfulStatusCode,
  detail?: string,
  extra: { errors?: Problem["errors"] } = {},
): Response {
  const body: Problem = {
    type: "about:blank",
    title: TITLES[status] ?? "Error",
    status,
    ...(detail ? { detail } : {}),
    ...extra,
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: PROBLEM_HEADERS,
  });
}

const INVALID = "The request has invalid or missing values.";

/** Each field a zod error refused, with its message. */
function fieldErrors(error: z.ZodError): NonNullable<Problem["errors"]> {
  return error.issues.slice(0, 20).map((issue) => ({
    field: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));
}

/** The answer to a request whose parameters or body the operation's schema refused. */
export function validationProblem(error: z.ZodError): Response {
  return problem(400, INVALID, { errors: fieldErrors(error) });
}

/** The same, as an operation's typed answer (a domain schema checked inside the operation). */
export function validationProblemOf(c: Context, error: z.ZodError) {
  return problemOf(c, 400, INVALID, fieldErrors(error));
}

/** The documented problem responses of an operation, for its OpenAPI entry. */
export function problemResponses(...statuses: (400 | 401 | 402 | 403 | 404 | 409 | 422 | 429)[]) {
  const content = { "application/problem+json": { schema: problemSchema } };
  const descriptions = {
    400: "The parameters or body are invalid",
    401: "No key, or a key that is unknown, revoked or expired",
    402: "The payment was declined (the detail says why, in the checkout's words)",
    403: "The key lacks the scope this operation needs",
    404: "Not found",
    409: "Conflict: the order's state does not allow it, or the same Idempotency-Key is still being answered",
    422: "This Idempotency-Key was used with a different request",
    429: "Too many requests with this key (see Retry-After)",
  } as const;
  return Object.fromEntries(statuses.map((s) => [s, { description: descriptions[s], content }])) as Record<
    (typeof statuses)[number],
    { description: string; content: typeof content }
  >;
}
