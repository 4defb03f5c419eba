import { randomUUID } from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import { data, Form, Link } from "react-router";
import { z } from "zod";
import { OrderDate } from "../components/account/order-details.tsx";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { ConfirmAction } from "../components/admin/confirm-action.tsx";
import { RefundForm } from "../components/admin/refund-form.tsx";
import { FormField } from "../components/checkout/form-field.tsx";
import { OrderDocuments } from "../components/invoice/document-links.tsx";
import { OrderLines, OrderTotals, orderItemLines } from "../components/order/order-lines.tsx";
import { TrackingDetails } from "../components/order/tracking-details.tsx";
import { useMoney } from "../components/shop-settings.ts";
import { mailShopFrom, servicesFrom } from "../context.ts";
import { listOrderDocuments } from "../domain/invoices/documents.server.ts";
import {
  advanceOrder,
  getAdminOrder,
  ORDER_ADMIN_MESSAGES,
  orderActionSchema,
} from "../domain/orders/order-admin.server.ts";
import { ORDER_STATUS_LABELS, type OrderStatus } from "../domain/orders/order-status.ts";
import { refundOrder, refundRefusalMessage } from "../domain/payments/refunds.server.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { CARRIERS } from "../lib/carriers.ts";
import { CONFIRM_VALUE } from "../lib/confirm.ts";
import { lineQuantitiesSchema } from "../lib/line-quantities.ts";
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
  const documents = await listOrderDocuments(servicesFrom(context).db, order.number);
  return { order, documents, refundKey: randomUUID(), canRefund: can(staff.role, "refunds") };
}

const ACTION_LABELS: Partial<Record<OrderStatus, string>> = {
  shipped: "Mark as shipped",
  delivered: "Mark as delivered",
  cancelled: "Cancel order (refund and restore stock)",
};

/**
 * The order page's forms, told apart by `intent`: a status move (ship, deliver, cancel) or a
 * refund (components/admin/refund-form.tsx: quantities per line as `qty.<item id>`). Who may do
 * what is decided by the domain command on the parsed move (advanceOrder, refundOrder), never on
 * a raw field.
 */
const actionSchema = z.discriminatedUnion("intent", [
  orderActionSchema.extend({ intent: z.literal("move") }),
  z.object({
    intent: z.literal("refund"),
    key: z.uuid(),
    qty: lineQuantitiesSchema,
    amount: z
      .string()
      .trim()
      .regex(/^\d{1,7}(\.\d{1,2})?$/, "Enter an amount such as 12.50.")
      .optional(),
    restock: z.literal("on").optional(),
    storeCredit: z.literal("on").optional(),
    reason: z.string().trim().max(200).optional(),
  }),
]);

export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = await requirePermission(request, context, "orders");
  const submission = await parseForm(request, actionSchema);
  const refuse = (message: string, status: number) =>
    data({ result: submission.reply({ formErrors: [message] }) }, { status });
  if (submission.status !== "success" || !NUMBER.test(params.number)) {
    const error = submission.status === "error" ? submission.error : undefined;
    // a tracking number or carrier refused: its message beside the field (the form keeps the rest)
    if (error?.trackingNumber || error?.carrier) return data({ result: submission.reply() }, { status: 400 });
    return refuse(error?.amount?.[0] ?? ORDER_ADMIN_MESSAGES.badRequest, 400);
  }
  const services = servicesFrom(context);
  const actor = { id: staff.id, email: staff.email, role: staff.role };
  const done = (message: string) =>
    redirectWithToast(`/admin/orders/${params.number}`, { type: "success", message });
  const input = submission.value;

  if (input.intent === "refund") {
    const result = await refundOrder(
      { db: services.db, gateway: services.gateway, mail: services.mail, shop: await mailShopFrom(context) },
      {
        number: params.number,
        key: input.key,
        lines: input.qty,
        amountCents: input.amount ? Math.round(Number(input.amount) * 100) : null,
        restock: input.restock === "on",
        toStoreCredit: input.storeCredit === "on",
        reason: input.reason ?? "",
        actor,
      },
    );
    if (result.ok) {
      const { amountCents, currency } = result.value;
      return done(`Order ${params.number}: ${formatMoney(amountCents, currency)} refunded`);
    }
    const error = result.error;
    if (error.code === "forbidden") throw data("Your role does not allow this.", { status: 403 });
    if (error.code === "not-found") throw data(null, { status: 404 });
    const status = { "not-refundable": 409, gateway: 502, pending: 202 } as Record<string, number>;
    return refuse(refundRefusalMessage(error), status[error.code] ?? 400);
  }

  const { to, carrier, trackingNumber } = input;
  const result = await advanceOrder(
    { db: services.db, gateway: services.gateway, mail: services.mail, shop: await mailShopFrom(context) },
    {
      number: params.number,
      to,
      actor,
      shipment: to === "shipped" ? { carrier, trackingNumber } : undefined,
      // cancelling restores stock and cannot be undone: only from the confirm step
      confirmed: input.confirm === CONFIRM_VALUE,
    },
  );
  if (result.ok) return done(ORDER_ADMIN_MESSAGES.changed(params.number, to));
  switch (result.error.code) {
    case "forbidden":
      throw data("Your role does not allow this.", { status: 403 });
    case "not-found":
      throw data(null, { status: 404 });
    case "unconfirmed":
      return refuse(ORDER_ADMIN_MESSAGES.cancelUnconfirmed, 400);
    case "refund-failed":
      return refuse(ORDER_ADMIN_MESSAGES.refundFailed(result.error.message), 502);
    case "refund-pending":
      return refuse(ORDER_ADMIN_MESSAGES.refundPending, 202);
    case "not-allowed":
      return refuse(ORDER_ADMIN_MESSAGES.notAllowed(result.error.from, to), 409);
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
            {order.shippingMethodName}, estimated {order.estimatedDelivery}
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
      <OrderDocuments
        documents={loaderData.documents}
        hrefOf={(number) => `/admin/orders/invoices/${number}`}
      />
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
                  fields={{ intent: "move", to }}
                />
              ) : to === "shipped" ? (
                <ShipForm key={to} result={actionData?.result} />
              ) : (
                <Form method="post" key={to}>
                  <input type="hidden" name="intent" value="move" />
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
        {order.giftCardCents > 0 && (
          <p className="mt-2 ml-auto max-w-xs text-right text-sm" data-testid="order-gift-card-part">
            Paid by gift card or store credit: {money(order.giftCardCents)}; by card:{" "}
            {money(order.totals.totalCents - order.giftCardCents)}
          </p>
        )}
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
                {r.status === "pending" ? " — waiting for the payment provider" : ""}
                {r.status === "failed" ? ` — failed${r.failure ? `: ${r.failure}` : ""}` : ""}
                {r.restocked && r.status === "succeeded" ? " (stock restored)" : ""}
                {r.toStoreCredit
                  ? " (as store credit)"
                  : r.giftCardCents > 0
                    ? ` (${money(r.giftCardCents)} back to the gift card)`
                    : ""}
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
      <input type="hidden" name="intent" value="move" />
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
