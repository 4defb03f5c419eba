import { redirect } from "react-router";
import { safeRedirectPath } from "../lib/safe-redirect.ts";
import type { Route } from "./+types/admin_.products._index";

/**
 * The product list moved to /admin (the spec's product management page). Old links and bookmarks
 * of /admin/products keep working: a permanent redirect with the query (search, page) kept. Outside
 * the admin layout, so it answers at once; /admin itself checks who is asking.
 */
export function loader({ request }: Route.LoaderArgs) {
  // a query too long to carry back is dropped (the Location header stays short)
  return redirect(safeRedirectPath(`/admin${new URL(request.url).search}`, "/admin"), 308);
}
