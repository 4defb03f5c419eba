import { ChevronDown, Heart, Menu, Search, ShoppingCart, User } from "lucide-react";
import { Form, Link } from "react-router";
import { CATEGORY_TILES, FEATURED_BRANDS, MEGA_MENU_COLUMNS, productsUrl } from "../lib/catalog-constants.ts";
import { Disclosure } from "./disclosure.tsx";
import { SearchSuggestionsInput } from "./search-suggestions.tsx";

export function Header({
  shopName,
  cartQuantity,
  wishlistCount = 0,
  userName,
  searchQuery,
}: {
  shopName: string;
  cartQuantity: number;
  /** the signed-in user's saved products (0 when signed out) */
  wishlistCount?: number;
  userName: string | null;
  searchQuery: string;
}) {
  return (
    <header className="sticky top-0 z-40 border-b border-gray-200 bg-white/95 backdrop-blur print:hidden">
      <div className="mx-auto flex max-w-7xl items-center gap-4 px-4 py-3">
        {/* On a phone the logo gives way (smaller, then cut short) so the icons beside it fit at 320 px. */}
        <Link
          to="/"
          className="min-w-0 truncate text-xl font-extrabold tracking-tight text-brand-700 sm:shrink-0 sm:text-2xl"
        >
          {shopName}
        </Link>
        <SearchForm id="header-search" defaultValue={searchQuery} className="hidden flex-1 md:flex" />
        <nav aria-label="Account and cart" className="ml-auto flex shrink-0 items-center sm:gap-1">
          <HeaderLink
            to="/account/wishlist"
            label="Wishlist"
            icon={<Heart aria-hidden="true" className="size-5" />}
            badge={
              wishlistCount > 0 ? (
                <span data-testid="wishlist-badge" className={`${BADGE} bg-brand-700`}>
                  {wishlistCount}
                  <span className="sr-only"> saved</span>
                </span>
              ) : null
            }
          />
          <HeaderLink
            to="/account"
            label={userName ?? "Account"}
            icon={<User aria-hidden="true" className="size-5" />}
          />
          <HeaderLink
            to="/cart"
            label="Cart"
            icon={<ShoppingCart aria-hidden="true" className="size-5" />}
            badge={
              cartQuantity > 0 ? (
                <span data-testid="cart-badge" className={`${BADGE} bg-red-700`}>
                  {cartQuantity}
                  <span className="sr-only"> items</span>
                </span>
              ) : null
            }
          />
          <MobileMenu />
        </nav>
      </div>
      <div className="border-t border-gray-100">
        <nav aria-label="Categories" className="mx-auto hidden max-w-7xl items-center gap-1 px-4 md:flex">
          <MegaMenu />
          <ul className="flex items-center gap-1 text-sm">
            {CATEGORY_TILES.map((tile) => (
              <li key={tile.category}>
                <Link
                  to={productsUrl({ category: tile.category })}
                  className="block rounded px-3 py-2 hover:bg-gray-100"
                >
                  {tile.label}
                </Link>
              </li>
            ))}
            <li>
              <Link
                to="/products/deals"
                className="block rounded px-3 py-2 font-semibold text-red-700 hover:bg-gray-100"
              >
                Today's Deals
              </Link>
            </li>
          </ul>
        </nav>
        <div className="px-4 pb-3 md:hidden">
          <SearchForm id="mobile-search" defaultValue={searchQuery} className="flex" />
        </div>
      </div>
    </header>
  );
}

/**
 * A count on a header link: beside the label from `sm` up; on a phone, where the label is hidden,
 * over the icon's corner, so the header's icons still fit beside the logo at 320 px.
 */
const BADGE =
  "absolute -top-0.5 -right-0.5 min-w-5 rounded-full px-1.5 text-center text-xs leading-5 font-bold text-white sm:static sm:ml-0.5";

