import {
  Form,
  isRouteErrorResponse,
  Link,
  Outlet,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import { adminHeaders, adminMeta } from "../components/admin/admin-meta.ts";
import { type AdminSection, currentAdminSection, sectionsFor } from "../components/admin/admin-nav.ts";
import { NotFoundPage } from "../components/not-found-page.tsx";
import { shopSettingsFrom } from "../context.ts";
import { requireStaff } from "../http/session.server.ts";
import { permissionsOf, ROLE_LABELS } from "../lib/staff-roles.ts";
import type { Route } from "./+types/admin";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "Product management", "/admin");
export const headers = adminHeaders;

/**
 * The back office's frame, for staff (owner, admin, staff; signed out → /account, customers →
 * 403): its own top bar and sidebar instead of the storefront's header and footer (root.tsx leaves
 * them out while this route has data). The sidebar lists what the role may open; every page still
 * checks its own permission on the server.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  return {
    shopName: (await shopSettingsFrom(context)).shopName,
    staff: { name: staff.displayName, email: staff.email, role: ROLE_LABELS[staff.role] },
    permissions: permissionsOf(staff.role),
  };
}

export type AdminFrameData = Awaited<ReturnType<typeof loader>>;

/** The admin frame's data on any page while the admin route has it (root.tsx, the boundary). */
export function useAdminFrame(): AdminFrameData | undefined {
  return useRouteLoaderData<typeof loader>("routes/admin");
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminShell frame={loaderData}>
      <Outlet />
    </AdminShell>
  );
}

function AdminShell({ frame, children }: { frame: AdminFrameData; children: React.ReactNode }) {
  const sections = sectionsFor(frame.permissions);
  const current = currentAdminSection(useLocation().pathname);
  return (
    <div className="flex min-h-screen flex-col">
      <header className="bg-gray-900 text-white print:hidden">
        <div className="flex flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-3">
          <p className="text-lg font-bold">
            {frame.shopName} <span className="font-normal text-gray-300">Admin</span>
          </p>
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
            <a href="/" className="font-semibold underline-offset-2 hover:underline">
              View shop
            </a>
            <p className="min-w-0 break-words text-gray-200">
              Signed in as {frame.staff.email} ({frame.staff.role})
            </p>
            <Form method="post" action="/account">
              <input type="hidden" name="intent" value="sign-out" />
              <button
                type="submit"
                className="rounded-md border border-gray-500 px-3 py-1 font-semibold hover:bg-gray-800"
              >
                Sign out
              </button>
            </Form>
          </div>
        </div>
      </header>
      <div className="flex flex-1 flex-col lg:flex-row">
        <div className="border-b border-gray-200 bg-gray-50 lg:w-60 lg:shrink-0 lg:border-r lg:border-b-0 print:hidden">
          {/* one sidebar: on phones it folds into a menu (a disclosure, so it works without
              JavaScript); from lg up the disclosure's content is always shown and its toggle hidden */}
          <details className="lg:[&::details-content]:[content-visibility:visible]">
            <summary className="cursor-pointer px-4 py-3 font-semibold lg:hidden">
              Menu{current ? `: ${current.label}` : ""}
            </summary>
            <AdminNav sections={sections} current={current} />
          </details>
        </div>
        <main id="main" className="min-w-0 flex-1 px-4 py-8 lg:px-8">
          <div className="mx-auto max-w-6xl">{children}</div>
        </main>
      </div>
    </div>
  );
}

function AdminNav({ sections, current }: { sections: AdminSection[]; current: AdminSection | null }) {
  return (
    <nav aria-label="Admin" className="px-2 pb-3 lg:py-4">
      <ul className="space-y-0.5">
        {sections.map((section) => {
          const isCurrent = section === current;
          return (
            <li key={section.to}>
              <Link
                to={section.to}
                aria-current={isCurrent ? "page" : undefined}
                className={`block rounded-md py-2 text-sm ${section.nested ? "pl-7 pr-3" : "px-3 font-semibold"} ${
                  isCurrent ? "bg-brand-50 text-brand-800 underline" : "text-gray-800 hover:bg-gray-200"
                }`}
              >
                {section.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** 403 for a signed-in non-admin; 404 for an unknown record; anything else is a plain error. */
export function ErrorBoundary() {
  const error = useRouteError();
  const frame = useAdminFrame();
  const page = <AdminError error={error} />;
  // a page of the admin refused (a role without its permission, an unknown record): inside the
  // admin's frame; a customer or a failed frame: the storefront's (root.tsx)
  return frame ? <AdminShell frame={frame}>{page}</AdminShell> : page;
}

function AdminError({ error }: { error: unknown }) {
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
          ? "This part of the back office is not open to your account. Ask the shop's owner if you need it."
          : "We could not load this page. Please try again in a moment."}
      </p>
      <Link to="/" className="mt-8 inline-block rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white">
        Go Home
      </Link>
    </div>
  );
}
