import { redirect } from "react-router";
import { requirePermission } from "../http/session.server.ts";
import type { Route } from "./+types/admin.coupons._index";

/**
 * Coupons are promotions with a code (issue 31, migration 0780): Admin → Coupons is the promotions
 * list filtered to those with a code; old links and bookmarks lead there.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "discounts");
  return redirect("/admin/promotions?with=code");
}