function HeaderLink({
  to,
  label,
  icon,
  badge = null,
}: {
  to: string;
  label: string;
  icon: React.ReactNode;
  badge?: React.ReactNode;
}) {
  return (
    <Link
      to={to}
      className="relative flex items-center gap-1 rounded-lg px-2 py-2 text-sm font-medium hover:bg-gray-100"
    >
      {icon}
      <span className="hidden max-w-32 truncate sm:inline">{label}</span>
      <span className="sr-only sm:hidden">{label}</span>
      {badge}
    </Link>
  );
}

export function SearchForm({
  id,
  defaultValue = "",
  className = "",
}: {
  id: string;
  defaultValue?: string;
  className?: string;
}) {
  return (
    // relative: the suggestions list under the box spans the form
    <Form
      method="get"
      action="/products"
      role="search"
      className={`relative items-center gap-2 ${className}`}
    >
      <label htmlFor={id} className="text-sm font-medium text-gray-700">
        Search
      </label>
      {/* a plain search box without JavaScript; with it, a combobox suggesting products and categories */}
      <SearchSuggestionsInput
        id={id}
        name="search"
        defaultValue={defaultValue}
        maxLength={200}
        placeholder="Search products, brands and more"
        className="min-w-0 flex-1 rounded-lg border border-gray-400 px-3 py-2 text-sm"
      />
      <button
        type="submit"
        className="flex items-center gap-1 rounded-lg bg-brand-700 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-800"
      >
        <Search aria-hidden="true" className="size-4" />
        <span className="sr-only">Submit search</span>
      </button>
    </Form>
  );
}

function MegaMenu() {
  return (
    <Disclosure
      className="group relative"
      summaryClassName="flex items-center gap-1 rounded px-3 py-2 text-sm font-semibold hover:bg-gray-100"
      summary={
        <>
          All Categories
          <ChevronDown aria-hidden="true" className="size-4 transition group-open:rotate-180" />
        </>
      }
      panelClassName="absolute top-full left-0 z-50 mt-1 w-[min(56rem,calc(100vw-2rem))] rounded-xl border border-gray-200 bg-white p-6 shadow-xl"
    >
      <div className="grid grid-cols-4 gap-6" data-testid="mega-menu">
        {MEGA_MENU_COLUMNS.map((column) => (
          <div key={column.title}>
            <p className="mb-2 text-sm font-bold">{column.title}</p>
            <ul className="space-y-1 text-sm">
              {column.links.map((link) => (
                <li key={link.label}>
                  <Link
                    to={productsUrl({ category: link.category, subcategory: link.subcategory })}
                    className="text-gray-700 hover:text-brand-700 hover:underline"
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <div className="mt-6 border-t border-gray-200 pt-4">
        <p className="mb-2 text-sm font-bold">Featured Brands</p>
        <ul className="flex flex-wrap gap-2">
          {FEATURED_BRANDS.map((brand) => (
            <li key={brand}>
              <Link
                to={productsUrl({ brand: brand.toLowerCase() })}
                className="block rounded-full border border-gray-300 px-3 py-1 text-sm hover:border-brand-700"
              >
                {brand}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </Disclosure>
  );
}

function MobileMenu() {
  return (
    <Disclosure
      className="relative md:hidden"
      summaryClassName="flex items-center rounded-lg p-2 hover:bg-gray-100"
      summary={
        <>
          <Menu aria-hidden="true" className="size-6" />
          <span className="sr-only">Menu</span>
        </>
      }
      panelClassName="absolute top-full right-0 z-50 mt-2 max-h-[70vh] w-72 overflow-y-auto rounded-xl border border-gray-200 bg-white p-4 shadow-xl"
    >
      <ul className="space-y-3 text-sm">
        {MEGA_MENU_COLUMNS.map((column) => (
          <li key={column.title}>
            <p className="font-bold">{column.title}</p>
            <ul className="mt-1 grid grid-cols-2 gap-1">
              {column.links.map((link) => (
                <li key={link.label}>
                  <Link
                    to={productsUrl({ category: link.category, subcategory: link.subcategory })}
                    className="block py-1 text-gray-700"
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </li>
        ))}
        <li>
          <Link to="/products/deals" className="font-semibold text-red-700">
            Today's Deals
          </Link>
        </li>
      </ul>
    </Disclosure>
  );
}
