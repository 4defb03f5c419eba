import { Link } from "react-router";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { AdminPaging } from "../components/admin/admin-paging.tsx";
import { servicesFrom } from "../context.ts";
import { listAuditEntries } from "../domain/audit/audit-log.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { formatDateTime } from "../infra/format.ts";
import type { Route } from "./+types/admin.audit";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "Audit log", "/admin/audit");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "audit");
  const url = new URL(request.url);
  const page = positiveInt(url.searchParams.get("page"), 100_000) ?? 1;
  const productId = positiveInt(url.searchParams.get("product"));
  const result = await listAuditEntries(servicesFrom(context).db, {
    page,
    entity: productId ? { type: "product", id: String(productId) } : undefined,
  });
  return { ...result, productId };
}

function Json({ label, json }: { label: string; json: string | null }) {
  if (!json) return null;
  let pretty = json;
  try {
    pretty = JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    // shown as stored
  }
  return (
    <details className="mt-1">
      <summary className="cursor-pointer text-sm text-brand-700">{label}</summary>
      <pre className="mt-1 max-h-64 overflow-auto rounded bg-gray-50 p-2 text-xs text-gray-900">{pretty}</pre>
    </details>
  );
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { entries, page, hasMore, productId } = loaderData;
  const pageLink = (n: number) => {
    const params = new URLSearchParams();
    if (productId) params.set("product", String(productId));
    if (n > 1) params.set("page", String(n));
    return `/admin/audit?${params}`;
  };
  return (
    <section aria-labelledby="audit-heading">
      <h1 id="audit-heading" className="text-3xl font-bold">
        Audit log
      </h1>
      {productId && (
        <p className="mt-1 text-gray-700">
          Changes to product #{productId}.{" "}
          <Link to="/admin/audit" className="text-brand-700 hover:underline">
            Show all changes
          </Link>
        </p>
      )}
      {entries.length === 0 ? (
        <p className="mt-6 text-gray-700">No changes recorded yet.</p>
      ) : (
        <ol className="mt-6 divide-y divide-gray-200">
          {entries.map((entry) => (
            <li key={entry.id} className="py-3">
              <p className="text-sm text-gray-700">
                <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time> · {entry.actorEmail}{" "}
                · <code>{entry.action}</code>
              </p>
              <p className="font-medium">{entry.summary}</p>
              <Json label="Before" json={entry.before} />
              <Json label="After" json={entry.after} />
            </li>
          ))}
        </ol>
      )}
      <AdminPaging
        page={page}
        hasMore={hasMore}
        pageLink={pageLink}
        previousLabel="Newer"
        nextLabel="Older"
      />
    </section>
  );
}
