import { X } from "lucide-react";
import { useEffect, useRef } from "react";
import { Form, Link, useLocation, useNavigate } from "react-router";
import { formatCount } from "../../infra/format.ts";
import type { FacetCount, OptionFacet, ProductCardData } from "../../lib/catalog-types.ts";
import {
  type ListingQuery,
  listingHref,
  PRICE_MAX,
  PRICE_MIN,
  SORT_OPTIONS,
  type SortOrder,
} from "../../lib/listing-query.ts";
import { categoryName, subcategoryName } from "../../lib/listing-title.ts";
import { formatMoneyShort } from "../../lib/money.ts";
import { ProductCard } from "../product-card.tsx";
import { InTurn } from "../render-in-turns.tsx";
import { useShopSettings } from "../shop-settings.ts";
import { FilterSidebar } from "./filter-sidebar.tsx";

export interface ListingViewProps {
  path: string;
  title: string;
  query: ListingQuery;
  fixed: Partial<ListingQuery>;
  products: ProductCardData[];
  total: number;
  pageCount: number;
  facets: { categories: FacetCount[]; brands: FacetCount[]; options: OptionFacet[] };
  /** the words searched in place of misspelt ones (typo tolerance) */
  corrected?: string[];
}

export function ListingView({
  path,
  title,
  query,
  fixed,
  products,
  total,
  pageCount,
  facets,
  corrected = [],
}: ListingViewProps) {
  const location = useLocation();
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <nav aria-label="Breadcrumb" className="text-sm text-gray-600">
        <ol className="flex gap-2">
          <li>
            <Link to="/" className="hover:underline">
              Home
            </Link>
          </li>
          <li aria-hidden="true">›</li>
          <li>
            <Link
              to="/products"
              className="hover:underline"
              aria-current={path === "/products" ? "page" : undefined}
            >
              Products
            </Link>
          </li>
        </ol>
      </nav>
      <h1 className="mt-2 text-3xl font-bold">{title}</h1>

      <div className="mt-6 gap-8 md:grid md:grid-cols-[15rem_1fr]">
        <aside aria-label="Product filters" className="mb-6 md:mb-0">
          {/* a large catalogue's facets (every brand) and cards, each rendered in a turn of its own
              on the server (render-in-turns.tsx) */}
          <InTurn of={facets} turn={1}>
            <FilterSidebar key={location.search} path={path} query={query} facets={facets} fixed={fixed} />
          </InTurn>
        </aside>
        <section aria-labelledby="results-heading">
          <h2 id="results-heading" className="sr-only">
            Results
          </h2>
          <ActiveFilters
            path={path}
            query={query}
            fixed={fixed}
            brands={facets.brands}
            options={facets.options}
          />
          <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
            <div>
              <p className="text-sm text-gray-700" aria-live="polite">
                Showing {formatCount(total)} results
              </p>
              {corrected.length > 0 && total > 0 ? (
                <p className="text-sm text-gray-700" data-testid="search-corrected">
                  Showing close matches: {corrected.join(", ")}
                </p>
              ) : null}
            </div>
            <SortForm key={location.search} path={path} query={query} fixed={fixed} />
          </div>
          {products.length === 0 ? (
            <div className="rounded-xl border border-dashed border-gray-300 px-6 py-16 text-center">
              <p className="text-lg font-medium">No products found matching your criteria.</p>
              <Link
                to={path}
                className="mt-4 inline-block rounded-lg bg-brand-700 px-5 py-2 font-semibold text-white hover:bg-brand-800"
              >
                Clear Filters
              </Link>
            </div>
          ) : (
            <InTurn of={products} turn={2}>
              <ul className="grid grid-cols-2 gap-4 lg:grid-cols-3">
                {products.map((product, index) => (
                  <li key={product.id} className="flex">
                    <ProductCard product={product} priority={index < 2} />
                  </li>
                ))}
              </ul>
            </InTurn>
          )}
          <Pagination path={path} query={query} fixed={fixed} pageCount={pageCount} />
        </section>
      </div>
    </div>
  );
}

