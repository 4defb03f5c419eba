import type { ZodType, z } from "zod";
import { fail, ok, type Result } from "./result.ts";

/**
 * What a refused form says, field by field: the first message of each field, in the form's field
 * order, and the fields left empty (whose names a toast may list). Reads zod's issues (a schema's
 * `safeParse`) or Conform's `submission.error` (the route's `parseForm`) alike.
 */
export interface FormRefusal<F extends string> {
  missing: F[];
  fieldErrors: Partial<Record<F, string>>;
}

/** A form's values run through its schema: the value, or the refusal (code `invalid`) field by field. */
export type FormCheck<T, F extends string> = Result<T, { code: "invalid" } & FormRefusal<F>>;

/** A field is empty when it is absent, not text, or only spaces. */
export function emptyFields<F extends string>(fields: readonly F[], input: Record<string, unknown>): F[] {
  return fields.filter((field) => {
    const value = input[field];
    return typeof value !== "string" || value.trim() === "";
  });
}

/** Conform's `submission.error` (field → messages) reduced to the first message of each field. */
export function refusalOf<F extends string>(
  fields: readonly F[],
  input: Record<string, unknown>,
  error: Record<string, string[] | null | undefined> | null | undefined,
): FormRefusal<F> {
  const fieldErrors: Partial<Record<F, string>> = {};
  for (const field of fields) {
    const message = error?.[field]?.[0];
    if (message) fieldErrors[field] = message;
  }
  return { missing: emptyFields(fields, input), fieldErrors };
}

/** Runs a form's schema on plain values (a test, a caller without a request): value, or refusal. */
export function checkForm<S extends ZodType, F extends string>(
  schema: S,
  fields: readonly F[],
  input: Record<string, unknown>,
): FormCheck<z.output<S>, F> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return ok(parsed.data);
  const error: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? "");
    error[key] = [...(error[key] ?? []), issue.message];
  }
  return fail({ code: "invalid" as const, ...refusalOf(fields, input, error) });
}
