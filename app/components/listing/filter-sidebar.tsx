import { useEffect, useRef, useState } from "react";
import { Form, Link, useNavigate } from "react-router";
import { formatCount } from "../../infra/format.ts";
import type { FacetCount, OptionFacet } from "../../lib/catalog-types.ts";
import {
  type ListingQuery,
  listingHref,
  PRICE_MAX,
  PRICE_MIN,
  PRICE_STEP,
  parseListingQuery,
  RATING_OPTIONS,
} from "../../lib/listing-query.ts";
import { formatMoneyShort } from "../../lib/money.ts";
import { useShopSettings } from "../shop-settings.ts";

/**
 * The sidebar is remounted after every navigation (keyed by the query string, so its uncontrolled
 * inputs show the new URL); the field that applied the change gets the focus back, so a keyboard
 * user adjusting a slider or going down the list of brands keeps their place.
 */
let refocus: { href: string; name: string; value: string; type: string } | null = null;

/** On small screens the filters start collapsed; after that they stay as the shopper left them. */
let openOnSmallScreens = false;

/**
 * The filter form: a plain GET form (works without JavaScript, 'Apply Filters'); with
 * JavaScript every change applies at once. Collapsible on small screens.
 */
export function FilterSidebar({
  path,
  query,
  facets,
  fixed,
}: {
  path: string;
  query: ListingQuery;
  facets: { categories: FacetCount[]; brands: FacetCount[]; options: OptionFacet[] };
  fixed: Partial<ListingQuery>;
}) {
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const [minPrice, setMinPrice] = useState(query.minPrice);
  const { currency } = useShopSettings();
  const whole = (amount: number) => formatMoneyShort(amount * 100, currency);
  const [maxPrice, setMaxPrice] = useState(query.maxPrice);

  useEffect(() => {
    setMinPrice(query.minPrice);
    setMaxPrice(query.maxPrice);
  }, [query.minPrice, query.maxPrice]);

  // With JavaScript the form goes to the listing's canonical URL (defaults left out), as links do.
  const apply = () => {
    const form = formRef.current;
    if (!form) return;
    const data = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (typeof value === "string") data.append(name, value);
    // a subcategory belongs to the category it came with
    if ((data.get("category") || null) !== query.category) data.delete("subcategory");
    const href = listingHref(path, { ...parseListingQuery(data, fixed), page: 1 }, fixed);
    const active = document.activeElement;
    refocus =
      active instanceof HTMLInputElement && form.contains(active)
        ? { href, name: active.name, value: active.value, type: active.type }
        : null;
    navigate(href, { preventScrollReset: true });
  };

  // The native `change` event (not React's per-keystroke onChange): a slider applies on release.
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const onChange = () => apply();
    form.addEventListener("change", onChange);
    return () => form.removeEventListener("change", onChange);
  });

  useEffect(() => {
    const target = refocus;
    // (an earlier navigation that lands while a newer one is on its way leaves it to the newer one)
    const here = `${window.location.pathname}${window.location.search}`;
    if (!target || !formRef.current || here !== target.href) return;
    refocus = null;
    const field = [...formRef.current.querySelectorAll<HTMLInputElement>("input")].find(
      (input) =>
        input.name === target.name &&
        input.type === target.type &&
        (input.type === "range" || input.value === target.value),
    );
    field?.focus({ preventScroll: true });
  }, []);

  /** Clicking the selected category radio clears it (spec: toggleable). */
  const toggleCategory = (event: React.MouseEvent<HTMLInputElement>, value: string) => {
    if (query.category === value && value !== "") {
      event.currentTarget.checked = false;
      const all = formRef.current?.querySelector<HTMLInputElement>('input[name="category"][value=""]');
      if (all) all.checked = true;
      apply();
    }
  };

  return (
    // Collapsed on small screens by CSS alone (a checkbox toggle): works without JavaScript and
    // nothing moves when the page hydrates. Always open from md up.
    <div className="group/filters rounded-xl border border-gray-200 md:border-0">
      <input
        id="filters-toggle"
        type="checkbox"
        className="peer sr-only md:hidden"
        defaultChecked={openOnSmallScreens}
        onChange={(event) => {
          openOnSmallScreens = event.currentTarget.checked;
        }}
      />
      <label
        htmlFor="filters-toggle"
        className="flex cursor-pointer items-center justify-between px-4 py-3 font-semibold peer-focus-visible:outline-2 peer-focus-visible:outline-brand-600 md:hidden"
      >
        <span className="group-has-[#filters-toggle:checked]/filters:hidden">Show Filters</span>
        <span className="hidden group-has-[#filters-toggle:checked]/filters:inline">Hide Filters</span>
      </label>
      <Form
        ref={formRef}
        method="get"
        action={path}
        preventScrollReset
        className="hidden space-y-6 px-4 pb-4 group-has-[#filters-toggle:checked]/filters:block md:block md:px-0"
        aria-label="Filters"
        onSubmit={(event) => {
          event.preventDefault();
          apply();
        }}
      >
        {query.search && <input type="hidden" name="search" value={query.search} />}
        {query.sort !== "featured" && <input type="hidden" name="sort" value={query.sort} />}
        {query.featured && !fixed.featured && <input type="hidden" name="featured" value="true" />}
        {query.newArrival && !fixed.newArrival && <input type="hidden" name="new" value="true" />}
        {query.bestSeller && !fixed.bestSeller && <input type="hidden" name="bestseller" value="true" />}
        {query.subcategory && <input type="hidden" name="subcategory" value={query.subcategory} />}

        <fieldset>
          <legend className="mb-2 text-sm font-bold">Category</legend>
          <ul className="space-y-1.5 text-sm">
            <li>
              <label className="flex items-center gap-2">
                <input
                  className="size-5 shrink-0 accent-brand-700"
                  type="radio"
                  name="category"
                  value=""
                  defaultChecked={!query.category}
                />
                All categories
              </label>
            </li>
            {facets.categories.map((category) => (
              <li key={category.value}>
                <label className="flex items-center gap-2">
                  <input
                    className="size-5 shrink-0 accent-brand-700"
                    type="radio"
                    name="category"
                    value={category.value}
                    defaultChecked={query.category === category.value}
                    onClick={(event) => toggleCategory(event, category.value)}
                  />
                  <span className="flex-1">{category.label}</span>
                  <span className="text-gray-600">({formatCount(category.count)})</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>

        <fieldset>
          <legend className="mb-2 text-sm font-bold">Brand</legend>
          <ul className="max-h-40 space-y-1.5 overflow-y-auto pr-2 text-sm">
            {facets.brands.map((brand) => (
              <li key={brand.value}>
                <label className="flex items-center gap-2">
                  <input
                    className="size-5 shrink-0 accent-brand-700"
                    type="checkbox"
                    name="brand"
                    value={brand.value}
                    defaultChecked={query.brands.includes(brand.value)}
                  />
                  <span className="flex-1">{brand.label}</span>
                  <span className="text-gray-600">({formatCount(brand.count)})</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>

        {facets.options.map((facet) => (
          <fieldset key={facet.key}>
            <legend className="mb-2 text-sm font-bold">{facet.label}</legend>
            <ul className="max-h-40 space-y-1.5 overflow-y-auto pr-2 text-sm">
              {facet.values.map((value) => (
                <li key={value.value}>
                  <label className="flex items-center gap-2">
                    <input
                      className="size-5 shrink-0 accent-brand-700"
                      type="checkbox"
                      name={facet.key}
                      value={value.value}
                      defaultChecked={query.options[facet.key]?.includes(value.value) ?? false}
                    />
                    <span className="flex-1">{value.label}</span>
                    <span className="text-gray-600">({formatCount(value.count)})</span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        ))}

        <fieldset>
          <legend className="mb-2 text-sm font-bold">Price</legend>
          <div className="space-y-3 text-sm">
            <div>
              <label htmlFor="filter-min-price" className="flex justify-between">
                <span>Minimum price</span>
                <output htmlFor="filter-min-price">{whole(minPrice)}</output>
              </label>
              <input
                id="filter-min-price"
                type="range"
                name="minPrice"
                min={PRICE_MIN}
                max={PRICE_MAX}
                step={PRICE_STEP}
                value={minPrice}
                onChange={(e) => setMinPrice(Number(e.currentTarget.value))}
                className="w-full accent-brand-700"
              />
            </div>
            <div>
              <label htmlFor="filter-max-price" className="flex justify-between">
                <span>Maximum price</span>
                <output htmlFor="filter-max-price">
                  {whole(maxPrice)}
                  {maxPrice === PRICE_MAX ? "+" : ""}
                </output>
              </label>
              <input
                id="filter-max-price"
                type="range"
                name="maxPrice"
                min={PRICE_MIN}
                max={PRICE_MAX}
                step={PRICE_STEP}
                value={maxPrice}
                onChange={(e) => setMaxPrice(Number(e.currentTarget.value))}
                className="w-full accent-brand-700"
              />
            </div>
          </div>
        </fieldset>

        <fieldset>
          <legend className="mb-2 text-sm font-bold">Customer Rating</legend>
          <ul className="space-y-1.5 text-sm">
            <li>
              <label className="flex items-center gap-2">
                <input
                  className="size-5 shrink-0 accent-brand-700"
                  type="radio"
                  name="rating"
                  value=""
                  defaultChecked={!query.rating}
                />
                Any rating
              </label>
            </li>
            {RATING_OPTIONS.map((rating) => (
              <li key={rating}>
                <label className="flex items-center gap-2">
                  <input
                    className="size-5 shrink-0 accent-brand-700"
                    type="radio"
                    name="rating"
                    value={rating}
                    defaultChecked={query.rating === rating}
                  />
                  <span aria-hidden="true" className="text-amber-500">
                    {"★".repeat(rating)}
                    <span className="text-gray-300">{"★".repeat(5 - rating)}</span>
                  </span>
                  <span>{rating} stars &amp; up</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>

        <div className="flex gap-2">
          <button
            type="submit"
            className="flex-1 rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
          >
            Apply Filters
          </button>
          <Link
            to={path}
            className="flex-1 rounded-lg border border-gray-400 px-4 py-2 text-center text-sm font-semibold hover:bg-gray-50"
          >
            Clear All
          </Link>
        </div>
      </Form>
    </div>
  );
}
