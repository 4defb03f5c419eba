import { randomUUID } from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { z } from "zod";
import { OrderDate } from "../components/account/order-details.tsx";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { ConfirmAction } from "../components/admin/confirm-action.tsx";
import { RefundForm } from "../components/admin/refund-form.tsx";
import { FormField } from "../components/checkout/form-field.tsx";
import { OrderLines, OrderTotals, orderItemLines } from "../components/order/order-lines.tsx";
import { TrackingDetails } from "../components/order/tracking-details.tsx";
import { useMoney } from "../components/shop-settings.ts";
import { mailShopFrom, servicesFrom } from "../context.ts";
import {
  advanceOrder,
  getAdminOrder,
  ORDER_ADMIN_MESSAGES,
  orderActionSchema,
} from "../domain/orders/order-admin.server.ts";
import { refundOrder } from "../domain/orders/order-refund.server.ts";
import { ORDER_STATUS_LABELS, type OrderStatus } from "../domain/orders/order-status.ts";
import { assertPermission, requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { CARRIERS } from "../lib/carriers.ts";
import { CONFIRM_VALUE } from "../lib/confirm.ts";
import { formatMoney } from "../lib/money.ts";
import { can } from "../lib/staff-roles.ts";
import type { Route } from "./+types/admin.orders.$number";

export const meta: Route.MetaFunction = ({ matches, params }) =>
  adminMeta(matches, `Order ${params.number}`, `/admin/orders/${params.number}`);

const NUMBER = /^CW-[0-9A-Z]{1,20}$/;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const staff = await requirePermission(request, context, "orders");
  const order = NUMBER.test(params.number)
    ? await getAdminOrder(servicesFrom(context).db, params.number)
    : null;
  if (!order) throw data(null, { status: 404 });
  return { order, refundKey: randomUUID(), canRefund: can(staff.role, "refunds") };
}

const ACTION_LABELS: Partial<Record<OrderStatus, string>> = {
  shipped: "Mark as shipped",
  delivered: "Mark as delivered",
  cancelled: "Cancel order (refund and restore stock)",
};

/** The refund form (components/admin/refund-form.tsx): quantities per line as `qty.<item id>`. */
const refundSchema = z.object({
  intent: z.literal("refund"),
  key: z.uuid(),
  qty: z.record(z.string().regex(/^\d{1,12}$/), z.coerce.number().int().min(0).max(100_000)).optional(),
  amount: z
    .string()
    .trim()
    .regex(/^\d{1,7}(\.\d{1,2})?$/, "Enter an amount such as 12.50.")
    .optional(),
  restock: z.literal("on").optional(),
  reason: z.string().trim().max(200).optional(),
});

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requirePermission(request, context, "orders");
  const form = await request.formData();
  // money back (a refund, or cancelling: a paid order is refunded) is the `refunds` permission's
  if (form.get("intent") === "refund" || form.get("to") === "cancelled") assertPermission(admin, "refunds");
  if (form.get("intent") === "refund") return refund(form, params.number, admin, context);
  const submission = parseWithZod(form, { schema: orderActionSchema });
  const refuse = (message: string, status: number) =>
    data({ result: submission.reply({ formErrors: [message] }) }, { status });
  if (submission.status !== "success" || !NUMBER.test(params.number)) {
    // a tracking number or carrier refused: its message beside the field (the form keeps the rest)
    if (submission.status === "error" && (submission.error?.trackingNumber || submission.error?.carrier)) {
      return data({ result: submission.reply() }, { status: 400 });
    }
    return refuse(ORDER_ADMIN_MESSAGES.badRequest, 400);
  }
  const { to, carrier, trackingNumber } = submission.value;
  // cancelling restores stock and cannot be undone: only from the confirm step
  if (to === "cancelled" && submission.value.confirm !== CONFIRM_VALUE) {
    return refuse(ORDER_ADMIN_MESSAGES.cancelUnconfirmed, 400);
  }
  const services = servicesFrom(context);
  const result = await advanceOrder(
    {
      db: services.db,
      gateway: services.gateway,
      mail: services.mail,
      shop: await mailShopFrom(context),
    },
    {
      number: params.number,
      to,
      actor: { id: admin.id, email: admin.email },
      shipment: to === "shipped" ? { carrier, trackingNumber } : undefined,
    },
  );
  if (result.ok) {
    return redirectWithToast(`/admin/orders/${params.number}`, {
      type: "success",
      message: ORDER_ADMIN_MESSAGES.changed(params.number, to),
    });
  }
  if (result.error.code === "not-found") throw data(null, { status: 404 });
  if (result.error.code === "refund-failed")
    return refuse(ORDER_ADMIN_MESSAGES.refundFailed(result.error.message), 502);
  return refuse(ORDER_ADMIN_MESSAGES.notAllowed(result.error.from, to), 409);
}

