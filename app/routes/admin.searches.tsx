import { adminMeta } from "../components/admin/admin-meta.ts";
import { FilterSelect, ListFilters } from "../components/admin/list-filters.tsx";
import { servicesFrom } from "../context.ts";
import { listSearchMisses } from "../domain/catalog/search-misses.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { SEARCH_MISS_PERIODS, type SearchMissPeriod } from "../lib/search-misses.ts";
import type { Route } from "./+types/admin.searches";

export const meta: Route.MetaFunction = ({ matches }) =>
  adminMeta(matches, "Searches that found nothing", "/admin/searches");

const DEFAULT_PERIOD: SearchMissPeriod = 30;

/** The period asked for (`days=7|30|90`); anything else is the default. */
function periodOf(searchParams: URLSearchParams): SearchMissPeriod {
  const days = Number(searchParams.get("days"));
  return (SEARCH_MISS_PERIODS as readonly number[]).includes(days)
    ? (days as SearchMissPeriod)
    : DEFAULT_PERIOD;
}

/** What shoppers searched for in vain over a period, most often first (issue 33). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "products");
  const days = periodOf(new URL(request.url).searchParams);
  return { days, misses: await listSearchMisses(servicesFrom(context).db, { days }) };
}

export default function Searches({ loaderData }: Route.ComponentProps) {
  const { days, misses } = loaderData;
  return (
    <section aria-labelledby="searches-heading">
      <h1 id="searches-heading" className="text-3xl font-bold">
        Searches that found nothing
      </h1>
      <p className="mt-1 text-gray-700">
        What shoppers searched for without finding a product, and how often — add the products, or name them
        in their descriptions.
      </p>
      <ListFilters action="/admin/searches" label="Period" submitLabel="Show">
        <FilterSelect
          id="searches-days"
          name="days"
          label="Period"
          value={String(days)}
          options={SEARCH_MISS_PERIODS.map((n) => ({ value: String(n), label: `Last ${n} days` }))}
        />
      </ListFilters>
      {misses.length === 0 ? (
        <p className="mt-6 text-gray-700">Every search in the last {days} days found something.</p>
      ) : (
        <ol
          className="mt-6 divide-y divide-gray-200"
          aria-label={`Searches that found nothing, last ${days} days`}
        >
          {misses.map((miss) => (
            <li
              key={miss.term}
              className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-3"
            >
              <span className="min-w-0 font-semibold break-words">“{miss.term}”</span>
              <span className="text-sm text-gray-700">
                {miss.count === 1 ? "once" : `${miss.count} times`}, last on{" "}
                <time dateTime={miss.lastDay}>{miss.lastDay}</time>
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
