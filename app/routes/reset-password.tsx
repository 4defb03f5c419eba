import { type SubmissionResult, useForm } from "@conform-to/react";
import { data, Form, Link } from "react-router";
import { FormField } from "../components/checkout/form-field.tsx";
import { servicesFrom } from "../context.ts";
import { resetPassword, resetPasswordSchema } from "../domain/accounts/password-reset.server.ts";
import { RESET_MESSAGES } from "../domain/accounts/password-reset-messages.ts";
import { parseForm } from "../http/form.server.ts";
import { refusedReply } from "../http/form-reply.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/reset-password";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return [
    ...seoMeta({
      title: "Choose a New Password",
      description: "Choose a new password for your account.",
      path: "/reset-password",
      origin,
      shopName: contact.name,
    }),
    { name: "robots", content: "noindex" },
  ];
};

export function headers() {
  // The token is in the URL: keep it out of caches and out of Referer headers to other sites.
  // "same-origin", not "no-referrer": under no-referrer a form posted without JavaScript carries
  // `Origin: null`, which React Router refuses as a cross-site action (400).
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "same-origin" };
}

export function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token: token.slice(0, 500) };
}

const PASSWORDS = ["password", "confirmPassword"];

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseForm(request, resetPasswordSchema);
  if (submission.status !== "success") {
    // a bad link is said first and alone (the passwords do not matter then); else each field's message
    const badLink = submission.payload.token === undefined || submission.error?.token !== undefined;
    const result = badLink
      ? refusedReply(submission, {
          formErrors: [RESET_MESSAGES.invalidLink],
          hideFields: PASSWORDS,
          fieldMessages: false,
        })
      : firstFieldOnly(refusedReply(submission, { formErrors: [], hideFields: PASSWORDS }));
    return data({ result }, { status: 400 });
  }
  const { auth, db } = servicesFrom(context);
  const reset = await resetPassword({ auth, db }, submission.value);
  if (!reset.ok) {
    const result = refusedReply(submission, { formErrors: [reset.error.message], hideFields: PASSWORDS });
    return data({ result }, { status: 400 });
  }
  return redirectWithToast("/account", { type: "success", message: RESET_MESSAGES.changed });
}

/** One message at a time, as the page always said: the password's, else the confirmation's. */
function firstFieldOnly(result: SubmissionResult): SubmissionResult {
  const error = result.error ?? {};
  const first: Record<string, string[] | null> = error.password
    ? { password: error.password }
    : error.confirmPassword
      ? { confirmPassword: error.confirmPassword }
      : {};
  return { ...result, error: first };
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm<{ password: string; confirmPassword: string }>({
    id: "reset-password-form",
    lastResult: actionData?.result,
  });
  const linkProblem = form.errors?.[0];
  return (
    <div className="mx-auto max-w-md px-4 py-8 md:py-12">
      <h1 className="text-3xl font-bold">Choose a new password</h1>
      {loaderData.token === "" ? (
        <p role="alert" className="mt-6 rounded-lg border border-red-300 bg-red-50 p-3 text-red-800">
          {RESET_MESSAGES.invalidLink}{" "}
          <Link to="/forgot-password" className="font-semibold underline">
            Ask for a new link
          </Link>
        </p>
      ) : (
        <Form
          id={form.id}
          onSubmit={form.onSubmit}
          method="post"
          className="mt-6 space-y-4 rounded-xl border border-gray-200 p-6"
        >
          <input type="hidden" name="token" value={loaderData.token} />
          {linkProblem && (
            <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800">
              {linkProblem}{" "}
              <Link to="/forgot-password" className="font-semibold underline">
                Ask for a new link
              </Link>
            </p>
          )}
          <FormField
            id="reset-password"
            name="password"
            label="New Password"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            maxLength={128}
            hint="Password must be at least 8 characters."
            error={fields.password.errors?.[0]}
          />
          <FormField
            id="reset-confirm"
            name="confirmPassword"
            label="Confirm New Password"
            type="password"
            autoComplete="new-password"
            required
            maxLength={128}
            error={fields.confirmPassword.errors?.[0]}
          />
          <button
            type="submit"
            className="w-full rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800"
          >
            Change Password
          </button>
        </Form>
      )}
    </div>
  );
}
