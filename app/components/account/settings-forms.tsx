import { Form, useLocation, useNavigation } from "react-router";
import { FormField } from "../checkout/form-field.tsx";
import { FormAlert, SUBMIT_BUTTON } from "./form-alert.tsx";

export interface SettingsFeedback {
  form: "name" | "email" | "password";
  message: string;
  /** what happens next after a form was taken (the e-mail change's link), shown beside it */
  notice?: string;
  fieldErrors: Record<string, string>;
  values: { name?: string; newEmail?: string };
}

function useBusy(action: string, intent: string) {
  const navigation = useNavigation();
  return (
    navigation.state === "submitting" &&
    navigation.formAction === action &&
    navigation.formData?.get("intent") === intent
  );
}

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
  const location = useLocation();
  const busy = useBusy(action, "email");
  const errors = feedback?.fieldErrors ?? {};
  return (
    <Form key={location.key} method="post" action={action} noValidate className="mt-4 space-y-4">
      <input type="hidden" name="intent" value="email" />
      <p className="text-sm text-gray-700">
        Current e-mail address: <span className="font-semibold">{currentEmail}</span>
      </p>
      <FormAlert message={feedback?.message} />
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
        defaultValue={feedback?.values.newEmail ?? ""}
        error={errors.newEmail}
      />
      <FormField
        id="settings-email-password"
        name="currentPassword"
        label="Current Password"
        type="password"
        autoComplete="current-password"
        required
        error={errors.currentPassword}
        hint="We ask for your password to make sure it's you."
      />
      <button type="submit" disabled={busy} className={SUBMIT_BUTTON}>
        {busy ? "Saving…" : "Change Email"}
      </button>
    </Form>
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
  const location = useLocation();
  const busy = useBusy(action, "password");
  const errors = feedback?.fieldErrors ?? {};
  return (
    <Form key={location.key} method="post" action={action} noValidate className="mt-4 space-y-4">
      <input type="hidden" name="intent" value="password" />
      <FormAlert message={feedback?.message} />
      <FormField
        id="settings-current-password"
        name="currentPassword"
        label="Current Password"
        type="password"
        autoComplete="current-password"
        required
        error={errors.currentPassword}
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
        error={errors.newPassword}
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
        error={errors.confirmPassword}
      />
      <p className="text-sm text-gray-700">Changing your password signs you out on every other device.</p>
      <button type="submit" disabled={busy} className={SUBMIT_BUTTON}>
        {busy ? "Saving…" : "Change Password"}
      </button>
    </Form>
  );
}
