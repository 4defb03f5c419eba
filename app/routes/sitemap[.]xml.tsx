import { servicesFrom } from "../context.ts";
import { buildSitemapXml } from "../domain/catalog/sitemap.server.ts";
import type { Route } from "./+types/sitemap[.]xml";

/** sitemaps.org urlset of the public pages and every live product, as absolute URLs on PUBLIC_URL. */
export async function loader({ context }: Route.LoaderArgs) {
  const { db, config } = servicesFrom(context);
  const xml = await buildSitemapXml(db, config.PUBLIC_URL);
  return new Response(xml, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