function ActiveFilters({
  path,
  query,
  fixed,
  brands,
  options,
}: {
  path: string;
  query: ListingQuery;
  fixed: Partial<ListingQuery>;
  brands: FacetCount[];
  options: OptionFacet[];
}) {
  const brandLabel = new Map(brands.map((b) => [b.value, b.label]));
  const { currency } = useShopSettings();
  const whole = (amount: number) => formatMoneyShort(amount * 100, currency);
  const without = (change: Partial<ListingQuery>) =>
    listingHref(path, { ...query, ...change, page: 1 }, fixed);
  const chips: Array<{ label: string; href: string }> = [];
  if (query.search) chips.push({ label: `Search: ${query.search}`, href: without({ search: null }) });
  if (query.category) {
    chips.push({
      label: `Category: ${categoryName(query.category)}`,
      href: without({ category: null, subcategory: null }),
    });
  }
  if (query.subcategory) {
    chips.push({
      label: `Subcategory: ${subcategoryName(query.subcategory)}`,
      href: without({ subcategory: null }),
    });
  }
  for (const brand of query.brands) {
    chips.push({
      label: `Brand: ${brandLabel.get(brand) ?? brand}`,
      href: without({ brands: query.brands.filter((b) => b !== brand) }),
    });
  }
  for (const facet of options) {
    for (const value of query.options[facet.key] ?? []) {
      const rest = (query.options[facet.key] ?? []).filter((v) => v !== value);
      const { [facet.key]: _, ...others } = query.options;
      chips.push({
        label: `${facet.label}: ${facet.values.find((v) => v.value === value)?.label ?? value}`,
        href: without({ options: rest.length > 0 ? { ...others, [facet.key]: rest } : others }),
      });
    }
  }
  if (query.minPrice > PRICE_MIN || query.maxPrice < PRICE_MAX) {
    const upper = query.maxPrice < PRICE_MAX ? whole(query.maxPrice) : "any";
    chips.push({
      label: `Price: ${whole(query.minPrice)} – ${upper}`,
      href: without({ minPrice: PRICE_MIN, maxPrice: PRICE_MAX }),
    });
  }
  if (query.rating) chips.push({ label: `Rating: ${query.rating}+ stars`, href: without({ rating: null }) });
  if (query.featured && !fixed.featured)
    chips.push({ label: "Featured", href: without({ featured: false }) });
  if (query.newArrival && !fixed.newArrival)
    chips.push({ label: "New arrivals", href: without({ newArrival: false }) });
  if (query.bestSeller && !fixed.bestSeller)
    chips.push({ label: "Best sellers", href: without({ bestSeller: false }) });
  if (chips.length === 0) return null;
  return (
    <div className="mb-4 flex flex-wrap items-center gap-2">
      <p className="text-sm font-semibold">Active Filters</p>
      <ul className="flex flex-wrap gap-2">
        {chips.map((chip) => (
          <li key={chip.label}>
            <Link
              to={chip.href}
              preventScrollReset
              className="flex items-center gap-1 rounded-full bg-brand-50 px-3 py-1 text-sm text-brand-800 hover:bg-brand-100"
              aria-label={`Remove filter ${chip.label}`}
            >
              {chip.label}
              <X aria-hidden="true" className="size-3.5" />
            </Link>
          </li>
        ))}
      </ul>
      <Link to={path} className="text-sm font-semibold text-brand-700 hover:underline">
        Clear All
      </Link>
    </div>
  );
}

/** The sort form is remounted after navigating (keyed by the query string): give its select the focus back. */
let refocusSort: string | null = null;

function SortForm({
  path,
  query,
  fixed,
}: {
  path: string;
  query: ListingQuery;
  fixed: Partial<ListingQuery>;
}) {
  const navigate = useNavigate();
  const selectRef = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    if (refocusSort !== `${window.location.pathname}${window.location.search}`) return;
    refocusSort = null;
    selectRef.current?.focus({ preventScroll: true });
  }, []);
  const keep = [
    ...new URLSearchParams(listingHref(path, { ...query, page: 1 }, fixed).split("?")[1] ?? ""),
  ].filter(([name]) => name !== "sort");
  return (
    <Form method="get" action={path} preventScrollReset className="flex items-center gap-2">
      {keep.map(([name, value], index) => (
        <input key={`${name}-${index}`} type="hidden" name={name} value={value} />
      ))}
      <label htmlFor="sort" className="text-sm font-medium">
        Sort by
      </label>
      <select
        id="sort"
        name="sort"
        defaultValue={query.sort}
        ref={selectRef}
        onChange={(event) => {
          const href = listingHref(
            path,
            { ...query, sort: event.currentTarget.value as SortOrder, page: 1 },
            fixed,
          );
          refocusSort = document.activeElement === event.currentTarget ? href : null;
          navigate(href, { preventScrollReset: true });
        }}
        className="rounded-lg border border-gray-400 bg-white px-3 py-2 text-sm"
      >
        {SORT_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="rounded-lg border border-gray-400 px-3 py-2 text-sm font-semibold">
          Sort
        </button>
      </noscript>
    </Form>
  );
}

function Pagination({
  path,
  query,
  fixed,
  pageCount,
}: {
  path: string;
  query: ListingQuery;
  fixed: Partial<ListingQuery>;
  pageCount: number;
}) {
  if (pageCount <= 1) return null;
  const page = Math.min(query.page, pageCount);
  const href = (p: number) => listingHref(path, { ...query, page: p }, fixed);
  const first = Math.max(1, Math.min(page - 2, pageCount - 4));
  const pages = Array.from({ length: Math.min(5, pageCount) }, (_, i) => first + i);
  const linkClass = "rounded-lg border border-gray-300 px-3 py-2 text-sm hover:bg-gray-50";
  return (
    <nav aria-label="Pagination" className="mt-8 flex flex-wrap items-center justify-center gap-2">
      {page > 1 && (
        <Link to={href(page - 1)} className={linkClass} rel="prev">
          Previous
        </Link>
      )}
      {pages.map((p) =>
        p === page ? (
          <span
            key={p}
            aria-current="page"
            className="rounded-lg bg-brand-700 px-3 py-2 text-sm font-semibold text-white"
          >
            <span className="sr-only">Page </span>
            {p}
          </span>
        ) : (
          <Link key={p} to={href(p)} className={linkClass}>
            <span className="sr-only">Page </span>
            {p}
          </Link>
        ),
      )}
      {page < pageCount && (
        <Link to={href(page + 1)} className={linkClass} rel="next">
          Next
        </Link>
      )}
    </nav>
  );
}
