import { Link } from "react-router";
import { servicesFrom } from "../context.ts";
import { findDefaultAddress, listUserOrders } from "../domain/accounts/account-overview.server.ts";
import { ORDER_STATUS_LABELS } from "../domain/orders/order-status.ts";
import { requireUser } from "../http/session.server.ts";
import { countryName } from "../lib/countries.ts";
import { currencyOf, formatMoney } from "../lib/money.ts";
import type { Route } from "./+types/account._index";

export async function loader({ request, context }: Route.LoaderArgs) {
  // Signed out, the parent shows the sign-in form: nothing to load here.
  const user = await requireUser(request, context).catch(() => null);
  if (!user) return { overview: null };
  const { db } = servicesFrom(context);
  const [orders, address] = await Promise.all([
    listUserOrders(db, user.id, 3),
    findDefaultAddress(db, user.id),
  ]);
  return { overview: { name: user.displayName, email: user.email, orders, address } };
}

export default function AccountOverview({ loaderData }: Route.ComponentProps) {
  const { overview } = loaderData;
  if (!overview) return null;
  return (
    <div className="space-y-6">
      <section aria-labelledby="overview-heading" className="rounded-xl border border-gray-200 p-6">
        <h2 id="overview-heading" className="text-xl font-bold">
          Account Overview
        </h2>
        <dl className="mt-4 grid grid-cols-1 gap-4 text-sm sm:grid-cols-2">
          <div>
            <dt className="font-semibold">Name</dt>
            <dd>{overview.name}</dd>
          </div>
          <div>
            <dt className="font-semibold">Email</dt>
            <dd>{overview.email}</dd>
          </div>
        </dl>
        <Link
          to="/account/edit-profile"
          className="mt-4 inline-block font-semibold text-brand-700 hover:underline"
        >
          Edit profile
        </Link>
      </section>

      <section aria-labelledby="recent-orders-heading" className="rounded-xl border border-gray-200 p-6">
        <h2 id="recent-orders-heading" className="text-xl font-bold">
          Recent Orders
        </h2>
        {overview.orders.length === 0 ? (
          <p className="mt-3 text-gray-700">
            You haven&apos;t placed any orders yet.{" "}
            <Link to="/products" className="font-semibold text-brand-700 hover:underline">
              Start shopping
            </Link>
          </p>
        ) : (
          <ul className="mt-3 divide-y divide-gray-200 text-sm">
            {overview.orders.map((order) => (
              <li key={order.number} className="flex flex-wrap justify-between gap-2 py-2">
                <Link
                  to={`/account/orders/${order.number}`}
                  className="font-semibold text-brand-700 hover:underline"
                >
                  {order.number}
                </Link>
                <span>{ORDER_STATUS_LABELS[order.status]}</span>
                <span>{formatMoney(order.totalCents, currencyOf(order.currency))}</span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="default-address-heading" className="rounded-xl border border-gray-200 p-6">
        <h2 id="default-address-heading" className="text-xl font-bold">
          Default Address
        </h2>
        {overview.address ? (
          <address className="mt-3 text-sm not-italic">
            {overview.address.firstName} {overview.address.lastName}
            <br />
            {overview.address.address}
            <br />
            {overview.address.city}, {overview.address.state} {overview.address.zipCode}
            <br />
            {countryName(overview.address.country)}
          </address>
        ) : (
          <p className="mt-3 text-gray-700">
            No saved address yet.{" "}
            <Link to="/account/addresses" className="font-semibold text-brand-700 hover:underline">
              Add one
            </Link>
          </p>
        )}
      </section>
    </div>
  );
}
