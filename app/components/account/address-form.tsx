import { type SubmissionResult, useForm } from "@conform-to/react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import {
  ADDRESS_FIELDS,
  type AddressDetails,
  type AddressField,
} from "../../domain/checkout/shipping-form.ts";
import { AddressFields } from "./address-fields.tsx";
import { FormAlert, SECONDARY_BUTTON, SUBMIT_BUTTON } from "./form-alert.tsx";

/**
 * Add or edit an address (checkout's shipping fields without the e-mail). `noValidate`: the
 * server checks and answers with messages beside the fields and the entered values kept.
 */
export function AddressForm(props: {
  idPrefix: string;
  action: string;
  intent: "create" | "update";
  addressId?: number;
  /** the saved address being edited (nothing for a new one) */
  values: Partial<AddressDetails>;
  /** the action's answer to a refused post: messages beside the fields, the typed values kept */
  lastResult?: SubmissionResult;
  submitLabel: string;
  cancelTo?: string;
}) {
  const location = useLocation();
  // a new page (after saving, or another address to edit) starts the form afresh
  return <AddressFormBody key={location.key} {...props} />;
}

function AddressFormBody({
  idPrefix,
  action,
  intent,
  addressId,
  values,
  lastResult,
  submitLabel,
  cancelTo,
}: Parameters<typeof AddressForm>[0]) {
  const navigation = useNavigation();
  // Conform reads the action's SubmissionResult (no validation in the browser: the server answers)
  const [form, fields] = useForm({ id: `${idPrefix}-form`, lastResult, defaultValue: values });
  const shown = {} as Partial<Record<AddressField, string>>;
  const fieldErrors = {} as Partial<Record<AddressField, string>>;
  for (const name of ADDRESS_FIELDS) {
    const initial = fields[name].initialValue;
    shown[name] = typeof initial === "string" ? initial : "";
    const error = fields[name].errors?.[0];
    if (error) fieldErrors[name] = error;
  }
  const message = form.errors?.[0] ?? null;
  const busy =
    navigation.state === "submitting" &&
    navigation.formAction === action &&
    navigation.formData?.get("intent") === intent;
  return (
    <Form method="post" action={action} noValidate className="mt-4 space-y-5">
      <input type="hidden" name="intent" value={intent} />
      {addressId !== undefined && <input type="hidden" name="addressId" value={addressId} />}
      <FormAlert message={message} />
      <AddressFields idPrefix={idPrefix} values={shown} fieldErrors={fieldErrors} />
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={busy} className={SUBMIT_BUTTON}>
          {busy ? "Saving…" : submitLabel}
        </button>
        {cancelTo && (
          <Link to={cancelTo} className={SECONDARY_BUTTON}>
            Cancel
          </Link>
        )}
      </div>
    </Form>
  );
}
