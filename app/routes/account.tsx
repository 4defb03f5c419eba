import { data, Form, NavLink, Outlet, redirect, useLocation } from "react-router";
import { AuthPanel } from "../components/account/auth-panel.tsx";
import { servicesFrom } from "../context.ts";
import { AUTH_MESSAGES, register, signIn, signOut } from "../domain/accounts/authentication.server.ts";
import { claimGuestCart } from "../domain/cart/cart-owner.server.ts";
import { takePendingWishlist } from "../domain/wishlist/pending-wishlist.ts";
import { addToWishlist, WISHLIST_MESSAGES } from "../domain/wishlist/wishlist.server.ts";
import { clearCartCookie, readCartId } from "../http/cart-session.server.ts";
import { getSessionUser } from "../http/session.server.ts";
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

/** POST /account: sign-in, register, sign-out. Success → redirect with the spec's toast. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => new FormData());
  const intent = form.get("intent");
  const { auth, db } = servicesFrom(context);

  if (intent === "sign-out") {
    const cleared = await signOut({ auth }, request);
    if (!cleared) return redirectWith("/account", { type: "error", message: AUTH_MESSAGES.signOutFailed });
    // the account keeps its cart in the database; this browser is a guest with none again
    cleared.append("Set-Cookie", await clearCartCookie());
    return redirectWith("/", { type: "success", message: AUTH_MESSAGES.signedOut }, cleared);
  }
  if (intent !== "sign-in" && intent !== "register") return data(null, { status: 400 });

  const outcome =
    intent === "sign-in"
      ? await signIn({ auth, db }, form, request, context.get(requestInfoContext).clientIp)
      : await register({ auth }, form, request);
  if (!outcome.ok) {
    const text = (name: string) => {
      const value = form.get(name);
      return typeof value === "string" ? value.slice(0, 254) : "";
    };
    return data(
      {
        mode: intent as "sign-in" | "register",
        message: outcome.message,
        fieldErrors: outcome.fieldErrors,
        values: { name: text("name"), email: text("email") },
      },
      { status: outcome.status },
    );
  }
  // this browser's guest cart joins the account's cart, which is found by the account from now on
  await claimGuestCart(db, { userId: outcome.userId, guestCartId: await readCartId(request) });
  const headers = outcome.headers;
  headers.append("Set-Cookie", await clearCartCookie());
  // A product the visitor wanted to save before signing in is saved now (pending-wishlist.ts).
  const { to, productId } = takePendingWishlist(safeRedirectPath(form.get("redirectTo"), "/account"));
  const saved = productId === null ? null : await addToWishlist(db, outcome.userId, productId);
  const message =
    saved?.status === "added"
      ? WISHLIST_MESSAGES.added(saved.product.name)
      : intent === "sign-in"
        ? AUTH_MESSAGES.signedIn
        : AUTH_MESSAGES.registered;
  return redirectWith(to, { type: "success", message }, headers);
}

async function redirectWith(
  to: string,
  toast: { type: "success" | "error"; message: string },
  extra: Headers = new Headers(),
) {
  const headers = await createToastHeaders(toast);
  for (const cookie of extra.getSetCookie()) headers.append("Set-Cookie", cookie);
  return redirect(to, { headers });
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
