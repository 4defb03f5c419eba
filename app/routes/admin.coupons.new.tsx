import { data, Form, Link, useNavigation } from "react-router";
import { AdminMessage } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { CouponFields } from "../components/admin/coupon-fields.tsx";
import { servicesFrom } from "../context.ts";
import { createCouponFromForm } from "../domain/coupons/coupon-admin.server.ts";
import { EMPTY_COUPON_FORM } from "../domain/coupons/coupon-form.ts";
import { requireAdmin } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import type { Route } from "./+types/admin.coupons.new";

export const meta: Route.MetaFunction = ({ matches }) =>
  adminMeta(matches, "New coupon", "/admin/coupons/new");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const form = await request.formData().catch(() => new FormData());
  const outcome = await createCouponFromForm(servicesFrom(context).db, form, {
    id: admin.id,
    email: admin.email,
  });
  if (outcome.ok) return redirectWithToast("/admin/coupons", { type: "success", message: outcome.message });
  const { status, ...rest } = outcome;
  return data(rest, { status });
}

export default function NewCoupon({ actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
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
      <Form method="post" noValidate className="mt-6 space-y-6">
        <AdminMessage feedback={actionData ? { type: "error", message: actionData.message } : null} />
        <CouponFields
          values={actionData?.values ?? EMPTY_COUPON_FORM}
          errors={actionData?.fieldErrors ?? {}}
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
