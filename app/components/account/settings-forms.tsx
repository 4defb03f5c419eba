import { type SubmissionResult, useForm } from "@conform-to/react";
import { FormField } from "../checkout/form-field.tsx";
import { FormAlert, SUBMIT_BUTTON } from "./form-alert.tsx";
import { IntentForm, useSubmittingIntent } from "./intent-form.tsx";

/** What POST /account/settings answers: which form, Conform's submission result, and a notice. */
export interface SettingsFeedback {
  form: "name" | "email" | "password";
  result: SubmissionResult;
  /** what happens next after a form was taken (the e-mail change's link), shown beside it */
  notice?: string;
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

/** Change e-mail: the new address and the current password. */
export function EmailForm({
  action,
  currentEmail,
  feedback,
}: {
  action: string;
  currentEmail: string;
  feedback: SettingsFeedback | null;
}) {
  const busy = useSubmittingIntent(action, "email");
  const [form, fields] = useForm<{ newEmail: string; currentPassword: string }>({
    id: "settings-email",
    lastResult: feedback?.result,
  });
  return (
    <IntentForm form={form} action={action} intent="email">
      <p className="text-sm text-gray-700">
        Current e-mail address: <span className="font-semibold">{currentEmail}</span>
      </p>
      <FormAlert message={form.errors?.[0]} />
      {feedback?.notice && (
        <p
          role="status"
          className="rounded-lg border border-green-700 bg-green-50 p-3 text-sm font-medium text-green-900"
        >
          {feedback.notice}
        </p>
      )}
      <FormField
        id="settings-new-email"
        name="newEmail"
        label="New Email"
        type="email"
        autoComplete="email"
        maxLength={254}
        required
        defaultValue={text(fields.newEmail.initialValue)}
        error={fields.newEmail.errors?.[0]}
      />
      <FormField
        id="settings-email-password"
        name="currentPassword"
        label="Current Password"
        type="password"
        autoComplete="current-password"
        required
        error={fields.currentPassword.errors?.[0]}
        hint="We ask for your password to make sure it's you."
      />
      <button type="submit" disabled={busy} className={SUBMIT_BUTTON}>
        {busy ? "Saving…" : "Change Email"}
      </button>
    </IntentForm>
  );
}

/** Change password: current, new (8–128 characters) and the new one again. */
export function PasswordForm({
  action,
  feedback,
  minLength,
  maxLength,
}: {
  action: string;
  feedback: SettingsFeedback | null;
  minLength: number;
  maxLength: number;
}) {
  const busy = useSubmittingIntent(action, "password");
  const [form, fields] = useForm<{ currentPassword: string; newPassword: string; confirmPassword: string }>({
    id: "settings-password",
    lastResult: feedback?.result,
  });
  return (
    <IntentForm form={form} action={action} intent="password">
      <FormAlert message={form.errors?.[0]} />
      <FormField
        id="settings-current-password"
        name="currentPassword"
        label="Current Password"
        type="password"
        autoComplete="current-password"
        required
        error={fields.currentPassword.errors?.[0]}
      />
      <FormField
        id="settings-new-password"
        name="newPassword"
        label="New Password"
        type="password"
        autoComplete="new-password"
        minLength={minLength}
        maxLength={maxLength}
        required
        error={fields.newPassword.errors?.[0]}
        hint={`At least ${minLength} characters.`}
      />
      <FormField
        id="settings-confirm-password"
        name="confirmPassword"
        label="Confirm New Password"
        type="password"
        autoComplete="new-password"
        maxLength={maxLength}
        required
        error={fields.confirmPassword.errors?.[0]}
      />
      <p className="text-sm text-gray-700">Changing your password signs you out on every other device.</p>
      <button type="submit" disabled={busy} className={SUBMIT_BUTTON}>
        {busy ? "Saving…" : "Change Password"}
      </button>
    </IntentForm>
  );
}
