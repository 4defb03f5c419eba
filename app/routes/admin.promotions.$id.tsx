import { type SubmissionResult, useForm } from "@conform-to/react";
import { data, Form, Link, useNavigation } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { PromotionForm } from "../components/admin/promotion-fields.tsx";
import { Field } from "../components/admin/zone-form-parts.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import { groupChoices } from "../domain/customer-groups/customer-groups.server.ts";
import {
  getAdminPromotion,
  listCampaigns,
  setPromotionActive,
  updatePromotion,
} from "../domain/promotions/promotion-admin.server.ts";
import { codeCounts, generateCodes } from "../domain/promotions/promotion-codes.server.ts";
import {
  ACTION_LABELS,
  CODE_MESSAGES_ADMIN,
  CODES_LIMITS,
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
    codes: { ...(await codeCounts(db, promotion.id)), shared: promotion.code !== null },
    values: promotionFormValues(promotion, found.refs, shop.timeZone),
    choices: promotionChoices(
      shop.markets.zones,
      await listCampaigns(db),
      shop.timeZone,
      await groupChoices(db),
    ),
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
  const { timeZone } = await shopSettingsFrom(context);
  const submission = await parseForm(request, promotionEditSchema(found.promotion.action.type, timeZone), {
    disableAutoCoercion: true,
  });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ formErrors: [M.invalid] }) }, { status: 400 });
  }
  const form = submission.value;
  if (form.intent === "codes") {
    const made = await generateCodes(db, {
      promotionId: id,
      count: form.count,
      prefix: form.prefix,
      actor: { ...actor, role: admin.role },
    });
    if (!made.ok) {
      if (made.error.code === "forbidden") throw data("Your role does not allow this.", { status: 403 });
      const message =
        made.error.code === "shared-code"
          ? CODE_MESSAGES_ADMIN.shared
          : made.error.code === "too-many"
            ? CODE_MESSAGES_ADMIN.tooMany
            : M.notFound;
      return data({ result: submission.reply({ formErrors: [message] }) }, { status: 409 });
    }
    return redirectWithToast(`${LIST}/${id}`, {
      type: "success",
      message: CODE_MESSAGES_ADMIN.made(made.value.made),
    });
  }
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
  const { promotion, codes } = loaderData;
  // the single-use codes form answers for itself (its fields are count and prefix)
  const codesForm = actionData?.result.initialValue?.intent === "codes";
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
        lastResult={codesForm ? undefined : actionData?.result}
        defaultValue={loaderData.values}
        zones={loaderData.choices.zones}
        methods={loaderData.choices.methods}
        timeZone={loaderData.choices.timeZone}
        campaigns={loaderData.choices.campaigns}
        groups={loaderData.choices.groups}
        currencySymbol={loaderData.currencySymbol}
        submitLabel="Save promotion"
      />
      <section aria-labelledby="codes-heading" className="mt-10 space-y-3">
        <h2 id="codes-heading" className="text-xl font-bold">
          Single-use codes
        </h2>
        <p className="text-sm text-gray-700">
          {codes.total === 0
            ? "None yet. Codes made here each work for one order; the promotion then applies only with one of them."
            : `${codes.total.toLocaleString("en-US")} codes, ${codes.used.toLocaleString("en-US")} used.`}
        </p>
        {codes.total > 0 && (
          <p>
            <a
              href={`/admin/promotions/${promotion.id}/codes.csv`}
              className="font-semibold text-brand-700 hover:underline"
              download
            >
              Download codes (CSV)
            </a>
          </p>
        )}
        {codes.shared ? (
          <p className="text-sm text-gray-700">{CODE_MESSAGES_ADMIN.shared}</p>
        ) : (
          <CodesForm lastResult={codesForm ? actionData?.result : undefined} />
        )}
      </section>
    </section>
  );
}

function CodesForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm<{ count: string; prefix: string }>({
    id: "codes-form",
    lastResult,
    defaultValue: { count: "100", prefix: "" },
  });
  return (
    <Form
      method="post"
      id={form.id}
      noValidate
      className="space-y-4 rounded-xl border border-gray-200 p-3 sm:p-6"
    >
      <input type="hidden" name="intent" value="codes" />
      <AdminMessage feedback={refusal(lastResult)} />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field
          field={fields.count}
          id="codes-count"
          label="How many codes"
          required
          inputMode="numeric"
          maxLength={8}
          hint={`Up to ${CODES_LIMITS.perRequest.toLocaleString("en-US")} at a time.`}
        />
        <Field
          field={fields.prefix}
          id="codes-prefix"
          label="Prefix"
          maxLength={CODES_LIMITS.prefix}
          hint="Letters or digits before each code, e.g. SPRING (optional)."
        />
      </div>
      <button
        type="submit"
        disabled={busy}
        className="rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
      >
        Make codes
      </button>
    </Form>
  );
}
