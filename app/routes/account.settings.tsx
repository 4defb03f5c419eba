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
  type SessionRefreshed,
  type SettingsError,
  settingsFormSchema,
} from "../domain/accounts/account-settings.server.ts";
import { parseForm } from "../http/form.server.ts";
import { refusedReply } from "../http/form-reply.server.ts";
import { appendCookies, authSessionOf, requireUser } from "../http/session.server.ts";
import { createToastHeaders } from "../http/toast.server.ts";
import { ok, type Result } from "../lib/result.ts";
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

/** A refusal the domain made, answered like the form's own: 429 when it was a limit. */
const REFUSAL_STATUS: Record<SettingsError["code"], 400 | 429> = {
  "same-email": 400,
  "wrong-password": 400,
  "too-many-attempts": 429,
  "too-many-links": 429,
  "password-too-short": 400,
  "password-too-long": 400,
};

/** never sent back to the page */
const PASSWORDS = ["currentPassword", "newPassword", "confirmPassword"];

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const submission = await parseForm(request, settingsFormSchema);
  const intent = submission.payload.intent;
  if (intent !== "name" && intent !== "email" && intent !== "password") throw data(null, { status: 400 });
  if (submission.status !== "success") {
    const result = refusedReply(submission, {
      formErrors: [SETTINGS_MESSAGES.invalid],
      hideFields: PASSWORDS,
    });
    return data({ form: intent, result } satisfies SettingsFeedback, { status: 400 });
  }
  const { auth, db } = servicesFrom(context);
  const session = authSessionOf(request);
  const { value } = submission;
  let outcome: Result<SessionRefreshed, SettingsError>;
  if (value.intent === "name") {
    outcome = ok(await changeName({ auth }, session, value));
  } else if (value.intent === "email") {
    const asked = await changeEmail({ auth, db }, session, user, value);
    if (asked.ok) {
      // Beside the form, the same whether the address is free or taken; nothing changed yet.
      const sent: SettingsFeedback = {
        form: "email",
        notice: SETTINGS_MESSAGES.emailLinkSent(asked.value.pendingEmail),
        result: submission.reply({ resetForm: true }),
      };
      return data(sent);
    }
    outcome = asked;
  } else {
    outcome = await changePassword({ auth, db }, session, user.id, value);
  }
  if (!outcome.ok) {
    const { field, message, code } = outcome.error;
    const result = refusedReply(submission, {
      formErrors: [message],
      fieldErrors: { [field]: [message] },
      hideFields: PASSWORDS,
    });
    return data({ form: intent, result } satisfies SettingsFeedback, { status: REFUSAL_STATUS[code] });
  }
  const success = value.intent === "name" ? SETTINGS_MESSAGES.nameChanged : SETTINGS_MESSAGES.passwordChanged;
  const headers = await createToastHeaders({ type: "success", message: success });
  return redirect(PATH, { headers: appendCookies(headers, outcome.value.sessionCookies) });
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
        <NameForm action={PATH} name={name} result={nameFeedback?.result} />
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
