import { Link } from "react-router";
import { OrderDate } from "../components/account/order-details.tsx";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { AdminPaging } from "../components/admin/admin-paging.tsx";
import { servicesFrom } from "../context.ts";
import { RETURN_STATUS_LABELS, RETURN_STATUSES, type ReturnStatus } from "../domain/returns/return-status.ts";
import { listReturns } from "../domain/returns/returns.server.ts";
import { requirePermission } from "../http/session.server.ts";
import type { Route } from "./+types/admin.returns._index";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "Returns", "/admin/returns");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "returns");
  const url = new URL(request.url);
  const raw = url.searchParams.get("status");
  const status = (RETURN_STATUSES as readonly string[]).includes(raw ?? "") ? (raw as ReturnStatus) : null;
  const page = positiveInt(url.searchParams.get("page"), 100_000) ?? 1;
  return { ...(await listReturns(servicesFrom(context).db, { status, page })), status };
}

export default function AdminReturns({ loaderData }: Route.ComponentProps) {
  const { returns, page, hasMore, status } = loaderData;
  const link = (s: ReturnStatus | null, n = 1) => {
    const params = new URLSearchParams();
    if (s) params.set("status", s);
    if (n > 1) params.set("page", String(n));
    const query = params.toString();
    return `/admin/returns${query ? `?${query}` : ""}`;
  };
  return (
    <section aria-labelledby="returns-heading">
      <h1 id="returns-heading" className="text-3xl font-bold">
        Returns
      </h1>
      <nav aria-label="Returns by status" className="mt-4">
        <ul className="flex flex-wrap gap-2 text-sm">
          {[null, ...RETURN_STATUSES].map((s) => (
            <li key={s ?? "all"}>
              <Link
                to={link(s)}
                aria-current={s === status ? "page" : undefined}
                className="inline-block rounded-full border border-gray-400 px-3 py-1 aria-[current=page]:bg-brand-700 aria-[current=page]:text-white"
              >
                {s ? RETURN_STATUS_LABELS[s] : "All returns"}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {returns.length === 0 ? (
        <p className="mt-6 text-gray-700">No returns found.</p>
      ) : (
        <ul className="mt-6 divide-y divide-gray-200 rounded-lg border border-gray-300">
          {returns.map((r) => (
            <li key={r.number} className="flex flex-wrap items-baseline gap-x-4 gap-y-1 p-3 text-sm">
              <Link
                to={`/admin/returns/${r.number}`}
                className="font-semibold text-brand-700 hover:underline"
              >
                {r.number}
              </Link>
              <span>Order {r.orderNumber}</span>
              <span className="break-all">{r.email}</span>
              <OrderDate iso={r.createdAt} />
              <span className="font-semibold">{RETURN_STATUS_LABELS[r.status]}</span>
            </li>
          ))}
        </ul>
      )}
      <AdminPaging page={page} hasMore={hasMore} pageLink={(n) => link(status, n)} />
    </section>
  );
}
