import { data, Form, Link, redirect } from "react-router";
import { confirmEmailChange } from "../adapters/auth/email-change.server.ts";
import { servicesFrom } from "../context.ts";
import { confirmEmailSchema, SETTINGS_MESSAGES } from "../domain/accounts/account-settings.server.ts";
import { parseForm } from "../http/form.server.ts";
import { appendCookies, authSessionOf, getSessionUser } from "../http/session.server.ts";
import { createToastHeaders } from "../http/toast.server.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/account_.confirm-email";

/**
 * /account/confirm-email?token=… — the link sent to a new e-mail address. Opening it shows one
 * button; the change happens on its POST (a mail scanner fetching the link changes nothing). No
 * sign-in needed: the token is bound to the account and to its current address.
 */
export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return [
    ...seoMeta({
      title: "Confirm Your New E-mail Address",
      description: "Confirm the new e-mail address of your account.",
      path: "/account/confirm-email",
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

const MAX_TOKEN = 2_000;

export function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const usable = token.length > MAX_TOKEN ? "" : token;
  return { token: usable, problem: usable === "" ? SETTINGS_MESSAGES.emailLinkInvalid : null };
}

/** The page's answer to a link that cannot change the address (its status and what it says). */
const REFUSALS = {
  taken: { status: 409, message: SETTINGS_MESSAGES.emailLinkTaken },
  "other-account": { status: 403, message: SETTINGS_MESSAGES.emailLinkOtherAccount },
  invalid: { status: 400, message: SETTINGS_MESSAGES.emailLinkInvalid },
} as const;

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseForm(request, confirmEmailSchema);
  const token = submission.status === "success" ? submission.value.token : "";
  const { auth, db } = servicesFrom(context);
  const result = await confirmEmailChange({ auth, db }, token, authSessionOf(request));
  if (!result.ok) {
    const { status, message } = REFUSALS[result.error.code];
    return data({ message }, { status });
  }
  const signedIn = (await getSessionUser(request, context)) !== null;
  const headers = await createToastHeaders({ type: "success", message: SETTINGS_MESSAGES.emailChanged });
  return redirect(signedIn ? "/account/settings" : "/account", {
    headers: appendCookies(headers, result.value.sessionCookies),
  });
}

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const problem = actionData?.message ?? loaderData.problem;
  return (
    <div className="mx-auto max-w-md px-4 py-8 md:py-12">
      <h1 className="text-3xl font-bold">Confirm your new e-mail address</h1>
      {problem ? (
        <p role="alert" className="mt-6 rounded-lg border border-red-300 bg-red-50 p-3 text-red-800">
          {problem}{" "}
          <Link to="/account/settings" className="font-semibold underline">
            Account settings
          </Link>
        </p>
      ) : (
        <Form method="post" className="mt-6 space-y-4 rounded-xl border border-gray-200 p-6">
          <input type="hidden" name="token" value={loaderData.token} />
          <p className="text-gray-700">
            Confirm that this address should become the e-mail address you sign in with.
          </p>
          <button
            type="submit"
            className="w-full rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800"
          >
            Confirm E-mail Address
          </button>
        </Form>
      )}
    </div>
  );
}
