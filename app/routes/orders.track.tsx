import { useForm } from "@conform-to/react";
import { PackageSearch } from "lucide-react";
import { data, Form, useNavigation } from "react-router";
import { FormField } from "../components/checkout/form-field.tsx";
import { OrderDocuments } from "../components/invoice/document-links.tsx";
import { OrderLines, OrderTotals } from "../components/order/order-lines.tsx";
import { ReturnRequestForm } from "../components/order/return-request-form.tsx";
import { TrackingDetails } from "../components/order/tracking-details.tsx";
import { servicesFrom } from "../context.ts";
import { listOrderDocuments } from "../domain/invoices/documents.server.ts";
import { ORDER_STATUS_LABELS } from "../domain/orders/order-status.ts";
import { findOrderForTracking } from "../domain/orders/orders.server.ts";
import { trackOrderSchema } from "../domain/orders/track-order.server.ts";
import { TRACK_MESSAGES, TRACK_RATE_LIMIT } from "../domain/orders/track-order.ts";
import { returnableOrder } from "../domain/returns/returns.server.ts";
import { parseForm } from "../http/form.server.ts";
import { hitRateLimit } from "../infra/rate-limit.server.ts";
import { formatDeliveryDate } from "../lib/delivery.ts";
import { requestInfoContext } from "../lib/request-context.ts";
import { rootMetaData, seoMeta } from "../lib/seo.ts";
import type { Route } from "./+types/orders.track";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { origin, contact } = rootMetaData(matches);
  return seoMeta({
    title: "Track Your Order",
    description: "Enter your order number and e-mail address to see your order's status.",
    path: "/orders/track",
    origin,
    shopName: contact.name,
  });
};

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseForm(request, trackOrderSchema);
  // the form's one message (both fields are needed) above the fields, the typed values kept
  const refuse = (message: string) => submission.reply({ formErrors: [message] });
  if (submission.status !== "success") {
    const message = TRACK_MESSAGES.missing;
    return data({ status: "invalid" as const, message, result: refuse(message) }, { status: 400 });
  }
  const values = submission.value;
  const { db } = servicesFrom(context);
  const { clientIp } = context.get(requestInfoContext);
  const limited = await hitRateLimit(db, `track:${clientIp}`, TRACK_RATE_LIMIT);
  if (!limited.allowed) {
    const message = TRACK_MESSAGES.tooMany(Math.ceil(limited.retryAfterSeconds / 60));
    return data(
      { status: "limited" as const, message, result: refuse(message) },
      { status: 429, headers: { "Retry-After": String(limited.retryAfterSeconds) } },
    );
  }
  const order = await findOrderForTracking(db, { number: values.orderNumber, email: values.email });
  if (!order) {
    // 200, not 404: a miss is an ordinary answer of this form (and the same for every wrong pair).
    const message = TRACK_MESSAGES.notFound;
    return data({ status: "not-found" as const, message, result: refuse(message) }, { status: 200 });
  }
  const returnable = await returnableOrder(db, order.number);
  const canReturn = returnable.ok && returnable.value.lines.some((line) => line.returnable > 0);
  // its invoice and credit notes: buttons that post the same number and e-mail (/orders/documents)
  const documents = await listOrderDocuments(db, order.number);
  return {
    status: "found" as const,
    result: submission.reply(),
    documents: { list: documents, email: values.email },
    // the e-mail address the shopper typed goes back into the return form, which checks it again
    returns: canReturn
      ? { closesOn: returnable.value.closesOn, lines: returnable.value.lines, email: values.email }
      : null,
    order: {
      number: order.number,
      status: order.status,
      createdAt: order.createdAt,
      estimatedDelivery: order.estimatedDelivery,
      shippingMethodName: order.shippingMethodName,
      shipTo: `${order.shipTo.name}, ${order.shipTo.city}, ${order.shipTo.state}`,
      tracking: order.tracking,
      currency: order.currency,
      totals: order.totals,
      items: order.items.map((item) => ({
        name: item.name,
        variantTitle: item.variantTitle,
        sku: item.sku,
        quantity: item.quantity,
        lineTotalCents: item.lineTotalCents,
      })),
    },
  };
}

