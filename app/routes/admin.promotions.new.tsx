import { data, Link } from "react-router";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { PromotionForm } from "../components/admin/promotion-fields.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import { groupChoices } from "../domain/customer-groups/customer-groups.server.ts";
import { createPromotion, listCampaigns } from "../domain/promotions/promotion-admin.server.ts";
import {
  ACTION_LABELS,
  ACTION_TYPES,
  type ActionType,
  emptyPromotionForm,
  PROMOTION_MESSAGES as M,
  PROMOTION_LIMITS,
  promotionChoices,
  promotionRefusal,
} from "../domain/promotions/promotion-form.ts";
import { newPromotionSchema } from "../domain/promotions/promotion-schema.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { CURRENCY_FORMATS } from "../lib/money.ts";
import type { Route } from "./+types/admin.promotions.new";

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  adminMeta(
    matches,
    loaderData?.type ? `New promotion: ${ACTION_LABELS[loaderData.type].label}` : "New promotion",
    "/admin/promotions/new",
  );

const LIST = "/admin/promotions";

const typeOf = (value: string | null): ActionType | null =>
  (ACTION_TYPES as readonly string[]).includes(value ?? "") ? (value as ActionType) : null;

/**
 * `?type=` picks what the promotion does; without it the page lists the kinds to choose from.
 * `?coupon=1` (where /admin/coupons/new leads): a coupon, a promotion with a code — set up as the
 * coupons migration 0780 made: first among the order's promotions, combining with the others.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "discounts");
  const query = new URL(request.url).searchParams;
  const type = typeOf(query.get("type"));
  const coupon = query.get("coupon") === "1";
  if (!type) return { type: null, coupon };
  const shop = await shopSettingsFrom(context);
  const campaigns = await listCampaigns(servicesFrom(context).db);
  return {
    type,
    coupon,
    values: coupon
      ? { ...emptyPromotionForm(type), priority: String(PROMOTION_LIMITS.priority) }
      : emptyPromotionForm(type),
    choices: promotionChoices(
      shop.markets.zones,
      campaigns,
      shop.timeZone,
      await groupChoices(servicesFrom(context).db),
    ),
    currencySymbol: CURRENCY_FORMATS[shop.currency].symbol,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "discounts");
  const { timeZone } = await shopSettingsFrom(context);
  const submission = await parseForm(request, newPromotionSchema(timeZone), { disableAutoCoercion: true });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ formErrors: [M.invalid] }) }, { status: 400 });
  }
  const created = await createPromotion(servicesFrom(context).db, {
    input: submission.value,
    actor: { id: admin.id, email: admin.email },
  });
  if (!created.ok) {
    const { status, message, fieldErrors } = promotionRefusal(created.error);
    return data({ result: submission.reply({ formErrors: [message], fieldErrors }) }, { status });
  }
  return redirectWithToast(LIST, { type: "success", message: M.created(created.value.name) });
}

export default function NewPromotion({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="new-promotion-heading" className="max-w-4xl">
      <p>
        <Link to={LIST} className="font-semibold text-brand-700 hover:underline">
          ← Back to promotions
        </Link>
      </p>
      <h1 id="new-promotion-heading" className="mt-2 text-3xl font-bold">
        New promotion
      </h1>
      {loaderData.type === null ? (
        <>
          <p className="mt-1 text-gray-700">What should it do?</p>
          <ul className="mt-6 grid grid-cols-1 gap-3 sm:grid-cols-2">
            {ACTION_TYPES.map((type) => (
              <li key={type}>
                <Link
                  to={`?type=${type}${loaderData.coupon ? "&coupon=1" : ""}`}
                  className="block rounded-xl border border-gray-300 p-4 hover:border-brand-700 hover:bg-brand-50"
                >
                  <span className="block font-semibold text-brand-700">{ACTION_LABELS[type].label}</span>
                  <span className="mt-1 block text-sm text-gray-700">{ACTION_LABELS[type].hint}</span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <>
          <p className="mt-1 text-sm text-gray-700">
            {ACTION_LABELS[loaderData.type].label}.{" "}
            <Link to="/admin/promotions/new" className="font-semibold text-brand-700 hover:underline">
              Choose another kind
            </Link>
            . Fields marked * are required.
          </p>
          {loaderData.coupon && (
            <p className="mt-2 text-sm text-gray-700">
              A coupon is a promotion with a code: enter the code shoppers type into the cart's coupon field.
            </p>
          )}
          <PromotionForm
            lastResult={actionData?.result}
            defaultValue={loaderData.values}
            zones={loaderData.choices.zones}
            methods={loaderData.choices.methods}
            timeZone={loaderData.choices.timeZone}
            campaigns={loaderData.choices.campaigns}
            groups={loaderData.choices.groups}
            currencySymbol={loaderData.currencySymbol}
            submitLabel="Create promotion"
          />
        </>
      )}
    </section>
  );
}
