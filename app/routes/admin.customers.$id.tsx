import { data, Form, Link } from "react-router";
import { OrderDate } from "../components/account/order-details.tsx";
import { AdminMessage, refusal } from "../components/admin/admin-message.tsx";
import { adminMeta } from "../components/admin/admin-meta.ts";
import { ConfirmAction } from "../components/admin/confirm-action.tsx";
import { OrderLineItem } from "../components/admin/order-line-item.tsx";
import { useMoney } from "../components/shop-settings.ts";
import { servicesFrom } from "../context.ts";
import {
  customerActionSchema,
  getCustomer,
  setCustomerDisabled,
} from "../domain/accounts/customers.server.ts";
import { groupsOfCustomer } from "../domain/customer-groups/customer-groups.server.ts";
import { SOURCE_LABELS } from "../domain/customer-groups/group-form.ts";
import { parseForm } from "../http/form.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { redirectWithToast } from "../http/toast.server.ts";
import { CONFIRM_VALUE } from "../lib/confirm.ts";
import type { Route } from "./+types/admin.customers.$id";

export const meta: Route.MetaFunction = ({ matches, params }) =>
  adminMeta(matches, "Customer", `/admin/customers/${params.id}`);

const ID = /^[A-Za-z0-9_-]{1,100}$/;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "customers");
  const customer = ID.test(params.id) ? await getCustomer(servicesFrom(context).db, params.id) : null;
  if (!customer) throw data(null, { status: 404 });
  const groups = await groupsOfCustomer(servicesFrom(context).db, customer.id);
  return {
    customer,
    groups: groups.map((group) => ({ id: group.id, name: group.name, source: SOURCE_LABELS[group.source] })),
  };
}

/** Disable (asks first: the customer is signed out everywhere and cannot sign in) or enable. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const staff = await requirePermission(request, context, "customers");
  const submission = await parseForm(request, customerActionSchema);
  const refuse = (message: string, status: number) =>
    data({ result: submission.reply({ formErrors: [message] }) }, { status });
  if (submission.status !== "success" || !ID.test(params.id)) return refuse("Unknown customer action.", 400);
  const { intent, confirm } = submission.value;
  if (intent === "disable" && confirm !== CONFIRM_VALUE) {
    return refuse("The account was not disabled: confirm with “Yes, disable” to disable it.", 400);
  }
  const outcome = await setCustomerDisabled(servicesFrom(context).db, {
    userId: params.id,
    disabled: intent === "disable",
    actor: { id: staff.id, email: staff.email },
  });
  if (!outcome.ok) throw data(null, { status: 404 });
  return redirectWithToast(`/admin/customers/${params.id}`, {
    type: "success",
    message: `${outcome.value.email}: account ${intent === "disable" ? "disabled" : "enabled"}`,
  });
}

export default function AdminCustomer({ loaderData, actionData }: Route.ComponentProps) {
  const money = useMoney();
  const { customer, groups } = loaderData;
  return (
    <div className="space-y-6">
      <p>
        <Link to="/admin/customers" className="font-semibold text-brand-700 hover:underline">
          ← Back to customers
        </Link>
      </p>
      <h1 className="min-w-0 text-3xl font-bold break-all">{customer.email}</h1>
      <AdminMessage feedback={refusal(actionData?.result)} />
      <dl className="grid grid-cols-1 gap-4 text-sm break-words sm:grid-cols-4">
        <div>
          <dt className="font-semibold">Name</dt>
          <dd>{customer.name}</dd>
        </div>
        <div>
          <dt className="font-semibold">Customer since</dt>
          <dd>
            <OrderDate iso={customer.createdAt} />
          </dd>
        </div>
        <div>
          <dt className="font-semibold">Orders</dt>
          <dd>{customer.orderCount}</dd>
        </div>
        <div>
          <dt className="font-semibold">Total spent</dt>
          <dd>{money(customer.spentCents)}</dd>
        </div>
      </dl>
      <section aria-labelledby="account-heading" className="rounded-lg border border-gray-200 p-4">
        <h2 id="account-heading" className="text-xl font-bold">
          Account
        </h2>
        <p className="mt-1">
          {customer.disabled
            ? "Disabled: this customer cannot sign in."
            : "Active: this customer can sign in and shop with the account."}
        </p>
        <div className="mt-3">
          {customer.disabled ? (
            <Form method="post">
              <input type="hidden" name="intent" value="enable" />
              <button
                type="submit"
                className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
              >
                Enable account
              </button>
            </Form>
          ) : (
            <ConfirmAction
              label="Disable account"
              question={`Disable ${customer.email}? They are signed out everywhere and cannot sign in until the account is enabled again. Their orders stay as they are.`}
              confirmLabel="Yes, disable"
              keepLabel="Keep it active"
              keepTo={`/admin/customers/${customer.id}`}
              fields={{ intent: "disable" }}
            />
          )}
        </div>
      </section>
      <section aria-labelledby="customer-groups-heading">
        <h2 id="customer-groups-heading" className="text-xl font-bold">
          Customer groups
        </h2>
        {groups.length === 0 ? (
          <p className="mt-2 text-gray-700">In no customer group.</p>
        ) : (
          <ul className="mt-2 space-y-1 text-sm break-words">
            {groups.map((group) => (
              <li key={group.id}>
                <Link to={`/admin/customer-groups/${group.id}`} className="text-brand-700 underline">
                  {group.name}
                </Link>{" "}
                · {group.source}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="customer-orders-heading">
        <h2 id="customer-orders-heading" className="text-xl font-bold">
          Orders
        </h2>
        {customer.orders.length === 0 ? (
          <p className="mt-2 text-gray-700">No orders yet.</p>
        ) : (
          <ul className="mt-2 space-y-1 text-sm">
            {customer.orders.map((order) => (
              <OrderLineItem key={order.number} order={order} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="customer-addresses-heading">
        <h2 id="customer-addresses-heading" className="text-xl font-bold">
          Addresses
        </h2>
        {customer.addresses.length === 0 ? (
          <p className="mt-2 text-gray-700">No saved addresses.</p>
        ) : (
          <ul className="mt-2 space-y-1 text-sm break-words">
            {customer.addresses.map((address, index) => (
              <li key={index}>
                {address.name}, {address.lines}
                {address.isDefault && " (default)"}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="customer-reviews-heading">
        <h2 id="customer-reviews-heading" className="text-xl font-bold">
          Reviews
        </h2>
        {customer.reviews.length === 0 ? (
          <p className="mt-2 text-gray-700">No reviews.</p>
        ) : (
          <ul className="mt-2 space-y-1 text-sm break-words">
            {customer.reviews.map((review) => (
              <li key={review.id}>
                {review.rating}/5 “{review.title}” on{" "}
                <Link to={`/admin/products/${review.productId}`} className="text-brand-700 underline">
                  {review.productName}
                </Link>{" "}
                · <OrderDate iso={review.createdAt} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
