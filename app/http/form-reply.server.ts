import type { Submission, SubmissionResult } from "@conform-to/react";

/**
 * A refused form's answer for the page to show: Conform's reply with the form's message above it
 * (`formErrors`) and the field messages beside the fields (the schema's, plus `fieldErrors` from
 * the domain), the typed values kept — cut to 254 characters — except `hideFields` (passwords are
 * never sent back). `fieldMessages: false` keeps only the message above the form.
 */
export function refusedReply(
  submission: Pick<Submission<unknown>, "reply">,
  {
    formErrors,
    fieldErrors,
    hideFields = [],
    fieldMessages = true,
  }: {
    formErrors: string[];
    fieldErrors?: Record<string, string[]>;
    hideFields?: string[];
    fieldMessages?: boolean;
  },
): SubmissionResult {
  const reply = submission.reply({ formErrors, fieldErrors, hideFields });
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.initialValue ?? {})) {
    if (typeof value === "string") kept[name] = value.slice(0, 254);
  }
  return { ...reply, initialValue: kept, error: fieldMessages ? reply.error : { "": formErrors } };
}