export default function TrackOrder({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  // Conform reads the action's SubmissionResult (no validation in the browser: the server answers)
  const [form, fields] = useForm<{ orderNumber: string; email: string }>({
    id: "track-order",
    lastResult: actionData?.result,
  });
  const problem = form.errors?.[0] ?? null;
  const typed = (value: unknown) => (typeof value === "string" ? value : "");
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 md:py-12">
      <h1 className="flex items-center gap-3 text-3xl font-bold">
        <PackageSearch aria-hidden="true" className="size-8 text-brand-700" /> Track Your Order
      </h1>
      <p className="mt-2 text-gray-700">
        Enter the order number from your confirmation e-mail and the e-mail address you used at checkout.
      </p>
      <Form
        method="post"
        action="/orders/track"
        noValidate
        className="mt-6 space-y-5 rounded-xl border border-gray-200 p-6"
      >
        {problem && (
          <p
            role="alert"
            className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm font-medium text-red-800"
          >
            {problem}
          </p>
        )}
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField
            id="track-order-number"
            name="orderNumber"
            label="Order Number"
            required
            type="text"
            autoComplete="off"
            placeholder="CW-XXXXXXXXXX"
            maxLength={40}
            defaultValue={typed(fields.orderNumber.initialValue)}
          />
          <FormField
            id="track-email"
            name="email"
            label="Email"
            required
            type="email"
            autoComplete="email"
            maxLength={254}
            defaultValue={typed(fields.email.initialValue)}
          />
        </div>
        <button
          type="submit"
          disabled={busy}
          className="rounded-lg bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-70"
        >
          {busy ? "Looking up…" : "Track Order"}
        </button>
      </Form>

      {actionData?.status === "found" && <TrackedOrder order={actionData.order} />}
      {actionData?.status === "found" && (
        <OrderDocuments
          documents={actionData.documents.list}
          guest={{ orderNumber: actionData.order.number, email: actionData.documents.email }}
          className="mt-6 rounded-xl border border-gray-200 p-6"
        />
      )}
      {actionData?.status === "found" && actionData.returns && (
        <ReturnRequestForm
          orderNumber={actionData.order.number}
          email={actionData.returns.email}
          back="track"
          closesOn={actionData.returns.closesOn}
          lines={actionData.returns.lines.filter((line) => line.returnable > 0)}
        />
      )}
    </div>
  );
}

function TrackedOrder({
  order,
}: {
  order: Extract<Awaited<ReturnType<typeof action>>, { status: "found" }>["order"];
}) {
  return (
    <section aria-labelledby="tracked-order-heading" className="mt-8 rounded-xl border border-gray-200 p-6">
      <h2 id="tracked-order-heading" className="text-xl font-bold">
        Order {order.number}
      </h2>
      <dl className="mt-4 grid grid-cols-1 gap-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="font-semibold">Status</dt>
          <dd data-testid="order-status">{ORDER_STATUS_LABELS[order.status]}</dd>
        </div>
        <div>
          <dt className="font-semibold">Placed on</dt>
          <dd>{formatDeliveryDate(order.createdAt.slice(0, 10))}</dd>
        </div>
        <div>
          <dt className="font-semibold">Estimated delivery</dt>
          <dd>
            {order.status === "cancelled" ? "—" : formatDeliveryDate(order.estimatedDelivery)} (
            {order.shippingMethodName})
          </dd>
        </div>
        <div>
          <dt className="font-semibold">Shipping to</dt>
          <dd>{order.shipTo}</dd>
        </div>
        <TrackingDetails tracking={order.tracking} />
      </dl>
      <h3 className="mt-6 font-bold">Items</h3>
      <OrderLines
        currency={order.currency}
        layout="summary"
        className="mt-2"
        lines={order.items.map((item) => ({ productId: null, ...item }))}
      />
      <OrderTotals currency={order.currency} totals={order.totals} discountLabel={null} />
    </section>
  );
}
