import { Link } from "react-router";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { AdminPaging } from "../components/admin/admin-paging.tsx";
import { FilterInput, FilterSelect, ListFilters, optionsOf } from "../components/admin/list-filters.tsx";
import { servicesFrom } from "../context.ts";
import {
  type AuditLogQuery,
  auditListQuerySchema,
  listAuditActors,
  listAuditLog,
} from "../domain/audit/audit-list.server.ts";
import { AUDIT_ACTIONS, AUDIT_SORTS, type AuditSort } from "../domain/audit/audit-list-query.ts";
import { requirePermission } from "../http/session.server.ts";
import { formatDateTime } from "../infra/format.ts";
import { parseListQuery } from "../lib/list-query.ts";
import type { Route } from "./+types/admin.audit";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "Audit log", "/admin/audit");

/** The log's filters as the page carries them (the query's defaults left out). */
type AuditFilters = Required<Pick<AuditLogQuery, "search" | "action" | "actor" | "from" | "to" | "sort">> & {
  productId: number | null;
};

function listHref({ search, action, actor, from, to, sort, productId }: AuditFilters, page: number) {
  const params = new URLSearchParams();
  if (productId) params.set("product", String(productId));
  if (search) params.set("search", search);
  if (action) params.set("action", action);
  if (actor) params.set("actor", actor);
  if (from) params.set("from", from);
  if (to) params.set("to", to);
  if (sort !== "newest") params.set("sort", sort);
  if (page > 1) params.set("page", String(page));
  return params.size ? `/admin/audit?${params}` : "/admin/audit";
}

/** The audit log: search, filter by action, actor and days, newest or oldest first; bad values are left out. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "audit");
  const {
    product: productId,
    page,
    ...filters
  } = parseListQuery(new URL(request.url).searchParams, auditListQuerySchema);
  const { db } = servicesFrom(context);
  const [result, actors] = await Promise.all([
    listAuditLog(db, {
      ...filters,
      page,
      entity: productId ? { type: "product", id: String(productId) } : null,
    }),
    listAuditActors(db),
  ]);
  return { ...result, ...filters, productId, actors };
}

const SORT_LABELS: Record<AuditSort, string> = {
  newest: "Newest first",
  oldest: "Oldest first",
};

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
  const { entries, page, hasMore, productId, actors, search, action, actor, from, to, sort } = loaderData;
  const filters: AuditFilters = { search, action, actor, from, to, sort, productId };
  const pageLink = (n: number) => listHref(filters, n);
  const filtered = Boolean(search || action || actor || from || to);
  // an actor typed into the URL who has no entries yet still shows as chosen
  const actorOptions = (actor && !actors.includes(actor) ? [actor, ...actors] : actors).map((email) => ({
    value: email,
    label: email,
  }));
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
      <ListFilters
        action="/admin/audit"
        label="Audit log filters"
        keep={{ product: productId ? String(productId) : null }}
      >
        <FilterInput
          id="audit-search"
          name="search"
          label="Who, or what was changed"
          value={search}
          maxLength={254}
        />
        <FilterSelect
          id="audit-action"
          name="action"
          label="Action"
          value={action}
          options={AUDIT_ACTIONS.map((name) => ({ value: name, label: name }))}
          emptyLabel="All actions"
        />
        <FilterSelect
          id="audit-actor"
          name="actor"
          label="Staff member"
          value={actor}
          options={actorOptions}
          emptyLabel="Anyone"
        />
        <FilterInput id="audit-from" name="from" label="From" value={from} type="date" />
        <FilterInput id="audit-to" name="to" label="To" value={to} type="date" />
        <FilterSelect
          id="audit-sort"
          name="sort"
          label="Sort"
          value={sort}
          options={optionsOf(AUDIT_SORTS, SORT_LABELS)}
        />
      </ListFilters>
      {entries.length === 0 ? (
        <p className="mt-6 text-gray-700">{filtered ? "No changes found." : "No changes recorded yet."}</p>
      ) : (
        <ol className="mt-6 divide-y divide-gray-200">
          {entries.map((entry) => (
            <li key={entry.id} className="py-3">
              <p className="text-sm break-words text-gray-700">
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
        previousLabel={sort === "newest" ? "Newer" : "Older"}
        nextLabel={sort === "newest" ? "Older" : "Newer"}
      />
    </section>
  );
}
