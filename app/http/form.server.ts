import { parseWithZod } from "@conform-to/zod/v4";
import type { ZodType } from "zod";

/**
 * The one way a route reads a form (decision 017): the body (already checked by the request
 * guard: a form, within its route's size limit) parsed with the form's zod schema by Conform.
 * `submission.status === "success"` gives `submission.value`; otherwise (or when the domain refuses
 * the value) the route answers `submission.reply({ fieldErrors, formErrors })`, which the form
 * shows beside its fields, with JavaScript or without.
 */
export async function parseForm<Schema extends ZodType>(
  request: Request,
  schema: Schema,
  /** `disableAutoCoercion`: the schema reads the posted text as it is (an empty value stays "", not absent) */
  options: { disableAutoCoercion?: boolean } = {},
) {
  return parseWithZod(await request.formData(), { schema, ...options });
}
