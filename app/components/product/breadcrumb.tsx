import { ChevronRight } from "lucide-react";
import { Link } from "react-router";
import type { Crumb } from "./structured-data.ts";

/** Home › Category › Subcategory › Product; the last crumb is the current page. */
export function Breadcrumb({ crumbs }: { crumbs: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb">
      <ol className="flex flex-wrap items-center gap-x-1 gap-y-1 text-sm text-gray-600">
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          return (
            <li key={crumb.path} className="flex min-w-0 items-center gap-1">
              {index > 0 && <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-gray-400" />}
              {last ? (
                <span
                  aria-current="page"
                  className="inline-flex min-h-6 items-center font-medium text-gray-900"
                >
                  {crumb.name}
                </span>
              ) : (
                <Link
                  to={crumb.path}
                  className="inline-flex min-h-6 items-center rounded hover:text-brand-700 hover:underline"
                >
                  {crumb.name}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
