import { isRouteErrorResponse, Link, Outlet, useLocation, useRouteError } from "react-router";
import { adminHeaders, adminMeta } from "../components/admin/admin-meta.ts";
import { ADMIN_SECTIONS, currentAdminSection } from "../components/admin/admin-nav.ts";
import { NotFoundPage } from "../components/not-found-page.tsx";
import { requireAdmin } from "../http/session.server.ts";
import type { Route } from "./+types/admin";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "Product management", "/admin");
export const headers = adminHeaders;

/** The admin area's frame: only for the `admin` role (signed out → /account, others → 403). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  return { adminEmail: admin.email };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const current = currentAdminSection(useLocation().pathname);
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-2xl font-bold">Product management</p>
        <p className="min-w-0 text-sm break-words text-gray-700">Signed in as {loaderData.adminEmail}</p>
      </div>
      <nav aria-label="Admin" className="mt-4 border-b border-gray-200">
        <ul className="flex flex-wrap gap-1">
          {ADMIN_SECTIONS.map((section) => {
            const isCurrent = section === current;
            return (
              <li key={section.to}>
                <Link
                  to={section.to}
                  aria-current={isCurrent ? "page" : undefined}
                  className={`inline-block rounded-t-lg px-3 py-2 text-sm font-semibold ${
                    isCurrent ? "bg-brand-50 text-brand-800 underline" : "text-gray-800 hover:bg-gray-100"
                  }`}
                >
                  {section.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="mt-6">
        <Outlet />
      </div>
    </div>
  );
}

/** 403 for a signed-in non-admin; 404 for an unknown record; anything else is a plain error. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const forbidden = isRouteErrorResponse(error) && error.status === 403;
  return (
    <div className="mx-auto max-w-2xl px-4 py-24 text-center">
      <title>{forbidden ? "Access denied | Cartwheel" : "Something went wrong | Cartwheel"}</title>
      <p className="text-sm font-semibold text-brand-700">
        Error {forbidden ? 403 : isRouteErrorResponse(error) ? error.status : 500}
      </p>
      <h1 className="mt-2 text-3xl font-bold">{forbidden ? "Access denied" : "Something went wrong"}</h1>
      <p className="mt-4 text-gray-700">
        {forbidden
          ? "Product management is for shop administrators. You are signed in with an account that does not have that role."
          : "We could not load this page. Please try again in a moment."}
      </p>
      <Link to="/" className="mt-8 inline-block rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white">
        Go Home
      </Link>
    </div>
  );
}
