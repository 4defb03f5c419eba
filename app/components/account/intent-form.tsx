import type { FormEvent, ReactNode } from "react";
import { Form, useLocation, useNavigation } from "react-router";

/**
 * One of the account's forms that post to the same action, told apart by `intent` (name, e-mail,
 * password). It starts afresh on each visit of the page (keyed by location) and is checked by
 * the server; Conform's `form` gives its id and submit handler.
 */
export function IntentForm({
  form,
  action,
  intent,
  children,
}: {
  form: { id: string; onSubmit: (event: FormEvent<HTMLFormElement>) => void };
  action: string;
  intent: string;
  children: ReactNode;
}) {
  const location = useLocation();
  return (
    <Form
      key={location.key}
      id={form.id}
      onSubmit={form.onSubmit}
      method="post"
      action={action}
      noValidate
      className="mt-4 space-y-4"
    >
      <input type="hidden" name="intent" value={intent} />
      {children}
    </Form>
  );
}

/** Whether this form (its action and intent) is being submitted right now. */
export function useSubmittingIntent(action: string, intent: string): boolean {
  const navigation = useNavigation();
  return (
    navigation.state === "submitting" &&
    navigation.formAction === action &&
    navigation.formData?.get("intent") === intent
  );
}
