import { servicesFrom } from "../context.ts";
import { renderRobotsTxt } from "../domain/catalog/sitemap.server.ts";
import type { Route } from "./+types/robots[.]txt";

export function loader({ context }: Route.LoaderArgs) {
  return new Response(renderRobotsTxt(servicesFrom(context).config.PUBLIC_URL), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=86400",
    },
  });
}
