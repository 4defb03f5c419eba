import { BadgePercent, RotateCcw, ShieldCheck, Truck } from "lucide-react";
import { Link } from "react-router";
import { NewsletterForm } from "../components/newsletter-form.tsx";
import { ProductGrid } from "../components/product-card.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import { getHomeSections } from "../domain/catalog/home-sections.server.ts";
import { getSessionUser } from "../http/session.server.ts";
import { sharedPageHeaders } from "../lib/cache-control.ts";
import { CATEGORY_TILES, productsUrl } from "../lib/catalog-constants.ts";
import type { ProductCardData } from "../lib/catalog-types.ts";
import { formatMoneyShort } from "../lib/money.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import { deliveryPromise } from "../lib/shipping-terms-text.ts";
import { storefrontOf } from "../lib/shop-settings.ts";
import type { Route } from "./+types/_index";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const { origin, contact } = rootMetaData(matches);
  return seoMeta({
    title: contact.name,
    description: `Shop electronics, fashion, home, beauty, toys and sports at great prices. ${loaderData?.delivery.freeFrom ? `Free delivery over ${loaderData.delivery.freeFrom} and easy` : "Easy"} 30-day returns.`,
    path: "/",
    origin,
    shopName: contact.name,
  });
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const shop = storefrontOf(await shopSettingsFrom(context));
  const { freeShippingThresholdCents } = shop.terms;
  return {
    // a signed-in member's cards show their prices (decision 037; their page is private)
    ...(await getHomeSections(
      servicesFrom(context).db,
      (await getSessionUser(request, context))?.id ?? null,
    )),
    /** the shop's shipping terms in the copy: "$50", "Free standard delivery on orders over $50, …" */
    delivery: {
      freeFrom:
        freeShippingThresholdCents === null
          ? null
          : formatMoneyShort(freeShippingThresholdCents, shop.currency),
      promise: deliveryPromise(shop.terms, (cents) => formatMoneyShort(cents, shop.currency)),
    },
  };
}

export const headers = sharedPageHeaders;

const whyShop = ({ promise }: { promise: string | null }) => [
  {
    icon: Truck,
    title: "Fast Delivery",
    text: promise ?? "Every order ships with tracking, at the speed you choose.",
  },
  {
    icon: ShieldCheck,
    title: "Quality Products",
    text: "Every product is checked and backed by its maker's warranty.",
  },
  {
    icon: BadgePercent,
    title: "Best Prices",
    text: "Fair everyday prices and real deals, with no hidden fees.",
  },
  { icon: RotateCcw, title: "Easy Returns", text: "Returns within 30 days for a full refund." },
];

export default function Home({ loaderData }: Route.ComponentProps) {
  const { featured, newArrivals, bestSellers, delivery } = loaderData;
  return (
    <>
      <section className="bg-gradient-to-br from-brand-800 via-brand-700 to-indigo-500 text-white">
        <div className="mx-auto max-w-7xl px-4 py-16 md:py-24">
          <h1 className="max-w-2xl text-4xl font-extrabold tracking-tight md:text-5xl">
            Everything you love, delivered to your door
          </h1>
          <p className="mt-4 max-w-xl text-lg text-indigo-50">
            Thousands of products across electronics, fashion, home, beauty, toys and sports.
            {delivery.freeFrom && ` Free delivery on orders over ${delivery.freeFrom}.`}
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link
              to="/products"
              className="rounded-lg bg-white px-6 py-3 font-semibold text-brand-800 hover:bg-indigo-50"
            >
              Shop Now
            </Link>
            <Link
              to="/products/deals"
              className="rounded-lg border-2 border-white px-6 py-3 font-semibold text-white hover:bg-white/10"
            >
              Today's Deals
            </Link>
          </div>
        </div>
      </section>

      <section aria-labelledby="categories-heading" className="mx-auto max-w-7xl px-4 pt-12">
        <h2 id="categories-heading" className="text-2xl font-bold">
          Shop by Category
        </h2>
        <ul className="mt-6 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-6">
          {CATEGORY_TILES.map((tile) => (
            <li key={tile.category}>
              <Link
                to={productsUrl({ category: tile.category })}
                className="flex h-24 items-center justify-center rounded-xl border border-gray-200 bg-gray-50 text-lg font-semibold hover:border-brand-700 hover:bg-brand-50"
              >
                {tile.label}
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <ProductSection
        id="featured"
        title="Featured Products"
        products={featured}
        href="/products?featured=true"
      />

      <section className="mx-auto mt-12 max-w-7xl px-4">
        <div className="flex flex-col items-start gap-4 rounded-2xl bg-red-700 px-8 py-10 text-white md:flex-row md:items-center md:justify-between">
          <div>
            <p className="text-sm font-semibold tracking-wide uppercase">Limited time sale</p>
            <h2 className="mt-1 text-3xl font-extrabold">Up to 50% off</h2>
            <p className="mt-2 text-red-50">Top brands at their lowest prices of the season.</p>
          </div>
          <Link
            to="/products/deals"
            className="rounded-lg bg-white px-6 py-3 font-semibold text-red-800 hover:bg-red-50"
          >
            Shop the Sale
          </Link>
        </div>
      </section>

      <ProductSection
        id="new-arrivals"
        title="New Arrivals"
        products={newArrivals}
        href="/products/new-arrivals"
      />

      <section aria-labelledby="why-heading" className="mx-auto mt-12 max-w-7xl px-4">
        <h2 id="why-heading" className="text-2xl font-bold">
          Why Shop With Us
        </h2>
        <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {whyShop(delivery).map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-xl border border-gray-200 p-6">
              <Icon aria-hidden="true" className="size-8 text-brand-700" />
              <h3 className="mt-3 font-semibold">{title}</h3>
              <p className="mt-1 text-sm text-gray-700">{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <ProductSection
        id="best-sellers"
        title="Best Sellers"
        products={bestSellers}
        href="/products?bestseller=true"
      />

      <section aria-labelledby="newsletter-heading" className="mx-auto mt-12 max-w-7xl px-4">
        <div className="rounded-2xl bg-brand-50 px-8 py-10 md:flex md:items-center md:justify-between md:gap-8">
          <div>
            <h2 id="newsletter-heading" className="text-2xl font-bold">
              Subscribe to our newsletter
            </h2>
            <p className="mt-1 text-gray-700">Be the first to hear about new arrivals and exclusive deals.</p>
          </div>
          <div className="mt-6 w-full max-w-md md:mt-0">
            <NewsletterForm id="home-newsletter-email" />
          </div>
        </div>
      </section>
    </>
  );
}

function ProductSection({
  id,
  title,
  products,
  href,
}: {
  id: string;
  title: string;
  products: ProductCardData[];
  href: string;
}) {
  return (
    <section
      aria-labelledby={`${id}-heading`}
      data-testid={`section-${id}`}
      className="mx-auto mt-12 max-w-7xl px-4"
    >
      <div className="mb-6 flex items-baseline justify-between">
        <h2 id={`${id}-heading`} className="text-2xl font-bold">
          {title}
        </h2>
        <Link to={href} className="text-sm font-semibold text-brand-700 hover:underline">
          View all<span className="sr-only"> {title}</span>
        </Link>
      </div>
      <ProductGrid products={products} />
    </section>
  );
}
