import { FileText, HelpCircle, type LucideIcon, RotateCcw, Scale, ShieldCheck, Truck } from "lucide-react";
import { Link } from "react-router";
import { useShopSettings } from "../components/shop-settings.ts";
import { HelpLayout } from "../content/help/help-layout.tsx";
import {
  HELP_PAGE_SLUGS,
  HELP_PAGES,
  type HelpPageSlug,
  helpPageDescription,
  helpPath,
} from "../content/help/pages.ts";
import { sharedPageHeaders } from "../lib/cache-control.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/help._index";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return seoMeta({
    title: "Help Center",
    description: "Shipping, returns, frequently asked questions and our policies — everything in one place.",
    path: "/help",
    origin,
    shopName: contact.name,
  });
};

export const headers = sharedPageHeaders;

const ICONS: Record<HelpPageSlug, LucideIcon> = {
  shipping: Truck,
  returns: RotateCcw,
  faq: HelpCircle,
  terms: Scale,
  privacy: ShieldCheck,
  cookies: FileText,
};

export default function HelpCenter() {
  const shop = useShopSettings();
  return (
    <HelpLayout breadcrumb={null}>
      <h1 className="text-3xl font-extrabold tracking-tight text-gray-900 md:text-4xl">Help Center</h1>
      <p className="mt-3 max-w-2xl text-lg text-gray-600">
        Everything about ordering, delivery and returns, and the policies that protect you.
      </p>
      <ul className="mt-8 grid max-w-3xl gap-4 sm:grid-cols-2">
        {HELP_PAGE_SLUGS.map((slug) => {
          const page = HELP_PAGES[slug];
          const Icon = ICONS[slug];
          return (
            <li key={slug}>
              <Link
                to={helpPath(slug)}
                className="flex h-full gap-4 rounded-xl border border-gray-200 p-5 hover:border-brand-700 hover:bg-brand-50"
              >
                <Icon aria-hidden="true" className="size-6 shrink-0 text-brand-700" />
                <span>
                  <span className="block font-semibold text-gray-900">{page.title}</span>
                  <span className="mt-1 block text-sm text-gray-700">{helpPageDescription(slug, shop)}</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </HelpLayout>
  );
}
