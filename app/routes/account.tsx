import type { Submission } from "@conform-to/react";
import { data, Form, NavLink, Outlet, redirect, useLocation } from "react-router";
import { AuthPanel } from "../components/account/auth-panel.tsx";
import { servicesFrom } from "../context.ts";
import {
  AUTH_MESSAGES,
  accountFormSchema,
  type EnterAccountInput,
  enterAccount,
  signOut,
} from "../domain/accounts/authentication.server.ts";
import { clearCartCookie, readCartId } from "../http/cart-session.server.ts";
import { readKnownDevice, serializeKnownDevice } from "../http/device-cookie.server.ts";
import { parseForm } from "../http/form.server.ts";
import { refusedReply } from "../http/form-reply.server.ts";
import { appendCookies, authSessionOf, getSessionUser } from "../http/session.server.ts";
import { createToastHeaders } from "../http/toast.server.ts";
import { pageUrl } from "../lib/page-url.ts";
import { requestInfoContext } from "../lib/request-context.ts";
import { safeRedirectPath, signInPath } from "../lib/safe-redirect.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/account";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return [
    ...seoMeta({
      title: "My Account",
      description: "Sign in or create an account to see your orders, wishlist and addresses.",
      path: "/account",
      origin,
      shopName: contact.name,
    }),
    { name: "robots", content: "noindex" },
  ];
};

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export const ACCOUNT_SECTIONS = [
  { to: "/account", label: "Account Overview", end: true },
  { to: "/account/orders", label: "Orders" },
  { to: "/account/wishlist", label: "Wishlist" },
  { to: "/account/addresses", label: "Addresses" },
  { to: "/account/payment-methods", label: "Payment Methods" },
  { to: "/account/settings", label: "Account Settings" },
] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSessionUser(request, context);
  const url = pageUrl(request);
  if (!user && url.pathname !== "/account") {
    throw redirect(signInPath(url.pathname + url.search));
  }
  return {
    user: user && { name: user.name, email: user.email, displayName: user.displayName, role: user.role },
    mode: url.searchParams.get("mode") === "register" ? ("register" as const) : ("sign-in" as const),
    redirectTo: safeRedirectPath(url.searchParams.get("redirectTo"), "") || null,
  };
}

/**
 * POST /account: sign-in, register, sign-out. Success → redirect with the spec's toast; a refusal
 * → the form's submission result (its message above the form, field messages beside the fields).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const session = authSessionOf(request);
  const guestCartId = await readCartId(request);
  const submission = await parseForm(request, accountFormSchema);
  const intent = submission.payload.intent;
  if (intent !== "sign-in" && intent !== "register" && intent !== "sign-out")
    return data(null, { status: 400 });
  const { auth, db } = servicesFrom(context);

  if (intent === "sign-out") {
    const signedOut = await signOut({ auth }, session);
    if (!signedOut.ok) return redirectWith("/account", { type: "error", message: signedOut.error.message });
    // the account keeps its cart in the database; this browser is a guest with none again
    const cookies = [...signedOut.value.sessionCookies, await clearCartCookie()];
    return redirectWith("/", { type: "success", message: AUTH_MESSAGES.signedOut }, cookies);
  }
  if (submission.status !== "success" || submission.value.intent === "sign-out") {
    // sign-in tells nothing about which field was wrong; register says it beside each field
    const message = intent === "sign-in" ? AUTH_MESSAGES.signInFailed : AUTH_MESSAGES.registerFailed;
    return refusal(submission, intent, message, 400, intent === "register");
  }
  const { value } = submission;
  const input: EnterAccountInput =
    value.intent === "sign-in" ? { intent: "sign-in", fields: value } : { intent: "register", fields: value };
  const entered = await enterAccount({ auth, db }, input, {
    session,
    ip: context.get(requestInfoContext).clientIp,
    // a browser that signed in to this account before is not stopped by others' failed attempts
    device: await readKnownDevice(request),
    guestCartId,
    redirectTo: safeRedirectPath(value.redirectTo, "/account"),
  });
  if (!entered.ok) {
    const status = entered.error.code === "rate-limited" ? 429 : intent === "sign-in" ? 401 : 400;
    return refusal(submission, intent, entered.error.message, status, false);
  }
  // this browser's guest cart joined the account's cart, which is found by the account from now on;
  // the device cookie says this browser proved the account
  const cookies = [
    ...entered.value.sessionCookies,
    await clearCartCookie(),
    await serializeKnownDevice(entered.value.device),
  ];
  return redirectWith(entered.value.to, { type: "success", message: entered.value.message }, cookies);
}

/** A refused sign-in or register form: the message above it, the values kept (never the password). */
function refusal(
  submission: Pick<Submission<unknown>, "reply">,
  mode: "sign-in" | "register",
  message: string,
  status: 400 | 401 | 429,
  fieldMessages: boolean,
) {
  const result = refusedReply(submission, { formErrors: [message], hideFields: ["password"], fieldMessages });
  return data({ mode, result }, { status });
}

async function redirectWith(
  to: string,
  toast: { type: "success" | "error"; message: string },
  cookies: readonly string[] = [],
) {
  return redirect(to, { headers: appendCookies(await createToastHeaders(toast), cookies) });
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { user, mode, redirectTo } = loaderData;
  const location = useLocation();
  if (!user) {
    return (
      <div className="mx-auto max-w-7xl px-4 py-8 md:py-12">
        <h1 className="text-center text-3xl font-bold">My Account</h1>
        <p className="mt-2 mb-8 text-center text-gray-700">
          Sign in to see your orders, wishlist and saved addresses — or create an account.
        </p>
        <AuthPanel key={location.key} mode={mode} redirectTo={redirectTo} feedback={actionData ?? null} />
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 md:py-12">
      <h1 className="text-3xl font-bold">My Account</h1>
      <p className="mt-1 text-gray-700">Signed in as {user.email}</p>
      {/* grid-cols-1 (minmax(0, 1fr)): on a phone no long word in a section widens the page */}
      <div className="mt-8 grid grid-cols-1 gap-8 md:grid-cols-4">
        <nav aria-label="Account" className="md:col-span-1">
          <ul className="space-y-1">
            {ACCOUNT_SECTIONS.map((section) => (
              <li key={section.to}>
                <NavLink
                  to={section.to}
                  end={"end" in section}
                  className={({ isActive }) =>
                    `block rounded-lg px-3 py-2 font-medium ${isActive ? "bg-brand-50 text-brand-800" : "text-gray-800 hover:bg-gray-100"}`
                  }
                >
                  {section.label}
                </NavLink>
              </li>
            ))}
            <li>
              <Form method="post" action="/account">
                <input type="hidden" name="intent" value="sign-out" />
                <button
                  type="submit"
                  className="block w-full rounded-lg px-3 py-2 text-left font-medium text-red-700 hover:bg-red-50"
                >
                  Sign Out
                </button>
              </Form>
            </li>
          </ul>
        </nav>
        <div className="md:col-span-3">
          <Outlet />
        </div>
      </div>
    </div>
  );
}
