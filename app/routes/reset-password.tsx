import { data, Form, Link } from "react-router";
import { FormField } from "../components/checkout/form-field.tsx";
import { servicesFrom } from "../context.ts";
import { resetPassword } from "../domain/accounts/password-reset.server.ts";
import { RESET_MESSAGES } from "../domain/accounts/password-reset-messages.ts";
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
  // The token is in the URL: keep it out of caches and Referer headers.
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
}

export function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token: token.slice(0, 500) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => new FormData());
  const result = await resetPassword(
    { auth: servicesFrom(context).auth },
    {
      token: form.get("token"),
      password: form.get("password"),
      confirmPassword: form.get("confirmPassword"),
    },
  );
  if (!result.ok) return data(result, { status: 400 });
  return redirectWithToast("/account", { type: "success", message: RESET_MESSAGES.changed });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const error = actionData && !actionData.ok ? actionData : null;
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
        <Form method="post" className="mt-6 space-y-4 rounded-xl border border-gray-200 p-6">
          <input type="hidden" name="token" value={loaderData.token} />
          {error && !error.field && (
            <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800">
              {error.message}{" "}
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
            error={error?.field === "password" ? error.message : undefined}
          />
          <FormField
            id="reset-confirm"
            name="confirmPassword"
            label="Confirm New Password"
            type="password"
            autoComplete="new-password"
            required
            maxLength={128}
            error={error?.field === "confirmPassword" ? error.message : undefined}
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
