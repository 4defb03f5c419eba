import { type SubmissionResult, useForm } from "@conform-to/react";
import { FormField } from "../checkout/form-field.tsx";
import { FormAlert, SUBMIT_BUTTON } from "./form-alert.tsx";
import { IntentForm, useSubmittingIntent } from "./intent-form.tsx";

/**
 * Change name (settings and edit-profile). Posts `intent=name` to `action`; a refusal comes back
 * as Conform's submission `result` (the message, the field's message and the refused value).
 */
export function NameForm({
  action,
  name,
  result,
}: {
  action: string;
  /** the current name */
  name: string;
  result?: SubmissionResult;
}) {
  const [form, fields] = useForm<{ name: string }>({ id: "settings-name-form", lastResult: result });
  const refused = fields.name.initialValue;
  const busy = useSubmittingIntent(action, "name");
  return (
    <IntentForm form={form} action={action} intent="name">
      <FormAlert message={form.errors?.[0]} />
      <FormField
        id="settings-name"
        name="name"
        label="Full Name"
        type="text"
        autoComplete="name"
        maxLength={100}
        required
        defaultValue={result && typeof refused === "string" ? refused : name}
        error={fields.name.errors?.[0]}
      />
      <button type="submit" disabled={busy} className={SUBMIT_BUTTON}>
        {busy ? "Saving…" : "Save Name"}
      </button>
    </IntentForm>
  );
}
