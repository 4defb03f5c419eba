import { Form, useLocation, useNavigation } from "react-router";
import { FormField } from "../checkout/form-field.tsx";
import { FormAlert, SUBMIT_BUTTON } from "./form-alert.tsx";

/** Change name (settings and edit-profile). Posts `intent=name` to `action`. */
export function NameForm({
  action,
  name,
  error,
  message,
}: {
  action: string;
  /** the current name, or the refused value */
  name: string;
  error?: string;
  message?: string | null;
}) {
  const location = useLocation();
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" &&
    navigation.formAction === action &&
    navigation.formData?.get("intent") === "name";
  return (
    <Form key={location.key} method="post" action={action} noValidate className="mt-4 space-y-4">
      <input type="hidden" name="intent" value="name" />
      <FormAlert message={message} />
      <FormField
        id="settings-name"
        name="name"
        label="Full Name"
        type="text"
        autoComplete="name"
        maxLength={100}
        required
        defaultValue={name}
        error={error}
      />
      <button type="submit" disabled={busy} className={SUBMIT_BUTTON}>
        {busy ? "Saving…" : "Save Name"}
      </button>
    </Form>
  );
}
