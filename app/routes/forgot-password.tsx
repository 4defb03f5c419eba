import { data, Form, Link, useNavigation } from "react-router";
import { FormField } from "../components/checkout/form-field.tsx";
import { servicesFrom } from "../context.ts";
import { RESET_MESSAGES, requestPasswordReset } from "../domain/accounts/password-reset.server.ts";
import { requestInfoContext } from "../lib/request-context.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return seoMeta({
    title: "Forgot Password",
    description: "Get a link to choose a new password for your account.",
    path: "/forgot-password",
    origin,
    shopName: contact.name,
  });
};

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => new FormData());
  const { auth, db } = servicesFrom(context);
  const result = await requestPasswordReset(
    { auth, db },
    form.get("email"),
    context.get(requestInfoContext).clientIp,
  );
  if (!result.ok) return data({ sent: false, message: result.message }, { status: result.status });
  return { sent: true, message: RESET_MESSAGES.requested };
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-md px-4 py-8 md:py-12">
      <h1 className="text-3xl font-bold">Forgot your password?</h1>
      <p className="mt-2 text-gray-700">
        Enter the e-mail address of your account and we&apos;ll send you a link to choose a new password.
      </p>
      {actionData?.sent ? (
        <p role="status" className="mt-6 rounded-lg border border-green-700 bg-green-50 p-4 text-green-900">
          {actionData.message}
        </p>
      ) : (
        <Form
          method="post"
          action="/forgot-password"
          className="mt-6 space-y-4 rounded-xl border border-gray-200 p-6"
        >
          {actionData && (
            <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800">
              {actionData.message}
            </p>
          )}
          <FormField
            id="forgot-email"
            name="email"
            label="Email"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
          />
          <button
            type="submit"
            disabled={busy}
            className="w-full rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-70"
          >
            Send Reset Link
          </button>
        </Form>
      )}
      <p className="mt-6 text-center text-sm">
        <Link to="/account" className="font-semibold text-brand-700 hover:underline">
          Back to Sign In
        </Link>
      </p>
    </div>
  );
}
