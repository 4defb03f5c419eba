import { redirect } from "react-router";
import { requirePermission } from "../http/session.server.ts";
import type { Route } from "./+types/admin.coupons.new";

/**
 * A new coupon is a new promotion with a code (issue 31, migration 0780): the new-promotion form,
 * a percentage off the order, set up as a coupon is (its code asked for, first among the order's
 * promotions).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "discounts");
  return redirect("/admin/promotions/new?type=order-percent&coupon=1");
}
