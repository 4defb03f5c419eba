import { data, Form, Link } from "react-router";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { PromotionForm } from "../components/admin/promotion-fields.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import {
  getAdminPromotion,
  listCampaigns,
  setPromotionActive,
  updatePromotion,
} from "../domain/promotions/promotion-admin.server.ts";
import {
  ACTION_LABELS,
  PROMOTION_MESSAGES as M,
  promotionChoices,
  promotionFormValues,
  promotionRefusal,
  STATUS_LABELS,
} from "../domain/promotions/promotion-form.ts";
import { promotionEditSchema } from "../domain/promotions/promotion-schema.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { CURRENCY_FORMATS } from "../lib/money.ts";
import type { Route } from "./+types/admin.promotions.$id";

export const meta: Route.MetaFunction = ({ matches, params, loaderData }) =>
  adminMeta(
    matches,
    loaderData ? `Edit promotion ${loaderData.promotion.name}` : "Edit promotion",
    `/admin/promotions/${params.id}`,
  );

const LIST = "/admin/promotions";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "discounts");
  const id = positiveInt(params.id);
  const { db } = servicesFrom(context);
  const found = id ? await getAdminPromotion(db, id) : null;
  if (!found) throw data(null, { status: 404 });
  const shop = await shopSettingsFrom(context);
  const { promotion } = found;
  return {
    promotion: {
      id: promotion.id,
      name: promotion.name,
      active: promotion.active,
      status: promotion.status,
      usedCount: promotion.usedCount,
      type: promotion.action.type,
    },
    values: promotionFormValues(promotion, found.refs),
    choices: promotionChoices(shop.markets.zones, await listCampaigns(db)),
    currencySymbol: CURRENCY_FORMATS[shop.currency].symbol,
  };
}

/** `save` (the promotion; what it does stays the kind it was made as), `enable`, `disable`. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "discounts");
  const id = positiveInt(params.id);
  const { db } = servicesFrom(context);
  const found = id ? await getAdminPromotion(db, id) : null;
  if (!id || !found) throw data(null, { status: 404 });
  const actor = { id: admin.id, email: admin.email };
  const submission = await parseForm(request, promotionEditSchema(found.promotion.action.type), {
    disableAutoCoercion: true,
  });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ formErrors: [M.invalid] }) }, { status: 400 });
  }
  const form = submission.value;
  const changed =
    form.intent === "save"
      ? await updatePromotion(db, { id, input: form.promotion, actor })
      : await setPromotionActive(db, { id, active: form.intent === "enable", actor });
  if (!changed.ok) {
    const { status, message, fieldErrors } = promotionRefusal(changed.error);
    return data({ result: submission.reply({ formErrors: [message], fieldErrors }) }, { status });
  }
  const { name } = changed.value;
  const message = !changed.value.changed
    ? M.unchanged
    : form.intent === "save"
      ? M.saved(name)
      : form.intent === "enable"
        ? M.enabled(name)
        : M.disabled(name);
  return redirectWithToast(form.intent === "save" ? LIST : `${LIST}/${id}`, { type: "success", message });
}

export default function EditPromotion({ loaderData, actionData }: Route.ComponentProps) {
  const { promotion } = loaderData;
  return (
    <section aria-labelledby="promotion-heading" className="max-w-4xl">
      <p>
        <Link to={LIST} className="font-semibold text-brand-700 hover:underline">
          ← Back to promotions
        </Link>
      </p>
      <h1 id="promotion-heading" className="mt-2 text-3xl font-bold break-words">
        Edit promotion {promotion.name}
      </h1>
      <p className="mt-1 text-sm text-gray-700">
        {ACTION_LABELS[promotion.type].label} · {STATUS_LABELS[promotion.status]} · used {promotion.usedCount}{" "}
        {promotion.usedCount === 1 ? "time" : "times"}. Changes apply to carts from the next page they load;
        orders already placed keep what they were charged. Fields marked * are required.
      </p>
      <Form method="post" className="mt-4">
        <input type="hidden" name="intent" value={promotion.active ? "disable" : "enable"} />
        <button
          type="submit"
          className="rounded-lg border border-gray-400 bg-white px-4 py-2 text-sm font-semibold hover:bg-gray-100"
        >
          {promotion.active ? "Disable promotion" : "Enable promotion"}
        </button>
      </Form>
      <PromotionForm
        lastResult={actionData?.result}
        defaultValue={loaderData.values}
        zones={loaderData.choices.zones}
        methods={loaderData.choices.methods}
        campaigns={loaderData.choices.campaigns}
        currencySymbol={loaderData.currencySymbol}
        submitLabel="Save promotion"
      />
    </section>
  );
}
