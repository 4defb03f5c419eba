import { data, Form, Link, useNavigation } from "react-router";
import { AdminMessage } from "../components/admin/admin-message.tsx";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { ConfirmAction } from "../components/admin/confirm-action.tsx";
import { CouponFields } from "../components/admin/coupon-fields.tsx";
import { servicesFrom } from "../context.ts";
import { editCouponFromForm, getAdminCoupon } from "../domain/coupons/coupon-admin.server.ts";
import {
  COUPON_FORM_MESSAGES,
  COUPON_STATE_LABELS,
  couponFormValues,
  disableQuestion,
} from "../domain/coupons/coupon-form.ts";
import { requireAdmin } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { isConfirmed } from "../lib/confirm.ts";
import type { Route } from "./+types/admin.coupons.$id";

export const meta: Route.MetaFunction = ({ matches, params, loaderData }) =>
  adminMeta(
    matches,
    loaderData ? `Edit coupon ${loaderData.coupon.code}` : "Edit coupon",
    `/admin/coupons/${params.id}`,
  );

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const id = positiveInt(params.id);
  const coupon = id ? await getAdminCoupon(servicesFrom(context).db, id) : null;
  if (!coupon) throw data(null, { status: 404 });
  return { coupon };
}

/** `update` (the terms), `disable`, `enable`. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const id = positiveInt(params.id);
  if (!id) throw data(null, { status: 404 });
  const form = await request.formData().catch(() => new FormData());
  // shoppers' carts lose a disabled coupon at once: only from the confirm step
  if (form.get("intent") === "disable" && !isConfirmed(form)) {
    return data(
      { intent: "disable" as const, message: COUPON_FORM_MESSAGES.disableUnconfirmed },
      { status: 400 },
    );
  }
  const outcome = await editCouponFromForm(servicesFrom(context).db, form, {
    id,
    actor: { id: admin.id, email: admin.email },
  });
  if (outcome.ok)
    return redirectWithToast(`/admin/coupons/${id}`, { type: "success", message: outcome.message });
  const { status, ...rest } = outcome;
  return data(rest, { status });
}

const BUTTON =
  "rounded-lg px-4 py-2 font-semibold text-white bg-brand-700 hover:bg-brand-800 disabled:opacity-60";

export default function EditCoupon({ loaderData, actionData }: Route.ComponentProps) {
  const { coupon } = loaderData;
  const busy = useNavigation().state === "submitting";
  const updateFailed = actionData?.intent === "update";
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
      {!updateFailed && (
        <AdminMessage feedback={actionData ? { type: "error", message: actionData.message } : null} />
      )}
      <section aria-labelledby="terms-heading">
        <h2 id="terms-heading" className="text-xl font-bold">
          Terms
        </h2>
        <Form method="post" noValidate className="mt-4 space-y-6">
          <input type="hidden" name="intent" value="update" />
          <AdminMessage feedback={updateFailed ? { type: "error", message: actionData.message } : null} />
          <CouponFields
            key={coupon.updatedAt}
            values={updateFailed && actionData.values ? actionData.values : couponFormValues(coupon)}
            errors={updateFailed ? (actionData.fieldErrors ?? {}) : {}}
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
