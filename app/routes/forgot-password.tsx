import { useForm } from "@conform-to/react";
import { data, Form, Link, useNavigation } from "react-router";
import { FormField } from "../components/checkout/form-field.tsx";
import { servicesFrom } from "../context.ts";
import {
  forgotPasswordSchema,
  RESET_MESSAGES,
  requestPasswordReset,
} from "../domain/accounts/password-reset.server.ts";
import { parseForm } from "../http/form.server.ts";
import { refusedReply } from "../http/form-reply.server.ts";
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
  const submission = await parseForm(request, forgotPasswordSchema);
  // The message above the form; the address is not sent back (the answer is the same for any).
  const refused = (message: string, status: 400 | 429) =>
    data(
      {
        sent: false as const,
        result: refusedReply(submission, {
          formErrors: [message],
          hideFields: ["email"],
          fieldMessages: false,
        }),
      },
      { status },
    );
  if (submission.status !== "success") return refused(RESET_MESSAGES.invalidEmail, 400);
  const result = await requestPasswordReset(
    servicesFrom(context),
    submission.value,
    context.get(requestInfoContext).clientIp,
  );
  if (!result.ok) return refused(result.error.message, 429);
  return { sent: true as const, message: RESET_MESSAGES.requested };
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const [form] = useForm({
    id: "forgot-password",
    lastResult: actionData?.sent === false ? actionData.result : undefined,
  });
  const message = form.errors?.[0];
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
          id={form.id}
          onSubmit={form.onSubmit}
          method="post"
          action="/forgot-password"
          className="mt-6 space-y-4 rounded-xl border border-gray-200 p-6"
        >
          {message && (
            <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800">
              {message}
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
