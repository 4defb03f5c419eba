import { Link } from "react-router";

const LINK = "font-semibold text-brand-700 hover:underline";

/**
 * The admin lists' paging (products, orders, coupons, reported reviews, audit log): a previous
 * and a next link in a named navigation landmark, shown only when there is another page. With
 * `pageCount` (the product list knows its total) it says "Page N of M" between them.
 */
export function AdminPaging({
  page,
  hasMore,
  pageCount,
  pageLink,
  previousLabel = "Previous page",
  nextLabel = "Next page",
}: {
  page: number;
  /** whether a next page exists (lists that fetch one row more than a page) */
  hasMore?: boolean;
  pageCount?: number;
  pageLink: (page: number) => string;
  previousLabel?: string;
  nextLabel?: string;
}) {
  const more = pageCount === undefined ? Boolean(hasMore) : page < pageCount;
  const shown = pageCount === undefined ? page > 1 || more : pageCount > 1;
  if (!shown) return null;
  return (
    <nav
      aria-label="Pagination"
      className={`mt-6 flex gap-4${pageCount === undefined ? "" : " items-center"}`}
    >
      {page > 1 && (
        <Link to={pageLink(page - 1)} className={LINK}>
          {previousLabel}
        </Link>
      )}
      {pageCount !== undefined && (
        <span className="text-sm text-gray-700">
          Page {page} of {pageCount}
        </span>
      )}
      {more && (
        <Link to={pageLink(page + 1)} className={LINK}>
          {nextLabel}
        </Link>
      )}
    </nav>
  );
}
