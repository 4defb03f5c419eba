import { data } from "react-router";
import { DATED_PAGES, HELP_PAGE_BODIES } from "../content/help/bodies.tsx";
import { HelpLayout, PROSE } from "../content/help/help-layout.tsx";
import { HELP_PAGES, helpPageDescription, helpPath, isHelpPageSlug } from "../content/help/pages.ts";
import { shopSettingsFrom } from "../context.ts";
import { sharedPageHeaders } from "../lib/cache-control.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import { storefrontOf } from "../lib/shop-settings.ts";
import type { Route } from "./+types/help.$page";

/** /help/shipping, /help/returns, /help/faq, /help/terms, /help/privacy, /help/cookies; anything else is a 404. */
export async function loader({ params, context }: Route.LoaderArgs) {
  if (!isHelpPageSlug(params.page)) throw data(null, { status: 404 });
  return {
    slug: params.page,
    description: helpPageDescription(params.page, storefrontOf(await shopSettingsFrom(context))),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const page = HELP_PAGES[loaderData.slug];
  const { origin, contact } = rootMetaData(matches);
  return seoMeta({
    title: page.title,
    description: loaderData.description,
    path: helpPath(page.slug),
    origin,
    shopName: contact.name,
  });
};

export const headers = sharedPageHeaders;

const longDate = (isoDate: string) =>
  new Date(`${isoDate}T00:00:00Z`).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });

export default function HelpPage({ loaderData }: Route.ComponentProps) {
  const page = HELP_PAGES[loaderData.slug];
  const Body = HELP_PAGE_BODIES[page.slug];
  return (
    <HelpLayout breadcrumb={page.title}>
      <article>
        <header className="max-w-3xl">
          <h1 className="text-3xl font-extrabold tracking-tight text-gray-900 md:text-4xl">{page.title}</h1>
          {DATED_PAGES.has(page.slug) && (
            <p className="mt-2 text-sm text-gray-600">
              Last updated <time dateTime={page.updated}>{longDate(page.updated)}</time>
            </p>
          )}
        </header>
        <div className={`mt-6 ${PROSE}`}>
          <Body />
        </div>
      </article>
    </HelpLayout>
  );
}
