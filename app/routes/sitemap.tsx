import { Link } from "react-router";
import { Breadcrumbs } from "../content/help/help-layout.tsx";
import { HELP_PAGE_SLUGS, HELP_PAGES, helpPath } from "../content/help/pages.ts";
import { servicesFrom } from "../context.ts";
import { getHtmlSitemapProducts } from "../domain/catalog/sitemap.server.ts";
import { formatCount } from "../infra/format.ts";
import { sharedPageHeaders } from "../lib/cache-control.ts";
import { CATEGORY_TREE, productsUrl } from "../lib/catalog-constants.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import { SHOP_LINKS } from "../lib/site-links.ts";
import type { Route } from "./+types/sitemap";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return seoMeta({
    title: "Sitemap",
    description: "Every section, category, help page and product of the shop on one page.",
    path: "/sitemap",
    origin,
    shopName: contact.name,
  });
};

export async function loader({ context }: Route.LoaderArgs) {
  return getHtmlSitemapProducts(servicesFrom(context).db);
}

export const headers = sharedPageHeaders;

const BROWSE_LINKS = [{ to: "/", label: "Home" }, ...SHOP_LINKS];

const SERVICE_LINKS = [
  { to: "/help", label: "Help Center" },
  ...HELP_PAGE_SLUGS.map((slug) => ({ to: helpPath(slug), label: HELP_PAGES[slug].title })),
  { to: "/contact", label: "Contact Us" },
  { to: "/orders/track", label: "Track Your Order" },
];

const ACCOUNT_LINKS = [
  { to: "/cart", label: "Cart" },
  { to: "/account", label: "Sign In or Register" },
  { to: "/account/wishlist", label: "Wishlist" },
];

const linkClass = "text-gray-700 hover:text-brand-700 hover:underline";

export default function Sitemap({ loaderData }: Route.ComponentProps) {
  const { products, total } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 md:py-12">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Sitemap" }]} />
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight text-gray-900 md:text-4xl">Sitemap</h1>
      <p className="mt-3 max-w-2xl text-lg text-gray-600">Every part of the shop, on one page.</p>

      <div className="mt-10 grid gap-10 sm:grid-cols-2 lg:grid-cols-3">
        <LinkSection id="sitemap-shop" title="Shop" links={BROWSE_LINKS} />
        <LinkSection id="sitemap-service" title="Customer Service" links={SERVICE_LINKS} />
        <LinkSection id="sitemap-account" title="Your Account" links={ACCOUNT_LINKS} />
      </div>

      <section aria-labelledby="sitemap-categories" className="mt-12">
        <h2 id="sitemap-categories" className="text-xl font-bold text-gray-900">
          Categories
        </h2>
        <ul className="mt-4 grid gap-8 sm:grid-cols-2 lg:grid-cols-4">
          {CATEGORY_TREE.map((category) => (
            <li key={category.id}>
              <Link
                to={productsUrl({ category: category.id })}
                className="font-semibold text-gray-900 hover:text-brand-700 hover:underline"
              >
                {category.name}
              </Link>
              {category.subcategories.length > 0 && (
                <ul className="mt-2 space-y-1 border-l border-gray-200 pl-3 text-sm">
                  {category.subcategories.map((sub) => (
                    <li key={sub.id}>
                      <Link
                        to={productsUrl({ category: category.id, subcategory: sub.id })}
                        className={linkClass}
                      >
                        {sub.name}
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="sitemap-products" className="mt-12">
        <h2 id="sitemap-products" className="text-xl font-bold text-gray-900">
          Products
        </h2>
        <p className="mt-1 text-sm text-gray-600">
          {products.length < total ? (
            <>
              The {formatCount(products.length)} newest of {formatCount(total)} products.{" "}
              <Link to="/products" className="font-medium text-brand-700 underline">
                Browse all products
              </Link>
            </>
          ) : (
            `All ${formatCount(total)} products, newest first.`
          )}
        </p>
        {products.length > 0 && (
          <ul className="mt-4 columns-1 gap-8 text-sm sm:columns-2 lg:columns-3">
            {products.map((product) => (
              <li key={product.slug} className="break-inside-avoid py-1">
                <Link to={`/products/${product.slug}`} className={linkClass}>
                  {product.name}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function LinkSection({
  id,
  title,
  links,
}: {
  id: string;
  title: string;
  links: Array<{ to: string; label: string }>;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-xl font-bold text-gray-900">
        {title}
      </h2>
      <ul className="mt-4 space-y-2">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className={linkClass}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
