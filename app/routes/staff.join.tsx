import { type SubmissionResult, useForm } from "@conform-to/react";
import { data, Form } from "react-router";
import { FormField } from "../components/checkout/form-field.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import { findStaffInvitation, joinStaff, joinStaffSchema } from "../domain/accounts/staff-join.server.ts";
import { JOIN_MESSAGES } from "../domain/accounts/staff-join-messages.ts";
import { parseForm } from "../http/form.server.ts";
import { refusedReply } from "../http/form-reply.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { formatLongDate } from "../infra/format.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import { ROLE_LABELS } from "../lib/staff-roles.ts";
import type { Route } from "./+types/staff.join";

/**
 * The staff invitation's link (decision 024): says which shop and role the invitation is for and
 * asks for a password; accepting it gives the role. Outside the admin frame: the invitee is not on
 * the staff yet, and is usually signed out.
 */
export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return [
    ...seoMeta({
      title: "Join the Staff",
      description: "Accept an invitation to the shop's staff.",
      path: "/staff/join",
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

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = (new URL(request.url).searchParams.get("token") ?? "").slice(0, 500);
  const found = await findStaffInvitation(servicesFrom(context).db, { token });
  const { shopName } = await shopSettingsFrom(context);
  if (!found.ok) return { token: "", shopName, invitation: null };
  const { email, role, expiresAt } = found.value;
  return { token, shopName, invitation: { email, role: ROLE_LABELS[role], expiresAt } };
}

const PASSWORDS = ["password", "confirmPassword"];

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseForm(request, joinStaffSchema);
  if (submission.status !== "success") {
    // a bad link is said first and alone (the passwords do not matter then); else each field's message
    const badLink = submission.payload.token === undefined || submission.error?.token !== undefined;
    if (badLink) return invalidLink(submission);
    const result = firstFieldOnly(refusedReply(submission, { formErrors: [], hideFields: PASSWORDS }));
    return data({ result, invalidLink: false }, { status: 400 });
  }
  const joined = await joinStaff(servicesFrom(context), submission.value);
  if (!joined.ok) return invalidLink(submission);
  return redirectWithToast("/account?redirectTo=%2Fadmin", {
    type: "success",
    message: JOIN_MESSAGES.joined,
  });
}

/** The invitation is not (or no longer) open: nothing was granted; the page says so instead of the form. */
function invalidLink(submission: Parameters<typeof refusedReply>[0]) {
  const result = refusedReply(submission, {
    formErrors: [JOIN_MESSAGES.invalidLink],
    hideFields: PASSWORDS,
    fieldMessages: false,
  });
  return data({ result, invalidLink: true }, { status: 400 });
}

/** One message at a time, as /reset-password says them: the password's, else the confirmation's. */
function firstFieldOnly(result: SubmissionResult): SubmissionResult {
  const error = result.error ?? {};
  const first: Record<string, string[] | null> = error.password
    ? { password: error.password }
    : error.confirmPassword
      ? { confirmPassword: error.confirmPassword }
      : {};
  return { ...result, error: first };
}

export default function JoinStaff({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm<{ password: string; confirmPassword: string }>({
    id: "join-staff-form",
    lastResult: actionData?.result,
  });
  const { invitation, shopName } = loaderData;
  return (
    <div className="mx-auto max-w-md px-4 py-8 md:py-12">
      <h1 className="text-3xl font-bold">Join the staff of {shopName}</h1>
      {invitation === null || actionData?.invalidLink ? (
        <p role="alert" className="mt-6 rounded-lg border border-red-300 bg-red-50 p-3 text-red-800">
          {JOIN_MESSAGES.invalidLink}
        </p>
      ) : (
        <>
          <p className="mt-4 text-gray-800">
            You are invited to join {shopName}'s staff as <strong>{invitation.role}</strong>, with the e-mail
            address <strong className="break-all">{invitation.email}</strong>. The invitation works until{" "}
            <time dateTime={invitation.expiresAt}>{formatLongDate(invitation.expiresAt)}</time>.
          </p>
          <Form
            id={form.id}
            onSubmit={form.onSubmit}
            method="post"
            aria-labelledby="join-password-heading"
            className="mt-6 space-y-4 rounded-xl border border-gray-200 p-6"
          >
            <h2 id="join-password-heading" className="text-xl font-bold">
              Choose your password
            </h2>
            <p className="text-sm text-gray-700">
              You sign in with this e-mail address and this password. If you already have an account here with
              this address, this password replaces its old one and signs it out everywhere.
            </p>
            <input type="hidden" name="token" value={loaderData.token} />
            <FormField
              id="join-password"
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
              id="join-confirm"
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
              Join the staff
            </button>
          </Form>
        </>
      )}
    </div>
  );
}
