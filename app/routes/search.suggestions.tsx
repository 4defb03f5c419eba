import { servicesFrom } from "../context.ts";
import { suggestSearch } from "../domain/catalog/search-suggestions.server.ts";
import type { Route } from "./+types/search.suggestions";

/**
 * GET /search/suggestions?q=… — the header search box's suggestions as JSON (issue 33): the same
 * for every visitor (no prices, no session), so browsers and shared caches keep them a minute.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const q = new URL(request.url).searchParams.get("q") ?? "";
  const suggestions = await suggestSearch(servicesFrom(context).db, q);
  return Response.json(suggestions, {
    headers: { "Cache-Control": "public, max-age=60, stale-while-revalidate=300" },
  });
}
