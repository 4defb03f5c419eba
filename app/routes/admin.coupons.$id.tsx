import { data, redirect } from "react-router";
import { positiveInt } from "../components/admin/admin-meta.ts";
import { servicesFrom } from "../context.ts";
import { promotionOfCoupon } from "../domain/promotions/promotion-admin.server.ts";
import { requirePermission } from "../http/session.server.ts";
import type { Route } from "./+types/admin.coupons.$id";

/**
 * A coupon's page is its promotion's (issue 31): migration 0780 made each coupon a promotion with
 * its code and remembers which, so an old link leads to the promotion it became.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "discounts");
  const id = positiveInt(params.id);
  const promotionId = id ? await promotionOfCoupon(servicesFrom(context).db, id) : null;
  if (promotionId === null) throw data(null, { status: 404 });
  return redirect(`/admin/promotions/${promotionId}`);
}
