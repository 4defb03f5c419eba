import { data, Form, Link } from "react-router";
import { OrderDate } from "../components/account/order-details.tsx";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { ConfirmAction } from "../components/admin/confirm-action.tsx";
import { OrderLines, OrderTotals, orderItemLines } from "../components/order/order-lines.tsx";
import { servicesFrom } from "../context.ts";
import {
  advanceOrder,
  getAdminOrder,
  ORDER_ADMIN_MESSAGES,
  orderActionSchema,
} from "../domain/orders/order-admin.server.ts";
import { ORDER_STATUS_LABELS, type OrderStatus } from "../domain/orders/order-status.ts";
import { parseForm } from "../http/form.server.ts";
import { requireAdmin } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { CONFIRM_VALUE } from "../lib/confirm.ts";
import type { Route } from "./+types/admin.orders.$number";

export const meta: Route.MetaFunction = ({ matches, params }) =>
  adminMeta(matches, `Order ${params.number}`, `/admin/orders/${params.number}`);

const NUMBER = /^CW-[0-9A-Z]{1,20}$/;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const order = NUMBER.test(params.number)
    ? await getAdminOrder(servicesFrom(context).db, params.number)
    : null;
  if (!order) throw data(null, { status: 404 });
  return { order };
}

const ACTION_LABELS: Partial<Record<OrderStatus, string>> = {
  shipped: "Mark as shipped",
  delivered: "Mark as delivered",
  cancelled: "Cancel order (refund and restore stock)",
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const submission = await parseForm(request, orderActionSchema);
  const refuse = (message: string, status: number) =>
    data({ result: submission.reply({ formErrors: [message] }) }, { status });
  if (submission.status !== "success" || !NUMBER.test(params.number)) {
    return refuse(ORDER_ADMIN_MESSAGES.badRequest, 400);
  }
  const { to } = submission.value;
  // cancelling restores stock and cannot be undone: only from the confirm step
  if (to === "cancelled" && submission.value.confirm !== CONFIRM_VALUE) {
    return refuse(ORDER_ADMIN_MESSAGES.cancelUnconfirmed, 400);
  }
  const services = servicesFrom(context);
  const result = await advanceOrder(services.db, services.gateway, {
    number: params.number,
    to,
    actor: { id: admin.id, email: admin.email },
  });
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

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { order } = loaderData;
  return (
    <div className="space-y-6">
      <p>
        <Link to="/admin/orders" className="font-semibold text-brand-700 hover:underline">
          ← Back to orders
        </Link>
      </p>
      <h1 className="text-3xl font-bold">Order {order.number}</h1>
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
      </dl>
      {order.nextStatuses.length > 0 && (
        <section aria-labelledby="order-actions-heading">
          <h2 id="order-actions-heading" className="text-xl font-bold">
            Actions
          </h2>
          <div className="mt-3 flex flex-wrap items-start gap-3">
            {order.nextStatuses.map((to) =>
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
          layout="table"
          label="Order items"
          className="mt-3"
          lines={orderItemLines(order.items, (item) =>
            item.productId ? `/admin/products/${item.productId}` : null,
          )}
        />
        <OrderTotals
          totals={order.totals}
          discountLabel={order.couponCode}
          className="mt-4 ml-auto max-w-xs"
        />
      </section>
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
