import { renderRobotsTxt } from "../domain/catalog/sitemap.server.ts";
import { getEnv } from "../env.server.ts";

export function loader() {
  return new Response(renderRobotsTxt(getEnv().PUBLIC_URL), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=86400",
    },
  });
}
