import { data, Form, Link } from "react-router";
import { OrderDate } from "../components/account/order-details.tsx";
import { AdminMessage } from "../components/admin/admin-message.tsx";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { couponValueText } from "../components/admin/coupon-fields.tsx";
import { getDb } from "../db/client.server.ts";
import { COUPON_KIND_LABELS, COUPON_STATE_LABELS, lastDayOfExpiry } from "../domain/admin/coupon-form.ts";
import { editCouponFromForm, listAdminCoupons } from "../domain/admin/coupons.server.ts";
import { formatCents } from "../lib/money.ts";
import { requireAdmin } from "../services/auth/session.server.ts";
import { redirectWithToast } from "../services/toast.server.ts";
import type { Route } from "./+types/admin.coupons._index";

export const meta: Route.MetaFunction = ({ matches }) => adminMeta(matches, "Coupons", "/admin/coupons");

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const page = positiveInt(new URL(request.url).searchParams.get("page"), 100_000) ?? 1;
  return listAdminCoupons(await getDb(), { page });
}

/** Disable / enable from the list (intent + couponId). */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await request.formData().catch(() => new FormData());
  const outcome = await editCouponFromForm(await getDb(), form, {
    id: null,
    actor: { id: admin.id, email: admin.email },
  });
  if (outcome.ok) return redirectWithToast("/admin/coupons", { type: "success", message: outcome.message });
  return data({ message: outcome.message }, { status: outcome.status });
}

const STATE_STYLES = {
  active: "bg-green-100 text-green-900 ring-green-700",
  disabled: "bg-gray-100 text-gray-900 ring-gray-600",
  expired: "bg-yellow-100 text-yellow-900 ring-yellow-700",
  "used-up": "bg-yellow-100 text-yellow-900 ring-yellow-700",
} as const;

export default function AdminCoupons({ loaderData, actionData }: Route.ComponentProps) {
  const { coupons, page, hasMore } = loaderData;
  return (
    <section aria-labelledby="coupons-heading">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="coupons-heading" className="text-3xl font-bold">
          Coupons
        </h1>
        <Link
          to="/admin/coupons/new"
          className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
        >
          New coupon
        </Link>
      </div>
      <div className="mt-4">
        <AdminMessage feedback={actionData ? { type: "error", message: actionData.message } : null} />
      </div>
      {coupons.length === 0 ? (
        <p className="mt-6 text-gray-700">No coupons yet.</p>
      ) : (
        <div className="mt-6 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-gray-300">
              <tr>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Code
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Kind
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Value
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Valid through
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-semibold">
                  Minimum subtotal
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-semibold">
                  Used / limit
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Status
                </th>
                <th scope="col" className="py-2 font-semibold">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-200">
              {coupons.map((coupon) => (
                <tr key={coupon.id}>
                  <th scope="row" className="py-2 pr-4 font-mono font-semibold">
                    {coupon.code}
                  </th>
                  <td className="py-2 pr-4">{COUPON_KIND_LABELS[coupon.kind]}</td>
                  <td className="py-2 pr-4">{couponValueText(coupon)}</td>
                  <td className="py-2 pr-4">
                    {coupon.expiresAt ? <OrderDate iso={lastDayOfExpiry(coupon.expiresAt)} /> : "No expiry"}
                  </td>
                  <td className="py-2 pr-4 text-right">{formatCents(coupon.minSubtotalCents)}</td>
                  <td className="py-2 pr-4 text-right">
                    {coupon.usedCount} / {coupon.usageLimit ?? "no limit"}
                  </td>
                  <td className="py-2 pr-4">
                    <span
                      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${STATE_STYLES[coupon.state]}`}
                    >
                      {COUPON_STATE_LABELS[coupon.state]}
                    </span>
                  </td>
                  <td className="py-2">
                    <div className="flex flex-wrap justify-end gap-2">
                      <Link
                        to={`/admin/coupons/${coupon.id}`}
                        className="rounded-lg border border-gray-400 px-3 py-1.5 font-semibold hover:bg-gray-100"
                      >
                        Edit<span className="sr-only"> {coupon.code}</span>
                      </Link>
                      <Form method="post">
                        <input type="hidden" name="couponId" value={coupon.id} />
                        <input type="hidden" name="intent" value={coupon.active ? "disable" : "enable"} />
                        <button
                          type="submit"
                          className="rounded-lg border border-gray-400 px-3 py-1.5 font-semibold hover:bg-gray-100"
                        >
                          {coupon.active ? "Disable" : "Enable"}
                          <span className="sr-only"> {coupon.code}</span>
                        </button>
                      </Form>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(page > 1 || hasMore) && (
        <nav aria-label="Pagination" className="mt-6 flex gap-4">
          {page > 1 && (
            <Link
              to={page === 2 ? "/admin/coupons" : `/admin/coupons?page=${page - 1}`}
              className="font-semibold text-brand-700 hover:underline"
            >
              Previous page
            </Link>
          )}
          {hasMore && (
            <Link
              to={`/admin/coupons?page=${page + 1}`}
              className="font-semibold text-brand-700 hover:underline"
            >
              Next page
            </Link>
          )}
        </nav>
      )}
    </section>
  );
}