async function refund(
  form: FormData,
  number: string,
  admin: { id: string; email: string },
  context: Route.ActionArgs["context"],
) {
  const submission = parseWithZod(form, { schema: refundSchema });
  const refuse = (message: string, status: number) =>
    data({ result: submission.reply({ formErrors: [message] }) }, { status });
  if (submission.status !== "success" || !NUMBER.test(number)) {
    const amountError = submission.status === "error" ? submission.error?.amount?.[0] : undefined;
    return refuse(amountError ?? ORDER_ADMIN_MESSAGES.badRequest, 400);
  }
  const { key, qty = {}, amount, restock, reason = "" } = submission.value;
  const services = servicesFrom(context);
  const result = await refundOrder(
    services.db,
    services.gateway,
    services.mail,
    { shopName: services.config.SHOP_NAME },
    {
      number,
      key,
      lines: Object.entries(qty).map(([itemId, quantity]) => ({ itemId: Number(itemId), quantity })),
      amountCents: amount ? Math.round(Number(amount) * 100) : null,
      restock: restock === "on",
      reason,
      actor: { id: admin.id, email: admin.email },
    },
  );
  if (result.ok) {
    return redirectWithToast(`/admin/orders/${number}`, {
      type: "success",
      message: `Order ${number}: ${formatMoney(result.value.amountCents, result.value.currency)} refunded`,
    });
  }
  const error = result.error;
  switch (error.code) {
    case "not-found":
      throw data(null, { status: 404 });
    case "not-refundable":
      return refuse(
        `This order is ${ORDER_STATUS_LABELS[error.status].toLowerCase()} and cannot be refunded.`,
        409,
      );
    case "nothing-chosen":
      return refuse("Choose the lines to refund, or an amount.", 400);
    case "too-much":
      return refuse(`At most ${formatMoney(error.leftCents, error.currency)} can be refunded.`, 400);
    case "line-too-much":
      return refuse(`More units of ${error.name} than are left to refund.`, 400);
    case "gateway":
      return refuse(`The refund failed: ${error.message}`, 502);
  }
}

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { order, canRefund } = loaderData;
  const money = useMoney(order.currency);
  // staff whose role cannot give money back see neither the refund form nor Cancel (it refunds)
  const nextStatuses = canRefund ? order.nextStatuses : order.nextStatuses.filter((to) => to !== "cancelled");
  return (
    <div className="space-y-6">
      <p>
        <Link to="/admin/orders" className="font-semibold text-brand-700 hover:underline">
          ← Back to orders
        </Link>
      </p>
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="min-w-0 text-3xl font-bold break-words">Order {order.number}</h1>
        <Link
          to={`/admin/orders/packing-slips?number=${order.number}`}
          className="font-semibold text-brand-700 hover:underline"
        >
          Packing slip
        </Link>
      </div>
      <AdminMessage feedback={refusal(actionData?.result)} />
      <dl className="grid grid-cols-1 gap-4 text-sm break-words sm:grid-cols-3">
        <div>
          <dt className="font-semibold">Status</dt>
          <dd>{ORDER_STATUS_LABELS[order.status]}</dd>
        </div>
        <div>
          <dt className="font-semibold">Placed</dt>
          <dd>
            <OrderDate iso={order.createdAt} />
          </dd>
        </div>
        <div>
          <dt className="font-semibold">Customer e-mail</dt>
          <dd>{order.email}</dd>
        </div>
        <div>
          <dt className="font-semibold">Ship to</dt>
          <dd>
            {order.shipTo.name}, {order.shipTo.address}, {order.shipTo.city}, {order.shipTo.state}{" "}
            {order.shipTo.zipCode}, {order.shipTo.country}
          </dd>
        </div>
        <div>
          <dt className="font-semibold">Shipping</dt>
          <dd>
            {order.shippingMethod === "express" ? "Express" : "Standard"}, estimated {order.estimatedDelivery}
          </dd>
        </div>
        <div>
          <dt className="font-semibold">Payment</dt>
          <dd>
            {order.payment.brand} ending in {order.payment.last4}
          </dd>
        </div>
        <TrackingDetails tracking={order.tracking} />
      </dl>
      {order.disputedAt && (
        <p role="note" className="rounded-lg border border-red-700 bg-red-50 p-3 text-sm text-red-900">
          <strong>Disputed:</strong> the customer's bank reported a dispute of this payment on{" "}
          {order.disputedAt.slice(0, 10)}. Answer it in the payment provider's dashboard; the audit log has
          the reason.
        </p>
      )}
      {nextStatuses.length > 0 && (
        <section aria-labelledby="order-actions-heading">
          <h2 id="order-actions-heading" className="text-xl font-bold">
            Actions
          </h2>
          <div className="mt-3 flex flex-wrap items-start gap-3">
            {nextStatuses.map((to) =>
              to === "cancelled" ? (
                <ConfirmAction
                  key={to}
                  label={ACTION_LABELS.cancelled}
                  question={`Cancel order ${order.number}? Its payment is refunded in full, its items go back into stock and the order cannot be shipped any more. This cannot be undone.`}
                  confirmLabel="Yes, cancel order"
                  keepLabel="Keep order"
                  keepTo={`/admin/orders/${order.number}`}
                  fields={{ to }}
                />
              ) : to === "shipped" ? (
                <ShipForm key={to} result={actionData?.result} />
              ) : (
                <Form method="post" key={to}>
                  <input type="hidden" name="to" value={to} />
                  <button
                    type="submit"
                    className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
                  >
                    {ACTION_LABELS[to] ?? to}
                  </button>
                </Form>
              ),
            )}
          </div>
        </section>
      )}
      <section aria-labelledby="order-items-heading">
        <h2 id="order-items-heading" className="text-xl font-bold">
          Items
        </h2>
        <OrderLines
          currency={order.currency}
          layout="table"
          label="Order items"
          className="mt-3"
          lines={orderItemLines(order.items, (item) =>
            item.productId ? `/admin/products/${item.productId}` : null,
          )}
        />
        <OrderTotals
          currency={order.currency}
          totals={order.totals}
          discountLabel={order.couponCode}
          className="mt-4 ml-auto max-w-xs"
        />
      </section>
      {canRefund && order.refund && (
        <RefundForm refundKey={loaderData.refundKey} refund={order.refund} currency={order.currency} />
      )}
      {order.refunds.length > 0 && (
        <section aria-labelledby="order-refunds-heading">
          <h2 id="order-refunds-heading" className="text-xl font-bold">
            Refunds
          </h2>
          <ul className="mt-3 space-y-1 text-sm">
            {order.refunds.map((r, index) => (
              <li key={index}>
                <OrderDate iso={r.createdAt} />: {money(r.amountCents)}
                {r.restocked ? " (stock restored)" : ""}
                {r.reason ? ` — ${r.reason}` : ""}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="order-history-heading">
        <h2 id="order-history-heading" className="text-xl font-bold">
          History
        </h2>
        <ol className="mt-3 space-y-1 text-sm">
          {order.events.map((event, index) => (
            <li key={index}>
              <OrderDate iso={event.createdAt} />: {event.fromStatus ? `${event.fromStatus} → ` : ""}
              {event.toStatus}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

/** Mark as shipped, with the carrier and tracking number the customer's e-mail and pages show. */
function ShipForm({ result }: { result: SubmissionResult<string[]> | undefined }) {
  const errors = result?.error ?? {};
  const values = (result?.initialValue ?? {}) as Record<string, string | undefined>;
  const carrierError = errors.carrier?.[0];
  return (
    <Form method="post" className="flex flex-wrap items-start gap-3 rounded-lg border border-gray-200 p-3">
      <input type="hidden" name="to" value="shipped" />
      <div>
        <label htmlFor="ship-carrier" className="block text-sm font-semibold text-gray-900">
          Carrier (optional)
        </label>
        <select
          id="ship-carrier"
          name="carrier"
          defaultValue={values.carrier ?? ""}
          aria-invalid={carrierError ? true : undefined}
          aria-describedby={carrierError ? "ship-carrier-error" : undefined}
          className="mt-1 block rounded-lg border border-gray-400 bg-white px-3 py-2 text-gray-900"
        >
          <option value="">Not given</option>
          {CARRIERS.map((carrier) => (
            <option key={carrier.id} value={carrier.id}>
              {carrier.label}
            </option>
          ))}
        </select>
        {carrierError && (
          <p id="ship-carrier-error" className="mt-1 text-sm text-red-700">
            {carrierError}
          </p>
        )}
      </div>
      <FormField
        id="ship-tracking"
        name="trackingNumber"
        label="Tracking number (optional)"
        maxLength={40}
        autoComplete="off"
        spellCheck={false}
        defaultValue={values.trackingNumber ?? ""}
        error={errors.trackingNumber?.[0]}
      />
      <button
        type="submit"
        className="mt-6 rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
      >
        {ACTION_LABELS.shipped}
      </button>
    </Form>
  );
}
