import { useForm } from "@conform-to/react";
import { data, Form, Link, useNavigation } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { ConfirmAction } from "../components/admin/confirm-action.tsx";
import { CouponFields } from "../components/admin/coupon-fields.tsx";
import { servicesFrom } from "../context.ts";
import { getAdminCoupon, setCouponActive, updateCoupon } from "../domain/coupons/coupon-admin.server.ts";
import {
  COUPON_FORM_MESSAGES,
  COUPON_STATE_LABELS,
  type CouponField,
  couponFormValues,
  disableQuestion,
  readCouponFormValues,
} from "../domain/coupons/coupon-form.ts";
import { couponActionSchema } from "../domain/coupons/coupon-schema.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { CONFIRM_VALUE } from "../lib/confirm.ts";
import type { Route } from "./+types/admin.coupons.$id";

export const meta: Route.MetaFunction = ({ matches, params, loaderData }) =>
  adminMeta(
    matches,
    loaderData ? `Edit coupon ${loaderData.coupon.code}` : "Edit coupon",
    `/admin/coupons/${params.id}`,
  );

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "discounts");
  const id = positiveInt(params.id);
  const coupon = id ? await getAdminCoupon(servicesFrom(context).db, id) : null;
  if (!coupon) throw data(null, { status: 404 });
  return { coupon };
}

/** `update` (the terms), `disable`, `enable`. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "discounts");
  const id = positiveInt(params.id);
  if (!id) throw data(null, { status: 404 });
  const { db } = servicesFrom(context);
  const submission = await parseForm(request, couponActionSchema);
  const intent = submission.payload.intent;
  const refuse = (status: number, message: string, fieldErrors?: Record<string, string[]>) =>
    data(
      {
        intent: typeof intent === "string" ? intent : null,
        result: submission.reply({ formErrors: [message], fieldErrors }),
      },
      { status },
    );
  // shoppers' carts lose a disabled coupon at once: only from the confirm step
  if (intent === "disable" && submission.payload.confirm !== CONFIRM_VALUE) {
    return refuse(400, COUPON_FORM_MESSAGES.disableUnconfirmed);
  }
  if (submission.status !== "success") {
    if (intent !== "update") return refuse(400, COUPON_FORM_MESSAGES.badRequest);
    if (!(await getAdminCoupon(db, id))) return refuse(404, COUPON_FORM_MESSAGES.notFound);
    Object.assign(submission.payload, readCouponFormValues(submission.payload));
    return refuse(400, COUPON_FORM_MESSAGES.invalid);
  }
  const actor = { id: admin.id, email: admin.email };
  const done = (message: string) => redirectWithToast(`/admin/coupons/${id}`, { type: "success", message });
  const form = submission.value;
  if (form.intent !== "update") {
    const active = form.intent === "enable";
    const result = await setCouponActive(db, { id, active, actor });
    if (!result.ok) return refuse(404, COUPON_FORM_MESSAGES.notFound);
    const { code } = result.value;
    return done(active ? COUPON_FORM_MESSAGES.enabled(code) : COUPON_FORM_MESSAGES.disabled(code));
  }
  const result = await updateCoupon(db, { id, input: form.terms, actor });
  if (result.ok) return done(COUPON_FORM_MESSAGES.updated(result.value.code));
  if (result.error.code === "usage-below-used") {
    Object.assign(submission.payload, readCouponFormValues(submission.payload));
    return refuse(409, COUPON_FORM_MESSAGES.invalid, {
      usageLimit: [COUPON_FORM_MESSAGES.usageBelowUsed(result.error.used)],
    });
  }
  return refuse(404, COUPON_FORM_MESSAGES.notFound);
}

const BUTTON =
  "rounded-lg px-4 py-2 font-semibold text-white bg-brand-700 hover:bg-brand-800 disabled:opacity-60";

export default function EditCoupon({ loaderData, actionData }: Route.ComponentProps) {
  const { coupon } = loaderData;
  const busy = useNavigation().state === "submitting";
  const updateFailed = actionData?.intent === "update";
  const [form, fields] = useForm<Record<CouponField, unknown>>({
    lastResult: updateFailed ? actionData.result : undefined,
  });
  const shown = updateFailed ? actionData.result.initialValue : undefined;
  return (
    <div className="max-w-3xl space-y-8">
      <p>
        <Link to="/admin/coupons" className="font-semibold text-brand-700 hover:underline">
          ← Back to coupons
        </Link>
      </p>
      <div>
        <h1 className="text-3xl font-bold">
          Edit coupon <span className="font-mono">{coupon.code}</span>
        </h1>
        <p className="mt-1 text-sm text-gray-700">
          {COUPON_STATE_LABELS[coupon.state]} · used {coupon.usedCount}{" "}
          {coupon.usedCount === 1 ? "time" : "times"}
          {coupon.usageLimit !== null ? ` of ${coupon.usageLimit}` : ""} · the code itself cannot be changed
          (carts and orders refer to it)
        </p>
      </div>
      {!updateFailed && <AdminMessage feedback={refusal(actionData?.result)} />}
      <section aria-labelledby="terms-heading">
        <h2 id="terms-heading" className="text-xl font-bold">
          Terms
        </h2>
        <Form method="post" id={form.id} noValidate className="mt-4 space-y-6">
          <input type="hidden" name="intent" value="update" />
          <AdminMessage feedback={updateFailed ? refusal(actionData.result) : null} />
          <CouponFields
            key={coupon.updatedAt}
            values={shown ? readCouponFormValues(shown) : couponFormValues(coupon)}
            fields={fields}
            codeEditable={false}
          />
          <button type="submit" disabled={busy} className={BUTTON}>
            Save changes
          </button>
        </Form>
      </section>
      <section aria-labelledby="status-heading">
        <h2 id="status-heading" className="text-xl font-bold">
          Status
        </h2>
        <p className="mt-2 text-gray-800">
          {coupon.active
            ? "Shoppers can use this coupon. A disabled coupon is refused at the cart and at checkout."
            : "This coupon is disabled: the cart refuses it. Enable it to let shoppers use it again."}
        </p>
        <div className="mt-3">
          {coupon.active ? (
            <ConfirmAction
              label="Disable coupon"
              question={disableQuestion(coupon.code)}
              confirmLabel="Yes, disable coupon"
              keepLabel="Keep it active"
              keepTo={`/admin/coupons/${coupon.id}`}
              fields={{ intent: "disable" }}
            />
          ) : (
            <Form method="post">
              <input type="hidden" name="intent" value="enable" />
              <button type="submit" disabled={busy} className={BUTTON}>
                Enable coupon
              </button>
            </Form>
          )}
        </div>
      </section>
    </div>
  );
}
