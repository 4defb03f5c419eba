import { useForm } from "@conform-to/react";
import { data, Form, Link, useNavigation } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { FormField } from "../components/checkout/form-field.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import {
  CURRENCY_OPTIONS,
  SETTINGS_LABELS as LABELS,
  SETTINGS_FIELDS,
  SETTINGS_MESSAGES,
  type SettingsField,
  type SettingsFormValues,
  settingsFormValues,
} from "../domain/settings/settings-form.ts";
import { settingsFormSchema } from "../domain/settings/settings-schema.server.ts";
import { saveShopSettings } from "../domain/settings/shop-settings.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { timeZoneNames } from "../lib/time-zones.ts";
import type { Route } from "./+types/admin.settings";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "Settings", "/admin/settings");

/**
 * The owner's page: the shop's name and contact details, social links, currency, time zone and the
 * legal details invoices name. Tax and shipping are the zones' (Admin → Settings → Zones).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "settings");
  // the zones this server's runtime knows (a browser's list may differ: the page never builds its own)
  return { values: settingsFormValues(await shopSettingsFrom(context)), timeZones: timeZoneNames() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const owner = await requirePermission(request, context, "settings");
  const submission = await parseForm(request, settingsFormSchema, { disableAutoCoercion: true });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ formErrors: [SETTINGS_MESSAGES.invalid] }) }, { status: 400 });
  }
  const { db, settings } = servicesFrom(context);
  const saved = await saveShopSettings(db, {
    settings: submission.value,
    defaults: settings.defaults,
    actor: { id: owner.id, email: owner.email },
  });
  return redirectWithToast("/admin/settings", {
    type: "success",
    message: saved.saved ? SETTINGS_MESSAGES.saved : SETTINGS_MESSAGES.unchanged,
  });
}

const SELECT = "mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-gray-900";

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm<Record<SettingsField, unknown>>({ lastResult: actionData?.result });
  const typed = actionData?.result.initialValue as Partial<Record<SettingsField, string>> | undefined;
  const values: SettingsFormValues = { ...loaderData.values, ...typed };
  const errors: Partial<Record<SettingsField, string>> = {};
  for (const name of SETTINGS_FIELDS) errors[name] = fields[name].errors?.[0];
  const field = (
    name: SettingsField,
    props: {
      type?: string;
      inputMode?: "decimal" | "numeric" | "email" | "tel" | "url";
      hint?: string;
      required?: boolean;
      autoComplete?: string;
    } = {},
  ) => (
    <FormField
      id={`settings-${name}`}
      name={name}
      label={LABELS[name]}
      type={props.type ?? "text"}
      inputMode={props.inputMode}
      required={props.required ?? true}
      autoComplete={props.autoComplete}
      defaultValue={values[name]}
      error={errors[name]}
      hint={props.hint}
    />
  );
  const select = (
    name: SettingsField,
    options: readonly { value: string; label: string }[],
    hint: string,
  ) => (
    <div>
      <label htmlFor={`settings-${name}`} className="block text-sm font-semibold text-gray-900">
        {LABELS[name]}
        <span aria-hidden="true"> *</span>
      </label>
      <select
        id={`settings-${name}`}
        name={name}
        required
        defaultValue={values[name]}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `settings-${name}-error` : `settings-${name}-hint`}
        className={`${SELECT} ${errors[name] ? "border-red-700 bg-red-50" : "border-gray-400"}`}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {errors[name] ? (
        <p id={`settings-${name}-error`} className="mt-1 text-sm font-medium text-red-700">
          {errors[name]}
        </p>
      ) : (
        <p id={`settings-${name}-hint`} className="mt-1 text-sm text-gray-600">
          {hint}
        </p>
      )}
    </div>
  );
  const section = "space-y-4 rounded-xl border border-gray-200 p-4 sm:p-6";
  const legend = "px-1 text-lg font-bold";
  return (
    <section aria-labelledby="settings-heading" className="max-w-3xl">
      <h1 id="settings-heading" className="text-3xl font-bold">
        Settings
      </h1>
      <p className="mt-1 text-sm text-gray-700">
        Changes show on the storefront, at checkout and in e-mails as soon as they are saved. Fields marked *
        are required.
      </p>
      <p className="mt-2 text-sm text-gray-700">
        Where the shop sells, its tax rates and its shipping methods are set per zone:{" "}
        <Link to="/admin/settings/zones" className="font-semibold text-brand-700 underline">
          Shipping and tax zones
        </Link>
        .
      </p>
      <Form method="post" id={form.id} noValidate className="mt-6 space-y-6">
        <AdminMessage feedback={refusal(actionData?.result)} />
        <fieldset className={section}>
          <legend className={legend}>Shop and contact</legend>
          {field("shopName")}
          {field("contactEmail", { type: "email", inputMode: "email" })}
          {field("contactPhone", { type: "tel", inputMode: "tel" })}
          {field("contactAddress")}
        </fieldset>
        <fieldset className={section}>
          <legend className={legend}>Social links</legend>
          <p className="text-sm text-gray-700">Shown in the footer; leave a field empty to hide its link.</p>
          {field("facebook", { type: "url", inputMode: "url", required: false })}
          {field("instagram", { type: "url", inputMode: "url", required: false })}
          {field("x", { type: "url", inputMode: "url", required: false })}
          {field("youtube", { type: "url", inputMode: "url", required: false })}
        </fieldset>
        <fieldset className={section}>
          <legend className={legend}>Currency and time zone</legend>
          {select(
            "currency",
            CURRENCY_OPTIONS,
            "Prices are shown in it; they are not converted. Orders already placed keep their currency.",
          )}
          {select(
            "timeZone",
            loaderData.timeZones.map((zone) => ({ value: zone, label: zone.replaceAll("_", " ") })),
            "Promotions start and end at the times you enter in this time zone.",
          )}
        </fieldset>
        <fieldset className={section}>
          <legend className={legend}>Legal details</legend>
          <p className="text-sm text-gray-700">What invoices and credit notes name as the seller.</p>
          {field("legalName", {
            required: false,
            autoComplete: "organization",
            hint: "The business's registered name. Left empty, invoices name the shop's name.",
          })}
          <FormField
            id="settings-legalAddress"
            label={LABELS.legalAddress}
            error={errors.legalAddress}
            hint="The registered address, as invoices print it (one line per line)."
          >
            <textarea
              id="settings-legalAddress"
              name="legalAddress"
              rows={4}
              autoComplete="street-address"
              defaultValue={values.legalAddress}
              aria-invalid={errors.legalAddress ? true : undefined}
              aria-describedby={
                errors.legalAddress ? "settings-legalAddress-error" : "settings-legalAddress-hint"
              }
              className={`mt-1 block w-full rounded-lg border px-3 py-2 text-gray-900 ${
                errors.legalAddress ? "border-red-700 bg-red-50" : "border-gray-400"
              }`}
            />
          </FormField>
          {field("taxId", {
            required: false,
            hint: "The VAT number, GST/HST number or other tax registration invoices show, if the business has one.",
          })}
        </fieldset>
        <button
          type="submit"
          disabled={busy}
          className="rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
        >
          {busy ? "Saving…" : "Save settings"}
        </button>
      </Form>
    </section>
  );
}
