import { useForm } from "@conform-to/react";
import { data, Form, Link, useNavigation } from "react-router";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { CouponFields } from "../components/admin/coupon-fields.tsx";
import { servicesFrom } from "../context.ts";
import { createCoupon } from "../domain/coupons/coupon-admin.server.ts";
import {
  COUPON_FORM_MESSAGES,
  type CouponField,
  EMPTY_COUPON_FORM,
  readCouponFormValues,
} from "../domain/coupons/coupon-form.ts";
import { couponFormSchema } from "../domain/coupons/coupon-schema.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import type { Route } from "./+types/admin.coupons.new";

export const meta: Route.MetaFunction = ({ matches }) =>
  adminMeta(matches, "New coupon", "/admin/coupons/new");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "discounts");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "discounts");
  const submission = await parseForm(request, couponFormSchema);
  // a refused form shows what was typed, trimmed
  Object.assign(submission.payload, readCouponFormValues(submission.payload));
  if (submission.status !== "success") {
    return data(
      { result: submission.reply({ formErrors: [COUPON_FORM_MESSAGES.invalid] }) },
      { status: 400 },
    );
  }
  const created = await createCoupon(servicesFrom(context).db, {
    input: submission.value,
    actor: { id: admin.id, email: admin.email },
  });
  if (created.ok) {
    return redirectWithToast("/admin/coupons", {
      type: "success",
      message: COUPON_FORM_MESSAGES.created(created.value.code),
    });
  }
  // the code is taken (whatever its case): shown upper-cased, as it would be stored
  submission.payload.code = submission.value.code;
  return data(
    {
      result: submission.reply({
        formErrors: [COUPON_FORM_MESSAGES.invalid],
        fieldErrors: { code: [COUPON_FORM_MESSAGES.codeTaken] },
      }),
    },
    { status: 409 },
  );
}

export default function NewCoupon({ actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm<Record<CouponField, unknown>>({ lastResult: actionData?.result });
  const shown = actionData?.result.initialValue;
  return (
    <section aria-labelledby="new-coupon-heading" className="max-w-3xl">
      <p>
        <Link to="/admin/coupons" className="font-semibold text-brand-700 hover:underline">
          ← Back to coupons
        </Link>
      </p>
      <h1 id="new-coupon-heading" className="mt-2 text-3xl font-bold">
        New coupon
      </h1>
      <p className="mt-1 text-sm text-gray-700">Fields marked * are required.</p>
      <Form method="post" id={form.id} noValidate className="mt-6 space-y-6">
        <AdminMessage feedback={refusal(actionData?.result)} />
        <CouponFields
          values={shown ? readCouponFormValues(shown) : EMPTY_COUPON_FORM}
          fields={fields}
          codeEditable
        />
        <button
          type="submit"
          disabled={busy}
          className="rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
        >
          Create coupon
        </button>
      </Form>
    </section>
  );
}
