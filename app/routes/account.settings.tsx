import { data, redirect } from "react-router";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../adapters/auth/auth.server.ts";
import { NameForm } from "../components/account/name-form.tsx";
import { EmailForm, PasswordForm, type SettingsFeedback } from "../components/account/settings-forms.tsx";
import { servicesFrom } from "../context.ts";
import {
  changeEmail,
  changeName,
  changePassword,
  SETTINGS_MESSAGES,
  type SettingsOutcome,
  type SettingsRefusal,
} from "../domain/accounts/account-settings.server.ts";
import { requireUser } from "../http/session.server.ts";
import { createToastHeaders } from "../http/toast.server.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/account.settings";

const PATH = "/account/settings";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return [
    ...seoMeta({
      title: "Account Settings",
      description: "Change your name, e-mail address or password.",
      path: PATH,
      origin,
      shopName: contact.name,
    }),
    { name: "robots", content: "noindex" },
  ];
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  return {
    name: user.name,
    email: user.email,
    passwordLength: { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await request.formData().catch(() => new FormData());
  const intent = form.get("intent");
  const { auth, db } = servicesFrom(context);
  let outcome: SettingsOutcome | SettingsRefusal;
  let success: string;
  if (intent === "name") {
    outcome = await changeName({ auth }, request, form);
    success = SETTINGS_MESSAGES.nameChanged;
  } else if (intent === "email") {
    const asked = await changeEmail({ auth, db }, request, user, form);
    if (asked.ok) {
      // Beside the form, the same whether the address is free or taken; nothing changed yet.
      const sent: SettingsFeedback = {
        form: "email",
        message: "",
        notice: SETTINGS_MESSAGES.emailLinkSent(asked.pendingEmail),
        fieldErrors: {},
        values: {},
      };
      return data(sent);
    }
    outcome = asked;
    success = "";
  } else if (intent === "password") {
    outcome = await changePassword({ auth, db }, request, user.id, form);
    success = SETTINGS_MESSAGES.passwordChanged;
  } else {
    throw data(null, { status: 400 });
  }
  if (!outcome.ok) {
    const text = (name: string) => {
      const value = form.get(name);
      return typeof value === "string" ? value.slice(0, 254) : "";
    };
    const feedback: SettingsFeedback = {
      form: intent,
      message: outcome.message,
      fieldErrors: outcome.fieldErrors,
      // never the passwords
      values:
        intent === "name" ? { name: text("name") } : intent === "email" ? { newEmail: text("newEmail") } : {},
    };
    return data(feedback, { status: outcome.status });
  }
  const headers = await createToastHeaders({ type: "success", message: success });
  for (const cookie of outcome.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return redirect(PATH, { headers });
}

export default function AccountSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { name, email, passwordLength } = loaderData;
  const feedback = (form: SettingsFeedback["form"]) => (actionData?.form === form ? actionData : null);
  const nameFeedback = feedback("name");
  return (
    <div className="space-y-6">
      <section aria-labelledby="settings-name-heading" className="rounded-xl border border-gray-200 p-6">
        <h2 id="settings-name-heading" className="text-xl font-bold">
          Name
        </h2>
        <NameForm
          action={PATH}
          name={nameFeedback?.values.name ?? name}
          error={nameFeedback?.fieldErrors.name}
          message={nameFeedback?.message}
        />
      </section>
      <section aria-labelledby="settings-email-heading" className="rounded-xl border border-gray-200 p-6">
        <h2 id="settings-email-heading" className="text-xl font-bold">
          Email Address
        </h2>
        <EmailForm action={PATH} currentEmail={email} feedback={feedback("email")} />
      </section>
      <section aria-labelledby="settings-password-heading" className="rounded-xl border border-gray-200 p-6">
        <h2 id="settings-password-heading" className="text-xl font-bold">
          Password
        </h2>
        <PasswordForm
          action={PATH}
          feedback={feedback("password")}
          minLength={passwordLength.min}
          maxLength={passwordLength.max}
        />
      </section>
    </div>
  );
}
